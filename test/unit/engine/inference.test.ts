import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posteriorMarginals, posteriorQuery } from '../../../server/src/engine/inference.js';
import { enumerate, maxAbsDiff, randomNetwork } from '../../support/networks.js';

test('over the budget a sampler answers and says why; impossible evidence is a clear message', () => {
  const net = randomNetwork(9, 8);
  const exact = posteriorMarginals(net, new Map());
  assert.ok(exact.ok && exact.method === 'exact' && exact.note === undefined);
  const sampled = posteriorMarginals(net, new Map(), { budget: 1, seed: 2, samples: 5000 });
  assert.ok(sampled.ok && sampled.method === 'lw' && sampled.stderr);
  assert.match(sampled.note!, /over the budget of 1/);
  const impossible = {
    name: 'z', variables: [{ name: 'A', states: ['a', 'b'] }],
    cpts: [{ child: 0, parents: [], table: Float64Array.of(1, 0) }],
  };
  for (const method of ['exact', 'lw', 'gibbs'] as const) {
    const r = posteriorMarginals(impossible, new Map([[0, 1]]), { method });
    assert.ok(!r.ok, method);
    assert.match(r.message, /probability 0/);
  }
});

test('posterior queries: joint tables exactly, single variables sampled over the budget', () => {
  const net = randomNetwork(21, 8, 3);
  const evidence = new Map([[7, 0]]);
  const truth = enumerate(net, evidence);
  const single = posteriorQuery(net, [3], evidence);
  assert.ok(single.ok && single.method === 'exact');
  assert.ok(maxAbsDiff(single.factor.values, truth.marginals[3]!) < 1e-12);
  const joint = posteriorQuery(net, [0, 5], evidence);
  assert.ok(joint.ok);
  assert.deepEqual(joint.factor.vars, [0, 5]);
  // Σ over V5 of P(V0, V5 | e) is P(V0 | e).
  const k5 = joint.factor.cards[1]!;
  truth.marginals[0]!.forEach((p, x) => {
    let s = 0;
    for (let y = 0; y < k5; y++) s += joint.factor.values[x * k5 + y]!;
    assert.ok(Math.abs(s - p) < 1e-12);
  });
  const sampled = posteriorQuery(net, [3], evidence, { budget: 1, samples: 5000 });
  assert.ok(sampled.ok && sampled.method === 'lw' && sampled.stderr && sampled.note);
  const refused = posteriorQuery(net, [0, 5], evidence, { budget: 1 });
  assert.ok(!refused.ok);
  assert.match(refused.message, /joint query needs exact inference/);
});
