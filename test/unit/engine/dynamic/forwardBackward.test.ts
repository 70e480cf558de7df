import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../../server/src/engine/dynamic/viterbi.js';
import {
  unroll,
  validateTwoSlice,
  type TwoSliceNetwork,
} from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../../../../server/src/engine/dynamic/sliceTree.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { jointTable } from '../../../support/networks.js';
import { randomFindings, randomTwoSlice } from '../../../support/dynamicNetworks.js';

/** Brute force on the unrolled network: P(e), P(X_v,t | e_1..t) and P(X_v,t | e_1..T), the MPE. */
function bruteForce(dbn: TwoSliceNetwork, findings: StepFindings[]) {
  const n = dbn.variables.length;
  const T = findings.length;
  const net = unroll(dbn, T);
  const { cards, values } = jointTable(net);
  // The weight of each joint entry given the findings of steps 1..upTo.
  const weight = (x: number[], upTo: number) => {
    let w = 1;
    for (let t = 1; t <= upTo; t++) {
      const f = findings[t - 1]!;
      for (const [v, s] of f.evidence) if (x[t * n + v] !== s) return 0;
      for (const [v, l] of f.likelihoods ?? []) w *= l[x[t * n + v]!]!;
    }
    return w;
  };
  const marginalsUpTo = (upTo: number) => {
    const m = cards.map((k) => new Float64Array(k));
    let z = 0;
    const x = new Array<number>(cards.length);
    for (let i = 0; i < values.length; i++) {
      let rest = i;
      for (let v = cards.length - 1; v >= 0; v--) {
        x[v] = rest % cards[v]!;
        rest = Math.floor(rest / cards[v]!);
      }
      const p = values[i]! * weight(x, upTo);
      z += p;
      for (let v = 0; v < cards.length; v++) m[v]![x[v]!]! += p;
    }
    return { z, m: m.map((a) => a.map((p) => p / z)) };
  };
  const all = marginalsUpTo(T);
  const filtered = Array.from({ length: T }, (_, t) => marginalsUpTo(t + 1).m.slice((t + 1) * n, (t + 2) * n));
  const smoothed = Array.from({ length: T }, (_, t) => all.m.slice((t + 1) * n, (t + 2) * n));
  // The joint probability of the best full assignment with the findings.
  let best = 0;
  const x = new Array<number>(cards.length);
  for (let i = 0; i < values.length; i++) {
    let rest = i;
    for (let v = cards.length - 1; v >= 0; v--) {
      x[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
    best = Math.max(best, values[i]! * weight(x, T));
  }
  const probabilityOf = (states: Int32Array[]) => {
    const flat = states.flatMap((s) => [...s]);
    let i = 0;
    for (let v = 0; v < cards.length; v++) i = i * cards[v]! + flat[v]!;
    return values[i]! * weight(flat, T);
  };
  return { logLikelihood: Math.log(all.z), filtered, smoothed, best, probabilityOf };
}

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
  const yn = ['yes', 'no'];
  const dbn: TwoSliceNetwork = {
    name: 'Umbrella',
    variables: [
      { name: 'Rain', states: yn },
      { name: 'Umbrella', states: yn },
    ],
    initial: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
    ],
    transition: [
      { child: 0, parents: [2], table: Float64Array.of(0.7, 0.3, 0.3, 0.7) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
    ],
  };
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
