import { test } from 'node:test';
import assert from 'node:assert/strict';
import { posteriorMarginals, posteriorQuery } from '../../../../server/src/engine/inference/marginals.js';
import { gibbsSampling } from '../../../../server/src/engine/sampling/gibbsSampling.js';
import { enumerate, maxAbsDiff, randomNetwork } from '../../../support/networks.js';

test('over the budget a sampler answers and says why; impossible evidence is a clear message', () => {
  const net = randomNetwork(9, 8);
  const exact = posteriorMarginals(net, new Map());
  assert.ok(exact.ok && exact.method === 'exact' && exact.note === undefined);
  const sampled = posteriorMarginals(net, new Map(), { budget: 1, seed: 2, samples: 5000 });
  assert.ok(sampled.ok && sampled.method === 'lw' && sampled.stderr);
  assert.match(sampled.note!, /over the budget of 1/);
  const impossible = {
    name: 'z',
    variables: [{ name: 'A', states: ['a', 'b'] }],
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

test('networks that cannot be used for inference are refused with the reason', () => {
  const base = randomNetwork(5, 4, 2);
  const withTable = (v: number, table: Float64Array) => ({
    ...base,
    cpts: base.cpts.map((c, i) => (i === v ? { ...c, table } : c)),
  });
  const k0 = base.variables[0]!.states.length;
  const k1 = base.variables[1]!.states.length;
  // V0 → V1 → V0, tables uniform.
  const cycle = () => ({
    ...base,
    cpts: base.cpts.map((c, i) =>
      i === 0
        ? { ...c, parents: [1], table: new Float64Array(k0 * k1).fill(1 / k0) }
        : i === 1
          ? { ...c, parents: [0], table: new Float64Array(k0 * k1).fill(1 / k1) }
          : c,
    ),
  });
  const cases: [string, typeof base, RegExp][] = [
    ['unknown entries', withTable(0, new Float64Array(k0).fill(NaN)), /P\(V0 \| …\) has unknown entries/],
    ['a row not summing to 1', withTable(0, new Float64Array(k0).fill(0.9)), /a row of P\(V0 \| …\) sums to/],
    [
      'a negative entry',
      withTable(
        0,
        Float64Array.from({ length: k0 }, (_, i) => (i === 0 ? -0.5 : 1.5 / (k0 - 1))),
      ),
      /outside \[0, 1\]/,
    ],
    ['a cycle', cycle(), /the network has a cycle: V[01] → V[01] → V[01]/],
  ];
  for (const [what, net, message] of cases) {
    for (const method of ['exact', 'lw', 'gibbs'] as const) {
      const r = posteriorMarginals(net, new Map(), { method });
      assert.ok(!r.ok, `${what} (${method})`);
      assert.match(r.message, message);
    }
    const q = posteriorQuery(net, [1], new Map());
    assert.ok(!q.ok && message.test(q.message), what);
  }
});

test('Gibbs burn-in reaches the sampler: the same answer as calling it directly', () => {
  const net = randomNetwork(5, 7, 2);
  const evidence = new Map([[6, 1]]);
  const viaInference = posteriorMarginals(net, evidence, { method: 'gibbs', samples: 3000, seed: 4, burnIn: 7 });
  const direct = gibbsSampling(net, evidence, { samples: 3000, seed: 4, burnIn: 7 });
  const defaultBurnIn = posteriorMarginals(net, evidence, { method: 'gibbs', samples: 3000, seed: 4 });
  assert.ok(viaInference.ok && defaultBurnIn.ok);
  assert.deepEqual(viaInference.marginals, direct.marginals);
  assert.notDeepEqual(defaultBurnIn.marginals, direct.marginals);
});
