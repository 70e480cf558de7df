import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  reduceByEvidence,
  reducedMarginals,
  reducedPlan,
  shrunkenEntries,
} from '../../../../server/src/engine/inference/evidenceReduction.js';
import { ImpossibleEvidenceError, type Evidence } from '../../../../server/src/engine/inference/junctionTree.js';
import {
  REDUCTION_MIN_ENTRIES,
  exactPlan,
  posteriorMarginals,
} from '../../../../server/src/engine/inference/marginals.js';
import {
  probabilityOfEvidence,
  variableElimination,
} from '../../../../server/src/engine/inference/variableElimination.js';
import { virtualEvidenceNetwork } from '../../../../server/src/engine/inference/softEvidence.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { createRng } from '../../../../server/src/engine/random.js';
import {
  HUB_CHAIN,
  enumerate,
  hubChain,
  maxAbsDiff,
  randomEvidence,
  randomNetwork,
  twoNodes,
} from '../../../support/networks.js';

/** Every marginal and log P(e) of the reduced tree against brute-force enumeration, to 1e-12. */
function assertMatchesEnumeration(net: BayesianNetwork, evidence: Evidence, label: string): void {
  const truth = enumerate(net, evidence);
  const { marginals, logEvidence } = reducedMarginals(net, evidence, reducedPlan(net, evidence));
  assert.ok(Math.abs(Math.exp(logEvidence) - truth.pEvidence) < 1e-12, `${label}: P(e)`);
  assert.ok(Math.abs(logEvidence - Math.log(truth.pEvidence)) < 1e-12, `${label}: log P(e)`);
  marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, truth.marginals[v]!) < 1e-12, `${label}: V${v}`));
}

/** Evidence on the given variables, each in a random state of positive probability (seeded). */
function evidenceOn(net: BayesianNetwork, vars: readonly number[], seed: number): Map<number, number> {
  const rng = createRng(seed);
  const evidence = new Map<number, number>();
  for (const v of vars) {
    // A state with P(v = s | evidence so far) > 0 keeps the evidence possible.
    const p = enumerate(net, evidence).marginals[v]!;
    const states = [...p.keys()].filter((s) => p[s]! > 0);
    evidence.set(v, states[rng.int(states.length)]!);
  }
  return evidence;
}

const roots = (net: BayesianNetwork) => net.cpts.filter((c) => c.parents.length === 0).map((c) => c.child);
const leaves = (net: BayesianNetwork) =>
  net.variables.map((_, v) => v).filter((v) => !net.cpts.some((c) => c.parents.includes(v)));

test('random networks, random hard evidence: every marginal and P(e) as brute-force enumeration', () => {
  for (let seed = 1; seed <= 40; seed++) {
    const net = randomNetwork(seed, 5 + (seed % 6), 3, seed % 3 === 0);
    const evidence = randomEvidence(
      seed * 7,
      net.variables.map((v) => v.states.length),
    );
    if (enumerate(net, evidence).pEvidence === 0) continue; // impossible evidence: its own test
    assertMatchesEnumeration(net, evidence, `seed ${seed}`);
  }
});

test('evidence on the roots, on the leaves, on everything and on nothing', () => {
  for (let seed = 50; seed < 60; seed++) {
    const net = randomNetwork(seed, 8, 3);
    const all = net.variables.map((_, v) => v);
    for (const [what, vars] of [
      ['roots', roots(net)],
      ['leaves', leaves(net)],
      ['every variable', all],
      ['no variable', []],
    ] as const) {
      assertMatchesEnumeration(net, evidenceOn(net, vars, seed), `seed ${seed}, ${what}`);
    }
  }
});

test('evidence that cuts the graph apart: a forest of small trees, each part exact', () => {
  // A → B → C → D → E, and B → F ← G: observing B and D leaves {A}, {C}, {E}, {F, G}.
  const net = chainWithCollider();
  const evidence = new Map([
    [1, 1],
    [3, 0],
  ]);
  const plan = reducedPlan(net, evidence);
  assert.deepEqual(plan.reduction.original, [0, 2, 4, 5, 6]);
  // B's and D's CPTs became likelihoods of A and C; F's CPT, sliced at B, still a CPT of F given G.
  assert.deepEqual(
    plan.reduction.likelihoods.map((f) => f.vars.map((u) => plan.reduction.original[u])),
    [[0], [2]],
  );
  assert.deepEqual(plan.reduction.net.cpts[3]!.parents, [4]);
  assert.ok(plan.layout.parent.filter((p) => p < 0).length >= 3, 'one tree per part');
  assertMatchesEnumeration(net, evidence, 'chain');
  for (let seed = 70; seed < 80; seed++) {
    const random = randomNetwork(seed, 9, 2);
    // The variables with the most neighbours: observing them disconnects the most.
    const degree = random.variables.map(
      (_, v) => random.cpts[v]!.parents.length + random.cpts.filter((c) => c.parents.includes(v)).length,
    );
    const hubs = degree
      .map((d, v) => [d, v] as const)
      .sort((a, b) => b[0] - a[0])
      .slice(0, 3)
      .map(([, v]) => v);
    assertMatchesEnumeration(random, evidenceOn(random, hubs, seed), `seed ${seed}, hubs`);
  }
});

test('a reduced tree agrees with variable elimination on networks too big to enumerate', () => {
  for (let seed = 90; seed < 95; seed++) {
    const net = randomNetwork(seed, 40, 3, true);
    const evidence = evidenceOn(smallPrefix(net), [0, 3, 5, 8], seed);
    const { marginals, logEvidence } = reducedMarginals(net, evidence, reducedPlan(net, evidence));
    assert.ok(Math.abs(logEvidence - probabilityOfEvidence(net, evidence)) < 1e-12, `seed ${seed}: log P(e)`);
    for (let v = 0; v < net.variables.length; v++) {
      const ve = variableElimination(net, [v], evidence).factor.values;
      assert.ok(maxAbsDiff(marginals[v]!, ve) < 1e-12, `seed ${seed}: V${v}`);
    }
  }
});

test('impossible evidence: the reduced tree throws, posteriorMarginals says probability 0', () => {
  // A root observed in a state of probability 0: P(e) is a factor outside the tree.
  const root = twoNodes([1, 0], [0.3, 0.7, 0.6, 0.4]);
  const atRoot = new Map([[0, 1]]);
  assert.throws(() => reducedMarginals(root, atRoot, reducedPlan(root, atRoot)), ImpossibleEvidenceError);
  // Evidence each possible alone but not together: the zero is found inside the tree.
  const net = randomNetwork(3, 6, 2, true);
  const zero = findImpossibleEvidence(net);
  assert.throws(() => reducedMarginals(net, zero, reducedPlan(net, zero)), ImpossibleEvidenceError);
  const answer = posteriorMarginals(net, zero);
  assert.ok(!answer.ok);
  assert.match(answer.message, /probability 0/);
});

test('posteriorMarginals takes the reduced tree when it is clearly smaller, and says so', () => {
  const net = hubChain();
  const evidence = new Map([
    [0, 3],
    [HUB_CHAIN / 2, 2],
  ]);
  const full = exactPlan(net);
  assert.ok(full.entries >= REDUCTION_MIN_ENTRIES, `${full.entries}`);
  const plan = reducedPlan(net, evidence);
  assert.ok(plan.entries < full.entries / 10, `${plan.entries} vs ${full.entries}`);
  assert.ok(plan.layout.parent.filter((p) => p < 0).length >= 2, 'the observed link cuts the chain in two');
  const answer = posteriorMarginals(net, evidence);
  assert.ok(answer.ok && answer.method === 'exact');
  assert.match(answer.reason!, /reduced by the evidence, 2 observed variables instantiated and removed/);
  assert.match(answer.reason!, new RegExp(`${plan.entries} clique entries .* vs ${full.entries} for the full`));
  assert.ok(!full.compiled, 'the full tree was not compiled');
  answerMatches(answer, answerOfFullTree(net, evidence));
  for (const v of [1, 2, HUB_CHAIN / 2 - 1, HUB_CHAIN / 2 + 1, HUB_CHAIN]) {
    const ve = variableElimination(net, [v], evidence).factor.values;
    assert.ok(maxAbsDiff(answer.marginals[v]!, ve) < 1e-12, `X${v}`);
  }
  // Observed variables are point masses.
  for (const [v, s] of evidence) assert.equal(answer.marginals[v]![s], 1);
});

test('the full tree answers when the caller keeps it, once it is compiled, when small, and when reducing saves little', () => {
  const net = hubChain();
  const evidence = new Map([[0, 5]]);
  const kept = posteriorMarginals(net, evidence, { keepTree: true });
  assert.ok(kept.ok);
  assert.match(kept.reason!, /^exact \(junction tree\)/);
  assert.ok(exactPlan(net).compiled, 'the full tree was compiled and kept');
  // Compiled: the next one-shot answer is one propagation on it, whatever the evidence.
  const next = posteriorMarginals(net, evidence);
  assert.ok(next.ok);
  assert.match(next.reason!, /^exact \(junction tree\): [^;]*$/);
  answerMatches(next, kept);
  // One observed leaf barely shrinks the tree: the full one answers and the reason says why.
  const other = hubChain();
  const little = posteriorMarginals(other, new Map([[HUB_CHAIN, 0]]));
  assert.ok(little.ok);
  assert.match(little.reason!, /^exact \(junction tree\).*without the observed variables .* not clearly fewer/);
  // A small tree is compiled as it is, however much the evidence would cut it.
  const small = randomNetwork(103, 30, 3);
  const many = evidenceOn(smallPrefix(small), [1, 2, 4, 6, 8, 9], 6);
  assert.ok(reducedPlan(small, many).entries < exactPlan(small).entries / 2);
  const plain = posteriorMarginals(small, many);
  assert.ok(plain.ok);
  assert.match(plain.reason!, /^exact \(junction tree\): [^;]*$/);
});

test('over budget, per-variable elimination comes first; the reduced tree answers where it alone fits', () => {
  const net = randomNetwork(104, 30, 3);
  const evidence = evidenceOn(smallPrefix(net), [1, 2, 4, 6, 8, 9], 7);
  const full = exactPlan(net);
  const plan = reducedPlan(net, evidence);
  assert.ok(plan.order.maxCliqueSize < full.order.maxCliqueSize);
  // A memory budget the full tree does not fit: each variable's own elimination answers.
  const byElimination = posteriorMarginals(net, evidence, { memoryBytes: plan.bytes + full.bytes });
  assert.ok(byElimination.ok && byElimination.method === 'exact');
  assert.match(byElimination.reason!, /^exact \(variable elimination per variable/);
  // A clique budget (no per-variable elimination then) that the reduced tree's cliques fit.
  const answer = posteriorMarginals(net, evidence, { budget: plan.order.maxCliqueSize });
  assert.ok(answer.ok && answer.method === 'exact');
  assert.match(
    answer.reason!,
    /reduced by the evidence.*; the full network's tree would need a clique table of .* over/,
  );
  answerMatches(answer, answerOfFullTree(net, evidence));
  byElimination.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, answer.marginals[v]!) < 1e-12, `V${v}`));
});

test('virtual evidence nodes are reduced like any observation: the same answer as the full tree', () => {
  const net = randomNetwork(105, 12, 3);
  const likelihoods = new Map([
    [2, [0.9, 0.2, 0.5].slice(0, net.variables[2]!.states.length)],
    [7, [0.1, 0.8, 0.3].slice(0, net.variables[7]!.states.length)],
  ]);
  const v = virtualEvidenceNetwork(net, new Map([[4, 0]]), { likelihoods });
  const truth = enumerate(v.net, v.evidence);
  const { marginals, logEvidence } = reducedMarginals(v.net, v.evidence, reducedPlan(v.net, v.evidence));
  assert.ok(Math.abs(Math.exp(logEvidence) - truth.pEvidence) < 1e-12);
  marginals.forEach((m, u) => assert.ok(maxAbsDiff(m, truth.marginals[u]!) < 1e-12, `V${u}`));
});

test('the full tree without the observed variables: its entries, the cheap guide to reducing', () => {
  const net = randomNetwork(107, 12, 3);
  const full = exactPlan(net);
  const cards = net.variables.map((v) => v.states.length);
  assert.equal(shrunkenEntries(full.layout!, cards, new Map()), full.entries);
  const all = new Map(net.variables.map((_, v) => [v, 0]));
  assert.equal(shrunkenEntries(full.layout!, cards, all), full.layout!.cliques.length);
  const one = new Map([[5, 0]]);
  const expected = full.layout!.cliques.reduce((n, c) => n + c.reduce((m, v) => m * (v === 5 ? 1 : cards[v]!), 1), 0);
  assert.equal(shrunkenEntries(full.layout!, cards, one), expected);
});

test('the reduced network: unobserved CPTs sliced, still rows summing to 1', () => {
  const net = randomNetwork(106, 10, 3);
  const evidence = new Map([
    [0, 1],
    [5, 0],
  ]);
  const r = reduceByEvidence(net, evidence);
  assert.equal(r.net.variables.length, 8);
  for (const cpt of r.net.cpts) {
    const k = r.net.variables[cpt.child]!.states.length;
    for (let o = 0; o < cpt.table.length; o += k) {
      let sum = 0;
      for (let x = 0; x < k; x++) sum += cpt.table[o + x]!;
      assert.ok(Math.abs(sum - 1) < 1e-12);
    }
  }
  assert.throws(() => reduceByEvidence(net, new Map([[0, 9]])), RangeError);
});

/** A → B → C → D → E and B → F ← G, binary, fixed numbers. */
function chainWithCollider(): BayesianNetwork {
  const states = ['x', 'y'];
  const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
  const parents = [[], [0], [1], [2], [3], [1, 6], []];
  const rng = createRng(11);
  return {
    name: 'chain',
    variables: names.map((name) => ({ name, states })),
    cpts: parents.map((ps, v) => {
      const rows = 1 << ps.length;
      const table = new Float64Array(rows * 2);
      for (let r = 0; r < rows; r++) {
        const p = 0.1 + 0.8 * rng.next();
        table[2 * r] = p;
        table[2 * r + 1] = 1 - p;
      }
      return { child: v, parents: ps, table };
    }),
  };
}

/** The first 10 variables of `net` (they have no parents outside): small enough to enumerate. */
function smallPrefix(net: BayesianNetwork): BayesianNetwork {
  const n = 10;
  return { ...net, variables: net.variables.slice(0, n), cpts: net.cpts.slice(0, n) };
}

/** Two evidence values each of positive probability whose conjunction has probability 0. */
function findImpossibleEvidence(net: BayesianNetwork): Map<number, number> {
  const cards = net.variables.map((v) => v.states.length);
  for (let a = 0; a < cards.length; a++)
    for (let b = a + 1; b < cards.length; b++)
      for (let s = 0; s < cards[a]!; s++)
        for (let t = 0; t < cards[b]!; t++) {
          const e = new Map([
            [a, s],
            [b, t],
          ]);
          if (enumerate(net, e).pEvidence === 0) return e;
        }
  throw new Error('no impossible pair: pick another seed');
}

function answerOfFullTree(
  net: BayesianNetwork,
  evidence: Evidence,
): { marginals: Float64Array[]; logEvidence: number } {
  const jt = exactPlan({ ...net }).tree(); // a copy: its own cached plan, so the net's stays uncompiled
  jt.setEvidence(evidence);
  jt.propagate();
  return { marginals: net.variables.map((_, v) => jt.marginal(v)), logEvidence: jt.logEvidence };
}

function answerMatches(
  a: { marginals: Float64Array[]; logEvidence?: number },
  b: { marginals: Float64Array[]; logEvidence?: number },
): void {
  assert.ok(Math.abs(a.logEvidence! - b.logEvidence!) < 1e-12);
  a.marginals.forEach((m, v) => assert.ok(maxAbsDiff(m, b.marginals[v]!) < 1e-12, `V${v}`));
}
