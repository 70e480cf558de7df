/**
 * Greedy elimination orderings on the moral graph (Koller & Friedman §9.4.3): eliminating X
 * connects all of X's remaining neighbours (fill-in edges) and creates a factor over X and its
 * neighbours — the clique whose table size is the cost that matters.
 *
 * - min-fill: fewest fill-in edges, ties to the smaller clique table;
 * - weighted-min-fill: fill-in edges weighted by the product of their endpoints' cardinalities;
 * - min-weight: smallest clique table.
 * Scores are cached and recomputed only within two steps of the eliminated node.
 */
import type { BayesianNetwork } from '../network.js';

export type OrderHeuristic = 'min-fill' | 'weighted-min-fill' | 'min-weight';

export interface EliminationOrder {
  order: number[];
  /** cliques[i] = the eliminated variable order[i] and its neighbours at that moment. */
  cliques: number[][];
  /** Largest clique table (entries). */
  maxCliqueSize: number;
  /** Sum of the clique tables (entries). */
  totalSize: number;
}

/** Undirected moral graph of the network (parents married), restricted to `keep` when given. */
export function moralGraph(net: BayesianNetwork, keep?: ReadonlySet<number>): Set<number>[] {
  const adj = net.variables.map(() => new Set<number>());
  const link = (a: number, b: number) => {
    if (a !== b) {
      adj[a]!.add(b);
      adj[b]!.add(a);
    }
  };
  for (const cpt of net.cpts) {
    if (keep && !keep.has(cpt.child)) continue;
    const family = [...cpt.parents, cpt.child];
    for (let i = 0; i < family.length; i++) for (let j = i + 1; j < family.length; j++) link(family[i]!, family[j]!);
  }
  return adj;
}

/**
 * Eliminates every node of `nodes` from `adj` (copied, not changed) greedily by `heuristic`.
 */
export function eliminationOrder(
  adjIn: readonly Set<number>[],
  cards: readonly number[],
  nodes: Iterable<number>,
  heuristic: OrderHeuristic = 'min-fill',
): EliminationOrder {
  const adj = adjIn.map((s) => new Set(s));
  const remaining = new Set(nodes);
  const score = new Map<number, [number, number]>();
  const compute = (v: number): [number, number] => {
    const nb = [...adj[v]!].filter((u) => remaining.has(u));
    let weight = cards[v]!;
    for (const u of nb) weight *= cards[u]!;
    let fill = 0;
    for (let i = 0; i < nb.length; i++) {
      const a = nb[i]!;
      for (let j = i + 1; j < nb.length; j++) {
        const b = nb[j]!;
        if (!adj[a]!.has(b)) fill += heuristic === 'weighted-min-fill' ? cards[a]! * cards[b]! : 1;
      }
    }
    return heuristic === 'min-weight' ? [weight, fill] : [fill, weight];
  };
  for (const v of remaining) score.set(v, compute(v));
  const result: EliminationOrder = { order: [], cliques: [], maxCliqueSize: 0, totalSize: 0 };
  while (remaining.size) {
    let best = -1;
    let bestScore: [number, number] = [Infinity, Infinity];
    for (const v of remaining) {
      const s = score.get(v)!;
      if (s[0] < bestScore[0] || (s[0] === bestScore[0] && s[1] < bestScore[1])) {
        best = v;
        bestScore = s;
      }
    }
    const nb = [...adj[best]!].filter((u) => remaining.has(u));
    let size = cards[best]!;
    for (const u of nb) size *= cards[u]!;
    result.order.push(best);
    result.cliques.push([best, ...nb]);
    result.maxCliqueSize = Math.max(result.maxCliqueSize, size);
    result.totalSize += size;
    for (const a of nb) for (const b of nb) if (a !== b) adj[a]!.add(b);
    remaining.delete(best);
    score.delete(best);
    const dirty = new Set<number>();
    for (const u of nb) {
      dirty.add(u);
      for (const w of adj[u]!) if (remaining.has(w)) dirty.add(w);
    }
    for (const u of dirty) score.set(u, compute(u));
  }
  return result;
}

/** The cheapest (smallest total table) of the three heuristics' orders. */
export function bestEliminationOrder(
  adj: readonly Set<number>[],
  cards: readonly number[],
  nodes: readonly number[],
): EliminationOrder {
  const heuristics: OrderHeuristic[] = ['min-fill', 'weighted-min-fill', 'min-weight'];
  return heuristics
    .map((h) => eliminationOrder(adj, cards, nodes, h))
    .reduce((a, b) => (b.totalSize < a.totalSize ? b : a));
}

export function cardinalities(net: BayesianNetwork): number[] {
  return net.variables.map((v) => v.states.length);
}
