import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { posteriorMarginals } from '../../../../server/src/engine/inference/marginals.js';
import { variableElimination } from '../../../../server/src/engine/inference/variableElimination.js';
import { likelihoodWeighting } from '../../../../server/src/engine/sampling/likelihoodWeighting.js';
import { gibbsSampling } from '../../../../server/src/engine/sampling/gibbsSampling.js';
import { mostProbableExplanation } from '../../../../server/src/engine/inference/mpe.js';
import { sensitivity } from '../../../../server/src/engine/inference/sensitivity.js';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { virtualEvidenceNetwork } from '../../../../server/src/engine/inference/softEvidence.js';
import { evidenceOf, jointTable, loadBif, randomNetwork } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

/** A → B: P(a1) = 0.3, P(b1 | a1) = 0.9, P(b1 | a2) = 0.2. */
const AB: BayesianNetwork = {
  name: 'ab',
  variables: [
    { name: 'A', states: ['a1', 'a2'] },
    { name: 'B', states: ['b1', 'b2'] },
  ],
  cpts: [
    { child: 0, parents: [], table: Float64Array.of(0.3, 0.7) },
    { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
  ],
};

function exactMarginals(net: BayesianNetwork, evidence: Map<number, number>): Float64Array[] {
  const answer = posteriorMarginals(net, evidence, { method: 'exact' });
  if (!answer.ok) throw new Error(answer.message);
  return answer.marginals;
}

test('virtual evidence on B: P(A | λ) ∝ P(A) Σ_b P(b | A) λ(b), by hand', () => {
  const v = virtualEvidenceNetwork(AB, new Map(), { likelihoods: new Map([[1, [0.8, 0.2]]]) });
  // a1: 0.3 (0.9·0.8 + 0.1·0.2) = 0.222; a2: 0.7 (0.2·0.8 + 0.8·0.2) = 0.224.
  const m = exactMarginals(v.net, v.evidence as Map<number, number>);
  assert.ok(Math.abs(m[0]![0]! - 0.222 / 0.446) < 1e-15);
  // B: P(b1) λ(b1) = 0.41·0.8 = 0.328, P(b2) λ(b2) = 0.59·0.2 = 0.118.
  assert.ok(Math.abs(m[1]![0]! - 0.328 / 0.446) < 1e-15);
  // Only ratios matter: λ = (4, 1) is the same finding.
  const scaled = virtualEvidenceNetwork(AB, new Map(), { likelihoods: new Map([[1, [4, 1]]]) });
  const scaledA = exactMarginals(scaled.net, scaled.evidence as Map<number, number>)[0]!;
  assert.ok(Math.abs(scaledA[0]! - 0.222 / 0.446) < 1e-15);
  // Variable elimination on the same network agrees.
  const ve = variableElimination(v.net, [0], v.evidence);
  assert.ok(Math.abs(ve.factor.values[0]! - 0.222 / 0.446) < 1e-15);
});

test("soft evidence on B (Jeffrey's rule): P'(B) = q and P'(A) = Σ_b q(b) P(A | b), by hand", () => {
  const v = virtualEvidenceNetwork(AB, new Map(), { soft: new Map([[1, [0.7, 0.3]]]) });
  const m = exactMarginals(v.net, v.evidence as Map<number, number>);
  assert.ok(Math.abs(m[1]![0]! - 0.7) < 1e-12);
  // P(b1) = 0.41, P(a1 | b1) = 0.27 / 0.41, P(a1 | b2) = 0.03 / 0.59.
  assert.ok(Math.abs(m[0]![0]! - ((0.7 * 0.27) / 0.41 + (0.3 * 0.03) / 0.59)) < 1e-12);
  // The fitted likelihood is q / P(b): (0.7 / 0.41) : (0.3 / 0.59).
  const lambda = v.likelihoods.get(1)!;
  assert.ok(Math.abs(lambda[1]! / lambda[0]! - 0.3 / 0.59 / (0.7 / 0.41)) < 1e-12);
});

test('bad findings are errors that say why', () => {
  const virtual = (lambda: number[]) => () =>
    virtualEvidenceNetwork(AB, new Map(), { likelihoods: new Map([[1, lambda]]) });
  assert.throws(virtual([0, 0]), /zero for every state/);
  assert.throws(virtual([0.5, -1]), /not negative/);
  assert.throws(virtual([1, 2, 3]), /needs 2 numbers/);
  assert.throws(() => virtualEvidenceNetwork(AB, new Map(), { soft: new Map([[1, [0.5, 0.6]]]) }), /must sum to 1/);
  const evenB = { soft: new Map([[1, [0.5, 0.5]]]) };
  assert.throws(() => virtualEvidenceNetwork(AB, new Map([[1, 0]]), evenB), /is observed/);
  // A deterministic network: A = B. Soft B = (0.5, 0.5) with A observed a1 gives b2 mass it cannot have.
  const copy: BayesianNetwork = {
    ...AB,
    cpts: [AB.cpts[0]!, { child: 1, parents: [0], table: Float64Array.of(1, 0, 0, 1) }],
  };
  assert.throws(() => virtualEvidenceNetwork(copy, new Map([[0, 0]]), evenB), /impossible/);
  // Two soft findings that contradict each other (A = B, but q_A ≠ q_B) never converge.
  assert.throws(
    () =>
      virtualEvidenceNetwork(
        copy,
        new Map(),
        {
          soft: new Map([
            [0, [0.2, 0.8]],
            [1, [0.6, 0.4]],
          ]),
        },
        {
          maxSweeps: 200,
        },
      ),
    /cannot all hold/,
  );
});

/** The joint restricted to the hard evidence, times the likelihoods, normalised: brute force. */
function bruteForce(net: BayesianNetwork, hard: Map<number, number>, lambdas: Map<number, ArrayLike<number>>) {
  const { cards, values } = jointTable(net);
  const out = Float64Array.from(values);
  let z = 0;
  for (let i = 0; i < out.length; i++) {
    let rest = i;
    for (let v = cards.length - 1; v >= 0; v--) {
      const s = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
      if (hard.has(v) && hard.get(v) !== s) out[i] = 0;
      const l = lambdas.get(v);
      if (l) out[i]! *= l[s]!;
    }
    z += out[i]!;
  }
  return out.map((p) => p / z);
}

function marginalsOf(cards: number[], joint: Float64Array): Float64Array[] {
  const m = cards.map((k) => new Float64Array(k));
  for (let i = 0; i < joint.length; i++) {
    let rest = i;
    for (let v = cards.length - 1; v >= 0; v--) {
      m[v]![rest % cards[v]!]! += joint[i]!;
      rest = Math.floor(rest / cards[v]!);
    }
  }
  return m;
}

/** IPF on the full joint table: an independent implementation of several soft findings. */
function jointIpf(cards: number[], joint: Float64Array, soft: Map<number, number[]>): Float64Array {
  const p = Float64Array.from(joint);
  for (let sweep = 0; sweep < 5000; sweep++) {
    for (const [v, q] of soft) {
      const m = marginalsOf(cards, p)[v]!;
      for (let i = 0; i < p.length; i++) {
        let rest = i;
        for (let u = cards.length - 1; u > v; u--) rest = Math.floor(rest / cards[u]!);
        const s = rest % cards[v]!;
        p[i] = m[s] === 0 ? 0 : (p[i]! * q[s]!) / m[s]!;
      }
    }
  }
  return p;
}

test('random networks: hard + virtual + two soft findings against brute-force enumeration and joint IPF', () => {
  for (let seed = 1; seed <= 12; seed++) {
    const net = randomNetwork(seed, 6, 2);
    const cards = net.variables.map((v) => v.states.length);
    const hard = new Map([[5, 0]]);
    const lambda = Array.from({ length: cards[4]! }, (_, s) => 0.2 + 0.3 * s);
    const q0 = Array.from({ length: cards[0]! }, (_, s) => (s + 1) / ((cards[0]! * (cards[0]! + 1)) / 2));
    const q2 = Array.from({ length: cards[2]! }, (_, s) => (cards[2]! - s) / ((cards[2]! * (cards[2]! + 1)) / 2));
    const findings = {
      likelihoods: new Map([[4, lambda]]),
      soft: new Map([
        [0, q0],
        [2, q2],
      ]),
    };
    const v = virtualEvidenceNetwork(net, hard, findings);
    const jt = exactMarginals(v.net, v.evidence as Map<number, number>);
    const expected = marginalsOf(cards, jointIpf(cards, bruteForce(net, hard, new Map([[4, lambda]])), findings.soft));
    for (let u = 0; u < cards.length; u++) {
      for (let s = 0; s < cards[u]!; s++) {
        const what = `seed ${seed} V${u}=${s}: ${jt[u]![s]} vs ${expected[u]![s]}`;
        assert.ok(Math.abs(jt[u]![s]! - expected[u]![s]!) < 1e-9, what);
      }
      const ve = variableElimination(v.net, [u], v.evidence).factor.values;
      for (let s = 0; s < cards[u]!; s++) {
        assert.ok(Math.abs(ve[s]! - jt[u]![s]!) < 1e-12, `seed ${seed}: VE vs JT on V${u}`);
      }
    }
    for (let s = 0; s < cards[0]!; s++) assert.ok(Math.abs(jt[0]![s]! - q0[s]!) < 1e-10);
    for (let s = 0; s < cards[2]!; s++) assert.ok(Math.abs(jt[2]![s]! - q2[s]!) < 1e-10);
  }
});

test('MPE and sensitivity take virtual evidence: brute-force argmax of P(x, e) λ(x)', () => {
  for (let seed = 1; seed <= 10; seed++) {
    const net = randomNetwork(seed, 6, 2);
    const cards = net.variables.map((v) => v.states.length);
    const lambda = Array.from({ length: cards[3]! }, (_, s) => (s === 0 ? 0.05 : 1));
    const v = virtualEvidenceNetwork(net, new Map([[5, 1]]), { likelihoods: new Map([[3, lambda]]) });
    const joint = bruteForce(net, new Map([[5, 1]]), new Map([[3, lambda]]));
    let best = 0;
    for (let i = 1; i < joint.length; i++) if (joint[i]! > joint[best]!) best = i;
    const mpe = mostProbableExplanation(v.net, v.evidence);
    let index = 0;
    for (let u = 0; u < cards.length; u++) index = index * cards[u]! + mpe.assignment[u]!;
    assert.ok(Math.abs(joint[index]! - joint[best]!) < 1e-15, `seed ${seed}: MPE is not the argmax`);
    const posterior = marginalsOf(cards, joint);
    const answer = sensitivity(v.net, { variable: 0, state: 0 }, v.evidence, { tree: JunctionTree.compile(v.net) });
    assert.ok(Math.abs(answer.value - posterior[0]![0]!) < 1e-12, `seed ${seed}: sensitivity value`);
  }
});

test('samplers weight by λ: likelihood weighting and Gibbs within 4 standard errors of the exact answer', () => {
  const net = randomNetwork(3, 6, 2);
  const lambda = [0.9, 0.1, 0.5].slice(0, net.variables[2]!.states.length);
  const v = virtualEvidenceNetwork(net, new Map([[5, 0]]), { likelihoods: new Map([[2, lambda]]) });
  const exact = exactMarginals(v.net, v.evidence as Map<number, number>);
  for (const sampler of [likelihoodWeighting, gibbsSampling]) {
    const r = sampler(v.net, v.evidence, { samples: 40000, seed: 7 });
    for (let u = 0; u < 5; u++) {
      for (let s = 0; s < exact[u]!.length; s++) {
        const err = Math.abs(r.marginals[u]![s]! - exact[u]![s]!);
        const what = `${sampler.name} V${u}=${s}: ${r.marginals[u]![s]} vs ${exact[u]![s]} (se ${r.stderr[u]![s]})`;
        assert.ok(err < 4 * r.stderr[u]![s]! + 1e-3, what);
      }
    }
  }
});

test('alarm: soft and virtual evidence by junction tree and VE match Jeffrey mixing of hard-evidence answers', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const index = new Map(net.variables.map((x, i) => [x.name, i]));
  const hard = evidenceOf(net, { HRBP: 'HIGH' });
  const soft = index.get('HYPOVOLEMIA')!; // TRUE, FALSE
  const virtual = index.get('CVP')!; // LOW, NORMAL, HIGH
  const q = [0.35, 0.65];
  const lambda = [0.2, 0.5, 1];
  const findings = { soft: new Map([[soft, q]]), likelihoods: new Map([[virtual, lambda]]) };
  const v = virtualEvidenceNetwork(net, hard, findings);
  const jt = exactMarginals(v.net, v.evidence as Map<number, number>);
  // Independent: only hard-evidence junction-tree answers on the original network.
  // P(Y | x, e, λ) = Σ_c λ(c) P(Y | x, c, e) P(c | x, e) / Σ_c λ(c) P(c | x, e);
  // P'(Y) = Σ_x q(x) P(Y | x, e, λ).
  const expected = net.variables.map((x) => new Float64Array(x.states.length));
  for (let x = 0; x < 2; x++) {
    const pc = exactMarginals(net, new Map([...hard, [soft, x]]))[virtual]!;
    let z = 0;
    for (let c = 0; c < 3; c++) z += lambda[c]! * pc[c]!;
    for (let c = 0; c < 3; c++) {
      if (pc[c] === 0) continue;
      const m = exactMarginals(net, new Map([...hard, [soft, x], [virtual, c]]));
      const w = (q[x]! * lambda[c]! * pc[c]!) / z;
      m.forEach((dist, u) =>
        dist.forEach((p, s) => {
          expected[u]![s]! += w * p;
        }),
      );
    }
  }
  let worst = 0;
  expected.forEach((dist, u) =>
    dist.forEach((p, s) => {
      worst = Math.max(worst, Math.abs(jt[u]![s]! - p));
    }),
  );
  assert.ok(worst < 1e-9, `junction tree off by ${worst}`);
  for (const name of ['LVFAILURE', 'CO', 'BP', 'HISTORY']) {
    const u = index.get(name)!;
    const ve = variableElimination(v.net, [u], v.evidence).factor.values;
    ve.forEach((p, s) => assert.ok(Math.abs(p - expected[u]![s]!) < 1e-9, `VE ${name}=${s}`));
  }
  assert.ok(Math.abs(jt[soft]![0]! - 0.35) < 1e-10);
});
