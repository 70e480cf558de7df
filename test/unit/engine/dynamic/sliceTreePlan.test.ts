import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DynamicTrees, forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../../server/src/engine/dynamic/viterbi.js';
import { filterSequence } from '../../../../server/src/engine/dynamic/filtering.js';
import { planSliceTree } from '../../../../server/src/engine/dynamic/sliceTree.js';
import { forwardInterface } from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { BudgetError } from '../../../../server/src/engine/budget.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { randomTwoSlice, sampleFindings } from '../../../support/dynamicNetworks.js';

test('the plan of a 1.5-slice tree counts exactly the entries its compiled tree allocates', () => {
  for (const [seed, n] of [
    [1, 3],
    [2, 8],
    [3, 12],
  ] as const) {
    const dbn = randomTwoSlice(seed, n, 2, 2);
    const trees = new DynamicTrees(dbn);
    assert.equal(planSliceTree(dbn, Infinity, true).entries, trees.first.totalSize, `${n} variables, slice 0`);
    assert.equal(planSliceTree(dbn, Infinity).entries, trees.step.totalSize, `${n} variables, 1.5 slices`);
  }
});

test('a template hugely over the budget is refused from its triangulation, before any table', () => {
  // 40 variables, all in the interface: the α and β tables alone would hold 2^40 or more entries,
  // past the largest array JavaScript can allocate. Compiling first would end in a RangeError,
  // so a BudgetError carrying the plan's count shows the refusal came from the estimate.
  const dbn = randomTwoSlice(3, 40, 3, 3);
  assert.equal(forwardInterface(dbn).length, 40);
  let planned: BudgetError | undefined;
  try {
    planSliceTree(dbn, 1 << 26);
  } catch (e) {
    planned = e as BudgetError;
  }
  assert.ok(planned instanceof BudgetError, 'the plan refuses the template');
  assert.match(
    planned.message,
    /^the junction tree needs [\d.]+ × 10\^\d+ clique entries, over the budget of 67,108,864$/,
  );
  assert.throws(
    () => new DynamicTrees(dbn, 1 << 26),
    (e: unknown) => e instanceof BudgetError && e.message === planned!.message,
  );
  // Filtering falls back to the particle filter on the same plan's refusal.
  const findings = sampleFindings(createRng(1), dbn, 5, [0, 7, 39]);
  const r = filterSequence(dbn, findings, { smooth: true, maxEntries: 1 << 26, particles: 500, seed: 4 });
  assert.equal(r.method, 'particle');
  assert.ok(r.note.startsWith(planned.message), r.note);
  assert.equal(r.filtered.length, 5);
  // Smoothing and the most likely sequence need the exact trees: refused the same way, not crashed.
  assert.throws(() => forwardBackward(dbn, findings, { smooth: true, maxEntries: 1 << 26 }), BudgetError);
  assert.throws(() => mostLikelySequence(dbn, findings, undefined, 1 << 26), BudgetError);
  for (const slice of r.filtered)
    for (const p of slice)
      assert.ok(Math.abs(p.reduce((a, b) => a + b, 0) - 1) < 1e-9, 'each estimate is a distribution');
});
