/**
 * CPTs from complete data (Mitchell §6.11.4 with priors; Poole & Mackworth §10.2): count each
 * family configuration, add the prior's pseudo-counts, normalise each row.
 *
 * Priors are all Dirichlet, differing in how pseudo-counts spread over a table:
 *  - `dirichlet α`: α per cell (α = 1 is Laplace's rule);
 *  - `mEstimate m`: Mitchell eq 6.22, (n_c + m·p)/(n + m) with p = 1/|X| uniform, i.e. m/|X| per cell;
 *  - `bdeu ess`: the equivalent sample size spread over the whole table, ess/(rows·|X|) per cell.
 */
import type { BayesianNetwork } from './network.js';
import { cardinality, rowCount } from './network.js';
import type { CategoricalDataset } from './categoricalData.js';
import { mEstimatePseudoCounts } from './parameterLearning.js';

export type Prior =
  | { kind: 'none' }
  | { kind: 'dirichlet'; alpha: number }
  | { kind: 'mEstimate'; m: number }
  | { kind: 'bdeu'; ess: number };

export const NO_PRIOR: Prior = { kind: 'none' };

/** The prior's pseudo-count for one cell of a table with `rows` parent rows and `k` child states. */
export function pseudoCount(prior: Prior, rows: number, k: number): number {
  switch (prior.kind) {
    case 'none': return 0;
    case 'dirichlet': return prior.alpha;
    case 'mEstimate': return mEstimatePseudoCounts(k, prior.m)[0]!;
    case 'bdeu': return prior.ess / (rows * k);
  }
}

/** Strides of a family (parents…, child) in the CPT layout: last parent fastest, child innermost. */
export function familyStrides(net: BayesianNetwork, v: number): { family: number[]; strides: number[] } {
  const family = [...net.cpts[v]!.parents, v];
  const strides = new Array<number>(family.length);
  let s = 1;
  for (let i = family.length - 1; i >= 0; i--) { strides[i] = s; s *= cardinality(net, family[i]!); }
  return { family, strides };
}

/**
 * Counts of (parent row, child state) over the rows where the whole family is observed, in the
 * CPT layout. `data` columns are in network order (see alignToNetwork).
 */
export function familyCounts(net: BayesianNetwork, data: CategoricalDataset, v: number): Float64Array {
  return countConfigurations(data, [...net.cpts[v]!.parents, v]);
}

/**
 * Counts of the joint states of `family` (last member fastest) over the rows where all of them
 * are observed. Structure search calls this for every candidate family, so it is one flat loop.
 */
export function countConfigurations(data: CategoricalDataset, family: readonly number[]): Float64Array {
  const m = family.length;
  const strides = new Array<number>(m);
  let size = 1;
  for (let i = m - 1; i >= 0; i--) { strides[i] = size; size *= data.attributes[family[i]!]!.values.length; }
  const counts = new Float64Array(size);
  const cols = family.map((f) => data.columns[f]!);
  rows: for (let r = 0; r < data.rowCount; r++) {
    let at = 0;
    for (let i = 0; i < m; i++) {
      const s = cols[i]![r]!;
      if (s < 0) continue rows;
      at += s * strides[i]!;
    }
    counts[at]!++;
  }
  return counts;
}

/**
 * Normalises counts + pseudo-counts row by row, in place. A row with no counts and no prior
 * (a parent configuration never seen) becomes uniform rather than 0/0.
 */
export function normaliseRows(counts: Float64Array, k: number, pseudo: number): Float64Array {
  for (let r = 0; r < counts.length; r += k) {
    let total = 0;
    for (let x = 0; x < k; x++) total += counts[r + x]! + pseudo;
    for (let x = 0; x < k; x++) counts[r + x] = total > 0 ? (counts[r + x]! + pseudo) / total : 1 / k;
  }
  return counts;
}

/** Maximum-likelihood (or MAP, with a prior) CPTs from counts: a new network, same structure. */
export function learnCpts(net: BayesianNetwork, data: CategoricalDataset, prior: Prior = NO_PRIOR): BayesianNetwork {
  return withTables(net, (v) => {
    const k = cardinality(net, v);
    return normaliseRows(familyCounts(net, data, v), k, pseudoCount(prior, rowCount(net, v), k));
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
