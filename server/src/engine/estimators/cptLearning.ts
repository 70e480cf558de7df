/**
 * CPTs from complete data (Mitchell §6.11.4 with priors; Poole & Mackworth §10.2): count each
 * family configuration, add the prior's pseudo-counts, normalise each row.
 *
 * Priors are all Dirichlet, differing in how pseudo-counts spread over a table:
 *  - `dirichlet α`: α per cell (α = 1 is Laplace's rule);
 *  - `mEstimate m`: Mitchell eq 6.22, (n_c + m·p)/(n + m) with p = 1/|X| uniform, i.e. m/|X| per cell;
 *  - `bdeu ess`: the equivalent sample size spread over the whole table, ess/(rows·|X|) per cell;
 *  - `perTable`: each table its own pseudo-counts per child state (added to every row), as a
 *    model declares them table by table (`P(X | U) ~ Dirichlet(1)`, `~ m_estimate(m: 2)`, …).
 */
import type { BayesianNetwork } from '../network.js';
import { cardinality, rowCount } from '../network.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { mEstimatePseudoCounts } from './mEstimate.js';
import { EngineError } from '../engineError.js';
import { stridesOf, tableSize } from '../factors/factor.js';

export type Prior =
  | { kind: 'none' }
  | { kind: 'dirichlet'; alpha: number }
  | { kind: 'mEstimate'; m: number }
  | { kind: 'bdeu'; ess: number }
  /** By variable (network order): pseudo-counts per child state; undefined = none for that table. */
  | { kind: 'perTable'; pseudoCounts: ReadonlyArray<readonly number[] | undefined> };

export const NO_PRIOR: Prior = { kind: 'none' };

/** A uniform prior's pseudo-count for one cell of a table with `rows` parent rows and `k` child states. */
export function pseudoCount(prior: Exclude<Prior, { kind: 'perTable' }>, rows: number, k: number): number {
  switch (prior.kind) {
    case 'none':
      return 0;
    case 'dirichlet':
      if (!(prior.alpha >= 0 && Number.isFinite(prior.alpha)))
        throw new EngineError(`a Dirichlet pseudo-count must be ≥ 0, got ${prior.alpha}`);
      return prior.alpha;
    case 'mEstimate':
      return mEstimatePseudoCounts(k, prior.m)[0]!;
    case 'bdeu':
      if (!(prior.ess > 0 && Number.isFinite(prior.ess)))
        throw new EngineError(`the BDeu equivalent sample size must be positive, got ${prior.ess}`);
      return prior.ess / (rows * k);
  }
}

/** The pseudo-counts of variable v's table, one per child state (every parent row gets the same). */
export function statePseudoCounts(prior: Prior, net: BayesianNetwork, v: number): number[] {
  const k = cardinality(net, v);
  if (prior.kind !== 'perTable') return new Array<number>(k).fill(pseudoCount(prior, rowCount(net, v), k));
  const given = prior.pseudoCounts[v];
  if (!given) return new Array<number>(k).fill(0);
  if (given.length !== k || given.some((a) => !(a >= 0))) {
    throw new EngineError(
      `the prior of ${net.variables[v]!.name}'s table needs ${k} non-negative pseudo-counts, got [${given.join(', ')}]`,
    );
  }
  return [...given];
}

/** Strides of a family (parents…, child) in the CPT layout: last parent fastest, child innermost. */
export function familyStrides(net: BayesianNetwork, v: number): { family: number[]; strides: number[] } {
  const family = [...net.cpts[v]!.parents, v];
  return { family, strides: stridesOf(family.map((u) => cardinality(net, u))) };
}

/**
 * Counts of the joint states of `family` (last member fastest) over the rows where all of them
 * are observed, each row counted by its weight (data.weights; default once). Structure search
 * calls this for every candidate family, so it is one flat loop.
 */
export function countConfigurations(data: CategoricalDataset, family: readonly number[]): Float64Array {
  const m = family.length;
  const cards = family.map((f) => data.attributes[f]!.values.length);
  const strides = stridesOf(cards);
  const counts = new Float64Array(tableSize(cards));
  const cols = family.map((f) => data.columns[f]!);
  const w = data.weights;
  rows: for (let r = 0; r < data.rowCount; r++) {
    let at = 0;
    for (let i = 0; i < m; i++) {
      const s = cols[i]![r]!;
      if (s < 0) continue rows;
      at += s * strides[i]!;
    }
    counts[at]! += w ? w[r]! : 1;
  }
  return counts;
}

/**
 * Normalises counts + pseudo-counts (one for every cell, or one per child state) row by row, in
 * place. A row with no counts and no prior (a parent configuration never seen) becomes uniform
 * rather than 0/0.
 */
export function normaliseRows(counts: Float64Array, k: number, pseudo: number | readonly number[]): Float64Array {
  const a = typeof pseudo === 'number' ? new Array<number>(k).fill(pseudo) : pseudo;
  for (let r = 0; r < counts.length; r += k) {
    let total = 0;
    for (let x = 0; x < k; x++) total += counts[r + x]! + a[x]!;
    for (let x = 0; x < k; x++) counts[r + x] = total > 0 ? (counts[r + x]! + a[x]!) / total : 1 / k;
  }
  return counts;
}

/** Maximum-likelihood (or MAP, with a prior) CPTs from counts: a new network, same structure. */
export function learnCpts(net: BayesianNetwork, data: CategoricalDataset, prior: Prior = NO_PRIOR): BayesianNetwork {
  return withTables(net, (v) => {
    // Counts in the CPT layout: parents' row × child state, over the rows where the family is observed.
    return normaliseRows(
      countConfigurations(data, [...net.cpts[v]!.parents, v]),
      cardinality(net, v),
      statePseudoCounts(prior, net, v),
    );
  });
}

/** A copy of the network with each variable's table replaced. */
export function withTables(net: BayesianNetwork, table: (v: number) => Float64Array): BayesianNetwork {
  return {
    name: net.name,
    variables: net.variables,
    cpts: net.cpts.map((cpt, v) => ({ child: v, parents: [...cpt.parents], table: table(v) })),
  };
}

/** The network a structure search found (parent lists over the data's columns), with CPTs counted from the data. */
export function networkFromStructure(
  name: string,
  data: CategoricalDataset,
  parents: readonly (readonly number[])[],
  prior: Prior = NO_PRIOR,
): BayesianNetwork {
  const variables = data.attributes.map((a) => ({ name: a.name, states: [...a.values] }));
  const shape: BayesianNetwork = {
    name,
    variables,
    cpts: parents.map((ps, v) => ({ child: v, parents: [...ps], table: new Float64Array() })),
  };
  return learnCpts(shape, data, prior);
}
