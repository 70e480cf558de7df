/**
 * Greedy elimination orderings on the moral graph (Koller & Friedman §9.4.3): eliminating X
 * connects all of X's remaining neighbours (fill-in edges) and creates a factor over X and its
 * neighbours — the clique whose table size is the cost that matters.
 *
 * - min-fill: fewest fill-in edges, ties to the smaller clique table;
 * - weighted-min-fill: fill-in edges weighted by the product of their endpoints' cardinalities;
 * - min-weight: smallest clique table.
 * Scores are cached and recomputed only within two steps of the eliminated node; the graph is
 * a bit matrix, so edge tests and fill-ins are word operations.
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
 * Eliminates every node of `nodes` from `adj` (copied, not changed) greedily by `heuristic`;
 * ties go to the node listed first in `nodes`.
 */
export function eliminationOrder(
  adjIn: readonly Set<number>[],
  cards: readonly number[],
  nodes: Iterable<number>,
  heuristic: OrderHeuristic = 'min-fill',
): EliminationOrder {
  const graph = new BitGraph(adjIn, nodes);
  const todo = graph.nodes;
  const nb: number[] = [];
  const primary = new Float64Array(adjIn.length),
    secondary = new Float64Array(adjIn.length);
  const compute = (v: number): void => {
    graph.neighbours(v, nb);
    let weight = cards[v]!;
    for (const u of nb) weight *= cards[u]!;
    const fill = graph.fillIn(nb, heuristic === 'weighted-min-fill' ? cards : undefined);
    primary[v] = heuristic === 'min-weight' ? weight : fill;
    secondary[v] = heuristic === 'min-weight' ? fill : weight;
  };
  for (const v of todo) compute(v);
  /**
   * After a leaf (one remaining neighbour h) is eliminated, h's fill-in loses exactly the pairs
   * (leaf, u), u another neighbour of h: the leaf was joined to none of them. Recomputing it
   * costs h's degree squared, so a hub of n leaves (a naive Bayes network, or a star of 20,000
   * variables) took n³ (hours); this costs its degree. Only while the counts are exact integers.
   */
  const leafEliminated = (leaf: number, h: number): boolean => {
    const fill = heuristic === 'min-weight' ? secondary[h]! : primary[h]!;
    if (!(fill <= Number.MAX_SAFE_INTEGER)) return false;
    graph.neighbours(h, nb);
    let weight = cards[h]!,
      lost = 0;
    for (const u of nb) {
      weight *= cards[u]!;
      lost += heuristic === 'weighted-min-fill' ? cards[leaf]! * cards[u]! : 1;
    }
    primary[h] = heuristic === 'min-weight' ? weight : fill - lost;
    secondary[h] = heuristic === 'min-weight' ? fill - lost : weight;
    return true;
  };
  const result: EliminationOrder = { order: [], cliques: [], maxCliqueSize: 0, totalSize: 0 };
  const dirty: number[] = [];
  for (let step = 0; step < todo.length; step++) {
    let best = -1;
    for (const v of todo) {
      if (!graph.left(v)) continue;
      if (
        best < 0 ||
        primary[v]! < primary[best]! ||
        (primary[v] === primary[best] && secondary[v]! < secondary[best]!)
      )
        best = v;
    }
    graph.neighbours(best, nb);
    let size = cards[best]!;
    for (const u of nb) size *= cards[u]!;
    result.order.push(best);
    result.cliques.push([best, ...nb]);
    result.maxCliqueSize = Math.max(result.maxCliqueSize, size);
    result.totalSize += size;
    graph.eliminate(best, nb, dirty);
    if (nb.length === 1 && dirty.length === 1 && leafEliminated(best, nb[0]!)) continue;
    for (const u of dirty) compute(u);
  }
  return result;
}

/**
 * An undirected graph as one bit row per node (n² bits: 130 kB for 1,000 nodes), for the
 * greedy orderings' edge tests and fill-ins; only the nodes still to eliminate count as neighbours.
 */
class BitGraph {
  private readonly words: number;
  private readonly bits: Uint32Array;
  /** The nodes not yet eliminated, as bits. */
  private readonly remaining: Uint32Array;
  /** The nodes to eliminate, in the order given. */
  readonly nodes: number[];
  /** Scratch rows of eliminate: v's neighbours, and the nodes next to one / two or more of them. */
  private readonly mask: Uint32Array;
  private readonly once: Uint32Array;
  private readonly twice: Uint32Array;

  constructor(adj: readonly Set<number>[], nodes: Iterable<number>) {
    const n = adj.length;
    this.words = (n + 31) >>> 5;
    this.bits = new Uint32Array(n * this.words);
    adj.forEach((set, v) => {
      for (const u of set) this.bits[v * this.words + (u >>> 5)]! |= 1 << (u & 31);
    });
    this.nodes = [...new Set(nodes)];
    this.remaining = new Uint32Array(this.words);
    for (const v of this.nodes) this.remaining[v >>> 5]! |= 1 << (v & 31);
    this.mask = new Uint32Array(this.words);
    this.once = new Uint32Array(this.words);
    this.twice = new Uint32Array(this.words);
  }

  /** The pairs of `nb` not joined by an edge: each counts 1, or the product of its ends' `weights`. */
  fillIn(nb: readonly number[], weights?: readonly number[]): number {
    // One loop with the bit test inline: it runs before the code is optimised, too.
    const bits = this.bits,
      W = this.words;
    let fill = 0;
    for (let i = 0; i < nb.length; i++) {
      const a = nb[i]!,
        row = a * W;
      for (let j = i + 1; j < nb.length; j++) {
        const b = nb[j]!;
        if (((bits[row + (b >>> 5)]! >>> (b & 31)) & 1) === 0) fill += weights ? weights[a]! * weights[b]! : 1;
      }
    }
    return fill;
  }

  left(v: number): boolean {
    return ((this.remaining[v >>> 5]! >>> (v & 31)) & 1) === 1;
  }

  /** The remaining neighbours of v, ascending, into `out`. */
  neighbours(v: number, out: number[]): void {
    out.length = 0;
    for (let w = 0, row = v * this.words; w < this.words; w++)
      pushBits(this.bits[row + w]! & this.remaining[w]!, w, out);
  }

  /**
   * Removes v (its remaining neighbours `nb`), joining its neighbours pairwise; `dirty` gets the
   * remaining nodes whose score can change: v's neighbours, and the nodes next to two or more of
   * them (only those can gain an edge among their neighbours).
   */
  eliminate(v: number, nb: readonly number[], dirty: number[]): void {
    const W = this.words,
      bits = this.bits,
      mask = this.mask,
      once = this.once,
      twice = this.twice;
    this.remaining[v >>> 5]! &= ~(1 << (v & 31));
    mask.fill(0);
    once.fill(0);
    twice.fill(0);
    for (const a of nb) mask[a >>> 5]! |= 1 << (a & 31);
    for (const a of nb) {
      const row = a * W;
      for (let w = 0; w < W; w++) {
        const r = bits[row + w]!;
        twice[w]! |= once[w]! & r;
        once[w]! |= r;
        bits[row + w] = r | mask[w]!;
      }
      bits[row + (a >>> 5)]! &= ~(1 << (a & 31));
    }
    dirty.length = 0;
    for (let w = 0; w < W; w++) pushBits((mask[w]! | twice[w]!) & this.remaining[w]!, w, dirty);
  }
}

/** Appends the indices of the set bits of word w. */
function pushBits(x: number, w: number, out: number[]): void {
  while (x !== 0) {
    const low = x & -x;
    out.push((w << 5) + 31 - Math.clz32(low));
    x ^= low;
  }
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
