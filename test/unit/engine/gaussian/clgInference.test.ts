import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hybridPosterior, type HybridEvidence } from '../../../../server/src/engine/gaussian/clgInference.js';
import { linearGaussian, type HybridNetwork } from '../../../../server/src/engine/gaussian/hybridNetwork.js';
import { budgetsFor } from '../../../../server/src/engine/budget.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';
import { numpyOracle, randomHybridNetwork, sampledEvidence } from '../../../support/hybridNetworks.js';
import { pythonMissing } from '../../../support/python.js';

const none: HybridEvidence = { discrete: new Map(), continuous: new Map() };

function close(actual: number, expected: number, what: string, tol = 1e-9): void {
  assert.ok(Math.abs(actual - expected) <= tol * Math.max(1, Math.abs(expected)), `${what}: ${actual} vs ${expected}`);
}

const logNormal = (x: number, mean: number, variance: number) =>
  -0.5 * (Math.log(2 * Math.PI * variance) + (x - mean) ** 2 / variance);

test('X ~ N(0,1), Y = X + N(0,1): X | Y=y is N(y/2, 1/2) and p(y) is N(0, 2)', () => {
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
  for (const y of [-1.3, 0, 2.5]) {
    const answer = hybridPosterior(net, { discrete: new Map(), continuous: new Map([[1, y]]) });
    const x = answer.continuous[0]!;
    close(x.mean, y / 2, 'mean');
    close(x.variance, 0.5, 'variance');
    assert.equal(x.components.length, 1);
    close(answer.logEvidence, logNormal(y, 0, 2), 'log p(y)');
    assert.deepEqual(answer.continuous[1], { mean: y, variance: 0, components: [{ weight: 1, mean: y, variance: 0 }] });
    close(answer.mostProbable![0]!, y / 2, 'MPE = posterior mean');
  }
  const prior = hybridPosterior(net, none);
  close(prior.continuous[1]!.variance, 2, 'prior Var Y');
  assert.equal(prior.logEvidence, 0);
});

test('a CLG mixture: D ∈ {a, b}, X | a ~ N(0, 1), X | b ~ N(2, 4); P(D | X = 1) by Bayes', () => {
  const net: HybridNetwork = {
    name: 'mix',
    variables: [
      { kind: 'discrete', name: 'D', states: ['a', 'b'] },
      { kind: 'continuous', name: 'X' },
      { kind: 'continuous', name: 'Y' },
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
      { kind: 'gaussian', cpd: linearGaussian(2, [1], 1, [3], 0.5) },
    ],
  };
  const prior = hybridPosterior(net, none);
  close(prior.continuous[1]!.mean, 0.7 * 2, 'prior mean of the mixture');
  close(prior.continuous[1]!.variance, 0.3 * 1 + 0.7 * 4 + 0.3 * 0.7 * 4, 'total variance');
  assert.equal(prior.continuous[1]!.components.length, 2);
  const answer = hybridPosterior(net, { discrete: new Map(), continuous: new Map([[1, 1]]) });
  const wa = 0.3 * Math.exp(logNormal(1, 0, 1));
  const wb = 0.7 * Math.exp(logNormal(1, 2, 4));
  close(answer.discrete[0]![0]!, wa / (wa + wb), 'P(a | X=1)');
  close(answer.logEvidence, Math.log(wa + wb), 'log p(X=1)');
  close(answer.continuous[2]!.mean, 4, 'E[Y | X=1] = 1 + 3·1');
  close(answer.continuous[2]!.variance, 0.5, 'Var[Y | X=1]');
  assert.equal(answer.mostProbable, undefined, 'no MPE claimed for a CLG network');
});

const missing = pythonMissing(['numpy']);

for (const n of [5, 40, 300]) {
  test(`random Gaussian network of ${n} nodes equals numpy's conditioning, with and without evidence`, (t) => {
    if (missing) return t.skip(missing);
    const net = randomHybridNetwork({ continuous: n, seed: n });
    const observed = Array.from({ length: Math.min(30, Math.floor(n / 3)) }, (_, i) => (i * 7919) % n);
    const cases = [none, sampledEvidence(net, [...new Set(observed)], n + 1)];
    const oracles = numpyOracle(net, cases);
    for (const [c, evidence] of cases.entries()) {
      const answer = hybridPosterior(net, evidence);
      const oracle = oracles[c]!;
      close(answer.logEvidence, oracle.logEvidence, 'log p(e)');
      oracle.posteriors.forEach(([mean, variance], v) => {
        close(answer.continuous[v]!.mean, mean!, `mean of X${v}`);
        close(answer.continuous[v]!.variance, variance!, `variance of X${v}`);
      });
    }
  });
}

for (const seed of [1, 2, 3, 4]) {
  test(`random CLG network #${seed} equals numpy's enumeration of the discrete joint, evidence on both kinds`, (t) => {
    if (missing) return t.skip(missing);
    const net = randomHybridNetwork({ continuous: 8, discrete: 4, seed });
    assert.ok(hybridPosterior(net, none).configurations > 1, 'the continuous part depends on the discrete one');
    const cases = [
      none,
      sampledEvidence(net, [5, 9], seed),
      sampledEvidence(net, [0, 6, 11], seed + 10),
      sampledEvidence(net, [2], seed),
    ];
    const oracles = numpyOracle(net, cases);
    for (const [c, evidence] of cases.entries()) {
      const answer = hybridPosterior(net, evidence);
      const oracle = oracles[c]!;
      close(answer.logEvidence, oracle.logEvidence, 'log p(e)');
      oracle.posteriors.forEach((posterior, v) => {
        if (net.variables[v]!.kind === 'discrete') {
          posterior.forEach((p, s) => close(answer.discrete[v]![s]!, p, `P(D${v}=${s} | e)`));
        } else {
          close(answer.continuous[v]!.mean, posterior[0]!, `mean of ${net.variables[v]!.name}`);
          close(answer.continuous[v]!.variance, posterior[1]!, `variance of ${net.variables[v]!.name}`);
          const weights = answer.continuous[v]!.components.reduce((s, k) => s + k.weight, 0);
          close(weights, 1, 'component weights');
        }
      });
    }
  });
}

test('impossible evidence, bad evidence and an over-budget enumeration are clear errors', () => {
  const net = randomHybridNetwork({ continuous: 3, discrete: 2, seed: 5 });
  assert.throws(() => hybridPosterior(net, { discrete: new Map([[0, 7]]), continuous: new Map() }), EngineError);
  assert.throws(() => hybridPosterior(net, { discrete: new Map(), continuous: new Map([[0, 1]]) }), /not a continuous/);
  const wide = randomHybridNetwork({ continuous: 60, discrete: 30, maxParents: 3, seed: 9 });
  assert.throws(() => hybridPosterior(wide, none, { budgets: budgetsFor(1) }), /over the budget/);
});
