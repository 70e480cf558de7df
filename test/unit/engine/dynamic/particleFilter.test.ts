import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { particleFilter } from '../../../../server/src/engine/dynamic/particleFilter.js';
import { filterSequence } from '../../../../server/src/engine/dynamic/filtering.js';
import { DynamicTrees } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import type { StepFindings } from '../../../../server/src/engine/dynamic/sliceTree.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { randomTwoSlice, sampleFindings } from '../../../support/dynamicNetworks.js';

/** A 5-variable slice, 8 steps, two variables observed, a virtual finding at step 3 and a soft one at step 5. */
function fixture() {
  const dbn = randomTwoSlice(21, 5, 2, 2);
  const rng = createRng(4);
  const findings: StepFindings[] = sampleFindings(rng, dbn, 8, [3, 4]);
  findings[2] = {
    ...findings[2]!,
    likelihoods: new Map([[1, [0.9, 0.3, 0.5].slice(0, dbn.variables[1]!.states.length)]]),
  };
  const k0 = dbn.variables[0]!.states.length;
  findings[4] = { ...findings[4]!, soft: new Map([[0, k0 === 2 ? [0.25, 0.75] : [0.2, 0.3, 0.5]]]) };
  return { dbn, findings };
}

test('the particle filter is within 4 standard errors of exact filtering, and its forecasts of exact prediction', () => {
  const { dbn, findings } = fixture();
  const exact = forwardBackward(dbn, findings, { predict: 2 });
  const r = particleFilter(dbn, findings, { particles: 20_000, seed: 7, predict: 2 });
  let compared = 0;
  const within = (est: Float64Array[][], se: Float64Array[][], truth: Float64Array[][], what: string) =>
    truth.forEach((slice, t) =>
      slice.forEach((p, v) =>
        p.forEach((x, s) => {
          const e = est[t]![v]![s]!;
          const sd = se[t]![v]![s]!;
          assert.ok(Math.abs(e - x) <= 4 * sd + 1e-12, `${what} t=${t + 1} V${v} s${s}: ${e} ± ${sd} vs exact ${x}`);
          if (x > 0.01 && x < 0.99) {
            assert.ok(sd > 0 && sd < 0.02, `${what}: a standard error ${sd} for p = ${x}`);
            compared++;
          }
        }),
      ),
    );
  within(r.filtered, r.filteredErrors, exact.filtered, 'filtered');
  within(r.predicted!, r.predictedErrors!, exact.predicted!, 'predicted');
  assert.ok(compared > 30, `${compared} uncertain probabilities compared`);
  // The soft finding holds up to the particles' own estimate: the belief at step 5 is q.
  assert.ok(Math.abs(r.filtered[4]![0]![0]! - findings[4]!.soft!.get(0)![0]!) < 1e-9);
  // log P(e_1..T): the mean of the filters' estimates, close to the exact value.
  assert.ok(Math.abs(r.logLikelihood - exact.logLikelihood) < 0.05, `${r.logLikelihood} vs ${exact.logLikelihood}`);
});

test('the particle filter is deterministic for a seed, and another seed gives other numbers', () => {
  const { dbn, findings } = fixture();
  const a = particleFilter(dbn, findings, { particles: 2000, seed: 3 });
  const b = particleFilter(dbn, findings, { particles: 2000, seed: 3 });
  const c = particleFilter(dbn, findings, { particles: 2000, seed: 4 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.filtered, c.filtered);
});

test('over a tiny budget filtering falls back to the particle filter; messages over it keep exact filtering', () => {
  const { dbn, findings } = fixture();
  const treeSize = new DynamicTrees(dbn).step.totalSize;
  const particle = filterSequence(dbn, findings, { smooth: true, maxEntries: treeSize - 1, particles: 4000, seed: 2 });
  assert.equal(particle.method, 'particle');
  assert.match(particle.note, /junction tree needs .* over the budget .* particle filter \(4000 particles, seed 2\)/);
  const exact = forwardBackward(dbn, findings, {});
  if (particle.method === 'particle')
    particle.filtered.forEach((slice, t) =>
      slice.forEach((p, v) =>
        p.forEach((x, s) =>
          assert.ok(Math.abs(x - exact.filtered[t]![v]![s]!) <= 4 * particle.filteredErrors[t]![v]![s]! + 1e-12),
        ),
      ),
    );
  // The tree fits but not one message per step (30 steps): exact filtering, no smoothing, a note.
  const trees = new DynamicTrees(dbn);
  const long = sampleFindings(createRng(5), dbn, 30, [3, 4]);
  const budget = Math.max(trees.step.totalSize, trees.first.totalSize);
  assert.ok(budget < trees.step.ifaceSize * 31);
  const r = filterSequence(dbn, long, { smooth: true, maxEntries: budget });
  assert.equal(r.method, 'exact');
  assert.match(r.note!, /smoothing 30 steps stores .* exact filtering only/);
  if (r.method === 'exact') {
    assert.equal(r.smoothed, undefined);
    assert.deepEqual(r.filtered, forwardBackward(dbn, long, {}).filtered);
  }
  const full = filterSequence(dbn, findings, { smooth: true });
  assert.equal(full.method, 'exact');
  assert.equal(full.note, undefined);
});
