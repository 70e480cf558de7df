/**
 * Greedy elimination orderings on the moral graph (Koller & Friedman §9.4.3): eliminating X
 * connects all of X's remaining neighbours (fill-in edges) and creates a factor over X and its
 * neighbours — the clique whose table size is the cost that matters.
 *
 * - min-fill: fewest fill-in edges, ties to the smaller clique table;
 * - weighted-min-fill: fill-in edges weighted by the product of their endpoints' cardinalities;
 * - min-weight: smallest clique table.
 * Scores are cached and recomputed only for the nodes whose neighbourhood an elimination
 * changed; the next node comes from a priority queue (O(n log n + fill) in all).
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

/** Steps of the greedy orderings (queue operations, edges added, fill-in pairs tested): tests hold them near-linear. */
export const orderWork = { steps: 0 };

/**
 * Eliminates every node of `nodes` from `adj` (copied, not changed) greedily by `heuristic`;
 * ties go to the node listed first in `nodes`. The next node comes from a priority queue whose
 * stale entries are dropped when they surface (a node's entry is current while its version is),
 * and the graph is one set of neighbours per node, so a step costs its clique's fill-in and a
 * logarithm, not a scan of every node: 100,000 variables took over two minutes as an n² bit
 * matrix scanned at every step.
 */
export function eliminationOrder(
  adjIn: readonly Set<number>[],
  cards: readonly number[],
  nodes: Iterable<number>,
  heuristic: OrderHeuristic = 'min-fill',
  kept: Iterable<number> = [],
): EliminationOrder {
  const graph: OrderGraph =
    adjIn.length <= BIT_MATRIX_NODES ? new BitGraph(adjIn, nodes, kept) : new SetGraph(adjIn, nodes, kept);
  // Kept nodes (a query's variables) are in every clique they neighbour but never eliminated.
  const isKept = new Uint8Array(adjIn.length);
  for (const v of kept) isKept[v] = 1;
  for (const v of graph.nodes) isKept[v] = 0;
  const todo = graph.nodes;
  const nb: number[] = [];
  const primary = new Float64Array(adjIn.length),
    secondary = new Float64Array(adjIn.length);
  const version = new Uint32Array(adjIn.length);
  const rank = new Int32Array(adjIn.length);
  todo.forEach((v, i) => (rank[v] = i));
  const queue = new ScoreQueue();
  const enqueue = (v: number) =>
    queue.push({ v, p: primary[v]!, s: secondary[v]!, rank: rank[v]!, version: ++version[v]! });
  const compute = (v: number): void => {
    if (isKept[v]) return;
    graph.neighbours(v, nb);
    let weight = cards[v]!;
    for (const u of nb) weight *= cards[u]!;
    const fill = graph.fillIn(nb, heuristic === 'weighted-min-fill' ? cards : undefined);
    primary[v] = heuristic === 'min-weight' ? weight : fill;
    secondary[v] = heuristic === 'min-weight' ? fill : weight;
    enqueue(v);
  };
  for (const v of todo) compute(v);
  /**
   * After a leaf (one remaining neighbour h) is eliminated, h's fill-in loses exactly the pairs
   * (leaf, u), u another neighbour of h: the leaf was joined to none of them. Recomputing it
   * costs h's degree squared, so a hub of n leaves (a naive Bayes network, or a star of 20,000
   * variables) took n³ (hours); this costs its degree. Only while the counts are exact integers.
   */
  const leafEliminated = (leaf: number, h: number): boolean => {
    if (isKept[h]) return true;
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
    enqueue(h);
    return true;
  };
  const result: EliminationOrder = { order: [], cliques: [], maxCliqueSize: 0, totalSize: 0 };
  const dirty: number[] = [];
  for (let step = 0; step < todo.length; step++) {
    let best = queue.pop();
    while (best.version !== version[best.v]) best = queue.pop();
    const v = best.v;
    graph.neighbours(v, nb);
    let size = cards[v]!;
    for (const u of nb) size *= cards[u]!;
    result.order.push(v);
    result.cliques.push([v, ...nb]);
    result.maxCliqueSize = Math.max(result.maxCliqueSize, size);
    result.totalSize += size;
    graph.eliminate(v, nb, dirty);
    if (nb.length === 1 && leafEliminated(v, nb[0]!)) continue;
    for (const u of dirty) compute(u);
  }
  return result;
}

interface Scored {
  v: number;
  p: number;
  s: number;
  rank: number;
  version: number;
}

/** A binary min-heap by (primary, secondary, rank): the order the scan over every node chose by. */
class ScoreQueue {
  private readonly heap: Scored[] = [];

  private static before(a: Scored, b: Scored): boolean {
    return a.p < b.p || (a.p === b.p && (a.s < b.s || (a.s === b.s && a.rank < b.rank)));
  }

  push(x: Scored): void {
    const h = this.heap;
    let i = h.length;
    h.push(x);
    while (i > 0) {
      orderWork.steps++;
      const parent = (i - 1) >> 1;
      if (!ScoreQueue.before(x, h[parent]!)) break;
      h[i] = h[parent]!;
      i = parent;
    }
    h[i] = x;
  }

  pop(): Scored {
    const h = this.heap;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length === 0) return top;
    let i = 0;
    for (;;) {
      orderWork.steps++;
      const l = 2 * i + 1;
      if (l >= h.length) break;
      const c = l + 1 < h.length && ScoreQueue.before(h[l + 1]!, h[l]!) ? l + 1 : l;
      if (!ScoreQueue.before(h[c]!, last)) break;
      h[i] = h[c]!;
      i = c;
    }
    h[i] = last;
    return top;
  }
}

/**
 * An undirected graph as one bit row per node (n² bits: 130 kB for 1,000 nodes), for the
 * greedy orderings' edge tests and fill-ins; only the nodes still to eliminate (and the kept ones)
 * count as neighbours.
 */
class BitGraph implements OrderGraph {
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

  constructor(adj: readonly Set<number>[], nodes: Iterable<number>, kept: Iterable<number>) {
    const n = adj.length;
    this.words = (n + 31) >>> 5;
    this.bits = new Uint32Array(n * this.words);
    adj.forEach((set, v) => {
      for (const u of set) this.bits[v * this.words + (u >>> 5)]! |= 1 << (u & 31);
    });
    this.nodes = [...new Set(nodes)];
    this.remaining = new Uint32Array(this.words);
    for (const v of [...this.nodes, ...kept]) this.remaining[v >>> 5]! |= 1 << (v & 31);
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
    orderWork.steps += 1 + (nb.length * (nb.length - 1)) / 2;
    return fill;
  }

  /** The remaining neighbours of v, ascending, into `out`. */
  neighbours(v: number, out: number[]): void {
    out.length = 0;
    orderWork.steps += this.words;
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
    orderWork.steps += W * (3 + nb.length);
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

/** The graph an ordering eliminates from: only the nodes still to eliminate and the kept ones count as neighbours. */
interface OrderGraph {
  /** The nodes to eliminate, in the order given. */
  readonly nodes: number[];
  /** The pairs of `nb` not joined by an edge: each counts 1, or the product of its ends' `weights`. */
  fillIn(nb: readonly number[], weights?: readonly number[]): number;
  /** The remaining neighbours of v, ascending, into `out`. */
  neighbours(v: number, out: number[]): void;
  /** Removes v, joining its neighbours `nb` pairwise; `dirty` gets (at least) the nodes whose score can change. */
  eliminate(v: number, nb: readonly number[], dirty: number[]): void;
}

/**
 * Up to this many nodes the graph is a bit matrix (2 MB at most): edge tests and fill-ins are
 * word operations, faster than sets on the networks people use (link's 724, munin's 1,041).
 * Beyond it, sets: memory and work follow the edges, not n².
 */
const BIT_MATRIX_NODES = 4096;

/**
 * An undirected graph as one set of neighbours per node, holding only the nodes still to
 * eliminate: memory and work follow the edges (fill-in included), not n².
 */
class SetGraph implements OrderGraph {
  private readonly adj: Set<number>[];
  /** The nodes to eliminate, in the order given. */
  readonly nodes: number[];

  constructor(adjIn: readonly Set<number>[], nodes: Iterable<number>, kept: Iterable<number>) {
    this.nodes = [...new Set(nodes)];
    const present = [...new Set([...this.nodes, ...kept])];
    const inside = new Uint8Array(adjIn.length);
    for (const v of present) inside[v] = 1;
    this.adj = adjIn.map(() => new Set<number>());
    for (const v of present) {
      const row = this.adj[v]!;
      for (const u of adjIn[v]!) if (inside[u] && u !== v) row.add(u);
    }
  }

  /** The pairs of `nb` not joined by an edge: each counts 1, or the product of its ends' `weights`. */
  fillIn(nb: readonly number[], weights?: readonly number[]): number {
    let fill = 0;
    for (let i = 0; i < nb.length; i++) {
      const a = nb[i]!,
        row = this.adj[a]!;
      for (let j = i + 1; j < nb.length; j++) {
        const b = nb[j]!;
        if (!row.has(b)) fill += weights ? weights[a]! * weights[b]! : 1;
      }
    }
    orderWork.steps += 1 + (nb.length * (nb.length - 1)) / 2;
    return fill;
  }

  /** The remaining neighbours of v, ascending, into `out`. */
  neighbours(v: number, out: number[]): void {
    out.length = 0;
    for (const u of this.adj[v]!) out.push(u);
    out.sort((a, b) => a - b);
    orderWork.steps += 1 + out.length;
  }

  /**
   * Removes v (its remaining neighbours `nb`), joining its neighbours pairwise; `dirty` gets the
   * remaining nodes whose score can change: v's neighbours, and the nodes next to both ends of
   * an edge just added (only those gain an edge among their neighbours).
   */
  eliminate(v: number, nb: readonly number[], dirty: number[]): void {
    const adj = this.adj;
    for (const a of nb) adj[a]!.delete(v);
    adj[v]!.clear();
    const marked = new Set<number>(nb);
    for (let i = 0; i < nb.length; i++) {
      const a = nb[i]!,
        rowA = adj[a]!;
      for (let j = i + 1; j < nb.length; j++) {
        const b = nb[j]!;
        orderWork.steps++;
        if (rowA.has(b)) continue;
        rowA.add(b);
        adj[b]!.add(a);
        // the common neighbours of a and b now have one more edge among their neighbours
        const [small, large] = rowA.size <= adj[b]!.size ? [rowA, adj[b]!] : [adj[b]!, rowA];
        for (const w of small) {
          orderWork.steps++;
          if (w !== b && w !== a && large.has(w)) marked.add(w);
        }
      }
    }
    dirty.length = 0;
    for (const w of marked) dirty.push(w);
    dirty.sort((a, b) => a - b);
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

/**
 * The cheapest (smallest total table) of the three heuristics' orders. `kept` nodes (a query's
 * variables) stay in the graph, so the cliques and scores count them, but are not eliminated.
 */
export function bestEliminationOrder(
  adj: readonly Set<number>[],
  cards: readonly number[],
  nodes: readonly number[],
  kept: readonly number[] = [],
  /** min-fill's order of the same graph, when the caller has it already (not found twice). */
  minFill: EliminationOrder = eliminationOrder(adj, cards, nodes, 'min-fill', kept),
): EliminationOrder {
  const others: OrderHeuristic[] = ['weighted-min-fill', 'min-weight'];
  return others
    .map((h) => eliminationOrder(adj, cards, nodes, h, kept))
    .reduce((a, b) => (b.totalSize < a.totalSize ? b : a), minFill);
}

export function cardinalities(net: BayesianNetwork): number[] {
  return net.variables.map((v) => v.states.length);
}
