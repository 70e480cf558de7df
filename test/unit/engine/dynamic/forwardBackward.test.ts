import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../../server/src/engine/dynamic/viterbi.js';
import { validateTwoSlice } from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { bruteForce, randomFindings, randomTwoSlice, umbrellaWorld } from '../../../support/dynamicNetworks.js';

function maxDiff(a: Float64Array[][], b: Float64Array[][]): number {
  let m = 0;
  a.forEach((slice, t) => slice.forEach((p, v) => p.forEach((x, s) => (m = Math.max(m, Math.abs(x - b[t]![v]![s]!))))));
  return m;
}

test('filtering, smoothing, log-likelihood and Viterbi equal brute force on the unrolled network (random 2-TBNs)', () => {
  let cases = 0;
  for (let seed = 1; seed <= 30; seed++) {
    const n = 1 + (seed % 3);
    const T = n === 3 ? 2 : 3;
    const dbn = randomTwoSlice(seed, n);
    validateTwoSlice(dbn);
    const findings = randomFindings(createRng(100 + seed), dbn, T, 0.4, seed % 2 === 0);
    const brute = bruteForce(dbn, findings);
    if (!(brute.logLikelihood > -Infinity)) continue;
    const r = forwardBackward(dbn, findings, { smooth: true });
    assert.ok(Math.abs(r.logLikelihood - brute.logLikelihood) < 1e-9, `seed ${seed}: log-likelihood`);
    assert.ok(maxDiff(r.filtered, brute.filtered) < 1e-9, `seed ${seed}: filtered`);
    assert.ok(maxDiff(r.smoothed!, brute.smoothed) < 1e-9, `seed ${seed}: smoothed`);
    const ml = mostLikelySequence(dbn, findings);
    assert.ok(
      Math.abs(Math.log(brute.probabilityOf(ml.states)) - Math.log(brute.best)) < 1e-9,
      `seed ${seed}: Viterbi`,
    );
    assert.ok(Math.abs(ml.logProbability - Math.log(brute.best)) < 1e-9, `seed ${seed}: Viterbi log P`);
    cases++;
  }
  assert.ok(cases >= 25, `${cases} cases`);
});

test('prediction k steps ahead equals the unrolled network with no findings after T', () => {
  for (let seed = 1; seed <= 10; seed++) {
    const dbn = randomTwoSlice(seed, 2);
    const findings = randomFindings(createRng(seed), dbn, 2, 0.5);
    const K = 2;
    const padded = [...findings, ...Array.from({ length: K }, () => ({ evidence: new Map<number, number>() }))];
    const brute = bruteForce(dbn, padded);
    if (!(brute.logLikelihood > -Infinity)) continue;
    const r = forwardBackward(dbn, findings, { predict: K });
    assert.ok(maxDiff(r.predicted!, brute.smoothed.slice(findings.length)) < 1e-9, `seed ${seed}`);
  }
});

test("Russell & Norvig's umbrella world: filtering 0.818, 0.883; smoothing 0.883", () => {
  const dbn = umbrellaWorld();
  const seen = { evidence: new Map([[1, 0]]) };
  const r = forwardBackward(dbn, [seen, seen], { smooth: true });
  assert.equal(r.filtered[0]![0]![0]!.toFixed(3), '0.818');
  assert.equal(r.filtered[1]![0]![0]!.toFixed(3), '0.883');
  assert.equal(r.smoothed![0]![0]![0]!.toFixed(3), '0.883');
  const ml = mostLikelySequence(dbn, [seen, seen]);
  assert.deepEqual([...ml.states.slice(1).map((s) => s[0])], [0, 0]);
});

test('10^5 steps: no underflow, messages stay distributions', () => {
  const dbn = randomTwoSlice(7, 3);
  const findings = randomFindings(createRng(7), dbn, 100_000, 0.5).map((f) => ({
    evidence: new Map([...f.evidence].filter(([v]) => v === 2)),
  }));
  const r = forwardBackward(dbn, findings, { smooth: true });
  assert.ok(Number.isFinite(r.logLikelihood) && r.logLikelihood < -1000);
  const last = r.smoothed![0]![0]!;
  assert.ok(Math.abs(last.reduce((a, b) => a + b, 0) - 1) < 1e-12);
});
