import { test } from 'node:test';
import assert from 'node:assert/strict';
import { learnCpts, pseudoCount, statePseudoCounts } from '../../../../server/src/engine/estimators/cptLearning.js';
import { forwardSample, hideAtRandom } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../../server/src/engine/categoricalData.js';
import { networkDataset } from '../../../../server/src/engine/dataset.js';
import { NO_SHARED } from '../../../support/shared.js';
import { loadBif } from '../../../support/networks.js';

// Rain → WetGrass; rows as (Rain, WetGrass) state indices, -1 missing.
const net: BayesianNetwork = {
  name: 'tiny',
  variables: [
    { name: 'Rain', states: ['yes', 'no'] },
    { name: 'Wet', states: ['yes', 'no', 'muddy'] },
  ],
  cpts: [
    { child: 0, parents: [], table: new Float64Array(2).fill(NaN) },
    { child: 1, parents: [0], table: new Float64Array(6).fill(NaN) },
  ],
};
function data(rows: Array<[number, number]>): CategoricalDataset {
  return {
    ...networkDataset(net.variables, [], rows.length),
    columns: [Int32Array.from(rows.map((r) => r[0])), Int32Array.from(rows.map((r) => r[1]))],
  };
}
const d = data([
  [0, 0],
  [0, 0],
  [0, 2],
  [1, 1],
  [1, 1],
  [1, 0],
  [1, -1],
  [-1, 0],
]);

test('maximum likelihood counts skip rows where the family is not fully observed', () => {
  const l = learnCpts(net, d);
  assert.deepEqual([...l.cpts[0]!.table], [3 / 7, 4 / 7]);
  assert.deepEqual([...l.cpts[1]!.table], [2 / 3, 0, 1 / 3, 1 / 3, 2 / 3, 0]);
});

test('m-estimate is Mitchell eq 6.22: (n_c + m p) / (n + m) with uniform p', () => {
  const l = learnCpts(net, d, { kind: 'mEstimate', m: 3 });
  // Rain = yes row of Wet: n = 3, p = 1/3 → (2 + 1)/(3 + 3), (0 + 1)/6, (1 + 1)/6
  const row = [...l.cpts[1]!.table.subarray(0, 3)];
  [3 / 6, 1 / 6, 2 / 6].forEach((p, i) => assert.ok(Math.abs(row[i]! - p) < 1e-15));
});

test('Laplace (Dirichlet α = 1) and BDeu spread pseudo-counts per cell and per table', () => {
  const lap = learnCpts(net, d, { kind: 'dirichlet', alpha: 1 });
  assert.ok(Math.abs(lap.cpts[0]!.table[0]! - 4 / 9) < 1e-15);
  assert.equal(pseudoCount({ kind: 'bdeu', ess: 12 }, 2, 3), 2);
  const bdeu = learnCpts(net, d, { kind: 'bdeu', ess: 12 });
  // Rain = no row of Wet: counts (1, 2, 0) + 2 each → (3, 4, 2) / 9
  assert.deepEqual(
    [...bdeu.cpts[1]!.table.subarray(3)].map((p) => +p.toFixed(12)),
    [3 / 9, 4 / 9, 2 / 9].map((p) => +p.toFixed(12)),
  );
});

test('a prior with a negative or zero size is an engine error', () => {
  assert.throws(() => learnCpts(net, d, { kind: 'dirichlet', alpha: -1 }), /pseudo-count must be ≥ 0/);
  assert.throws(() => learnCpts(net, d, { kind: 'bdeu', ess: 0 }), /equivalent sample size must be positive/);
  assert.throws(() => learnCpts(net, d, { kind: 'mEstimate', m: 0 }), /m must be positive/);
});

test('a parent configuration never seen (and no prior) gets a uniform row, not NaN', () => {
  const l = learnCpts(
    net,
    data([
      [0, 0],
      [0, 1],
    ]),
  );
  assert.deepEqual([...l.cpts[1]!.table.subarray(3)], [1 / 3, 1 / 3, 1 / 3]);
});

test('forward sampling is seeded and counting recovers alarm CPT rows with enough support', (t) => {
  const a = loadBif('alarm');
  if (!a) return t.skip(NO_SHARED);
  const s1 = forwardSample(a, 20000, createRng(7));
  const s2 = forwardSample(a, 20000, createRng(7));
  assert.deepEqual(s1.columns[5], s2.columns[5]);
  assert.notDeepEqual(s1.columns[5], forwardSample(a, 20000, createRng(8)).columns[5]);
  const l = learnCpts(a, s1);
  // Root marginals are estimated from 20,000 draws: standard error ≤ 0.0036.
  for (const cpt of a.cpts.filter((c) => c.parents.length === 0)) {
    for (let x = 0; x < cpt.table.length; x++)
      assert.ok(Math.abs(l.cpts[cpt.child]!.table[x]! - cpt.table[x]!) < 0.015);
  }
  const hidden = hideAtRandom(s1, 0.2, createRng(1));
  let missing = 0;
  for (const c of hidden.columns) for (const v of c) if (v < 0) missing++;
  assert.ok(Math.abs(missing / (37 * 20000) - 0.2) < 0.005);
});

test('per-table priors: each table its own pseudo-counts per state, added to every row', async () => {
  const { networkEm } = await import('../../../../server/src/engine/estimators/networkEm.js');
  const prior = { kind: 'perTable', pseudoCounts: [undefined, [1, 2, 3]] } as const;
  const l = learnCpts(net, d, prior);
  // Rain has no prior: 3/7 as by plain counting. Wet | Rain = no: counts (1, 2, 0) + (1, 2, 3) → (2, 4, 3) / 9.
  assert.deepEqual([...l.cpts[0]!.table], [3 / 7, 4 / 7]);
  [2 / 9, 4 / 9, 3 / 9].forEach((p, i) => assert.ok(Math.abs(l.cpts[1]!.table[3 + i]! - p) < 1e-15));
  assert.deepEqual(statePseudoCounts({ kind: 'dirichlet', alpha: 2 }, net, 1), [2, 2, 2]);
  // EM climbs log-likelihood + log prior with the same per-table pseudo-counts (checkMonotone throws if it falls).
  const em = networkEm(net, d, { prior, seed: 1, maxIterations: 500, tolerance: 1e-14, checkMonotone: true });
  assert.ok(em.converged);
  assert.throws(
    () => learnCpts(net, d, { kind: 'perTable', pseudoCounts: [[1], undefined] }),
    /needs 2 non-negative pseudo-counts/,
  );
});
