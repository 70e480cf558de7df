import { test } from 'node:test';
import assert from 'node:assert/strict';
import { interactiveMarginals } from '../../../server/src/run/interactiveMarginals.js';
import { exactPlan, posteriorMarginals } from '../../../server/src/engine/inference/marginals.js';
import { hubChain, maxAbsDiff } from '../../support/networks.js';

test("the results panel's clicks keep the full tree, where a one-shot answer would reduce it", () => {
  const net = hubChain();
  const oneShot = posteriorMarginals(hubChain(), new Map([[0, 3]]));
  assert.ok(oneShot.ok);
  assert.match(oneShot.reason!, /reduced by the evidence/);
  const reply = interactiveMarginals(net, { evidence: { H: 'h3' } });
  assert.ok(!('error' in reply), JSON.stringify(reply));
  assert.ok(exactPlan(net).compiled, 'the full tree is compiled and kept for the next click');
  net.variables.forEach((v, i) => assert.ok(maxAbsDiff(reply.marginals[v.name]!, oneShot.marginals[i]!) < 1e-12));
});
