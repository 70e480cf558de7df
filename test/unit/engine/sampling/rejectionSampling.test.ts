import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import {
  NoAcceptedSampleError,
  rejectionSampling,
  type RejectionMarginals,
} from '../../../../server/src/engine/sampling/rejectionSampling.js';
import { NoConsistentSampleError } from '../../../../server/src/engine/sampling/sampledNetwork.js';
import { posteriorMarginals } from '../../../../server/src/engine/inference/marginals.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { enumerate, evidenceOf, loadBif, loadReference, randomNetwork, twoNodes } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

/**
 * Largest |estimate − exact| / SE over every state. A state no accepted sample reached has SE 0:
 * it may miss by up to 3 / accepted (the rule of three: what `accepted` samples cannot resolve).
 */
function worstZ(exact: (v: number) => ArrayLike<number>, r: RejectionMarginals): number {
  let worst = 0;
  r.marginals.forEach((m, v) =>
    Array.from(exact(v)).forEach((p, s) => {
      const gap = Math.abs(p - m[s]!);
      const se = r.stderr[v]![s]!;
      if (gap < 1e-12) return;
      worst = Math.max(worst, se > 0 ? gap / se : gap <= 3 / r.accepted ? 0 : Infinity);
    }),
  );
  return worst;
}

for (const [name, samples] of [
  ['asia', 40_000],
  ['alarm', 40_000],
] as const) {
  test(`${name}: rejection sampling is within 4 standard errors of the exact marginals and of P(e), for each reference evidence set`, (t) => {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) return t.skip(NO_SHARED);
    const jt = JunctionTree.compile(net);
    let checked = 0;
    for (const c of cases) {
      const evidence = evidenceOf(net, c.evidence);
      jt.setEvidence(evidence);
      jt.propagate();
      const pEvidence = Math.exp(jt.logEvidence);
      if (pEvidence * samples < 200) continue; // rare evidence: too few samples would be accepted to test
      const r = rejectionSampling(net, evidence, { samples, seed: 17 });
      checked++;
      assert.equal(r.samples, samples);
      assert.equal(r.acceptanceRate, r.accepted / samples);
      // The acceptance rate estimates P(e) (binomial standard error). P(e) is a product of sums
      // and can pass 1 by round-off (1.0000000000000002 with no evidence): p(1 − p) is then
      // taken as 0, and the 1e-12 is what round-off may add.
      const binomialSe = Math.sqrt(Math.max(0, pEvidence * (1 - pEvidence)) / samples);
      assert.ok(
        Math.abs(r.acceptanceRate - pEvidence) < 4 * binomialSe + 1e-12,
        `${JSON.stringify(c.evidence)}: acceptance ${r.acceptanceRate} vs P(e) ${pEvidence}`,
      );
      if (evidence.size === 0) assert.equal(r.accepted, samples);
      const zTree = worstZ((v) => jt.marginal(v), r);
      assert.ok(zTree < 4, `${JSON.stringify(c.evidence)}: worst deviation ${zTree.toFixed(2)} standard errors`);
      // The same against the reference file's marginals (an independent peer; it leaves out the evidence).
      const reference = (v: number) => {
        const given = c.marginals[net.variables[v]!.name];
        return given ? net.variables[v]!.states.map((s) => given[s]!) : r.marginals[v]!;
      };
      const zRef = worstZ(reference, r);
      assert.ok(zRef < 4, `${JSON.stringify(c.evidence)} vs reference: ${zRef.toFixed(2)} standard errors`);
      // Evidence variables are point masses with no error.
      for (const [v, s] of evidence) {
        assert.equal(r.marginals[v]![s], 1);
        assert.equal(r.stderr[v]![s], 0);
      }
    }
    assert.ok(checked >= 3, `only ${checked} evidence sets were likely enough to test`);
  });
}

test('rejection sampling agrees with enumeration on small random networks, zeros included', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const net: BayesianNetwork = randomNetwork(seed, 7, 3, seed % 2 === 0);
    const evidence = new Map([
      [6, 0],
      [2, 1],
    ]);
    const truth = enumerate(net, evidence);
    if (truth.pEvidence < 0.02) continue;
    const r = rejectionSampling(net, evidence, { samples: 30_000, seed });
    assert.ok(worstZ((v) => truth.marginals[v]!, r) < 4.5, `seed ${seed}`);
    const se = Math.sqrt((truth.pEvidence * (1 - truth.pEvidence)) / r.samples);
    assert.ok(
      Math.abs(r.acceptanceRate - truth.pEvidence) < 4 * se,
      `seed ${seed}: ${r.acceptanceRate} vs ${truth.pEvidence}`,
    );
    assert.ok(Math.abs(r.acceptanceStderr - se) < 0.1 * se + 1e-9);
  }
});

test('rejection sampling: the same seed gives the same numbers, another seed others', () => {
  const net = randomNetwork(3, 8);
  const e = new Map([[7, 1]]);
  const a = rejectionSampling(net, e, { samples: 3000, seed: 5 });
  const b = rejectionSampling(net, e, { samples: 3000, seed: 5 });
  const c = rejectionSampling(net, e, { samples: 3000, seed: 6 });
  assert.deepEqual(a, b);
  assert.notDeepEqual(a.marginals, c.marginals);
});

test('rejection sampling: nothing accepted is a clear error naming the samples, never NaN; cancellation stops it', () => {
  // A → B with P(B = b1 | A) = 0 for every A: the evidence B = b1 cannot happen.
  const net: BayesianNetwork = {
    name: 'never',
    variables: [
      { name: 'A', states: ['a1', 'a2'] },
      { name: 'B', states: ['b1', 'b2'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 1, parents: [0], table: Float64Array.of(0, 1, 0, 1) },
    ],
  };
  assert.throws(
    () => rejectionSampling(net, new Map([[1, 0]]), { samples: 500, seed: 1 }),
    (e: Error) =>
      e instanceof NoAcceptedSampleError &&
      e instanceof NoConsistentSampleError &&
      /none of the 500 drawn/.test(e.message) &&
      /below about 0\.0060/.test(e.message) &&
      !/NaN/.test(e.message),
  );
  const answer = posteriorMarginals(net, new Map([[1, 0]]), { method: 'rejection', samples: 500 });
  assert.ok(!answer.ok && /no sample was consistent with the evidence/.test(answer.message));
  const fine = posteriorMarginals(net, new Map([[1, 1]]), { method: 'rejection', samples: 500, seed: 2 });
  assert.ok(fine.ok && fine.accepted === 500 && fine.acceptanceRate === 1 && fine.acceptanceStderr === 0);
  assert.throws(
    () => rejectionSampling(randomNetwork(4, 8), new Map(), { samples: 1e9, signal: { aborted: true } }),
    CancelledError,
  );
});

test('a state no accepted sample shows (or every one shows) has a standard error of one sample, not 0', () => {
  // P(A = a) = 0.02, P(B = a | A) = 0.5 or 0.0005: given B = a, P(A = b) ≈ 0.047, and 300 samples
  // accept about 3. They all had A = a, and `A: a 1 ±0, b 0 ±0` claimed certainty from three samples.
  const net = twoNodes([0.02, 0.98], [0.5, 0.5, 0.0005, 0.9995]);
  const exactB = 0.98 * 0.0005;
  const exact = exactB / (0.02 * 0.5 + exactB);
  let boundary = 0;
  for (let seed = 1; seed <= 30; seed++) {
    let r: RejectionMarginals;
    try {
      r = rejectionSampling(net, new Map([[1, 0]]), { samples: 300, seed });
    } catch (e) {
      if (e instanceof NoAcceptedSampleError) continue;
      throw e;
    }
    if (r.marginals[0]![1] === 0) boundary++;
    for (const s of [0, 1]) {
      const se = r.stderr[0]![s]!;
      assert.ok(se >= 1 / r.accepted, `seed ${seed}: A's standard error ${se} from ${r.accepted} accepted`);
      const gap = Math.abs(r.marginals[0]![s]! - (s === 1 ? exact : 1 - exact));
      assert.ok(gap <= 4 * se, `seed ${seed}: A = ${s} misses by ${gap}, ${gap / se} standard errors`);
    }
    assert.deepEqual(Array.from(r.stderr[1]!), [0, 0]); // B is observed: a point mass
  }
  assert.ok(boundary >= 10, `only ${boundary} runs saw no A = b`);
});
