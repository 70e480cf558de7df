import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sensitivity } from '../../../../server/src/engine/inference/sensitivity.js';
import { variableElimination } from '../../../../server/src/engine/inference/variableElimination.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import type { Evidence } from '../../../../server/src/engine/inference/junctionTree.js';
import { evidenceOf, loadBif, randomNetwork, withParameter } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

function posterior(net: BayesianNetwork, t: number, evidence: Evidence): Float64Array {
  return variableElimination(net, [t], evidence).factor.values;
}

function checkAgainstFiniteDifferences(
  net: BayesianNetwork,
  target: { variable: number; state: number },
  evidence: Evidence,
  top: number,
): void {
  const answer = sensitivity(net, target, evidence, { top });
  assert.ok(Math.abs(answer.value - posterior(net, target.variable, evidence)[target.state]!) < 1e-12);
  for (const p of answer.parameters.slice(0, top)) {
    const h = Math.min(1e-5, p.value / 2, (1 - p.value) / 2);
    const up = posterior(withParameter(net, p.variable, p.row, p.state, p.value + h), target.variable, evidence)[
      target.state
    ]!;
    const down = posterior(withParameter(net, p.variable, p.row, p.state, p.value - h), target.variable, evidence)[
      target.state
    ]!;
    const fd = (up - down) / (2 * h);
    assert.ok(
      Math.abs(fd - p.derivative) < 1e-6 + 1e-5 * Math.abs(p.derivative),
      `V${p.variable} row ${p.row} state ${p.state}: ${p.derivative} vs ${fd}`,
    );
    // The most probable state holds inside the interval and changes just outside its ends.
    const [lo, hi] = p.interval!;
    const best = (theta: number) => {
      const q = posterior(withParameter(net, p.variable, p.row, p.state, theta), target.variable, evidence);
      return q.indexOf(Math.max(...q));
    };
    assert.equal(best((lo + p.value) / 2), answer.mostProbable);
    assert.equal(best((hi + p.value) / 2), answer.mostProbable);
    if (lo > 1e-6) assert.notEqual(best(lo - 1e-6), answer.mostProbable, 'lower end');
    if (hi < 1 - 1e-6) assert.notEqual(best(hi + 1e-6), answer.mostProbable, 'upper end');
  }
  for (let i = 1; i < answer.parameters.length; i++) {
    assert.ok(
      Math.abs(answer.parameters[i - 1]!.derivative) >= Math.abs(answer.parameters[i]!.derivative),
      'ranked by |derivative|',
    );
  }
}

test('sensitivity derivatives and decision intervals match finite differences on random networks', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const net = randomNetwork(seed, 6);
    checkAgainstFiniteDifferences(net, { variable: 0, state: 0 }, new Map([[5, 1]]), 6);
  }
});

test('asia: sensitivity of P(lung = yes | xray = yes, dysp = yes) matches finite differences', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const v = (name: string) => net.variables.findIndex((x) => x.name === name);
  const evidence = evidenceOf(net, { xray: 'yes', dysp: 'yes' });
  checkAgainstFiniteDifferences(net, { variable: v('lung'), state: 0 }, evidence, 5);
});

test('an observed target is a clear error', () => {
  const net = randomNetwork(3, 4);
  assert.throws(() => sensitivity(net, { variable: 1, state: 0 }, new Map([[1, 0]])), /target variable is observed/);
});
