/**
 * `query sensitivity`: the value is P(t | e) by enumeration, and each listed derivative is the
 * slope of P(t | e) when that one parameter moves (its row's other entries co-varying
 * proportionally), measured by enumerating the perturbed network.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enumerate, withParameter } from '../../support/networks.js';
import { close } from '../../support/close.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { assertNoErrors, example, networkOf, resultsOf, run } from './networkHelpers.js';

const forest = example('forest');

function posterior(net: BayesianNetwork): number {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  return enumerate(net, new Map([[index.get('Thunder')!, 0]])).marginals[index.get('ForestFire')!]![0]!;
}

/** The network with θ = P(variable = state | parents) set to `theta`, its row rescaled: the named parameter located, then set. */
function withNamedParameter(
  net: BayesianNetwork,
  p: { variable: string; parents: Record<string, string>; state: string },
  theta: number,
): BayesianNetwork {
  const v = net.variables.findIndex((x) => x.name === p.variable);
  const row = net.cpts[v]!.parents.reduce(
    (r, u) =>
      r * net.variables[u]!.states.length + net.variables[u]!.states.indexOf(p.parents[net.variables[u]!.name]!),
    0,
  );
  return withParameter(net, v, row, net.variables[v]!.states.indexOf(p.state), theta);
}

test('Forest: P(ForestFire = true | Thunder = true) and its derivatives by finite differences', async () => {
  const result = await run(forest);
  assertNoErrors(result);
  const [answer] = resultsOf(result, 'sensitivity');
  const net = networkOf(forest, 'Forest');
  close(answer!.value, posterior(net), 1e-12);
  assert.deepEqual(answer!.target, { variable: 'ForestFire', state: 'true' });
  assert.ok(answer!.parameters.length >= 10);
  const slopes = answer!.parameters.map((p) => Math.abs(p.derivative));
  assert.deepEqual(
    slopes,
    [...slopes].sort((a, b) => b - a),
  );
  const h = 1e-6;
  for (const p of answer!.parameters.slice(0, 8)) {
    const slope =
      (posterior(withNamedParameter(net, p, p.value + h)) - posterior(withNamedParameter(net, p, p.value - h))) /
      (2 * h);
    close(p.derivative, slope, 1e-6, `${p.variable} ${JSON.stringify(p.parents)} ${p.state}`);
  }
  assert.match(answer!.headline, /^most sensitive to P\(/);
});

test('an observed target, or a target without a state, is an error', async () => {
  const observed = await run(`${forest}\nquery sensitivity P(Thunder = true | Thunder = true) in Forest`);
  assert.ok(observed.diagnostics.some((d) => d.code === 'compile-error' && /is observed/.test(d.message)));
  const noState = await run(`${forest}\nquery sensitivity P(ForestFire | Thunder = true) in Forest`);
  assert.ok(
    noState.diagnostics.some((d) => d.severity === 'error' && /sensitivity/.test(d.message)),
    JSON.stringify(noState.diagnostics),
  );
});
