/**
 * Arc strength by the bootstrap (Friedman, Goldszmidt & Wyner 1999; bnlearn's `boot.strength`
 * and `averaged.network`): learn a structure from each of R resamples of the rows (drawn with
 * replacement, as many as the data has), turn each into its CPDAG so that Markov-equivalent
 * answers count alike, and report per pair of variables
 *  - strength: the fraction of replicates in which they are adjacent;
 *  - direction: among those, the fraction with the arc from → to (an undirected edge counts half
 *    each way).
 * The averaged network keeps the arcs whose strength exceeds a threshold (or is 1) and whose
 * direction is at least ½; the threshold defaults to the one estimated from the strengths
 * themselves (Scutari & Nagarajan 2013): the ideal strengths are 0 or 1, so pick the p whose
 * step CDF (p of the pairs at 0, the rest at 1) is nearest in L1 to the empirical CDF of the
 * strengths, and take the p-quantile of the strengths.
 * Replicate r draws its rows from a generator seeded by (seed, r) alone, so replicates can be
 * learnt in any order or split among workers and still give the same counts. A replicate is not
 * copied out row by row: it is a multinomial weight vector over the data's distinct rows (how
 * many draws fell on each), so counting runs over the ≈ 60% of distinct rows drawn at least once
 * and gives exactly the counts of the copied rows.
 * A replicate's hill climbing or tabu search also climbs once from the network learnt on all the
 * data (replicateSearch) and keeps that end when it scores higher on the replicate: the climbs
 * from the empty graph stop at local maxima, and on ALARM (10,000 records, seeds 1–3) the extra
 * climb ends higher in 2 replicates of 3. With the climbs from empty alone, arcs the data
 * supports were lost to the search, not to the resampling: KINKEDTUBE − VENTLUNG (seed 1) had
 * strength 0.395, with the extra climb 0.81.
 */
import { distinctRows, expandRows, type CategoricalDataset } from '../categoricalData.js';
import { createRng } from '../random.js';
import { Pdag } from './pdag.js';
import { EngineError } from '../engineError.js';
import { throwIfCancelled } from '../cancellation.js';
import { searchStructure, type SearchSpec } from './search.js';

/** The rows drawn for replicate r: n draws with replacement, seeded by (seed, r). */
function drawRows(n: number, seed: number, replicate: number): Int32Array {
  const rng = createRng((Math.imul(seed | 0, 0x2c1b3c6d) ^ Math.imul(replicate + 1, 0x297a2d39)) >>> 0);
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = rng.int(n);
  return rows;
}

/** The rows of replicate r, copied: n draws with replacement, seeded by (seed, r). */
export function resampleRows(data: CategoricalDataset, seed: number, replicate: number): CategoricalDataset {
  const n = data.rowCount;
  const rows = drawRows(n, seed, replicate);
  const columns = data.columns.map((col) => {
    const out = new Int32Array(n);
    for (let i = 0; i < n; i++) out[i] = col[rows[i]!]!;
    return out;
  });
  return { attributes: data.attributes, columns, rowCount: n };
}

/**
 * Replicate r as weights: the distinct rows (`distinctRows` of the data) drawn at least once,
 * each weighted by how many of the same n draws as resampleRows fell on it.
 */
export function resampleWeights(
  patterns: CategoricalDataset & { of: Int32Array },
  seed: number,
  replicate: number,
): CategoricalDataset {
  const n = patterns.of.length;
  const drawn = new Float64Array(patterns.rowCount);
  for (const r of drawRows(n, seed, replicate)) drawn[patterns.of[r]!]! += 1;
  const kept: number[] = [];
  for (let p = 0; p < drawn.length; p++) if (drawn[p]! > 0) kept.push(p);
  return {
    attributes: patterns.attributes,
    columns: patterns.columns.map((c) => Int32Array.from(kept, (p) => c[p]!)),
    rowCount: kept.length,
    weights: Float64Array.from(kept, (p) => drawn[p]!),
  };
}

/**
 * Per ordered pair (i, j), twice the number of replicates with i → j plus once per i − j: the
 * counts of bnlearn's strength matrix, in halves so they stay integers and sum across workers.
 */
export class ArcCounts {
  readonly halves: Float64Array;
  replicates = 0;
  constructor(readonly n: number) {
    this.halves = new Float64Array(n * n);
  }
  add(g: Pdag): void {
    const n = this.n;
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (g.isArc(i, j)) this.halves[i * n + j]! += 2;
        else if (g.isUndirected(i, j)) this.halves[i * n + j]! += 1;
      }
    }
    this.replicates++;
  }
  merge(other: { halves: ArrayLike<number>; replicates: number }): void {
    for (let k = 0; k < this.halves.length; k++) this.halves[k]! += other.halves[k]!;
    this.replicates += other.replicates;
  }
}

export interface ArcStrength {
  from: number;
  to: number;
  strength: number;
  direction: number;
}

/** Strength and direction of every ordered pair (i ≠ j), by i then j. */
export function arcStrengths(counts: ArcCounts): ArcStrength[] {
  const { n, halves, replicates } = counts;
  if (replicates === 0) throw new EngineError('arc strengths need at least one replicate');
  const out: ArcStrength[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      if (i === j) continue;
      const ij = halves[i * n + j]! / 2,
        ji = halves[j * n + i]! / 2,
        both = ij + ji;
      out.push({ from: i, to: j, strength: both / replicates, direction: both > 0 ? ij / both : 0 });
    }
  }
  return out;
}

/**
 * The estimated significance threshold (bnlearn's `inclusion.threshold`): with F the empirical
 * CDF of the strengths and knots u₁ < … < u_k, the L1 distance to the step CDF at level p is
 * Σ_i (x_{i+1} − x_i) |F(x_i) − p| over x = 0, u…, 1 — piecewise linear and convex in p, so its
 * minimum is at one of the F(x_i) (a weighted median); the threshold is F's p-quantile.
 */
export function strengthThreshold(strengths: readonly number[]): number {
  if (strengths.length === 0) return 0;
  const sorted = [...strengths].sort((a, b) => a - b);
  const m = sorted.length;
  const knots = [...new Set(sorted)];
  const cdf = (x: number) => {
    let k = 0;
    while (k < m && sorted[k]! <= x) k++;
    return k / m;
  };
  const xs = [...new Set([0, ...knots, 1])];
  const points = [...new Set([0, ...knots.filter((u) => u < 1)])];
  const widths = xs.slice(1).map((x, i) => x - xs[i]!);
  const values = points.map(cdf);
  const norm = (p: number) => values.reduce((s, v, i) => s + (widths[i] ?? 0) * Math.abs(v - p), 0);
  // Candidates: every breakpoint F(x_i), the bounds, and the midpoints of flat stretches
  // between consecutive breakpoints (a minimiser in their interior gives the same quantile).
  const cands = [...new Set([0, 1, ...values])].sort((a, b) => a - b);
  let best = cands[0]!,
    bestNorm = norm(best);
  for (let i = 0; i < cands.length; i++) {
    for (const p of [cands[i]!, i + 1 < cands.length ? (cands[i]! + cands[i + 1]!) / 2 : cands[i]!]) {
      const v = norm(p);
      if (v < bestNorm - 1e-12) {
        best = p;
        bestNorm = v;
      }
    }
  }
  // A flat minimum [F_a, F_b]: an interior point (what a line search returns) selects the upper knot.
  const flat = cands.filter((p) => Math.abs(norm(p) - bestNorm) <= 1e-12);
  if (flat.length > 1) best = (flat[0]! + flat[1]!) / 2;
  return quantileType1(sorted, best);
}

/** R's quantile(type = 1): the smallest x with F(x) ≥ p (p = 0: the minimum). */
function quantileType1(sorted: readonly number[], p: number): number {
  const m = sorted.length;
  const k = Math.max(1, Math.ceil(m * p - 1e-12));
  return sorted[Math.min(k, m) - 1]!;
}

export interface AveragedNetwork {
  /** Arcs (from, to) kept: direction > ½. */
  arcs: Array<[number, number]>;
  /** Pairs kept with no preferred direction (direction exactly ½ both ways), a < b. */
  edges: Array<[number, number]>;
  /** Significant arcs left out because they would have closed a directed cycle. */
  dropped: Array<[number, number]>;
}

/**
 * bnlearn's `averaged.network`: the significant pairs (strength > threshold, or 1), each with
 * its direction ≥ ½; arcs are added strongest first, and one that would close a cycle is dropped.
 */
export function averagedNetwork(n: number, strengths: readonly ArcStrength[], threshold: number): AveragedNetwork {
  const significant = strengths.filter((s) => (s.strength > threshold || s.strength === 1) && s.direction >= 0.5);
  const out: AveragedNetwork = { arcs: [], edges: [], dropped: [] };
  const g = new Pdag(n);
  const arcs = significant
    .filter((s) => s.direction > 0.5)
    .sort((a, b) => b.strength - a.strength || b.direction - a.direction || a.from - b.from || a.to - b.to);
  for (const s of arcs) {
    if (g.directedPath(s.to, s.from)) {
      out.dropped.push([s.from, s.to]);
      continue;
    }
    g.setArc(s.from, s.to);
    out.arcs.push([s.from, s.to]);
  }
  for (const s of significant) if (s.direction === 0.5 && s.from < s.to) out.edges.push([s.from, s.to]);
  out.arcs.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return out;
}

/**
 * The search each replicate runs: `spec`, and for hill climbing and tabu search one more climb
 * from the network `spec` learns on all of `data` (see the head comment). Learn it once, before
 * the replicates are shared out.
 */
export function replicateSearch(data: CategoricalDataset, spec: SearchSpec): SearchSpec {
  if ((spec.method !== 'hillclimb' && spec.method !== 'tabu') || spec.alsoFrom) return spec;
  return { ...spec, alsoFrom: searchStructure(data, spec).parents };
}

export interface BootstrapOptions {
  replicates: number;
  seed: number;
  /** Learn replicates first..first+count−1 only (a worker's share); default all. */
  first?: number;
  count?: number;
  signal?: { readonly aborted: boolean };
  /** Called after each replicate with how many are done. */
  progress?: (done: number) => void;
}

/**
 * Learn each replicate's structure with `learn` (returning its CPDAG) and count its arcs. The
 * replicate comes weighted (see resampleWeights): a learner that does not count must expandRows.
 */
export function bootstrapCounts(
  data: CategoricalDataset,
  learn: (sample: CategoricalDataset) => Pdag,
  options: BootstrapOptions,
): { counts: ArcCounts } {
  if (!(Number.isInteger(options.replicates) && options.replicates >= 1)) {
    throw new EngineError(`the bootstrap needs a whole number of replicates ≥ 1, not ${options.replicates}`);
  }
  if (data.rowCount === 0) throw new EngineError('the bootstrap needs at least one row of data');
  const counts = new ArcCounts(data.attributes.length);
  const patterns = distinctRows(expandRows(data));
  const first = options.first ?? 0,
    count = options.count ?? options.replicates - first;
  for (let r = first; r < first + count; r++) {
    throwIfCancelled(options.signal);
    counts.add(learn(resampleWeights(patterns, options.seed, r)));
    options.progress?.(r - first + 1);
  }
  return { counts };
}
