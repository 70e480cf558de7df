import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BatchPredictor, mostProbable } from '../../../../server/src/engine/inference/batchPrediction.js';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { forwardSample, hideAtRandom } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { readBif } from '../../../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { enumerate, maxAbsDiff, randomNetwork } from '../../../support/networks.js';
import { repoRoot } from '../../../support/shared.js';

/** Rows of evidence (every variable but the target, −1 hidden) from forward samples with cells hidden. */
function sampledRows(net: BayesianNetwork, target: number, n: number, hidden: number, seed: number) {
  const rng = createRng(seed);
  const data = hideAtRandom(forwardSample(net, n, rng), hidden, rng);
  const variables = net.variables.map((_, v) => v).filter((v) => v !== target);
  const rows = Array.from({ length: n }, (_, r) => Int32Array.from(variables, (v) => data.columns[v]![r]!));
  return { variables, rows };
}

test('predictions equal brute-force enumeration row by row (random networks, 1e-12)', () => {
  for (const seed of [1, 2, 3]) {
    const net = randomNetwork(seed, 7, 3);
    const target = seed % 7;
    const { variables, rows } = sampledRows(net, target, 150, 0.4, seed);
    const predictor = new BatchPredictor(net, target, variables);
    for (const row of rows) {
      const evidence = new Map<number, number>();
      row.forEach((s, c) => s >= 0 && evidence.set(variables[c]!, s));
      const exact = enumerate(net, evidence);
      const got = predictor.predict(row);
      assert.ok(got.probabilities, 'sampled evidence is possible');
      assert.ok(maxAbsDiff(got.probabilities, exact.marginals[target]!) < 1e-12, `seed ${seed}`);
      assert.ok(Math.abs(got.logLikelihood - Math.log(exact.pEvidence)) < 1e-12);
      assert.equal(mostProbable(got.probabilities), mostProbable(exact.marginals[target]!));
    }
    // 150 rows over 6 variables with 40% hidden repeat their patterns: fewer propagations than rows.
    assert.equal(predictor.propagations + predictor.cacheHits, rows.length);
    assert.ok(predictor.cacheHits > 0);
  }
});

test('impossible evidence gives no posterior and ln P(e) = −∞', () => {
  const net: BayesianNetwork = {
    name: 'det',
    variables: [
      { name: 'A', states: ['a0', 'a1'] },
      { name: 'B', states: ['b0', 'b1'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.3, 0.7) },
      { child: 1, parents: [0], table: Float64Array.of(1, 0, 0.5, 0.5) },
    ],
  };
  const predictor = new BatchPredictor(net, 0, [1]);
  const none = predictor.predict([1]);
  assert.ok(none.probabilities);
  // P(A = a1 | B = b1) = 0.7·0.5 / (0.7·0.5) = 1; P(B = b1) = 0.35.
  assert.deepEqual(Array.from(none.probabilities), [0, 1]);
  assert.ok(Math.abs(none.logLikelihood - Math.log(0.35)) < 1e-15);
  const impossible = new BatchPredictor(
    { ...net, cpts: [net.cpts[0]!, { child: 1, parents: [0], table: Float64Array.of(1, 0, 1, 0) }] },
    0,
    [1],
  );
  const answer = impossible.predict([1]);
  assert.equal(answer.probabilities, null);
  assert.equal(answer.logLikelihood, -Infinity);
});

test('ALARM: each row equals the junction tree propagated for that row alone (1e-12)', () => {
  const r = readBif(readFileSync(join(repoRoot, 'examples', 'data', 'alarm.bif'), 'utf8'));
  if ('error' in r) throw new Error(r.error.message);
  const net = r.network;
  const target = net.variables.findIndex((v) => v.name === 'HYPOVOLEMIA');
  const { variables, rows } = sampledRows(net, target, 300, 0.5, 7);
  const predictor = new BatchPredictor(net, target, variables, { cacheSize: 16 });
  const tree = JunctionTree.compile(net);
  for (const row of rows) {
    const evidence = new Map<number, number>();
    row.forEach((s, c) => s >= 0 && evidence.set(variables[c]!, s));
    tree.setEvidence(evidence);
    tree.propagate();
    const got = predictor.predict(row);
    assert.ok(maxAbsDiff(got.probabilities!, tree.marginal(target)) < 1e-12);
    assert.ok(Math.abs(got.logLikelihood - tree.logEvidence) < 1e-12 * Math.max(1, -tree.logEvidence));
  }
});

test('the target cannot be evidence', () => {
  const net = randomNetwork(4, 3);
  assert.throws(() => new BatchPredictor(net, 1, [0, 1]), /target cannot be evidence/);
});
