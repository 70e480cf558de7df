/**
 * The Bayesian network IR every inference and learning algorithm works on: a DAG of discrete
 * variables, each with its conditional probability table P(X | parents(X)).
 *
 * CPT layout: one row per parent assignment, rows ordered with the FIRST parent varying
 * slowest and the last parent fastest (as BIF lists them); within a row the child's states in
 * domain order. So entry (parent states p₀…p_{k−1}, child state x) is at
 * `rowIndex(p) * |X| + x`, where rowIndex is the mixed-radix number p₀ p₁ … p_{k−1}.
 */
export interface DiscreteVariable {
  name: string;
  states: string[];
}

export interface Cpt {
  /** Index of the child variable in `BayesianNetwork.variables`. */
  child: number;
  /** Parent variable indices, in table order. */
  parents: number[];
  /** Rows × child states, see the layout above. NaN marks an unknown entry (to be learned). */
  table: Float64Array;
}

export interface BayesianNetwork {
  name: string;
  variables: DiscreteVariable[];
  /** `cpts[i].child === i`: one table per variable. */
  cpts: Cpt[];
}

export function cardinality(net: BayesianNetwork, v: number): number {
  return net.variables[v]!.states.length;
}

/** Number of parent assignments (rows) of a variable's CPT. */
export function rowCount(net: BayesianNetwork, v: number): number {
  let rows = 1;
  for (const p of net.cpts[v]!.parents) rows *= cardinality(net, p);
  return rows;
}

export function variableIndexMap(net: BayesianNetwork): Map<string, number> {
  return new Map(net.variables.map((v, i) => [v.name, i]));
}

/** Parent states of a row index (inverse of the mixed-radix row number). */
export function rowAssignment(net: BayesianNetwork, v: number, row: number): number[] {
  const parents = net.cpts[v]!.parents;
  const states = new Array<number>(parents.length);
  for (let i = parents.length - 1; i >= 0; i--) {
    const k = cardinality(net, parents[i]!);
    states[i] = row % k;
    row = Math.floor(row / k);
  }
  return states;
}

/** The given nodes and all their ancestors. */
export function ancestralSet(net: BayesianNetwork, seeds: Iterable<number>): Set<number> {
  const keep = new Set<number>();
  const stack = [...seeds];
  while (stack.length) {
    const v = stack.pop()!;
    if (keep.has(v)) continue;
    keep.add(v);
    stack.push(...net.cpts[v]!.parents);
  }
  return keep;
}

/**
 * Kahn's algorithm. Returns the variables parents-first, or the variables on a cycle when the
 * graph is not a DAG.
 */
export function topologicalOrder(net: BayesianNetwork): { order: number[] } | { cycle: number[] } {
  return dagOrder(net.variables.length, (v) => net.cpts[v]!.parents);
}

/**
 * Kahn's algorithm over any DAG of `n` nodes given by their parents (the discrete network above,
 * the hybrid one of engine/gaussian): parents first, or the nodes on a cycle.
 */
export function dagOrder(
  n: number,
  parentsOf: (v: number) => readonly number[],
): { order: number[] } | { cycle: number[] } {
  const children: number[][] = Array.from({ length: n }, () => []);
  const indegree = new Int32Array(n);
  for (let v = 0; v < n; v++) {
    const parents = parentsOf(v);
    for (const p of parents) children[p]!.push(v);
    indegree[v] = parents.length;
  }
  const order: number[] = [];
  const queue: number[] = [];
  for (let v = 0; v < n; v++) if (indegree[v] === 0) queue.push(v);
  for (let head = 0; head < queue.length; head++) {
    const v = queue[head]!;
    order.push(v);
    for (const c of children[v]!) if (--indegree[c]! === 0) queue.push(c);
  }
  if (order.length === n) return { order };
  return { cycle: findCycle(parentsOf, indegree) };
}

function findCycle(parentsOf: (v: number) => readonly number[], remaining: Int32Array): number[] {
  // Walk parent links among the variables Kahn could not order: every such node has a parent
  // that is also unordered, so the walk must revisit a node, closing a cycle.
  let v = remaining.findIndex((d) => d > 0);
  const seen = new Map<number, number>();
  const path: number[] = [];
  while (!seen.has(v)) {
    seen.set(v, path.length);
    path.push(v);
    v = parentsOf(v).find((p) => remaining[p]! > 0)!;
  }
  return path.slice(seen.get(v)!).reverse();
}

/**
 * The largest |Σ row − 1| over all CPT rows with every entry known. Published BIF files round
 * their numbers, so their rows may sum to 1 ± 3e-7; `normalizeCptRows` repairs them on load.
 */
export function rowSumDeviation(net: BayesianNetwork): number {
  let worst = 0;
  for (const cpt of net.cpts) {
    const k = cardinality(net, cpt.child);
    for (let o = 0; o < cpt.table.length; o += k) {
      const s = rowSum(cpt.table, o, k);
      if (!Number.isNaN(s)) worst = Math.max(worst, Math.abs(s - 1));
    }
  }
  return worst;
}

/**
 * How far from 1 a row of a network file may sum. Files written by other tools round each number
 * to 6 digits, so a row of k entries may be off by k × 5e-7: over the bnlearn networks (alarm …
 * munin4, pathfinder, link) the worst row is off by 3.0e-7 (barley, pathfinder), and the EM
 * benchmark's gold_alarm.bif writes ⅓ as 0.333333 three times (off by 1.0e-6, over the 1e-6 a row
 * written in a model is allowed). 1e-5 accepts six-digit rounding of rows up to 20 states and
 * still refuses any row a person mistyped (`0.1, 0.3`).
 */
export const ROW_SUM_TOLERANCE = 1e-5;

/** The first row with every entry known whose sum is farther than `tolerance` from 1, if any. */
export function rowOffSum(
  table: Float64Array,
  k: number,
  tolerance = ROW_SUM_TOLERANCE,
): { row: number; sum: number } | undefined {
  for (let o = 0; o < table.length; o += k) {
    const sum = rowSum(table, o, k);
    if (Math.abs(sum - 1) > tolerance) return { row: o / k, sum }; // NaN (an unknown entry) is not
  }
  return undefined;
}

/**
 * A row whose floating-point sum is this close to 1 is kept as written: 0.6 + 0.3 + 0.1 sums to
 * 1 − 1.1e-16, and dividing by that would print 0.6 as 0.6000000000000001 for no accuracy gained.
 */
const EXACT_ROW = 1e-13;

/**
 * Divides every CPT row by its sum, in place, so that each sums to 1 up to rounding. Every way
 * a network enters the engine (BIF import, inline tables) goes through this, so that variable
 * elimination, the junction tree and the samplers answer for one and the same distribution:
 * VE prunes barren nodes whose rows a junction tree multiplies, so un-normalised rows would
 * make the methods disagree by the rounding of the file. Rows with an unknown (NaN) entry are
 * left for learning; rows of zeros stay zero (the checker reports them).
 */
export function normalizeCptRows(table: Float64Array, k: number): void {
  for (let o = 0; o < table.length; o += k) {
    const s = rowSum(table, o, k);
    if (s > 0 && Math.abs(s - 1) > EXACT_ROW) for (let x = 0; x < k; x++) table[o + x]! /= s;
  }
}

/** A copy of `net` with every CPT row normalised (see normalizeCptRows). */
export function normalizeRows(net: BayesianNetwork): BayesianNetwork {
  const cpts = net.cpts.map((cpt) => {
    const table = Float64Array.from(cpt.table);
    normalizeCptRows(table, cardinality(net, cpt.child));
    return { ...cpt, parents: [...cpt.parents], table };
  });
  return { ...net, cpts };
}

/** Σ of one row (NaN when an entry is unknown). */
function rowSum(table: Float64Array, offset: number, k: number): number {
  let s = 0;
  for (let x = 0; x < k; x++) s += table[offset + x]!;
  return s;
}
