import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  configurationIndex,
  configurationStates,
  hybridNetworkProblems,
  hybridTopologicalOrder,
  linearGaussian,
  validateHybridNetwork,
  type HybridNetwork,
} from '../../../../server/src/engine/gaussian/hybridNetwork.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';

function sample(): HybridNetwork {
  return {
    name: 'n',
    variables: [
      { kind: 'continuous', name: 'Y' },
      { kind: 'discrete', name: 'A', states: ['a0', 'a1'] },
      { kind: 'discrete', name: 'B', states: ['b0', 'b1', 'b2'] },
      { kind: 'continuous', name: 'X' },
    ],
    cpds: [
      { kind: 'gaussian', cpd: linearGaussian(0, [], 1, [], 2) },
      { kind: 'discrete', cpt: { child: 1, parents: [], table: Float64Array.of(0.5, 0.5) } },
      { kind: 'discrete', cpt: { child: 2, parents: [1], table: Float64Array.of(0.2, 0.3, 0.5, 0.1, 0.1, 0.8) } },
      {
        kind: 'gaussian',
        cpd: {
          child: 3,
          discreteParents: [1, 2],
          continuousParents: [0],
          intercepts: Float64Array.from({ length: 6 }, (_, d) => d),
          coefficients: Float64Array.from({ length: 6 }, (_, d) => -d),
          variances: Float64Array.from({ length: 6 }, (_, d) => d + 1),
        },
      },
    ],
  };
}

test('configurations are numbered first discrete parent slowest, as CPT rows', () => {
  const net = sample();
  const cpd = (net.cpds[3] as { kind: 'gaussian'; cpd: Parameters<typeof configurationIndex>[1] }).cpd;
  assert.equal(configurationIndex(net, cpd, [0, 1, 2, 0]), 5);
  assert.equal(configurationIndex(net, cpd, [0, 0, 1, 0]), 1);
  assert.deepEqual(configurationStates(net, cpd, 4), [1, 1]);
  assert.deepEqual(hybridNetworkProblems(net), []);
  const order = hybridTopologicalOrder(net);
  assert.ok('order' in order);
  assert.ok(order.order.indexOf(0) < order.order.indexOf(3) && order.order.indexOf(2) < order.order.indexOf(3));
});

test('the CLG rules and sizes are checked, each problem in words', () => {
  const discreteChildOfContinuous = sample();
  discreteChildOfContinuous.cpds[2] = {
    kind: 'discrete',
    cpt: { child: 2, parents: [1, 0], table: new Float64Array(6) },
  };
  assert.match(
    hybridNetworkProblems(discreteChildOfContinuous)[0]!,
    /'B' is discrete, so its parent 'Y' must be discrete too/,
  );
  const badVariance = sample();
  (badVariance.cpds[3] as { cpd: { variances: Float64Array } }).cpd.variances[4] = 0;
  assert.match(
    hybridNetworkProblems(badVariance)[0]!,
    /variance of 'X' given A=a1, B=b1 must be a finite number > 0, got 0/,
  );
  const missingConfiguration = sample();
  (missingConfiguration.cpds[3] as { cpd: { intercepts: Float64Array } }).cpd.intercepts = new Float64Array(5);
  assert.match(hybridNetworkProblems(missingConfiguration)[0]!, /needs 6 regression\(s\), one per configuration/);
  const cycle = sample();
  cycle.cpds[0] = { kind: 'gaussian', cpd: linearGaussian(0, [3], 0, [1], 1) };
  assert.match(hybridNetworkProblems(cycle)[0]!, /cycle: (Y → X|X → Y)/);
  assert.throws(() => validateHybridNetwork(cycle), EngineError);
});
