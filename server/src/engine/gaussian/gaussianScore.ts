/**
 * BIC of Gaussian (`bic-g`) and conditional Gaussian (`bic-cg`) networks, on bnlearn's scale:
 * the log-likelihood minus (k/2)·ln N, higher is better, family by family (decomposable), so the
 * discrete searches' hill climbing runs on it unchanged (a FamilyScores, hillClimb.ts).
 * The numbers are bnlearn 4.9's (src/scores/gaussian.loglikelihood.c, cg.loglikelihood.c):
 *  - a continuous child with p continuous parents and discrete parents of q configurations in all:
 *    per configuration c with n_c rows, the least-squares fit and the log-likelihood
 *    Σ log φ(x; ŷ, s_c) with s_c² = RSS_c / (n_c − p − 1) — bnlearn's residual standard deviation,
 *    not the ML RSS_c / n_c — that is −(n_c/2) ln(2π s_c²) − (n_c − p − 1)/2; k = q (p + 2)
 *    (intercept, p coefficients and a standard deviation per configuration). A configuration
 *    with n_c ≤ p + 1 rows, or s_c below √ε, makes the model singular: −∞. One with no row adds 0.
 *  - a discrete child with discrete parents: the multinomial log-likelihood, k = q (r − 1), as the
 *    discrete `bic`. A discrete child with a continuous parent is not a CG network: −∞ (the
 *    searches forbid such arcs beforehand, see clgForbidden).
 * N is the number of rows of the data; rows missing a value of the family are left out of its fit.
 * With no value missing, the searches' cache fits a family from the centred scatter matrix of
 * every continuous column per configuration of the discrete parents (computed once per set of
 * discrete parents): RSS = S_yy − S_yp S_pp⁻¹ S_py by Cholesky, O(p³) a family instead of
 * O(n p²); a rank-deficient S_pp falls back to the QR fit.
 */
import { EngineError } from '../engineError.js';
import type { FamilyScores } from '../structure/structureScore.js';
import { regress } from './regression.js';
import { choleskyFactor } from '../math/linearAlgebra.js';
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import { completeRows, configurations, continuousValues, isContinuous, type HybridDataset } from './hybridData.js';

export type GaussianScoreName = 'bic-g' | 'bic-cg';

const MACHINE_TOL = Math.sqrt(Number.EPSILON);

/** The family's log-likelihood and its parameter count k, as bnlearn counts them. */
export function familyLikelihood(
  data: HybridDataset,
  child: number,
  parents: readonly number[],
  moments?: ScatterCache,
): { logLikelihood: number; parameters: number } {
  const discreteParents = parents.filter((p) => !isContinuous(data, p));
  const rows = completeRows(data, [child, ...parents]);
  const { config, count } = configurations(data, discreteParents);
  if (!isContinuous(data, child)) {
    if (discreteParents.length < parents.length) return { logLikelihood: -Infinity, parameters: 0 };
    return discreteLikelihood(data, child, rows, config, count);
  }
  const continuousParents = parents.filter((p) => isContinuous(data, p));
  const y = continuousValues(data, child);
  const xs = continuousParents.map((p) => continuousValues(data, p));
  const m = xs.length + 1;
  const byConfig: number[][] = Array.from({ length: count }, () => []);
  for (const r of rows) byConfig[config[r]!]!.push(r);
  const scatter = moments?.of(discreteParents);
  let logLikelihood = 0;
  for (let c = 0; c < count; c++) {
    const rs = byConfig[c]!;
    const n = rs.length;
    if (n === 0) continue;
    if (n <= m) return { logLikelihood: -Infinity, parameters: count * (m + 1) };
    const rss = (scatter && moments!.rss(scatter[c]!, child, continuousParents)) ?? regress(y, xs, rs).rss;
    const s2 = rss / (n - m);
    if (Math.sqrt(s2) < MACHINE_TOL) return { logLikelihood: -Infinity, parameters: count * (m + 1) };
    logLikelihood += -0.5 * n * Math.log(2 * Math.PI * s2) - 0.5 * (n - m);
  }
  return { logLikelihood, parameters: count * (m + 1) };
}

function discreteLikelihood(
  data: HybridDataset,
  child: number,
  rows: Int32Array,
  config: Int32Array,
  q: number,
): { logLikelihood: number; parameters: number } {
  const col = data.columns[child]!;
  if (col.kind !== 'discrete') throw new EngineError(`'${col.name}' is continuous`);
  const r = col.levels.length;
  const counts = new Float64Array(q * r),
    totals = new Float64Array(q);
  for (const i of rows) {
    counts[config[i]! * r + col.codes[i]!]!++;
    totals[config[i]!]!++;
  }
  let logLikelihood = 0;
  for (let j = 0; j < q; j++) {
    for (let k = 0; k < r; k++) {
      const c = counts[j * r + k]!;
      if (c > 0) logLikelihood += c * Math.log(c / totals[j]!);
    }
  }
  return { logLikelihood, parameters: q * (r - 1) };
}

/** BIC of one family on bnlearn's scale: see the head comment. */
export function gaussianFamilyScore(
  data: HybridDataset,
  child: number,
  parents: readonly number[],
  moments?: ScatterCache,
): number {
  const { logLikelihood, parameters } = familyLikelihood(data, child, parents, moments);
  return logLikelihood - 0.5 * Math.log(Math.max(data.rowCount, 1)) * parameters;
}

/**
 * Checks the data fit the score: `bic-g` wants every column continuous, and a continuous column
 * needs two different values (a constant one has variance 0: every family with it is singular).
 */
export function checkScoreData(data: HybridDataset, score: GaussianScoreName): void {
  for (const c of data.columns) {
    if (c.kind !== 'continuous') continue;
    const seen = c.values.filter((x) => !Number.isNaN(x));
    if (seen.length < 2 || seen.every((x) => x === seen[0])) {
      throw new EngineError(
        `column '${c.name}' ${seen.length < 2 ? `has ${seen.length} value(s)` : `is ${seen[0]} in every row`}: ` +
          'a continuous node needs spread (variance 0 makes every model with it singular)',
      );
    }
  }
  const discrete = data.columns.filter((c) => c.kind === 'discrete').map((c) => c.name);
  if (score === 'bic-g' && discrete.length) {
    throw new EngineError(
      `bic-g scores Gaussian networks, but ${discrete.map((d) => `'${d}'`).join(', ')} ` +
        `${discrete.length > 1 ? 'are' : 'is'} not numeric: use bic-cg for a conditional Gaussian network`,
    );
  }
}

/** Arcs a CG network may not have: continuous → discrete, as [from, to]. */
export function clgForbidden(data: HybridDataset): Array<[number, number]> {
  const arcs: Array<[number, number]> = [];
  data.columns.forEach((from, f) =>
    data.columns.forEach((to, t) => {
      if (from.kind === 'continuous' && to.kind === 'discrete') arcs.push([f, t]);
    }),
  );
  return arcs;
}

/** Family scores memoised by (child, parent set), for the searches. */
export class GaussianScoreCache implements FamilyScores {
  private readonly cache: Array<Map<string, number>>;
  private readonly moments: ScatterCache | undefined;
  constructor(readonly data: HybridDataset) {
    this.cache = data.columns.map(() => new Map());
    const complete = completeRows(
      data,
      data.columns.map((_, v) => v),
    );
    this.moments = complete.length === data.rowCount ? new ScatterCache(data) : undefined;
  }

  family(child: number, parents: readonly number[]): number {
    const key = [...parents].sort((a, b) => a - b).join();
    const cache = this.cache[child]!;
    let s = cache.get(key);
    if (s === undefined) {
      s = gaussianFamilyScore(this.data, child, parents, this.moments);
      cache.set(key, s);
    }
    return s;
  }

  familyWith(child: number, parents: readonly number[], x: number): number {
    return this.family(child, [...parents, x]);
  }

  prefetch(): void {}

  total(parents: readonly (readonly number[])[]): number {
    return parents.reduce((s, ps, v) => s + this.family(v, ps), 0);
  }
}

/**
 * Centred scatter matrices Σ (x − x̄)(x − x̄)ᵀ of all the continuous columns, one per configuration
 * of a set of discrete parents, for complete data (see the head comment). Indexed by column.
 */
export class ScatterCache {
  private readonly bySet = new Map<string, Float64Array[]>();
  private readonly continuous: number[];
  /** Column → position among the continuous columns. */
  private readonly position: Int32Array;
  constructor(private readonly data: HybridDataset) {
    this.continuous = data.columns.flatMap((c, v) => (c.kind === 'continuous' ? [v] : []));
    this.position = new Int32Array(data.columns.length).fill(-1);
    this.continuous.forEach((v, i) => (this.position[v] = i));
  }

  /**
   * The scatter matrix per configuration of `discrete` (first slowest), computed once per list:
   * the key keeps the order, which numbers the configurations.
   */
  of(discrete: readonly number[]): Float64Array[] {
    const key = discrete.join();
    let s = this.bySet.get(key);
    if (!s) {
      s = this.compute(discrete);
      this.bySet.set(key, s);
    }
    return s;
  }

  private compute(discrete: readonly number[]): Float64Array[] {
    const { config, count } = configurations(this.data, discrete);
    const d = this.continuous.length;
    requireWithin('the scatter matrices of a family search', count * d * d, DEFAULT_BUDGETS.maxTotalEntries);
    const cols = this.continuous.map((v) => continuousValues(this.data, v));
    const n = new Float64Array(count),
      mean = Array.from({ length: count }, () => new Float64Array(d));
    for (let r = 0; r < this.data.rowCount; r++) {
      const c = config[r]!;
      n[c]!++;
      for (let i = 0; i < d; i++) mean[c]![i]! += cols[i]![r]!;
    }
    mean.forEach((mu, c) => mu.forEach((x, i) => (mu[i] = n[c]! > 0 ? x / n[c]! : 0)));
    const scatter = Array.from({ length: count }, () => new Float64Array(d * d));
    const dev = new Float64Array(d);
    for (let r = 0; r < this.data.rowCount; r++) {
      const c = config[r]!,
        S = scatter[c]!,
        mu = mean[c]!;
      for (let i = 0; i < d; i++) dev[i] = cols[i]![r]! - mu[i]!;
      for (let i = 0; i < d; i++) for (let j = 0; j <= i; j++) S[i * d + j]! += dev[i]! * dev[j]!;
    }
    for (const S of scatter) for (let i = 0; i < d; i++) for (let j = 0; j < i; j++) S[j * d + i] = S[i * d + j]!;
    return scatter;
  }

  /** RSS of child on parents (with intercept) from one configuration's scatter; undefined when S_pp is singular. */
  rss(S: Float64Array, child: number, parents: readonly number[]): number | undefined {
    const d = this.continuous.length,
      p = parents.length;
    const y = this.position[child]!,
      ps = parents.map((v) => this.position[v]!);
    const Spp = new Float64Array(p * p);
    ps.forEach((a, i) => ps.forEach((b, j) => (Spp[i * p + j] = S[a * d + b]!)));
    const L = p ? choleskyFactor(Spp, p) : new Float64Array(0);
    if (!L) return undefined;
    // Singular to rounding: a pivot far below its column's scale means a (near) dependent parent.
    for (let i = 0; i < p; i++) if (L[i * p + i]! ** 2 <= 1e-12 * Spp[i * p + i]!) return undefined;
    // RSS = S_yy − ‖L⁻¹ S_py‖².
    let rss = S[y * d + y]!;
    const z = new Float64Array(p);
    for (let i = 0; i < p; i++) {
      let t = S[ps[i]! * d + y]!;
      for (let k = 0; k < i; k++) t -= L[i * p + k]! * z[k]!;
      z[i] = t / L[i * p + i]!;
      rss -= z[i]! * z[i]!;
    }
    return Math.max(rss, 0);
  }
}
