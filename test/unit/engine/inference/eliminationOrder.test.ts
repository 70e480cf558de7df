import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  eliminationOrder,
  orderWork,
  type OrderHeuristic,
} from '../../../../server/src/engine/inference/eliminationOrder.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { eliminate, eliminationPlan } from '../../../../server/src/engine/inference/variableElimination.js';
import { randomNetwork } from '../../../support/networks.js';

/** The score of eliminating v next, straight from the definitions (lexicographic: first, then second). */
function score(adj: Set<number>[], left: Set<number>, cards: number[], v: number, h: OrderHeuristic): number[] {
  const nb = [...adj[v]!].filter((u) => left.has(u));
  const weight = nb.reduce((m, u) => m * cards[u]!, cards[v]!);
  let fill = 0;
  for (const a of nb)
    for (const b of nb) if (a < b && !adj[a]!.has(b)) fill += h === 'weighted-min-fill' ? cards[a]! * cards[b]! : 1;
  return h === 'min-weight' ? [weight, fill] : [fill, weight];
}

test('greedy elimination orders: each step takes the best-scored node (ties to the first listed) and its neighbourhood', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 40; trial++) {
    const n = 8 + rng.int(40);
    const cards = Array.from({ length: n }, () => 2 + rng.int(3));
    const adj = cards.map(() => new Set<number>());
    const density = 0.05 + rng.next() * 0.2;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        if (rng.next() < density) {
          adj[a]!.add(b);
          adj[b]!.add(a);
        }
    // Some trials eliminate a shuffled subset: the other nodes are not neighbours.
    const nodes = rng.shuffle(cards.map((_, i) => i)).slice(0, trial % 3 === 0 ? n - rng.int(n >> 1) : n);
    for (const h of ['min-fill', 'weighted-min-fill', 'min-weight'] as OrderHeuristic[]) {
      const result = eliminationOrder(adj, cards, nodes, h);
      const g = adj.map((s) => new Set(s));
      const left = new Set(nodes);
      let total = 0,
        max = 0;
      result.order.forEach((v, i) => {
        const scores = nodes.filter((u) => left.has(u)).map((u) => [u, ...score(g, left, cards, u, h)]);
        const best = scores.reduce((a, b) => (b[1]! < a[1]! || (b[1] === a[1] && b[2]! < a[2]!) ? b : a));
        assert.equal(v, best[0], `trial ${trial} ${h} step ${i}`);
        const nb = [...g[v]!].filter((u) => left.has(u));
        assert.deepEqual(
          [...result.cliques[i]!].sort((a, b) => a - b),
          [v, ...nb].sort((a, b) => a - b),
        );
        const size = nb.reduce((m, u) => m * cards[u]!, cards[v]!);
        total += size;
        max = Math.max(max, size);
        for (const a of nb) for (const b of nb) if (a !== b) g[a]!.add(b);
        left.delete(v);
      });
      assert.equal(left.size, 0);
      assert.equal(result.totalSize, total);
      assert.equal(result.maxCliqueSize, max);
    }
  }
});

test('hubs with many leaves (the fill-in of a leaf’s neighbour is updated, not recounted): the same greedy steps', () => {
  const rng = createRng(12);
  for (let trial = 0; trial < 30; trial++) {
    const core = 3 + rng.int(8);
    const n = core + 10 + rng.int(60);
    const cards = Array.from({ length: n }, () => 2 + rng.int(3));
    const adj = cards.map(() => new Set<number>());
    const link = (a: number, b: number) => (adj[a]!.add(b), adj[b]!.add(a));
    for (let a = 0; a < core; a++) for (let b = a + 1; b < core; b++) if (rng.next() < 0.4) link(a, b);
    // Each other node hangs off one core node, a few of them off two (not leaves).
    for (let v = core; v < n; v++) {
      link(v, rng.int(core));
      if (rng.next() < 0.1) link(v, rng.int(core));
    }
    const nodes = rng.shuffle(cards.map((_, i) => i));
    for (const h of ['min-fill', 'weighted-min-fill', 'min-weight'] as OrderHeuristic[]) {
      const result = eliminationOrder(adj, cards, nodes, h);
      const g = adj.map((s) => new Set(s));
      const left = new Set(nodes);
      result.order.forEach((v, i) => {
        const scores = nodes.filter((u) => left.has(u)).map((u) => [u, ...score(g, left, cards, u, h)]);
        const best = scores.reduce((a, b) => (b[1]! < a[1]! || (b[1] === a[1] && b[2]! < a[2]!) ? b : a));
        assert.equal(v, best[0], `trial ${trial} ${h} step ${i}`);
        const nb = [...g[v]!].filter((u) => left.has(u));
        for (const a of nb) for (const b of nb) if (a !== b) g[a]!.add(b);
        left.delete(v);
      });
    }
  }
});

/** `adj` and `cards` with isolated nodes after them up to `n` in all (not eliminated: no neighbours of anything). */
function padded(adj: Set<number>[], cards: number[], n: number): [Set<number>[], number[]] {
  const more = Math.max(0, n - adj.length);
  return [
    [...adj, ...Array.from({ length: more }, () => new Set<number>())],
    [...cards, ...Array<number>(more).fill(2)],
  ];
}

test('large graphs (sets of neighbours, past 4,096 nodes) give the same orders as the bit matrix, hubs and all', () => {
  const rng = createRng(13);
  for (let trial = 0; trial < 30; trial++) {
    const n = 8 + rng.int(60);
    const cards = Array.from({ length: n }, () => 2 + rng.int(4));
    const adj = cards.map(() => new Set<number>());
    const density = 0.03 + rng.next() * 0.25;
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++)
        if (rng.next() < density || (a === 0 && trial % 2 === 0)) {
          adj[a]!.add(b);
          adj[b]!.add(a);
        }
    const nodes = rng.shuffle(cards.map((_, i) => i)).slice(0, trial % 3 === 0 ? n - rng.int(n >> 1) : n);
    const [bigAdj, bigCards] = padded(adj, cards, 5000);
    for (const h of ['min-fill', 'weighted-min-fill', 'min-weight'] as OrderHeuristic[]) {
      assert.deepEqual(
        eliminationOrder(bigAdj, bigCards, nodes, h),
        eliminationOrder(adj, cards, nodes, h),
        `${trial} ${h}`,
      );
    }
  }
});

test('100,000 variables: the order costs O(n log n + fill) steps (independent variables, a chain), not n²', () => {
  const steps = (n: number, chain: boolean) => {
    const adj = Array.from({ length: n }, () => new Set<number>());
    if (chain)
      for (let v = 1; v < n; v++) {
        adj[v]!.add(v - 1);
        adj[v - 1]!.add(v);
      }
    const cards = Array<number>(n).fill(2);
    orderWork.steps = 0;
    const order = eliminationOrder(adj, cards, adj.keys(), 'min-fill');
    assert.equal(order.order.length, n);
    assert.equal(order.maxCliqueSize, chain ? 4 : 2);
    return orderWork.steps;
  };
  for (const chain of [false, true]) {
    const small = steps(10_000, chain);
    const large = steps(100_000, chain);
    // n log n: 10 × log(100,000) / log(10,000) = 12.5 at most; n² would be 100
    assert.ok(large / small <= 12.5, `${chain ? 'chain' : 'independent'}: ${small} → ${large} steps`);
  }
});

test('kept variables (a query) count in every clique they neighbour but are never eliminated', () => {
  // a — q — b with a — b: eliminating a with q kept makes the clique {a, q, b} of 2·10·2 entries.
  const adj = [new Set([1, 2]), new Set([0, 2]), new Set([0, 1])];
  const cards = [2, 10, 2];
  const order = eliminationOrder(adj, cards, [0, 2], 'min-fill', [1]);
  assert.deepEqual(order.order, [0, 2]);
  assert.deepEqual(order.cliques, [
    [0, 1, 2],
    [2, 1],
  ]);
  assert.equal(order.totalSize, 40 + 20);
  assert.equal(order.maxCliqueSize, 40);
  // Without q kept the order would count 4 + 2 entries: what barley's queries were held to before.
  assert.equal(eliminationOrder(adj, cards, [0, 2], 'min-fill').totalSize, 6);
});

test("a query's elimination order counts the tables elimination builds, query variable included", () => {
  for (const seed of [41, 42, 43, 44]) {
    const net = randomNetwork(seed, 12, 3);
    for (const q of [0, 5, 11]) {
      const plan = eliminationPlan(net, [q], new Map([[3, 0]]));
      const sizes: number[] = [];
      eliminate(plan.connected, plan.order, 'sum', undefined, (_, product) => sizes.push(product.values.length));
      assert.deepEqual(
        sizes,
        plan.order.cliques.map((c) => c.reduce((n, v) => n * net.variables[v]!.states.length, 1)),
        `seed ${seed}, query V${q}`,
      );
      assert.equal(
        sizes.reduce((a, b) => a + b, 0),
        plan.order.totalSize,
      );
      assert.ok(!plan.order.order.includes(q));
    }
  }
});
