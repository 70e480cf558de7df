/**
 * The diagram under its optimal strategy (engine/decisions/optimalPolicy.ts) against brute force:
 * every deterministic strategy enumerated, its expected utility and marginals summed over the
 * joint by definition; the best strategy's marginals and utility values equal ours to 1e-9.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import type { InfluenceDiagram } from '../../../../server/src/engine/decisions/influenceDiagram.js';
import { underOptimalPolicy } from '../../../../server/src/engine/decisions/optimalPolicy.js';

/** Raiffa's wildcatter with a chance child of the decision: Revenue | Drill, Oil. */
function wildcatter(): InfluenceDiagram {
  const variables = [
    { name: 'Oil', states: ['dry', 'wet', 'soaking'] },
    { name: 'Test', states: ['yes', 'no'] },
    { name: 'Seismic', states: ['none', 'closed', 'open', 'diffuse'] },
    { name: 'Drill', states: ['yes', 'no'] },
    { name: 'Revenue', states: ['none', 'some', 'much'] },
  ];
  const seismic = [
    [0, 0.1, 0.3, 0.6],
    [1, 0, 0, 0],
    [0, 0.3, 0.4, 0.3],
    [1, 0, 0, 0],
    [0, 0.5, 0.4, 0.1],
    [1, 0, 0, 0],
  ].flat();
  // P(Revenue | Drill, Oil): no revenue without drilling.
  const revenue = [
    [0.9, 0.1, 0],
    [0.2, 0.6, 0.2],
    [0.05, 0.25, 0.7],
    [1, 0, 0],
    [1, 0, 0],
    [1, 0, 0],
  ].flat();
  const net: BayesianNetwork = {
    name: 'wildcatter',
    variables,
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.3, 0.2) },
      { child: 1, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 2, parents: [0, 1], table: Float64Array.from(seismic) },
      { child: 3, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 4, parents: [3, 0], table: Float64Array.from(revenue) },
    ],
  };
  return {
    name: 'wildcatter',
    network: net,
    decisions: [
      { variable: 1, information: [] },
      { variable: 3, information: [2] },
    ],
    utilities: [
      { name: 'Payoff', parents: [3, 0], table: Float64Array.of(-70, 50, 200, 0, 0, 0) },
      { name: 'Cost', parents: [1], table: Float64Array.of(-10, 0) },
      { name: 'Bonus', parents: [4], table: Float64Array.of(0, 5, 12) },
    ],
  };
}

interface Outcome {
  eu: number;
  marginals: number[][];
  utilities: number[];
}

/** Every strategy's outcome given the evidence: decision k maps the chance variables known by then to an option */
function everyStrategy(id: InfluenceDiagram, evidence: Map<number, number>): Outcome[] {
  const net = id.network;
  const cards = net.variables.map((v) => v.states.length);
  const decisions = id.decisions.map((d) => d.variable);
  const known = id.decisions.map((_, k) =>
    [...new Set(id.decisions.slice(0, k + 1).flatMap((d) => d.information))].filter((v) => !decisions.includes(v)),
  );
  const contexts = known.map((set) => set.reduce((c, v) => c * cards[v]!, 1));
  const sizes = decisions.map((d, k) => cards[d]! ** contexts[k]!);
  const count = sizes.reduce((a, b) => a * b, 1);
  const total = cards.reduce((a, b) => a * b, 1);
  const out: Outcome[] = [];
  for (let index = 0; index < count; index++) {
    let rest = index;
    const rule = decisions.map((d, k) => {
      let local = rest % sizes[k]!;
      rest = Math.floor(rest / sizes[k]!);
      return Array.from({ length: contexts[k]! }, () => {
        const a = local % cards[d]!;
        local = Math.floor(local / cards[d]!);
        return a;
      });
    });
    const marginals = cards.map((c) => new Array<number>(c).fill(0));
    const utilities = id.utilities.map(() => 0);
    let mass = 0;
    const x = new Array<number>(cards.length).fill(0);
    for (let i = 0; i < total; i++) {
      let r = i;
      for (let v = cards.length - 1; v >= 0; v--) {
        x[v] = r % cards[v]!;
        r = Math.floor(r / cards[v]!);
      }
      if ([...evidence].some(([v, s]) => x[v] !== s)) continue;
      let p = 1;
      decisions.forEach((d, k) => {
        const c = known[k]!.reduce((a, v) => a * cards[v]! + x[v]!, 0);
        if (rule[k]![c] !== x[d]) p = 0;
      });
      for (const cpt of net.cpts) {
        if (decisions.includes(cpt.child) || p === 0) continue;
        const row = cpt.parents.reduce((a, u) => a * cards[u]! + x[u]!, 0);
        p *= cpt.table[row * cards[cpt.child]! + x[cpt.child]!]!;
      }
      if (p === 0) continue;
      mass += p;
      x.forEach((s, v) => (marginals[v]![s]! += p));
      id.utilities.forEach(
        (u, j) => (utilities[j]! += p * u.table[u.parents.reduce((a, v) => a * cards[v]! + x[v]!, 0)]!),
      );
    }
    if (mass === 0) continue; // the strategy contradicts a decision fixed by the evidence
    out.push({
      eu: utilities.reduce((a, b) => a + b, 0) / mass,
      marginals: marginals.map((m) => m.map((p) => p / mass)),
      utilities: utilities.map((u) => u / mass),
    });
  }
  return out;
}

function check(id: InfluenceDiagram, evidence: Map<number, number>): void {
  const ours = underOptimalPolicy(id, evidence);
  const all = everyStrategy(id, evidence);
  const best = Math.max(...all.map((o) => o.eu));
  assert.ok(Math.abs(ours.meu - best) < 1e-9, `MEU ${ours.meu} vs ${best}`);
  // The optimal strategies differ only in contexts that cannot happen: their numbers agree.
  const optimal = all.filter((o) => Math.abs(o.eu - best) < 1e-9);
  for (const o of optimal) {
    o.marginals.forEach((m, v) =>
      m.forEach((p, s) =>
        assert.ok(Math.abs(ours.marginals[v]![s]! - p) < 1e-9, `P(${v}=${s}) ${ours.marginals[v]![s]} vs ${p}`),
      ),
    );
    o.utilities.forEach((u, j) =>
      assert.ok(Math.abs(ours.utilities[j]! - u) < 1e-9, `E[U${j}] ${ours.utilities[j]} vs ${u}`),
    );
  }
  const sum = ours.utilities.reduce((a, b) => a + b, 0);
  assert.ok(Math.abs(sum - ours.meu) < 1e-9, 'the utility nodes add up to the MEU');
}

test('the wildcatter under its optimal strategy: marginals and utility values equal the best of 512 strategies (1e-9)', () => {
  const id = wildcatter();
  check(id, new Map());
  const view = underOptimalPolicy(id);
  // Test, then drill unless diffuse: P(Drill = yes) = 1 − P(diffuse) = 1 − (0.5·0.6 + 0.3·0.3 + 0.2·0.1) = 0.59.
  assert.ok(Math.abs(view.marginals[3]![0]! - 0.59) < 1e-12);
  assert.deepEqual(Array.from(view.marginals[1]!), [1, 0]); // always test
  // Decisions are not coin flips: the revenue follows the policy, not Drill = 50/50.
  assert.ok(view.marginals[4]![0]! > 0.5);
});

test('evidence recomputes the strategy: the oil known, a test result known', () => {
  const id = wildcatter();
  check(id, new Map([[0, 0]])); // dry: do not drill
  check(id, new Map([[0, 2]])); // soaking
  check(
    id,
    new Map([
      [1, 0],
      [2, 3],
    ]),
  ); // tested, diffuse
  const dry = underOptimalPolicy(id, new Map([[0, 0]]));
  assert.deepEqual(Array.from(dry.marginals[3]!), [0, 1]);
  assert.deepEqual(Array.from(dry.marginals[1]!), [0, 1]); // nothing to learn: no test
  assert.ok(Math.abs(dry.meu - 0) < 1e-12);
});
