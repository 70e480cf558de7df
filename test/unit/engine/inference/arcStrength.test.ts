/**
 * Strength of influence (engine/inference/arcStrength.ts) against closed forms and an
 * independent computation: the conditional mutual information I(Parent; Child | Others) of a
 * joint enumerated with the parent uniform and the other parents drawn from their marginals,
 * computed from entropies H(P,O) + H(C,O) − H(P,C,O) − H(O), to 1e-12.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { arcStrengths } from '../../../../server/src/engine/inference/arcStrength.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { loadBif } from '../../../support/networks.js';

/** A root per parent (cards), a child of `k` states on all of them, tables drawn at random (some zeros). */
function star(cards: number[], k: number, seed: number, zeros = false): BayesianNetwork {
  const rng = createRng(seed);
  const dist = (n: number) => {
    const p = Array.from({ length: n }, () => (zeros && rng.next() < 0.3 ? 0 : rng.next() + 0.01));
    const s = p.reduce((a, b) => a + b, 0) || 1;
    return s > 0 && p.some((x) => x > 0) ? p.map((x) => x / s) : p.map((_, i) => (i === 0 ? 1 : 0));
  };
  const rows = cards.reduce((a, b) => a * b, 1);
  const variables = [
    ...cards.map((c, i) => ({ name: `P${i}`, states: Array.from({ length: c }, (_, s) => `s${s}`) })),
    { name: 'C', states: Array.from({ length: k }, (_, s) => `c${s}`) },
  ];
  const cpts = [
    ...cards.map((c, i) => ({ child: i, parents: [], table: Float64Array.from(dist(c)) })),
    {
      child: cards.length,
      parents: cards.map((_, i) => i),
      table: Float64Array.from(Array.from({ length: rows }, () => dist(k)).flat()),
    },
  ];
  return { name: 'star', variables, cpts };
}

const entropyOf = (p: Map<string, number>) => {
  let h = 0;
  for (const x of p.values()) if (x > 0) h -= x * Math.log(x);
  return h;
};

/** I(P_i; C | other parents) with P_i uniform, the others independent with their root marginals. */
function conditionalInformation(net: BayesianNetwork, i: number): number {
  const parents = net.cpts.at(-1)!.parents;
  const cards = parents.map((p) => net.variables[p]!.states.length);
  const k = net.variables.at(-1)!.states.length;
  const table = net.cpts.at(-1)!.table;
  const rows = cards.reduce((a, b) => a * b, 1);
  const [po, co, pco, o] = [
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
    new Map<string, number>(),
  ];
  const add = (m: Map<string, number>, key: string, p: number) => m.set(key, (m.get(key) ?? 0) + p);
  for (let r = 0; r < rows; r++) {
    const x: number[] = [];
    let rest = r;
    for (let j = cards.length - 1; j >= 0; j--) {
      x[j] = rest % cards[j]!;
      rest = Math.floor(rest / cards[j]!);
    }
    let w = 1;
    x.forEach((s, j) => (w *= j === i ? 1 / cards[j]! : net.cpts[parents[j]!]!.table[s]!));
    const others = x.filter((_, j) => j !== i).join(',');
    for (let c = 0; c < k; c++) {
      const p = w * table[r * k + c]!;
      add(po, `${x[i]}|${others}`, p);
      add(co, `${c}|${others}`, p);
      add(pco, `${x[i]}|${c}|${others}`, p);
      add(o, others, p);
    }
  }
  return entropyOf(po) + entropyOf(co) - entropyOf(pco) - entropyOf(o);
}

const rootMarginals = (net: BayesianNetwork) => net.cpts.map((c) => (c.parents.length ? [] : c.table));

test('arc strength: a child that copies its parent has ln|A|; one that ignores it has 0', () => {
  const copy: BayesianNetwork = {
    name: 'copy',
    variables: [
      { name: 'A', states: ['a', 'b', 'c'] },
      { name: 'B', states: ['x', 'y'] },
      { name: 'C', states: ['a', 'b', 'c'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.2, 0.3, 0.5) },
      { child: 1, parents: [], table: Float64Array.of(0.4, 0.6) },
      // C = A whatever B is.
      { child: 2, parents: [0, 1], table: Float64Array.of(1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0, 0, 1, 0, 0, 1) },
    ],
  };
  const s = arcStrengths(copy, rootMarginals(copy));
  assert.equal(s.length, 2);
  assert.ok(Math.abs(s.find((a) => a.parent === 0)!.strength - Math.log(3)) < 1e-12);
  assert.ok(Math.abs(s.find((a) => a.parent === 1)!.strength) < 1e-12);
});

test('arc strength: a hand computation (two binary rows)', () => {
  // P(C | A=0) = (0.9, 0.1), P(C | A=1) = (0.5, 0.5); M = (0.7, 0.3).
  const net: BayesianNetwork = {
    name: 'two',
    variables: [
      { name: 'A', states: ['0', '1'] },
      { name: 'C', states: ['0', '1'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.99, 0.01) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.5, 0.5) },
    ],
  };
  const hand =
    (0.9 * Math.log(0.9 / 0.7) + 0.1 * Math.log(0.1 / 0.3) + 0.5 * Math.log(0.5 / 0.7) + 0.5 * Math.log(0.5 / 0.3)) / 2;
  const [arc] = arcStrengths(net, rootMarginals(net));
  assert.ok(Math.abs(arc!.strength - hand) < 1e-15, `${arc!.strength} vs ${hand}`);
  assert.ok(Math.abs(hand - 0.10175) < 1e-5); // 0.101749…
});

test('arc strength equals the enumerated conditional mutual information (random tables, zeros, mixed cards)', () => {
  const shapes: Array<[number[], number, boolean]> = [
    [[2, 3], 2, false],
    [[3, 2, 4], 3, false],
    [[2, 2, 2], 2, true],
    [[4, 3], 5, true],
  ];
  let seed = 7;
  for (const [cards, k, zeros] of shapes) {
    const net = star(cards, k, seed++, zeros);
    const arcs = arcStrengths(net, rootMarginals(net));
    assert.equal(arcs.length, cards.length);
    for (const a of arcs) {
      const oracle = conditionalInformation(net, a.parent);
      assert.ok(Math.abs(a.strength - oracle) < 1e-12, `${cards} P${a.parent}: ${a.strength} vs ${oracle}`);
      assert.ok(a.strength >= 0 && a.strength <= Math.log(cards[a.parent]!) + 1e-12);
    }
  }
});

test('arc strength on ALARM: every arc finite, within [0, ln|A|]', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip('no ../shared BIF files');
  const uniform = net.variables.map((v) => v.states.map(() => 1 / v.states.length));
  const arcs = arcStrengths(net, uniform);
  assert.equal(
    arcs.length,
    net.cpts.reduce((a, c) => a + c.parents.length, 0),
  );
  for (const a of arcs) {
    assert.ok(Number.isFinite(a.strength) && a.strength >= 0);
    assert.ok(a.strength <= Math.log(net.variables[a.parent]!.states.length) + 1e-12);
  }
  // Not all equal: the measure separates strong from weak arcs.
  const values = arcs.map((a) => a.strength);
  assert.ok(Math.max(...values) > 10 * Math.min(...values));
});

test('arc strength: tables with unknown entries give no arcs', () => {
  const net = star([2], 2, 1);
  net.cpts[1]!.table[0] = NaN;
  assert.deepEqual(arcStrengths(net, rootMarginals(net)), []);
});
