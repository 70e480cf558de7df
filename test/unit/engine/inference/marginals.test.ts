import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  exactPlan,
  posteriorMarginals,
  posteriorQuery,
  REDUCTION_MIN_ENTRIES,
} from '../../../../server/src/engine/inference/marginals.js';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { normalized } from '../../../../server/src/engine/factors/factor.js';
import { createRng } from '../../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { gibbsSampling } from '../../../../server/src/engine/sampling/gibbsSampling.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import { enumerate, maxAbsDiff, randomEvidence, randomNetwork, twoNodes } from '../../../support/networks.js';
import { eliminationPlan, variableElimination } from '../../../../server/src/engine/inference/variableElimination.js';
import { cardinalities } from '../../../../server/src/engine/inference/eliminationOrder.js';

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

test('auto decides on the junction tree in bytes against the memory budget, and says so', () => {
  const net = randomNetwork(9, 8);
  const plan = exactPlan(net);
  // The total of the maximal cliques, recomputed from the compiled tree.
  assert.equal(plan.entries, plan.tree().totalSize);
  assert.equal(plan.bytes, plan.tree().bytes);
  const fits = posteriorMarginals(net, new Map(), { memoryBytes: 2 * plan.bytes });
  assert.ok(fits.ok && fits.method === 'exact' && fits.note === undefined);
  assert.match(fits.reason!, new RegExp(`^exact \\(junction tree\\): .* ${plan.entries} clique entries .* within`));
  // Over the tree's budget each variable's own pruned elimination still fits: exact, no warning.
  const tight = posteriorMarginals(net, new Map(), { memoryBytes: 2 * plan.bytes - 2 });
  assert.ok(tight.ok && tight.method === 'exact' && tight.note === undefined && tight.stderr === undefined);
  assert.match(tight.reason!, /^exact \(variable elimination per variable, each on the network pruned for it\): /);
  assert.match(tight.reason!, new RegExp(`${plan.entries} clique entries .* over its memory budget`));
  assert.ok(fits.ok);
  tight.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, fits.marginals[v]!) < 1e-12));
  // When an elimination does not fit either, a sampler answers and says why.
  const tiny = posteriorMarginals(net, new Map(), { memoryBytes: 64, seed: 3, samples: 2000 });
  assert.ok(tiny.ok && tiny.method === 'lw' && tiny.stderr);
  assert.match(tiny.note!, new RegExp(`${plan.entries} clique entries .* over its memory budget`));
  assert.match(tiny.reason!, /^likelihood weighting: /);
  // V6 and V7 have ancestors to eliminate: over a one-entry budget their elimination does not fit either.
  const joint = posteriorQuery(net, [6, 7], new Map(), { memoryBytes: 8 });
  assert.ok(!joint.ok);
  assert.match(joint.message, /a joint query needs exact inference, which needs a junction tree of/);
});

test('over the junction tree budget, per-variable elimination is exact: enumeration, evidence, impossible evidence', () => {
  for (const seed of [31, 32, 33]) {
    const net = randomNetwork(seed, 9, 3, true);
    const plan = exactPlan(net);
    const evidence = new Map([
      [8, 1],
      [2, 0],
    ]);
    const truth = enumerate(net, evidence);
    const r = posteriorMarginals(net, evidence, { memoryBytes: plan.bytes });
    if (truth.pEvidence === 0) {
      assert.ok(!r.ok);
      assert.match(r.message, /probability 0/);
      continue;
    }
    assert.ok(r.ok && r.method === 'exact' && /variable elimination per variable/.test(r.reason!), `seed ${seed}`);
    r.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, truth.marginals[v]!) < 1e-12, `seed ${seed}, V${v}`));
    // A query alone, joint or single, is answered by its own elimination the same way.
    for (const query of [[3], [0, 5]]) {
      const q = posteriorQuery(net, query, evidence, { memoryBytes: plan.bytes });
      assert.ok(q.ok && q.method === 'exact' && q.stderr === undefined, `seed ${seed}, ${query}`);
      if (query.length === 1) assert.ok(maxAbsDiff(q.factor.values, truth.marginals[3]!) < 1e-12);
      else {
        // Summing the joint over each variable gives its marginal.
        const [k0, k1] = q.factor.cards as [number, number];
        const m0 = Array.from({ length: k0 }, (_, a) =>
          [...Array(k1).keys()].reduce((s, b) => s + q.factor.values[a * k1 + b]!, 0),
        );
        const m1 = Array.from({ length: k1 }, (_, b) =>
          [...Array(k0).keys()].reduce((s, a) => s + q.factor.values[a * k1 + b]!, 0),
        );
        assert.ok(maxAbsDiff(m0, truth.marginals[0]!) < 1e-12 && maxAbsDiff(m1, truth.marginals[5]!) < 1e-12);
      }
    }
  }
  const impossible = twoNodes([1, 0], [0.5, 0.5, 0.5, 0.5]);
  const r = posteriorMarginals(impossible, new Map([[0, 1]]), { memoryBytes: 8 * 8 });
  assert.ok(!r.ok);
  assert.match(r.message, /probability 0/);
});

test('per-variable elimination shares reduced CPTs between queries and sets aside parts the evidence cuts off: enumeration', () => {
  // 12 variables, up to 4 parents, a third observed: queries whose pruned factors fall apart
  // (the disconnected rest set aside) and buckets of several factors, against enumeration.
  let split = 0;
  for (const seed of [41, 42, 43, 44]) {
    const net = randomNetwork(seed, 12, 4);
    const evidence = randomEvidence(seed, cardinalities(net));
    const truth = enumerate(net, evidence);
    if (truth.pEvidence === 0) continue;
    const r = posteriorMarginals(net, evidence, { memoryBytes: exactPlan(net).bytes });
    assert.ok(r.ok && /variable elimination per variable/.test(r.reason!), `seed ${seed}`);
    r.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, truth.marginals[v]!) < 1e-12, `seed ${seed}, V${v}`));
    assert.ok(Math.abs(r.logEvidence! - Math.log(truth.pEvidence)) < 1e-10, `seed ${seed}: log P(e)`);
    for (let v = 0; v < 12; v++) if (!evidence.has(v) && eliminationPlan(net, [v], evidence).rest.length) split++;
  }
  assert.ok(split > 0, 'some query had a part cut off by the evidence');
});

test('per-variable eliminations write their messages into one pool: the same bits as each query alone', () => {
  // The answer's eliminations reuse consumed messages' tables (factors.tablePool); a table given
  // back too early, or read after reuse, would change some later query's numbers.
  for (const seed of [51, 52, 53, 54, 55]) {
    const net = randomNetwork(seed, 14, 4);
    const evidence = randomEvidence(seed, cardinalities(net));
    if (enumerate(net, evidence).pEvidence === 0) continue;
    const r = posteriorMarginals(net, evidence, { memoryBytes: exactPlan(net).bytes });
    assert.ok(r.ok && /variable elimination per variable/.test(r.reason!), `seed ${seed}`);
    r.marginals.forEach((m, v) => {
      if (evidence.has(v)) return;
      assert.deepEqual(
        Array.from(m),
        Array.from(variableElimination(net, [v], evidence).factor.values),
        `seed ${seed}, V${v}`,
      );
    });
  }
});

test('per-variable elimination stops when cancelled', () => {
  const net = randomNetwork(31, 9, 3);
  const memoryBytes = exactPlan(net).bytes;
  let checks = 0;
  // Aborted after a few checks: somewhere inside the loop over the variables, not before it.
  const signal = {
    get aborted() {
      return ++checks > 3;
    },
  };
  assert.throws(() => posteriorMarginals(net, new Map(), { memoryBytes, signal }), CancelledError);
  assert.ok(checks > 3);
});

test('the cost model: per-variable elimination answers when it is cheaper than a big tree, with the same numbers', () => {
  // Six roots of 10 states and one child of 2: the tree holds the child's 2 × 10⁶-entry family,
  // but each root's query is its own prior and only the child's eliminates the family, once.
  const rng = createRng(5);
  const roots = Array.from({ length: 6 }, (_, i) => ({ name: `R${i}`, states: [...Array(10).keys()].map(String) }));
  const prior = (k: number) => normalized(Float64Array.from({ length: k }, () => 0.1 + rng.next()));
  const rows = 10 ** 6;
  const table = new Float64Array(2 * rows);
  for (let r = 0; r < rows; r++) table.set(prior(2), 2 * r);
  const net: BayesianNetwork = {
    name: 'wide',
    variables: [...roots, { name: 'C', states: ['no', 'yes'] }],
    cpts: [
      ...roots.map((_, i) => ({ child: i, parents: [], table: prior(10) })),
      { child: 6, parents: [0, 1, 2, 3, 4, 5], table },
    ],
  };
  const plan = exactPlan(net);
  assert.ok(plan.entries >= REDUCTION_MIN_ENTRIES);
  const tree = JunctionTree.compile(net);
  for (const evidence of [new Map<number, number>(), new Map([[0, 3]])]) {
    const r = posteriorMarginals(net, evidence);
    assert.ok(r.ok && r.method === 'exact');
    assert.match(r.reason!, /^exact \(variable elimination per variable, each on the network pruned for it\): /);
    assert.match(r.reason!, /cheaper than a junction tree of \d+ clique entries/);
    tree.setEvidence(evidence);
    tree.propagate();
    r.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, tree.marginal(v)) < 1e-12, `V${v}`));
    assert.ok(Math.abs(r.logEvidence! - tree.logEvidence) < 1e-12);
  }
  // With the tree compiled and kept (the results panel), one propagation answers.
  const kept = posteriorMarginals(net, new Map(), { keepTree: true });
  assert.ok(kept.ok && /^exact \(junction tree\)/.test(kept.reason!));
  // Observing the child makes every root's query eliminate the family: the tree is cheaper.
  const observed = posteriorMarginals(net, new Map([[6, 1]]));
  assert.ok(observed.ok && /^exact \(junction tree/.test(observed.reason!), observed.ok ? observed.reason : '');
});
