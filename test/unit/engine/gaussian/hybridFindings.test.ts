import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HybridEvidence } from '../../../../server/src/engine/gaussian/clgInference.js';
import { hybridMarginals } from '../../../../server/src/engine/gaussian/hybridMarginals.js';
import { hybridMostProbableExplanation } from '../../../../server/src/engine/gaussian/hybridMpe.js';
import type { HybridNetwork } from '../../../../server/src/engine/gaussian/hybridNetwork.js';
import { linearGaussian } from '../../../../server/src/engine/gaussian/hybridNetwork.js';
import { budgetsFor } from '../../../../server/src/engine/budget.js';
import { randomHybridNetwork, sampledEvidence } from '../../../support/hybridNetworks.js';
import { findingsOracle } from '../../../support/hybridFindingsOracle.js';
import { pythonMissing } from '../../../support/python.js';

function close(actual: number, expected: number, what: string, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

const normal = (x: number, mean: number, variance: number) =>
  Math.exp((-0.5 * (x - mean) ** 2) / variance) / Math.sqrt(2 * Math.PI * variance);

/** D ∈ {a, b} with P(a) = 0.3; X | a ~ N(0, 1), X | b ~ N(2, 4). */
const mixture: HybridNetwork = {
  name: 'mix',
  variables: [
    { kind: 'discrete', name: 'D', states: ['a', 'b'] },
    { kind: 'continuous', name: 'X' },
  ],
  cpds: [
    { kind: 'discrete', cpt: { child: 0, parents: [], table: Float64Array.of(0.3, 0.7) } },
    {
      kind: 'gaussian',
      cpd: {
        child: 1,
        discreteParents: [0],
        continuousParents: [],
        intercepts: Float64Array.of(0, 2),
        coefficients: new Float64Array(0),
        variances: Float64Array.of(1, 4),
      },
    },
  ],
};

test('a virtual finding on D weighs P(D | X = 1) by λ, in closed form', () => {
  const x = 1;
  const evidence: HybridEvidence = {
    discrete: new Map(),
    continuous: new Map([[1, x]]),
    likelihoods: new Map([[0, [0.8, 0.2]]]),
  };
  const a = 0.3 * normal(x, 0, 1) * 0.8;
  const b = 0.7 * normal(x, 2, 4) * 0.2;
  const answer = hybridMarginals(mixture, evidence);
  close(answer.discrete[0]![0]!, a / (a + b), 'P(D = a | X = 1, λ)');
  // p(e) is the λ node's P(seen) = Σ P(d, x) λ(d) / max λ
  close(answer.logEvidence, Math.log((a + b) / 0.8), 'log p(X = 1, seen)');
  assert.equal(answer.discrete.length, 2, 'the λ node is not in the answer');
});

test("a soft finding on D is Jeffrey's rule: P'(D) = q and X's mixture takes q's weights", () => {
  const q = [0.6, 0.4];
  const answer = hybridMarginals(mixture, { discrete: new Map(), continuous: new Map(), soft: new Map([[0, q]]) });
  close(answer.discrete[0]![0]!, 0.6, "P'(D = a)");
  // X | soft = Σ_d q(d) N(μ_d, σ²_d): mean 0.6·0 + 0.4·2, variance Σ q (σ² + μ²) − mean²
  close(answer.continuous[1]!.mean, 0.8, "E'[X]");
  close(answer.continuous[1]!.variance, 0.6 * 1 + 0.4 * (4 + 4) - 0.64, "Var'[X]");
  assert.ok(
    answer.likelihoods!.get(0)!.every((l) => l <= 1),
    'the fitted λ, largest entry 1',
  );
});

test('findings on a continuous variable, or on an observed one, are refused in words', () => {
  const onX = { discrete: new Map(), continuous: new Map(), likelihoods: new Map([[1, [1, 2]]]) };
  assert.throws(() => hybridMarginals(mixture, onX), /'X' is continuous: .*observe X with a number/);
  const observed = { discrete: new Map([[0, 1]]), continuous: new Map(), soft: new Map([[0, [0.5, 0.5]]]) };
  assert.throws(() => hybridMarginals(mixture, observed), /'D' is observed/);
  const wrong = { discrete: new Map(), continuous: new Map(), soft: new Map([[0, [0.5, 0.6]]]) };
  assert.throws(() => hybridMarginals(mixture, wrong), /must sum to 1/);
});

test('the MPE of a Gaussian network is the posterior mean vector, its density the joint at the mode', () => {
  // X ~ N(0, 1), Y | X ~ N(X, 1): given Y = 2, X | y ~ N(1, 1/2); p(x*, y) = N(y; 0, 2) · N(x*; 1, 1/2)
  const net: HybridNetwork = {
    name: 'pair',
    variables: [
      { kind: 'continuous', name: 'X' },
      { kind: 'continuous', name: 'Y' },
    ],
    cpds: [
      { kind: 'gaussian', cpd: linearGaussian(0, [], 0, [], 1) },
      { kind: 'gaussian', cpd: linearGaussian(1, [0], 0, [1], 1) },
    ],
  };
  const best = hybridMostProbableExplanation(net, { discrete: new Map(), continuous: new Map([[1, 2]]) });
  close(best.values[0]!, 1, 'x*');
  assert.equal(best.values[1], 2);
  close(best.logDensity, Math.log(normal(2, 0, 2) * normal(1, 1, 0.5)), 'log p(x*, y)');
});

test('the MPE of the mixture compares P(d) · peak height across configurations', () => {
  // No evidence: a → 0.3 · N(0; 0, 1) = 0.1197, b → 0.7 · N(2; 2, 4) = 0.1396: b at X = 2
  const best = hybridMostProbableExplanation(mixture, { discrete: new Map(), continuous: new Map() });
  assert.equal(best.states[0], 1);
  close(best.values[1]!, 2, 'x*');
  close(best.logDensity, Math.log(0.7 * normal(2, 2, 4)), 'log p(b, 2)');
  assert.equal(best.configurations, 2);
});

const missing = pythonMissing(['numpy']);

for (const seed of [1, 2, 3, 4, 5, 6]) {
  test(`random CLG network #${seed}: virtual and soft findings, and the MPE, equal numpy's enumeration`, (t) => {
    if (missing) return t.skip(missing);
    const net = randomHybridNetwork({ continuous: 7, discrete: 4, seed });
    const base = sampledEvidence(net, [6, 9], seed + 20); // continuous evidence (and a discrete one by chance)
    const free = [0, 1, 2, 3].filter((v) => !base.discrete.has(v));
    const states = (v: number) => (net.variables[v] as { states: string[] }).states.length;
    const vector = (v: number, k: number) => Array.from({ length: states(v) }, (_, s) => (1 + ((s * 7 + k) % 5)) / 5);
    const distribution = (v: number, k: number) => {
      const x = vector(v, k);
      const sum = x.reduce((a, b) => a + b, 0);
      return x.map((p) => p / sum);
    };
    const cases: HybridEvidence[] = [
      { ...base, likelihoods: new Map([[free[0]!, vector(free[0]!, seed)]]) },
      { ...base, soft: new Map([[free[0]!, distribution(free[0]!, seed)]]) },
      {
        ...base,
        likelihoods: new Map([[free[1]!, vector(free[1]!, 2)]]),
        soft: new Map([[free[0]!, distribution(free[0]!, 3)]]),
      },
      { discrete: new Map(), continuous: new Map(), soft: new Map([[free[1]!, distribution(free[1]!, 1)]]) },
      base,
    ];
    const oracles = findingsOracle(net, cases);
    for (const [c, evidence] of cases.entries()) {
      const answer = hybridMarginals(net, evidence, { method: 'exact' });
      const oracle = oracles[c]!;
      if (!evidence.soft) close(answer.logEvidence, oracle.logEvidence, `case ${c}: log p(e)`);
      oracle.posteriors.forEach((posterior, v) => {
        if (net.variables[v]!.kind === 'discrete') {
          posterior.forEach((p, s) => close(answer.discrete[v]![s]!, p, `case ${c}: P(D${v}=${s})`));
        } else {
          close(answer.continuous[v]!.mean, posterior[0]!, `case ${c}: mean of ${net.variables[v]!.name}`);
          close(answer.continuous[v]!.variance, posterior[1]!, `case ${c}: variance of ${net.variables[v]!.name}`);
        }
      });
      if (evidence.soft) continue; // the MPE under soft findings is the fitted λ's: compared through P' above
      const best = hybridMostProbableExplanation(net, evidence);
      close(best.logDensity, oracle.mpeLogDensity, `case ${c}: log p(MPE, e)`);
      oracle.mpe.forEach((x, v) => {
        if (net.variables[v]!.kind === 'discrete') assert.equal(best.states[v], x, `case ${c}: MPE state of D${v}`);
        else close(best.values[v]!, x, `case ${c}: MPE value of ${net.variables[v]!.name}`);
      });
    }
  });
}

test('an MPE over the budget (configurations of the discrete parents × the joint) is a clear error', () => {
  const wide = randomHybridNetwork({ continuous: 60, discrete: 30, maxParents: 3, seed: 9 });
  const none = { discrete: new Map(), continuous: new Map() };
  assert.throws(() => hybridMostProbableExplanation(wide, none, { budgets: budgetsFor(1) }), /over the budget/);
});
