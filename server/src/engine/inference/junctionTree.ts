/**
 * Junction tree (clique tree) inference, Hugin architecture (Jensen; Koller & Friedman ch. 10).
 *
 * Compiled once per network: moral graph → greedy triangulation (eliminationOrder.ts) → the
 * elimination cliques, with non-maximal ones merged away, linked into a tree (each clique to
 * the clique of the first-eliminated variable of its separator, then re-hung under the
 * smallest clique holding that separator) → CPTs multiplied into the clique of their family.
 * Every parent→separator index map (in three short pieces, see runIndexMap) and the
 * message schedule are built here, so `propagate` is two passes of flat typed-array loops with
 * no allocation: collect takes in all of a clique's children's messages in one pass over it,
 * distribute computes all their separator sums in one pass. The message of a subtree without
 * evidence depends on its CPTs only: it is kept between propagations (until reloadTables), and
 * so are such a subtree's tables. Distribution is lazy (see propagate): a clique's table is
 * scaled to P(clique | e) only when it is read.
 *
 * Per evidence set: `setEvidence` then `propagate`; afterwards every `marginal`,
 * `familyMarginal` (the joint of a variable and its parents, in CPT layout — what EM's expected
 * counts need) and `logEvidence` = log P(e) are read off the calibrated cliques.
 */
import type { BayesianNetwork } from '../network.js';
import {
  bestEliminationOrder,
  cardinalities,
  eliminationOrder,
  moralGraph,
  type EliminationOrder,
} from './eliminationOrder.js';
import {
  normalized,
  projectOnto,
  runIndexMap,
  runIndexMapEntries,
  scaleByState,
  tableSize,
  tablePool,
  zeroOtherStates,
  type Factor,
  type RunIndexMap,
} from '../factors/factor.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';

/** Observed variables: variable index → state index. */
export type Evidence = ReadonlyMap<number, number>;

export class ImpossibleEvidenceError extends Error {
  constructor() {
    super('evidence has probability 0');
  }
}

/** Throws a RangeError for evidence naming no variable or state of `net`. */
export function checkEvidence(net: BayesianNetwork, evidence: Evidence): void {
  for (const [v, s] of evidence) {
    const k = net.variables[v]?.states.length;
    if (k === undefined || !(s >= 0 && s < k))
      throw new RangeError(`evidence ${v}=${s} is not a variable and state of the network`);
  }
}

/**
 * What a clique's table holds after propagate: nothing usable (STALE: to be rebuilt from its CPTs
 * and its children's messages), its collect product (RAW: P(clique | e) up to its pending ratio),
 * or P(clique | e) itself (CALIBRATED).
 */
const STALE = 0,
  RAW = 1,
  CALIBRATED = 2;
/** A transient tree's edge whose pending ratio is not held (ratioPool). */
const NO_RATIO = new Float64Array(0);

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
  // d is in c's subtree when c is among d's ancestors (walked only for a better candidate).
  const below = (d: number, c: number): boolean => {
    for (let u = d; u >= 0; u = parent[u]!) if (u === c) return true;
    return false;
  };
  const kids = childrenOf(parent);
  const order: number[] = parent.flatMap((p, i) => (p < 0 ? [i] : []));
  // Element by element: a spread of 150,000 children (a star network) overflows the stack.
  for (let h = 0; h < order.length; h++) for (const k of kids[order[h]!]!) order.push(k);
  for (const c of order) {
    const p = parent[c]!;
    if (p < 0) continue;
    const sep = cliques[c]!.filter((v) => sets[p]!.has(v));
    if (sep.length === 0) continue;
    let best = p;
    for (const d of holders.get(sep[0]!)!) {
      if (size[d]! < size[best]! && sep.every((v) => sets[d]!.has(v)) && !below(d, c)) best = d;
    }
    parent[c] = best;
  }
  return parent;
}

export interface JunctionTreeOptions {
  /** A precomputed triangulation (e.g. from a cost check); default: the best greedy order. */
  order?: EliminationOrder;
  /** Largest total of clique entries to allocate (default: DEFAULT_BUDGETS.maxTotalEntries). */
  maxEntries?: number;
  /** The tree of `order` when already built (junctionTreeLayout, for its size). */
  layout?: JunctionTreeLayout;
  /**
   * Factors multiplied in besides the CPTs, over the network's variables (evidence-reduced
   * compilation: each observed variable's CPT sliced at its state, a likelihood of its parents).
   * The order and layout, when given, must have been built with them (junctionTreeOrder, modelFamilies).
   */
  factors?: readonly Factor[];
  /**
   * One table's room for all cliques (the largest clique's), a clique's table rebuilt from its
   * CPTs and its children's messages whenever it is needed again, instead of a table per clique.
   * For one answer on a large tree: memory written for the first time is what a one-shot answer
   * costs most (on the machines measured, a page's first write ~12 µs, i.e. ~25 ns per entry,
   * against ~5 ns per entry to rebuild a table: munin4's 13.9 M entries took 0.37 s just to be
   * touched). The numbers are the same bits (the same products in the same order). Such a tree
   * reads every marginal while it distributes (each clique's table is then in the room) and
   * reuses the pending ratios' arrays of the cliques done, in a factors.tablePool (munin: 1.8 M
   * entries → 0.34 M), so it answers marginals and log P(e) only, not families or joints. A tree
   * kept for many evidence sets is better without it: its evidence-free subtrees' tables are kept.
   */
  transient?: boolean;
}

/**
 * From this many clique entries a one-shot answer (posteriorMarginals, evidenceReduction) compiles
 * its tree with transient tables (JunctionTreeOptions.transient): one table's room instead of a
 * table per clique. Below it (8 MB of tables) touching them costs about what rebuilding them does
 * (pathfinder, andes, pigs: 0.2–0.7 M entries, within ±10% either way over fresh processes), and
 * posteriorMarginals keeps the tree with the network for the next answer.
 */
export const TRANSIENT_MIN_ENTRIES = 1 << 20;

export class JunctionTree {
  readonly cliques: Clique[];
  /** Largest clique table (entries): the cost of exact inference. */
  readonly maxCliqueSize: number;
  readonly totalSize: number;
  /**
   * The product of the CPTs multiplied into each clique that has any, over their variables only
   * (layout.cptVars: far fewer entries than the clique), and the clique's map onto it.
   */
  private readonly potential: (Float64Array | undefined)[];
  private readonly potentialMap: (RunIndexMap | undefined)[];
  private readonly values: Float64Array;
  /** Every clique, children before parents: the collect schedule (reverse it to distribute). */
  private readonly schedule: Int32Array;
  private readonly parentOf: Int32Array;
  private readonly children: Int32Array[];
  /** Entries per run of each clique's split index maps (see splitPoint). */
  private readonly run: Int32Array;
  /** Entries of a clique per entry of its separator with its parent (the separator comes first). */
  private readonly block: number[] = [];
  /** Parent entry → separator entry, in runs of the parent's splitPoint. */
  private readonly sepMap: RunIndexMap[] = [];
  /** The last message from each clique to its parent, normalised. */
  private readonly sep: Float64Array[] = [];
  /**
   * The parent's separator sums while distributing (one per edge, so one pass serves all
   * children), then the child's pending ratio. Transient tables: taken from ratioPool when the
   * parent distributes, given back once the child's marginals are read.
   */
  private readonly sepNew: Float64Array[] = [];
  private readonly ratioPool = tablePool();
  /** Transient tables: every variable's marginal, read during the last propagation. */
  private readonly settled: Float64Array[] = [];
  /** Sum of each clique's last message to its parent (the normalising constant taken out). */
  private readonly messageScale: Float64Array;
  /** The smallest clique holding each variable: the cheapest to enter evidence and read marginals. */
  private readonly smallest: Int32Array;
  /** The variables whose smallest clique each clique is. */
  private readonly owned: number[][];
  /** The clique holding each variable's family (for its CPT and familyMarginal). */
  private readonly familyHome: readonly number[];
  private readonly cptVars: readonly number[][];
  /** The factors multiplied in besides the CPTs; the home of factors[i] is familyHome[n + i]. */
  private readonly factors: readonly Factor[];
  private evidence: Evidence = new Map();
  /** 1 for the cliques with evidence in their subtree (themselves included). */
  private readonly evidenceBelow: Uint8Array;
  /** 1 for the cliques whose last message to their parent was computed without evidence below. */
  private readonly evidenceFree: Uint8Array;
  /**
   * What each clique's table holds (STALE, RAW or CALIBRATED): distribution is lazy, see
   * propagate. A RAW table is kept between propagations while its subtree stays evidence-free.
   */
  private readonly state: Uint8Array;
  /** One run of a RAW clique times its pending ratio (calibratedRun): read, never written back. */
  private readonly scratch: Float64Array;
  /** The evidence entered in each clique (in the smallest clique holding the variable). */
  private evidenceIn = new Map<number, [number, number][]>();
  /** Likelihood findings λ(x) entered in each clique, the same way (see setEvidence). */
  private likelihoodIn = new Map<number, [number, ArrayLike<number>][]>();
  private logZ = 0;
  private propagated = false;
  /** Transient tables (JunctionTreeOptions.transient): the clique whose table the room holds, or −1. */
  private resident = -1;
  private readonly transient: boolean;

  private constructor(
    private readonly net: BayesianNetwork,
    order: EliminationOrder,
    maxEntries: number,
    layout?: JunctionTreeLayout,
    factors: readonly Factor[] = [],
    transient = false,
  ) {
    const cards = cardinalities(net);
    this.factors = factors;
    this.transient = transient;
    const tree = layout ?? junctionTreeLayout(order, cards, modelFamilies(net, factors));
    let offset = 0;
    // Transient tables all start at 0: one room, as large as the largest clique.
    this.cliques = tree.cliques.map((vars) => {
      const cc = vars.map((v) => cards[v]!);
      const c = { vars, cards: cc, offset: transient ? 0 : offset, size: tableSize(cc) };
      offset += c.size;
      return c;
    });
    this.maxCliqueSize = Math.max(1, ...this.cliques.map((c) => c.size));
    this.totalSize = offset;
    requireWithin('the junction tree', offset, maxEntries, 'clique entries');
    this.smallest = new Int32Array(net.variables.length).fill(-1);
    this.cliques.forEach((c, i) => {
      for (const v of c.vars)
        if (this.smallest[v] === -1 || c.size < this.cliques[this.smallest[v]!]!.size) this.smallest[v] = i;
    });
    this.owned = this.cliques.map(() => []);
    this.smallest.forEach((c, v) => this.owned[c]!.push(v));
    this.parentOf = Int32Array.from(tree.parent);
    this.children = childrenOf(tree.parent).map((k) => Int32Array.from(k));
    this.schedule = postOrder(tree.parent);
    this.run = Int32Array.from(this.cliques, (c) => tableSize(c.cards.slice(splitPoint(c.cards))));
    for (let c = 0; c < this.cliques.length; c++) {
      const p = tree.parent[c]!;
      if (p < 0) continue;
      const me = this.cliques[c]!,
        up = this.cliques[p]!;
      const { sepVars, map } = projectionMap(me.vars, up.vars, up.cards);
      this.sepMap[c] = map;
      const size = tableSize(sepVars.map((v) => cards[v]!));
      this.block[c] = me.size / size;
      this.sep[c] = new Float64Array(size);
      this.sepNew[c] = transient ? NO_RATIO : new Float64Array(size);
    }
    this.messageScale = new Float64Array(this.cliques.length);
    this.evidenceBelow = new Uint8Array(this.cliques.length);
    this.evidenceFree = new Uint8Array(this.cliques.length);
    this.state = new Uint8Array(this.cliques.length); // STALE
    this.scratch = new Float64Array(Math.max(1, ...this.run));
    this.familyHome = tree.familyHome;
    this.cptVars = tree.cptVars;
    this.potential = tree.cptVars.map((vs) =>
      vs.length ? new Float64Array(tableSize(vs.map((v) => cards[v]!))) : undefined,
    );
    this.potentialMap = this.cliques.map((c, i) =>
      tree.cptVars[i]!.length ? projectionMap(tree.cptVars[i]!, c.vars, c.cards).map : undefined,
    );
    this.values = new Float64Array(transient ? this.maxCliqueSize : offset);
    this.reloadTables();
  }

  /**
   * Re-multiplies the CPTs into the cliques, for when their numbers changed but not the graph
   * (EM's M-step): the triangulation, maps and schedule are kept. Call `propagate` after it.
   */
  reloadTables(): void {
    // The first table of a clique is written, the others multiplied in: no pass of ones.
    const written = new Set<number>();
    const load = (home: number, family: readonly number[], table: Float64Array) => {
      const vars = this.cptVars[home]!;
      const map = familyMap(
        vars,
        vars.map((u) => this.net.variables[u]!.states.length),
        family,
      );
      const run = map.inner.length * map.tail;
      const kernel = written.has(home) ? multiplyRun : assignRun;
      written.add(home);
      for (let h = 0, o = 0; h < map.outer.length; h++, o += run)
        kernel(this.potential[home]!, o, table, map.outer[h]!, map);
    };
    this.net.cpts.forEach((cpt, v) => load(this.familyHome[v]!, [...cpt.parents, v], cpt.table));
    const n = this.net.cpts.length;
    this.factors.forEach((f, i) => load(this.familyHome[n + i]!, f.vars, f.values));
    this.evidenceFree.fill(0); // the kept messages were of the old numbers
    this.state.fill(STALE);
    this.propagated = false;
  }

  /** Triangulates and compiles `net`. Unknown (NaN) CPT entries make every result NaN. */
  static compile(net: BayesianNetwork, options: JunctionTreeOptions = {}): JunctionTree {
    const order = options.order ?? junctionTreeOrder(net, options.factors);
    const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
    return new JunctionTree(net, order, maxEntries, options.layout, options.factors, options.transient);
  }

  /**
   * Observations, and likelihood (virtual) findings λ(x) on unobserved variables: each multiplies
   * its variable's smallest clique by λ of the variable's state, as Pearl's virtual child of the
   * variable, observed, would (softEvidence.ts). The caller checks λ: one finite, non-negative
   * number per state. The marginals are then P(v | e, λ), and logEvidence log Σ P(x, e) λ(x).
   */
  setEvidence(evidence: Evidence, likelihoods: ReadonlyMap<number, ArrayLike<number>> = new Map()): void {
    checkEvidence(this.net, evidence);
    this.evidence = evidence;
    this.evidenceIn.clear();
    this.likelihoodIn.clear();
    this.evidenceBelow.fill(0);
    for (const [v, s] of evidence) this.enterAt(this.evidenceIn, v, s);
    for (const [v, lambda] of likelihoods) this.enterAt(this.likelihoodIn, v, lambda);
    this.propagated = false;
  }

  /** Files a finding on v under v's smallest clique, and marks that clique and its ancestors. */
  private enterAt<T>(into: Map<number, [number, T][]>, v: number, finding: T): void {
    const c = this.smallest[v]!;
    let list = into.get(c);
    if (!list) into.set(c, (list = []));
    list.push([v, finding]);
    for (let u = c; u >= 0 && this.evidenceBelow[u] === 0; u = this.parentOf[u]!) this.evidenceBelow[u] = 1;
  }

  /**
   * Collect to the roots, then distribute. Each clique takes in all its children's messages in
   * one pass over its table, and in one pass computes the separator sums for all of them, run by
   * run (a run stays in cache while each child's separator is read or added to).
   *
   * Distribution is lazy: a clique's calibrated table P(clique | e) is its collect product (RAW)
   * times a pending ratio per entry of its separator with its parent (sepNew, new / old sums).
   * Its children's sums are taken from the RAW table times that ratio, a run at a time in a
   * scratch buffer, so distribute only reads the cliques: the ratio is written into a table only
   * when something reads it (marginal, jointMarginal), which for munin is under 1% of the
   * entries. An evidence-free subtree's RAW tables, never rewritten, then serve the next
   * propagations as they are; only when one was calibrated in place (STALE) is it rebuilt.
   */
  propagate(signal?: CancelSignal): void {
    this.propagated = false;
    this.logZ = 0;
    // A table calibrated last time is no collect product: rebuilt when next needed.
    for (let c = 0; c < this.state.length; c++) if (this.state[c] === CALIBRATED) this.state[c] = STALE;
    for (let i = 0; i < this.schedule.length && this.logZ > -Infinity; i++) {
      if (signal?.aborted) this.forgetKept(); // a collect stopped part-way keeps nothing
      throwIfCancelled(signal);
      const c = this.schedule[i]!;
      if (this.parentOf[c]! < 0) {
        this.collectInto(c);
        this.enterEvidence(c);
        this.logZ += Math.log(this.normalizeClique(c));
        this.state[c] = CALIBRATED;
      } else if (this.evidenceBelow[c] === 0 && this.evidenceFree[c] === 1) {
        // The message of a subtree without evidence depends on its CPTs only: the one sent last
        // time is sent again; c's table, if not RAW still, is built when it is needed.
        this.logZ += Math.log(this.messageScale[c]!);
      } else {
        this.collectInto(c);
        this.enterEvidence(c);
        this.sendToParent(c);
        this.evidenceFree[c] = this.evidenceBelow[c] === 0 ? 1 : 0;
      }
    }
    if (this.logZ === -Infinity) this.forgetKept(); // collect stopped part-way

    for (let i = this.schedule.length - 1; i >= 0 && this.logZ > -Infinity; i--) {
      throwIfCancelled(signal);
      this.distribute(this.schedule[i]!);
      if (this.transient) this.settle(this.schedule[i]!);
    }
    this.propagated = true;
  }

  /** Drops the kept messages and tables: the next propagation rebuilds them all. */
  private forgetKept(): void {
    this.evidenceFree.fill(0);
    this.state.fill(STALE);
  }

  /** Clique p's table: its CPTs times every child's message (already sent), run by run. */
  private collectInto(p: number): void {
    const { offset, size } = this.cliques[p]!;
    const kids = this.children[p]!;
    const values = this.values,
      potential = this.potential[p],
      pmap = this.potentialMap[p]!;
    if (this.transient) this.moveIn(p);
    this.state[p] = RAW;
    if (!potential && kids.length === 0) {
      values.fill(1, offset, offset + size);
      return;
    }
    const run = this.run[p]!;
    const c0 = kids[0]!;
    for (let h = 0, o = offset; o < offset + size; h++, o += run) {
      // The first factor is written, the others multiplied in.
      let k = 0;
      if (potential) assignRun(values, o, potential, pmap.outer[h]!, pmap);
      else {
        assignRun(values, o, this.sep[c0]!, this.sepMap[c0]!.outer[h]!, this.sepMap[c0]!);
        k = 1;
      }
      for (; k < kids.length; k++) {
        const c = kids[k]!;
        multiplyRun(values, o, this.sep[c]!, this.sepMap[c]!.outer[h]!, this.sepMap[c]!);
      }
    }
  }

  private enterEvidence(p: number): void {
    const list = this.evidenceIn.get(p),
      likelihoods = this.likelihoodIn.get(p);
    if (!list && !likelihoods) return;
    const c = this.cliques[p]!;
    const table = this.values.subarray(c.offset, c.offset + c.size);
    for (const [v, s] of list ?? []) zeroOtherStates(table, c.cards, c.vars.indexOf(v), s);
    for (const [v, lambda] of likelihoods ?? []) scaleByState(table, c.cards, c.vars.indexOf(v), lambda);
  }

  /**
   * The message c → parent: c's separator sums (contiguous blocks: the separator comes first),
   * normalised; their sum z goes to logZ, keeping numbers in range on long chains of small
   * probabilities, and distribute divides by z again, so c itself never needs a normalising pass.
   */
  private sendToParent(c: number): void {
    const me = this.cliques[c]!;
    const values = this.values,
      sep = this.sep[c]!,
      block = this.block[c]!;
    for (let k = 0, o = me.offset; k < sep.length; k++, o += block) sep[k] = sumRange(values, o, o + block);
    // Scaled to a largest entry of 1, not a sum of 1: a clique multiplies all its children's
    // messages, and 1,100 messages [0.5, 0.5] (children without evidence) underflowed to 0, so
    // a variable with 1,100 children made any evidence "impossible". (Messages whose largest
    // entries fall on different states still multiply down: 1,500 children observed against
    // each other can underflow.) NaN stays NaN.
    let z = 0;
    for (let k = 0; k < sep.length; k++) if (sep[k]! > z || Number.isNaN(sep[k]!)) z = sep[k]!;
    this.messageScale[c] = z;
    this.logZ += Math.log(z);
    if (z === 0) return;
    for (let k = 0; k < sep.length; k++) sep[k]! /= z;
  }

  /** Sends p's calibrated table to all its children: one pass over p for all their separators. */
  private distribute(p: number): void {
    const kids = this.children[p]!;
    if (kids.length === 0) return;
    this.requireTable(p);
    const { offset, size } = this.cliques[p]!;
    const run = this.run[p]!;
    const raw = this.state[p] === RAW;
    for (let k = 0; k < kids.length; k++) {
      const c = kids[k]!;
      if (this.transient) this.sepNew[c] = this.ratioPool.take(this.sep[c]!.length);
      this.sepNew[c]!.fill(0);
    }
    for (let h = 0, o = offset; o < offset + size; h++, o += run) {
      const from = raw ? this.calibratedRun(p, o) : this.values,
        at = raw ? 0 : o;
      for (let k = 0; k < kids.length; k++) {
        const c = kids[k]!;
        addRun(from, at, this.sepNew[c]!, this.sepMap[c]!.outer[h]!, this.sepMap[c]!);
      }
    }
    for (let k = 0; k < kids.length; k++) this.pendRatio(kids[k]!);
  }

  /** Turns child c's new separator sums into its pending ratio, new / old. */
  private pendRatio(c: number): void {
    const old = this.sep[c]!,
      ratio = this.sepNew[c]!;
    // c's RAW table is its unnormalised potential, whose separator sums are old · z.
    const z = this.messageScale[c]!;
    for (let k = 0; k < old.length; k++) ratio[k] = old[k] === 0 ? 0 : ratio[k]! / (old[k]! * z);
  }

  /**
   * Transient tables, after p has distributed: the marginals of the variables whose smallest
   * clique is p, read now that p's table is in the room (or rebuilt: a leaf), and p's pending
   * ratio given back. Bits as marginal() on a table per clique: the same calibration and sums.
   */
  private settle(p: number): void {
    const own = this.owned[p]!;
    if (own.length) {
      this.calibrate(p);
      for (const v of own) this.settled[v] = this.cliqueMarginal(p, v);
    }
    const ratio = this.sepNew[p];
    if (ratio === undefined || ratio === NO_RATIO) return; // a root has none
    this.ratioPool.give(ratio);
    this.sepNew[p] = NO_RATIO;
  }

  /** Transient tables: c's table takes the room, and the clique that held it must be rebuilt. */
  private moveIn(c: number): void {
    if (this.resident >= 0 && this.resident !== c) this.state[this.resident] = STALE;
    this.resident = c;
  }

  /**
   * Builds c's table if it is STALE: a clique of an evidence-free subtree, or with transient
   * tables any clique not in the room. A root's table is P(root | e) itself: normalised again,
   * by the same sum, as propagate did.
   */
  private requireTable(c: number): void {
    if (this.state[c] !== STALE) return;
    this.collectInto(c);
    this.enterEvidence(c);
    if (this.parentOf[c]! < 0) {
      this.normalizeClique(c);
      this.state[c] = CALIBRATED;
    }
  }

  /** The run of RAW clique c at offset o times its pending ratio, in the scratch buffer. */
  private calibratedRun(c: number, o: number): Float64Array {
    const values = this.values,
      out = this.scratch,
      ratio = this.sepNew[c]!,
      block = this.block[c]!,
      run = this.run[c]!;
    // block and run are both products of the clique's trailing cards: one divides the other.
    let k = ((o - this.cliques[c]!.offset) / block) | 0;
    if (block >= run) scaleCopy(values, o, out, 0, run, ratio[k]!);
    else for (let j = 0; j < run; j += block, k++) scaleCopy(values, o + j, out, j, block, ratio[k]!);
    return out;
  }

  /** Makes c's table P(clique | e) in place, for readers of the whole table. */
  private calibrate(c: number): void {
    if (this.state[c] === CALIBRATED) return;
    this.requireTable(c);
    if (this.state[c] === CALIBRATED) return; // a root, rebuilt
    const { offset } = this.cliques[c]!;
    const ratio = this.sepNew[c]!,
      block = this.block[c]!;
    for (let k = 0, o = offset; k < ratio.length; k++, o += block) scaleRange(this.values, o, o + block, ratio[k]!);
    this.state[c] = CALIBRATED;
  }

  private normalizeClique(c: number): number {
    const { offset, size } = this.cliques[c]!;
    const values = this.values;
    let z = 0;
    for (let i = offset; i < offset + size; i++) z += values[i]!;
    if (z > 0 && z !== 1) for (let i = offset; i < offset + size; i++) values[i]! /= z;
    return z;
  }

  /**
   * Bytes of the compiled tree's arrays: the clique tables (transient: the one room), the initial
   * tables of cliques with CPTs, and per edge two separators and a split map (transient trees
   * reuse most pending ratios' arrays, so for them this is an upper bound).
   */
  get bytes(): number {
    let n = 8 * (this.transient ? this.maxCliqueSize : this.totalSize);
    this.cliques.forEach((_, i) => {
      const pmap = this.potentialMap[i];
      if (pmap) n += 8 * this.potential[i]!.length + 4 * (pmap.outer.length + pmap.inner.length);
    });
    for (let c = 0; c < this.cliques.length; c++)
      if (this.parentOf[c]! >= 0)
        n += 16 * this.sep[c]!.length + 4 * (this.sepMap[c]!.outer.length + this.sepMap[c]!.inner.length);
    return n;
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
    if (this.transient) return this.settled[v]!.slice();
    this.calibrate(this.smallest[v]!);
    return this.cliqueMarginal(this.smallest[v]!, v);
  }

  /** P(v | e) summed out of clique i's calibrated table. */
  private cliqueMarginal(i: number, v: number): Float64Array {
    const c = this.cliques[i]!;
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

  /** P(v | e) of every variable, in the network's order. */
  marginals(): Float64Array[] {
    return this.net.variables.map((_, v) => this.marginal(v));
  }

  /**
   * P(parents(v), v | e) in the CPT's layout (parents' row index × |v| + state of v): the
   * expected-count contribution EM's E-step needs for v's table.
   */
  familyMarginal(v: number): Float64Array {
    this.requireConsistent();
    this.requireTables('familyMarginal');
    const home = this.familyHome[v]!;
    const c = this.cliques[home]!;
    const map = this.familyMap(v);
    const out = new Float64Array(this.net.cpts[v]!.table.length);
    const run = map.inner.length * map.tail;
    // A RAW table is read a run at a time times its ratio, as distribute does: EM reads every
    // family, and their cliques then need no write.
    this.requireTable(home);
    const raw = this.state[home] === RAW;
    for (let h = 0, o = c.offset; h < map.outer.length; h++, o += run) {
      if (raw) addRun(this.calibratedRun(home, o), 0, out, map.outer[h]!, map);
      else addRun(this.values, o, out, map.outer[h]!, map);
    }
    return normalized(out);
  }

  /** P(vars | e) when one clique holds all of `vars`, else undefined (ask variable elimination). */
  jointMarginal(vars: readonly number[]): Factor | undefined {
    this.requireConsistent();
    this.requireTables('jointMarginal');
    const i = this.cliques.findIndex((cl) => vars.every((v) => cl.vars.includes(v)));
    if (i < 0) return undefined;
    this.calibrate(i);
    const c = this.cliques[i]!;
    const f = projectOnto(
      { vars: c.vars, cards: c.cards, values: this.values.subarray(c.offset, c.offset + c.size) },
      vars,
    );
    normalized(f.values);
    return f;
  }

  /** Clique entry → CPT entry of v's family (small: not kept). */
  private familyMap(v: number): RunIndexMap {
    const c = this.cliques[this.familyHome[v]!]!;
    return familyMap(c.vars, c.cards, [...this.net.cpts[v]!.parents, v]);
  }

  private requirePropagated(): void {
    if (!this.propagated) throw new Error('junction tree: call propagate() after setEvidence()');
  }

  private requireConsistent(): void {
    if (this.impossible) throw new ImpossibleEvidenceError();
  }

  private requireTables(what: string): void {
    if (this.transient) throw new Error(`junction tree: ${what} needs a table per clique (compiled without transient)`);
  }
}

/**
 * Below this many entries in all its cliques, min-fill's tree is kept without trying the other
 * two orderings: such a tree compiles and propagates in a few milliseconds, while the two
 * orderings cost twice min-fill's own work, run mostly as cold code in a one-shot process
 * (pathfinder: 62,000 steps each; callgrind, a fresh process: the triangulation 305 M of the
 * one-shot answer's 880 M instructions with all three, 93 M with min-fill alone). On the shared
 * networks they saved at most 4% there (alarm 1,249 → 1,219 entries, child 729 → 693, hailfinder
 * 10,295 → 10,157; pathfinder, andes, pigs and the rest: the same tree).
 */
const SMALL_TREE = 1 << 20;

/**
 * The triangulation the junction tree uses; its maxCliqueSize is the exact-inference cost. Each
 * extra factor's variables are joined pairwise, as a CPT's family is (moralisation).
 */
export function junctionTreeOrder(net: BayesianNetwork, factors: readonly Factor[] = []): EliminationOrder {
  const cards = cardinalities(net);
  const adj = moralGraph(net);
  for (const f of factors) for (const a of f.vars) for (const b of f.vars) if (a !== b) adj[a]!.add(b);
  const nodes = cards.map((_, i) => i);
  const minFill = eliminationOrder(adj, cards, nodes, 'min-fill');
  return minFill.totalSize < SMALL_TREE ? minFill : bestEliminationOrder(adj, cards, nodes, [], minFill);
}

export interface JunctionTreeLayout {
  cliques: number[][];
  parent: number[];
  home: number[];
  /** familyHome[v] = the clique v's CPT is multiplied into (it holds v's family). */
  familyHome: number[];
  /** cptVars[i] = the variables of the CPTs multiplied into clique i, in its order ([]: none). */
  cptVars: number[][];
}

/**
 * The cliques of the junction tree of `order` (its maximal cliques) and their tree, before any
 * table is allocated. Each clique lists its separator with its parent first: its entries then
 * come in blocks, one per separator entry, so messages on the clique's side are contiguous sums
 * and scalings.
 */
export function junctionTreeLayout(
  order: EliminationOrder,
  cards: readonly number[],
  families: readonly (readonly number[])[],
): JunctionTreeLayout {
  const tree = cliqueTree(order);
  const parent = rehang(tree.cliques, tree.parent, cards);
  // Parents first, so each separator can take its parent's final order: the parent's trailing
  // variables in the separator then index it contiguously (runIndexMap's tail blocks).
  const cliques = [...tree.cliques];
  for (const i of postOrder(parent).reverse()) {
    const p = parent[i]!;
    if (p < 0) continue;
    const mine = new Set(cliques[i]!),
      up = new Set(cliques[p]!);
    cliques[i] = [...cliques[p]!.filter((v) => mine.has(v)), ...cliques[i]!.filter((v) => !up.has(v))];
  }
  const familyHome = familyHomes(order, cliques, tree.home, cards, families);
  const inCpts = cliques.map(() => new Set<number>());
  familyHome.forEach((i, v) => families[v]!.forEach((u) => inCpts[i]!.add(u)));
  const cptVars = cliques.map((c, i) => c.filter((v) => inCpts[i]!.has(v)));
  return { cliques, parent, home: tree.home, familyHome, cptVars };
}

/** The families of a network's CPTs: families[v] = [...parents of v, v]. */
export function familiesOf(net: BayesianNetwork): number[][] {
  return net.cpts.map((cpt) => [...cpt.parents, cpt.child]);
}

/** The families of the CPTs, then the variables of each extra factor (JunctionTreeOptions.factors). */
export function modelFamilies(net: BayesianNetwork, factors: readonly Factor[] = []): number[][] {
  return [...familiesOf(net), ...factors.map((f) => f.vars)];
}

/** The clique each family's CPT is multiplied into. */
function familyHomes(
  order: EliminationOrder,
  cliques: readonly number[][],
  home: readonly number[],
  cards: readonly number[],
  families: readonly (readonly number[])[],
): number[] {
  const position = eliminationPositions(order);
  const size = cliques.map((c) => c.reduce((m, v) => m * cards[v]!, 1));
  const holding: number[][] = cards.map(() => []);
  cliques.forEach((c, i) => {
    for (const v of c) holding[v]!.push(i);
  });
  return families.map((family) => {
    // The first-eliminated member of a family is eliminated with all the others as neighbours;
    // a smaller clique holding the whole family is cheaper to multiply the CPT into.
    const first = family.reduce((a, b) => (position[a]! <= position[b]! ? a : b));
    let at = home[first]!;
    for (const i of holding[family[family.length - 1]!]!) {
      if (size[i]! < size[at]! && family.every((u) => cliques[i]!.includes(u))) at = i;
    }
    return at;
  });
}

/**
 * The size of the junction tree of a layout: its clique entries (at most order.totalSize: an
 * elimination clique inside another is merged away) and the bytes JunctionTree allocates for it
 * (a Float64 table per clique, the product of its CPTs over their variables with the clique's map
 * onto it, and per edge two Float64 separators and the parent's map onto the separator).
 */
export function junctionTreeSize(
  layout: JunctionTreeLayout,
  cards: readonly number[],
): { entries: number; bytes: number } {
  const cliqueCards = layout.cliques.map((c) => c.map((v) => cards[v]!));
  const size = cliqueCards.map(tableSize);
  let entries = 0,
    bytes = 0;
  layout.cptVars.forEach((vs, i) => {
    if (vs.length === 0) return;
    bytes +=
      8 * tableSize(vs.map((v) => cards[v]!)) + 4 * projectionMapEntries(vs, layout.cliques[i]!, cliqueCards[i]!);
  });
  size.forEach((n, i) => {
    entries += n;
    const p = layout.parent[i]!;
    if (p < 0) return;
    const me = layout.cliques[i]!,
      up = layout.cliques[p]!;
    const sepVars = me.filter((v) => up.includes(v));
    bytes += 16 * tableSize(sepVars.map((v) => cards[v]!)) + 4 * projectionMapEntries(me, up, cliqueCards[p]!);
  });
  return { entries, bytes: bytes + 8 * entries };
}

/** The children of each node of a forest given by parent links (−1 or less: none). */
function childrenOf(parent: readonly number[]): number[][] {
  const children: number[][] = parent.map(() => []);
  parent.forEach((p, i) => {
    if (p >= 0) children[p]!.push(i);
  });
  return children;
}

/** Every node of a forest, children before parents. */
function postOrder(parent: readonly number[]): Int32Array {
  const children = childrenOf(parent);
  const out: number[] = [];
  const stack: [number, number][] = parent.flatMap((p, i) => (p < 0 ? [[i, 0] as [number, number]] : []));
  while (stack.length) {
    const top = stack[stack.length - 1]!;
    const kids = children[top[0]]!;
    if (top[1] < kids.length) stack.push([kids[top[1]++]!, 0]);
    else {
      stack.pop();
      out.push(top[0]);
    }
  }
  return Int32Array.from(out);
}

/**
 * Entries per run of a clique's split index maps: the trailing variables up to RUN_ENTRIES
 * entries (at least the last variable). A run of the clique's doubles stays in the L1 cache
 * while every child's separator is read or added to; the maps cost 4 bytes per run and per
 * entry of one run instead of 4 bytes per clique entry and child.
 */
const RUN_ENTRIES = 2048;

/** The position splitting a clique's variables into outer and inner (run) ones. */
function splitPoint(cards: readonly number[]): number {
  if (cards.length === 0) return 0;
  let at = cards.length - 1,
    n = cards[at]!;
  while (at > 0 && n * cards[at - 1]! <= RUN_ENTRIES) n *= cards[--at]!;
  return at;
}

/**
 * The variables `vars` shares with a table over `tableVars` (in the order of `vars`: a separator
 * in the child's order, or a clique's CPT variables), and the table's map onto them.
 */
function projectionMap(
  vars: readonly number[],
  tableVars: readonly number[],
  tableCards: readonly number[],
): { sepVars: number[]; map: RunIndexMap } {
  const sepVars = vars.filter((v) => tableVars.includes(v));
  return { sepVars, map: runIndexMap(tableVars, tableCards, sepVars, splitPoint(tableCards)) };
}

/** The Int32 entries projectionMap's map takes, without building it (junctionTreeSize). */
function projectionMapEntries(
  vars: readonly number[],
  tableVars: readonly number[],
  tableCards: readonly number[],
): number {
  const sepVars = vars.filter((v) => tableVars.includes(v));
  return runIndexMapEntries(tableVars, tableCards, sepVars, splitPoint(tableCards));
}

/** Entry of a table over `vars` → entry of the CPT of `family` ([...parents, child]). */
function familyMap(vars: readonly number[], cards: readonly number[], family: readonly number[]): RunIndexMap {
  return runIndexMap(vars, cards, family, splitPoint(cards));
}

// The kernels of a run of a RunIndexMap: entry l of the run is table[base + inner[i] + l'·tailStep]
// for block i and l' within it. One loop per tail kind keeps the inner loops branch-free, and
// tail blocks go four entries at a time: most tails are short (munin: 4 to 7 entries), where
// loop overhead is most of the cost.

/** values[o + l] = table entry of l, for one run. */
function assignRun(values: Float64Array, o: number, table: Float64Array, base: number, map: RunIndexMap): void {
  const { inner, tail } = map;
  if (tail === 1) for (let i = 0; i < inner.length; i++) values[o + i] = table[base + inner[i]!]!;
  else if (map.tailStep === 0)
    for (let i = 0; i < inner.length; i++, o += tail) values.fill(table[base + inner[i]!]!, o, o + tail);
  else
    for (let i = 0; i < inner.length; i++, o += tail) {
      const b = base + inner[i]! - o;
      let l = o;
      for (const stop = o + tail - 3; l < stop; l += 4) {
        values[l] = table[b + l]!;
        values[l + 1] = table[b + l + 1]!;
        values[l + 2] = table[b + l + 2]!;
        values[l + 3] = table[b + l + 3]!;
      }
      for (; l < o + tail; l++) values[l] = table[b + l]!;
    }
}

/** values[o + l] *= table entry of l, for one run. */
function multiplyRun(values: Float64Array, o: number, table: Float64Array, base: number, map: RunIndexMap): void {
  const { inner, tail } = map;
  if (tail === 1) for (let i = 0; i < inner.length; i++) values[o + i]! *= table[base + inner[i]!]!;
  else if (map.tailStep === 0)
    for (let i = 0; i < inner.length; i++, o += tail) scaleRange(values, o, o + tail, table[base + inner[i]!]!);
  else
    for (let i = 0; i < inner.length; i++, o += tail) {
      const b = base + inner[i]! - o;
      let l = o;
      for (const stop = o + tail - 3; l < stop; l += 4) {
        values[l]! *= table[b + l]!;
        values[l + 1]! *= table[b + l + 1]!;
        values[l + 2]! *= table[b + l + 2]!;
        values[l + 3]! *= table[b + l + 3]!;
      }
      for (; l < o + tail; l++) values[l]! *= table[b + l]!;
    }
}

/** into's entry of l += values[o + l], for one run. */
function addRun(values: Float64Array, o: number, into: Float64Array, base: number, map: RunIndexMap): void {
  const { inner, tail } = map;
  if (tail === 1) for (let i = 0; i < inner.length; i++) into[base + inner[i]!]! += values[o + i]!;
  else if (map.tailStep === 0)
    for (let i = 0; i < inner.length; i++, o += tail) into[base + inner[i]!]! += sumRange(values, o, o + tail);
  else
    for (let i = 0; i < inner.length; i++, o += tail) {
      const b = base + inner[i]! - o;
      let l = o;
      for (const stop = o + tail - 3; l < stop; l += 4) {
        into[b + l]! += values[l]!;
        into[b + l + 1]! += values[l + 1]!;
        into[b + l + 2]! += values[l + 2]!;
        into[b + l + 3]! += values[l + 3]!;
      }
      for (; l < o + tail; l++) into[b + l]! += values[l]!;
    }
}

/** Σ values[from … to − 1], four entries at a time. */
function sumRange(values: Float64Array, from: number, to: number): number {
  let sum = 0,
    l = from;
  for (const stop = to - 3; l < stop; l += 4) sum += values[l]! + values[l + 1]! + values[l + 2]! + values[l + 3]!;
  for (; l < to; l++) sum += values[l]!;
  return sum;
}

/** out[at …] = values[from … from + n − 1] · x, four entries at a time. */
function scaleCopy(values: Float64Array, from: number, out: Float64Array, at: number, n: number, x: number): void {
  const d = at - from;
  let l = from;
  for (const stop = from + n - 3; l < stop; l += 4) {
    out[l + d] = values[l]! * x;
    out[l + d + 1] = values[l + 1]! * x;
    out[l + d + 2] = values[l + 2]! * x;
    out[l + d + 3] = values[l + 3]! * x;
  }
  for (; l < from + n; l++) out[l + d] = values[l]! * x;
}

/** values[from … to − 1] *= x, four entries at a time. */
function scaleRange(values: Float64Array, from: number, to: number, x: number): void {
  let l = from;
  for (const stop = to - 3; l < stop; l += 4) {
    values[l]! *= x;
    values[l + 1]! *= x;
    values[l + 2]! *= x;
    values[l + 3]! *= x;
  }
  for (; l < to; l++) values[l]! *= x;
}
