/**
 * Junction tree (clique tree) inference, Hugin architecture (Jensen; Koller & Friedman ch. 10).
 *
 * Compiled once per network: moral graph → greedy triangulation (eliminationOrder.ts) → the
 * elimination cliques, with non-maximal ones merged away, linked into a tree (each clique to
 * the clique of the first-eliminated variable of its separator, then re-hung under the
 * smallest clique holding that separator) → CPTs multiplied into the clique of their family. Every clique→separator index map and the message schedule are built
 * here, so `propagate` is two passes of flat typed-array loops with no allocation.
 *
 * Per evidence set: `setEvidence` then `propagate`; afterwards every `marginal`,
 * `familyMarginal` (the joint of a variable and its parents, in CPT layout — what EM's expected
 * counts need) and `logEvidence` = log P(e) are read off the calibrated cliques.
 */
import type { BayesianNetwork } from '../network.js';
import { bestEliminationOrder, cardinalities, moralGraph, type EliminationOrder } from './eliminationOrder.js';
import { indexMap, normalized, projectOnto, tableSize, zeroOtherStates, type Factor } from '../factors/factor.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';

/** Observed variables: variable index → state index. */
export type Evidence = ReadonlyMap<number, number>;

export class ImpossibleEvidenceError extends Error {
  constructor() {
    super('evidence has probability 0');
  }
}

interface Clique {
  vars: number[];
  cards: number[];
  /** Offset of this clique's table in the shared value buffers. */
  offset: number;
  size: number;
}

/** position[v] = when v is eliminated (the inverse of order.order). */
function eliminationPositions(order: EliminationOrder): Int32Array {
  const position = new Int32Array(order.order.length);
  order.order.forEach((v, i) => {
    position[v] = i;
  });
  return position;
}

/** The maximal cliques of a triangulation and the tree linking them (parent −1 = a root). */
function cliqueTree(order: EliminationOrder): { cliques: number[][]; parent: number[]; home: number[] } {
  const n = order.order.length;
  const position = eliminationPositions(order);
  const sets = order.cliques.map((c) => new Set(c));
  const parent = order.cliques.map(([, ...sep]) => (sep.length ? Math.min(...sep.map((u) => position[u]!)) : -1));
  const children = childrenOf(parent);
  // An elimination clique is never inside its parent (it holds the eliminated variable), so it
  // can only be inside a child c; c then takes i's place in the tree (a superset keeps the
  // running-intersection property).
  const alias = Array.from({ length: n }, (_, i) => i);
  const contains = (big: Set<number>, small: Set<number>) =>
    big.size >= small.size && [...small].every((u) => big.has(u));
  for (let i = 0; i < n; i++) {
    const c = children[i]!.find((ch) => contains(sets[ch]!, sets[i]!));
    if (c === undefined) continue;
    alias[i] = c;
    parent[c] = parent[i]!;
    for (const d of children[i]!)
      if (d !== c) {
        parent[d] = c;
        children[c]!.push(d);
      }
    if (parent[i]! >= 0) children[parent[i]!] = children[parent[i]!]!.map((ch) => (ch === i ? c : ch));
    children[i] = [];
    parent[i] = -2; // removed
  }
  const resolve = (i: number): number => {
    while (alias[i] !== i) i = alias[i]!;
    return i;
  };
  const alive = parent.map((p, i) => (p === -2 ? -1 : i)).filter((i) => i >= 0);
  const renumber = new Int32Array(n).fill(-1);
  alive.forEach((i, k) => {
    renumber[i] = k;
  });
  return {
    cliques: alive.map((i) => order.cliques[i]!),
    parent: alive.map((i) => (parent[i]! < 0 ? -1 : renumber[resolve(parent[i]!)]!)),
    // home[v] = a clique containing v (where v was eliminated).
    home: Array.from({ length: n }, (_, v) => renumber[resolve(position[v]!)]!),
  };
}

/**
 * Message cost is the size of both ends of every edge, so a big clique with many children is
 * read twice per child. Any clique holding a child's separator (outside the child's subtree)
 * can be its parent without breaking the running-intersection property: those cliques form a
 * connected part of the tree. Each child moves under the smallest of them, top-down.
 */
function rehang(cliques: number[][], parentIn: number[], cards: readonly number[]): number[] {
  const parent = [...parentIn];
  const size = cliques.map((c) => c.reduce((n, v) => n * cards[v]!, 1));
  const holders = new Map<number, number[]>();
  cliques.forEach((c, i) => {
    for (const v of c) {
      let h = holders.get(v);
      if (!h) holders.set(v, (h = []));
      h.push(i);
    }
  });
  const sets = cliques.map((c) => new Set(c));
  let kids = childrenOf(parent);
  const order: number[] = parent.flatMap((p, i) => (p < 0 ? [i] : []));
  for (let h = 0; h < order.length; h++) order.push(...kids[order[h]!]!);
  for (const c of order) {
    const p = parent[c]!;
    if (p < 0) continue;
    const sep = cliques[c]!.filter((v) => sets[p]!.has(v));
    if (sep.length === 0) continue;
    const inSubtree = new Set<number>([c]);
    for (const stack = [c]; stack.length;)
      for (const k of kids[stack.pop()!]!) {
        inSubtree.add(k);
        stack.push(k);
      }
    let best = p;
    for (const d of holders.get(sep[0]!)!) {
      if (size[d]! < size[best]! && !inSubtree.has(d) && sep.every((v) => sets[d]!.has(v))) best = d;
    }
    if (best !== p) {
      parent[c] = best;
      kids = childrenOf(parent);
    }
  }
  return parent;
}

export interface JunctionTreeOptions {
  /** A precomputed triangulation (e.g. from a cost check); default: the best greedy order. */
  order?: EliminationOrder;
  /** Largest total of clique entries to allocate (default: DEFAULT_BUDGETS.maxTotalEntries). */
  maxEntries?: number;
}

/** Cliques up to this many entries keep their family index maps between calls. */
const FAMILY_MAP_CACHE_LIMIT = 1 << 16;

export class JunctionTree {
  readonly cliques: Clique[];
  /** Largest clique table (entries): the cost of exact inference. */
  readonly maxCliqueSize: number;
  readonly totalSize: number;
  private readonly initial: Float64Array;
  private readonly values: Float64Array;
  /** Non-root cliques children-first: the collect schedule (reverse it to distribute). */
  private readonly schedule: Int32Array;
  private readonly parentOf: Int32Array;
  private readonly roots: number[];
  private readonly toSepFromChild: Int32Array[] = [];
  private readonly toSepFromParent: Int32Array[] = [];
  private readonly sep: Float64Array[] = [];
  private readonly sepScratch: Float64Array;
  /** Sum of each clique's last message to its parent (the normalising constant taken out). */
  private readonly messageScale: Float64Array;
  /** The smallest clique holding each variable: the cheapest to enter evidence and read marginals. */
  private readonly smallest: Int32Array;
  /** The clique holding each variable's family (for its CPT and familyMarginal). */
  private readonly familyHome: number[];
  private readonly familyMaps = new Map<number, Int32Array>();
  private evidence: Evidence = new Map();
  private logZ = 0;
  private propagated = false;

  private constructor(
    private readonly net: BayesianNetwork,
    order: EliminationOrder,
  ) {
    const cards = cardinalities(net);
    const tree = cliqueTree(order);
    tree.parent = rehang(tree.cliques, tree.parent, cards);
    let offset = 0;
    this.cliques = tree.cliques.map((vars) => {
      const cc = vars.map((v) => cards[v]!);
      const c = { vars, cards: cc, offset, size: tableSize(cc) };
      offset += c.size;
      return c;
    });
    this.maxCliqueSize = Math.max(1, ...this.cliques.map((c) => c.size));
    this.totalSize = offset;
    this.smallest = new Int32Array(net.variables.length).fill(-1);
    this.cliques.forEach((c, i) => {
      for (const v of c.vars)
        if (this.smallest[v] === -1 || c.size < this.cliques[this.smallest[v]!]!.size) this.smallest[v] = i;
    });
    this.parentOf = Int32Array.from(tree.parent);
    this.roots = tree.parent.flatMap((p, i) => (p < 0 ? [i] : []));
    this.schedule = postOrder(tree.parent, this.roots);
    let maxSep = 1;
    for (const c of this.schedule) {
      const me = this.cliques[c]!,
        up = this.cliques[tree.parent[c]!]!;
      const sepVars = me.vars.filter((v) => up.vars.includes(v));
      this.toSepFromChild[c] = indexMap(me.vars, me.cards, sepVars);
      this.toSepFromParent[c] = indexMap(up.vars, up.cards, sepVars);
      const size = tableSize(sepVars.map((v) => cards[v]!));
      this.sep[c] = new Float64Array(size);
      maxSep = Math.max(maxSep, size);
    }
    this.sepScratch = new Float64Array(maxSep);
    this.messageScale = new Float64Array(this.cliques.length);
    this.initial = new Float64Array(offset);
    this.values = new Float64Array(offset);
    const position = eliminationPositions(order);
    this.familyHome = net.cpts.map((cpt) => {
      // The first-eliminated member of a family is eliminated with all the others as neighbours.
      const first = [...cpt.parents, cpt.child].reduce((a, b) => (position[a]! <= position[b]! ? a : b));
      return tree.home[first]!;
    });
    this.reloadTables();
  }

  /**
   * Re-multiplies the CPTs into the cliques, for when their numbers changed but not the graph
   * (EM's M-step): the triangulation, maps and schedule are kept. Call `propagate` after it.
   */
  reloadTables(): void {
    this.initial.fill(1);
    this.net.cpts.forEach((cpt, v) => {
      const c = this.cliques[this.familyHome[v]!]!;
      const map = this.familyMap(v);
      for (let i = 0; i < c.size; i++) this.initial[c.offset + i]! *= cpt.table[map[i]!]!;
    });
    this.propagated = false;
  }

  /** Triangulates and compiles `net`. Unknown (NaN) CPT entries make every result NaN. */
  static compile(net: BayesianNetwork, options: JunctionTreeOptions = {}): JunctionTree {
    const order = options.order ?? junctionTreeOrder(net);
    requireWithin(
      'the junction tree',
      order.totalSize,
      options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries,
      'clique entries',
    );
    return new JunctionTree(net, order);
  }

  setEvidence(evidence: Evidence): void {
    for (const [v, s] of evidence) {
      const k = this.net.variables[v]?.states.length;
      if (k === undefined || !(s >= 0 && s < k))
        throw new RangeError(`evidence ${v}=${s} is not a variable and state of the network`);
    }
    this.evidence = evidence;
    this.propagated = false;
  }

  /** Collect to the roots, then distribute: every clique becomes P(clique | e). */
  propagate(signal?: CancelSignal): void {
    const values = this.values;
    values.set(this.initial);
    for (const [v, s] of this.evidence) {
      const c = this.cliques[this.smallest[v]!]!;
      zeroOtherStates(values.subarray(c.offset, c.offset + c.size), c.cards, c.vars.indexOf(v), s);
    }
    this.logZ = 0;
    for (const c of this.schedule) {
      throwIfCancelled(signal);
      this.collect(c);
    }
    for (const r of this.roots) this.logZ += Math.log(this.normalizeClique(r));
    for (let i = this.schedule.length - 1; i >= 0 && this.logZ > -Infinity; i--) {
      throwIfCancelled(signal);
      this.distribute(this.schedule[i]!);
    }
    this.propagated = true;
  }

  /**
   * Sends c → parent. The message is normalised (its sum z goes to logZ, keeping numbers in
   * range on long chains of small probabilities); distribute divides by z again, so c itself
   * never needs a normalising pass.
   */
  private collect(c: number): void {
    if (this.logZ === -Infinity) return;
    const me = this.cliques[c]!,
      up = this.cliques[this.parentOf[c]!]!;
    const values = this.values,
      sep = this.sep[c]!,
      mapC = this.toSepFromChild[c]!,
      mapP = this.toSepFromParent[c]!;
    sep.fill(0);
    for (let i = 0, o = me.offset; i < me.size; i++, o++) sep[mapC[i]!]! += values[o]!;
    let z = 0;
    for (let k = 0; k < sep.length; k++) z += sep[k]!;
    this.messageScale[c] = z;
    this.logZ += Math.log(z);
    if (z === 0) return;
    for (let k = 0; k < sep.length; k++) sep[k]! /= z;
    for (let j = 0, o = up.offset; j < up.size; j++, o++) values[o]! *= sep[mapP[j]!]!;
  }

  private distribute(c: number): void {
    const me = this.cliques[c]!,
      up = this.cliques[this.parentOf[c]!]!;
    const values = this.values,
      old = this.sep[c]!,
      mapC = this.toSepFromChild[c]!,
      mapP = this.toSepFromParent[c]!;
    const ratio = this.sepScratch.subarray(0, old.length);
    ratio.fill(0);
    for (let j = 0, o = up.offset; j < up.size; j++, o++) ratio[mapP[j]!]! += values[o]!;
    // c still holds its unnormalised potential, whose separator sums are old · z.
    const z = this.messageScale[c]!;
    for (let k = 0; k < old.length; k++) ratio[k] = old[k] === 0 ? 0 : ratio[k]! / (old[k]! * z);
    for (let i = 0, o = me.offset; i < me.size; i++, o++) values[o]! *= ratio[mapC[i]!]!;
  }

  private normalizeClique(c: number): number {
    const { offset, size } = this.cliques[c]!;
    const values = this.values;
    let z = 0;
    for (let i = offset; i < offset + size; i++) z += values[i]!;
    if (z > 0 && z !== 1) for (let i = offset; i < offset + size; i++) values[i]! /= z;
    return z;
  }

  /** log P(e); −Infinity when the evidence is impossible. */
  get logEvidence(): number {
    this.requirePropagated();
    return this.logZ;
  }

  get impossible(): boolean {
    return this.logEvidence === -Infinity;
  }

  /** P(v | e) over v's states. Throws ImpossibleEvidenceError when P(e) = 0. */
  marginal(v: number): Float64Array {
    this.requireConsistent();
    const c = this.cliques[this.smallest[v]!]!;
    const k = this.net.variables[v]!.states.length;
    const out = new Float64Array(k);
    let inner = 1;
    for (let i = c.cards.length - 1; c.vars[i] !== v; i--) inner *= c.cards[i]!;
    // The clique's entries come in runs of `inner` with v fixed, cycling through v's states.
    const values = this.values,
      end = c.offset + c.size;
    for (let o = c.offset; o < end; o += inner * k) {
      for (let x = 0, p = o; x < k; x++) {
        let sum = 0;
        for (const stop = p + inner; p < stop; p++) sum += values[p]!;
        out[x]! += sum;
      }
    }
    return normalized(out);
  }

  /**
   * P(parents(v), v | e) in the CPT's layout (parents' row index × |v| + state of v): the
   * expected-count contribution EM's E-step needs for v's table.
   */
  familyMarginal(v: number): Float64Array {
    this.requireConsistent();
    const cpt = this.net.cpts[v]!;
    const c = this.cliques[this.familyHome[v]!]!;
    const map = this.familyMap(v);
    const out = new Float64Array(cpt.table.length);
    const values = this.values;
    for (let i = 0; i < c.size; i++) out[map[i]!]! += values[c.offset + i]!;
    return normalized(out);
  }

  /** P(vars | e) when one clique holds all of `vars`, else undefined (ask variable elimination). */
  jointMarginal(vars: readonly number[]): Factor | undefined {
    this.requireConsistent();
    const c = this.cliques.find((cl) => vars.every((v) => cl.vars.includes(v)));
    if (!c) return undefined;
    const f = projectOnto(
      { vars: c.vars, cards: c.cards, values: this.values.subarray(c.offset, c.offset + c.size) },
      vars,
    );
    normalized(f.values);
    return f;
  }

  /**
   * Clique entry → CPT entry of v's family. Kept for repeated familyMarginal calls (EM) unless
   * the clique is large: many families can share one big clique, and a map per family would
   * cost 4 bytes per clique entry each.
   */
  private familyMap(v: number): Int32Array {
    let map = this.familyMaps.get(v);
    if (!map) {
      const c = this.cliques[this.familyHome[v]!]!;
      const cpt = this.net.cpts[v]!;
      map = indexMap(c.vars, c.cards, [...cpt.parents, v]);
      if (c.size <= FAMILY_MAP_CACHE_LIMIT) this.familyMaps.set(v, map);
    }
    return map;
  }

  private requirePropagated(): void {
    if (!this.propagated) throw new Error('junction tree: call propagate() after setEvidence()');
  }

  private requireConsistent(): void {
    if (this.impossible) throw new ImpossibleEvidenceError();
  }
}

/** The triangulation the junction tree uses; its maxCliqueSize is the exact-inference cost. */
export function junctionTreeOrder(net: BayesianNetwork): EliminationOrder {
  const cards = cardinalities(net);
  return bestEliminationOrder(
    moralGraph(net),
    cards,
    cards.map((_, i) => i),
  );
}

/** The children of each node of a forest given by parent links (−1 or less: none). */
function childrenOf(parent: readonly number[]): number[][] {
  const children: number[][] = parent.map(() => []);
  parent.forEach((p, i) => {
    if (p >= 0) children[p]!.push(i);
  });
  return children;
}

function postOrder(parent: readonly number[], roots: readonly number[]): Int32Array {
  const children = childrenOf(parent);
  const out: number[] = [];
  const stack: [number, number][] = roots.map((r) => [r, 0]);
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const kids = children[top[0]]!;
    if (top[1] < kids.length) stack.push([kids[top[1]++]!, 0]);
    else {
      stack.pop();
      if (parent[top[0]]! >= 0) out.push(top[0]);
    }
  }
  return Int32Array.from(out);
}
