/**
 * Queries over time beyond the memory budget: filtering and forecasts answered by the particle
 * filter (`{ samples, seed }`, a standard error, a warning that the answer is approximate), within
 * 4 standard errors of the exact answer at a budget that holds the tree; smoothing and the most
 * likely sequence an error on the query.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DynamicTrees, forwardBackward } from '../../../server/src/engine/dynamic/forwardBackward.js';
import type { TwoSliceNetwork } from '../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { DEFAULT_BUDGETS } from '../../../server/src/engine/budget.js';
import { createRng } from '../../../server/src/engine/random.js';
import { runText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import type { ProbabilityResult, RunResult } from '../../../server/src/protocol/runResult.js';
import { randomTwoSlice, sampleFindings, twoSliceText } from '../../support/dynamicNetworks.js';
import { repoRoot, sharedData } from '../../support/shared.js';
import { errors, first } from './helpers.js';

const dbn: TwoSliceNetwork = { ...randomTwoSlice(41, 6, 2, 2), name: 'Random' };
const findings = sampleFindings(createRng(3), dbn, 4, [4, 5]);
const rows = findings.map((f) => [4, 5].map((v) => dbn.variables[v]!.states[f.evidence.get(v)!]).join(', '));
const model = `${twoSliceText(dbn)}\ndata Obs {\n  V4, V5\n${rows.map((r) => `  ${r}\n`).join('')}}\n`;
const modelLines = model.split('\n').length - 1;
/** Just under the 1.5-slice tree's entries: the tree is refused, the template's tables fit. */
const small = new DynamicTrees(dbn).step.totalSize - 1;
const state0 = dbn.variables[0]!.states[0]!;

function runAt(query: string, maxTotalEntries: number): Promise<RunResult> {
  const documentPath = join(repoRoot, 'examples', 'inline.bayes');
  const env = nodeEnvironment({ documentPath, workspaceRoot: repoRoot, dataRoots: [sharedData] });
  env.budgets = { ...DEFAULT_BUDGETS, maxTotalEntries };
  return runText(`${model}${query}\n`, documentPath, env);
}

async function answer(query: string, budget = small): Promise<{ r: ProbabilityResult; run: RunResult }> {
  const run = await runAt(query, budget);
  return { r: first(run, 'probability'), run };
}

test('filtering over the budget: the particle filter, within 4 standard errors of exact, labelled approximate', async () => {
  const query = `query P(V0[3] = ${state0}) in Random using filtering { samples: 20000, seed: 3 } given Obs`;
  const { r, run } = await answer(query);
  const exact = forwardBackward(dbn, findings.slice(0, 3), {}).filtered[2]![0]!;
  const { r: atLarge } = await answer(query, DEFAULT_BUDGETS.maxTotalEntries);
  assert.equal(atLarge.method, 'exact');
  assert.ok(Math.abs(atLarge.value! - exact[0]!) < 1e-12);
  assert.equal(r.method, 'particle');
  assert.deepEqual([r.samples, r.seed], [20000, 3]);
  r.table.forEach((row, s) => {
    assert.ok(row.stderr! > 0 && row.stderr! < 0.02, `a standard error ${row.stderr}`);
    assert.ok(Math.abs(row.p - exact[s]!) <= 4 * row.stderr!, `${row.p} ± ${row.stderr} vs exact ${exact[s]}`);
  });
  assert.match(r.headline, / = 0\.\d+ ± 0\.\d+ \(filtered: steps 1…3; particle filter, 20000 particles, seed 3;/);
  const warnings = run.diagnostics.filter((d) => d.severity === 'warning');
  assert.equal(warnings.length, 1);
  assert.equal(warnings[0]!.range.start.line, modelLines);
  assert.match(
    warnings[0]!.message,
    /^approximate: the junction tree needs [\d,]+ clique entries, over the budget of [\d,]+: filtered by a particle filter \(20000 particles, seed 3\)/,
  );
  // The same seed, the same answer; another seed, another.
  assert.deepEqual((await answer(query)).r.table, r.table);
  assert.notDeepEqual((await answer(query.replace('seed: 3', 'seed: 4'))).r.table, r.table);
});

test('a forecast over the budget is the particle filter’s too; its default seed is 1', async () => {
  const { r } = await answer(`query P(V0[6] = ${state0}) in Random given Obs`);
  const exact = forwardBackward(dbn, findings, { predict: 2 }).predicted![1]![0]!;
  assert.equal(r.method, 'particle');
  assert.equal(r.seed, 1);
  r.table.forEach((row, s) => assert.ok(Math.abs(row.p - exact[s]!) <= 4 * row.stderr!, `${row.p} vs ${exact[s]}`));
});

test('smoothing and the most likely sequence over the budget are errors on the query, saying what can answer', async () => {
  const smoothing = await runAt(`query P(V0[2] = ${state0}) in Random given Obs`, small);
  assert.deepEqual(
    errors(smoothing).map((e) => [e.line, e.code]),
    [[modelLines, 'compile-error']],
  );
  assert.match(
    errors(smoothing)[0]!.message,
    /^smoothing \(exact only\): the junction tree needs [\d,]+ clique entries, over the budget of [\d,]+; `using filtering` answers/,
  );
  const mpe = await runAt('query mpe Random given Obs', small);
  assert.deepEqual(
    errors(mpe).map((e) => e.line),
    [modelLines],
  );
  assert.match(errors(mpe)[0]!.message, /^the most likely sequence \(exact only\): .*over the budget/);
});

test('the particle filter’s options: samples and seed, whole numbers; another name is a warning on it', async () => {
  const bad = await runAt(`query P(V0[3] = ${state0}) in Random using filtering { samples: 5 } given Obs`, small);
  assert.match(errors(bad)[0]!.message, /^samples is a whole number ≥ 200$/);
  const unknown = await runAt(
    `query P(V0[3] = ${state0}) in Random using filtering { particles: 500 } given Obs`,
    small,
  );
  const warning = unknown.diagnostics.find((d) => d.code === 'unknown-option');
  assert.equal(warning?.range.start.line, modelLines);
  assert.equal(warning?.message, "filtering has no option 'particles' (options: samples, seed)");
});
