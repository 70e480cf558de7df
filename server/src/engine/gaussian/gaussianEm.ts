/**
 * Parameters of a Gaussian network (every node continuous, X_i = b0_i + Σ b_ij X_j + ε_i,
 * ε_i ~ N(0, σ²_i)) from data with missing values, by EM (Dempster, Laird & Rubin; Mitchell §6.12
 * shows it on Gaussians). The network's joint is one multivariate normal N(μ, Σ), so the E-step
 * is exact: for a row observing O and missing M, x_M | x_O ~ N(μ_M + Σ_MO Σ_OO⁻¹ (x_O − μ_O),
 * Σ_MM − Σ_MO Σ_OO⁻¹ Σ_OM). Summing E[x] and E[x xᵀ] over the rows gives the expected means and
 * second moments; the M-step is least squares on them (regressFromMoments), the ML variance
 * RSS / n. Each iteration cannot lower the observed-data log-likelihood Σ_rows log N(x_O; μ_O, Σ_OO),
 * which is reported per iteration. Rows are grouped by which values they miss, so Σ_OO is
 * factorised once per pattern.
 */
import { EngineError } from '../engineError.js';
import { choleskyFactor, solveLower, solveWithCholesky } from '../math/linearAlgebra.js';
import { dagOrder } from '../network.js';
import { createRng } from '../random.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { continuousValues, type HybridDataset } from './hybridData.js';
import { regressFromMoments } from './regression.js';

export interface GaussianParameters {
  parents: number[][];
  intercept: number[];
  /** coefficients[i][k]: of parents[i][k]. */
  coefficients: number[][];
  variance: number[];
}

export interface GaussianEmOptions {
  /** Seed of the starting coefficients (default 1). */
  seed?: number;
  maxIterations?: number;
  /** Stop when an iteration raises the log-likelihood by less than this (default 1e-8). */
  tolerance?: number;
  signal?: CancelSignal;
}

export interface GaussianEmResult {
  parameters: GaussianParameters;
  /** Observed-data log-likelihood of the parameters returned. */
  logLikelihood: number;
  /** The log-likelihood before each M-step, then of the parameters returned: never decreasing. */
  trace: number[];
  iterations: number;
  converged: boolean;
}

/** A topological order of the parent lists (an error naming a cycle's node when there is one). */
export function topologicalOrder(parents: readonly (readonly number[])[], names: readonly string[]): number[] {
  const walk = dagOrder(parents.length, (v) => parents[v]!);
  if ('cycle' in walk) throw new EngineError(`the network has a directed cycle through '${names[walk.cycle[0]!]}'`);
  return walk.order;
}

/** The network's joint N(μ, Σ) (Σ d × d row-major), built in topological order. */
export function jointGaussian(
  params: GaussianParameters,
  order: readonly number[],
): { mean: Float64Array; cov: Float64Array } {
  const d = params.parents.length;
  const mean = new Float64Array(d),
    cov = new Float64Array(d * d);
  const done: number[] = [];
  for (const i of order) {
    const ps = params.parents[i]!,
      bs = params.coefficients[i]!;
    mean[i] = ps.reduce((s, p, k) => s + bs[k]! * mean[p]!, params.intercept[i]!);
    // Cov(X_i, X_k) = Σ_j b_ij Cov(X_j, X_k) for every node k placed before i.
    for (const k of done) {
      const c = ps.reduce((s, p, j) => s + bs[j]! * cov[p * d + k]!, 0);
      cov[i * d + k] = cov[k * d + i] = c;
    }
    cov[i * d + i] = ps.reduce((s, p, j) => s + bs[j]! * cov[p * d + i]!, params.variance[i]!);
    done.push(i);
  }
  return { mean, cov };
}

export function gaussianEm(
  data: HybridDataset,
  parents: readonly (readonly number[])[],
  options: GaussianEmOptions = {},
): GaussianEmResult {
  const names = data.columns.map((c) => c.name);
  const d = names.length;
  if (parents.length !== d) throw new EngineError(`parent lists for ${parents.length} of ${d} columns`);
  const columns = data.columns.map((_, v) => continuousValues(data, v));
  const order = topologicalOrder(parents, names);
  const patterns = missingPatterns(columns, data.rowCount);
  let params = startingParameters(columns, parents, options.seed ?? 1, names);
  const maxIterations = options.maxIterations ?? 1000,
    tolerance = options.tolerance ?? 1e-8;
  const trace: number[] = [];
  let converged = false,
    iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    throwIfCancelled(options.signal);
    const stats = expectedMoments(columns, patterns, params, order, data.rowCount);
    trace.push(stats.logLikelihood);
    const n = trace.length;
    if (n > 1 && trace[n - 1]! - trace[n - 2]! < tolerance) {
      converged = true;
      break;
    }
    params = maximise(stats.mean, stats.cov, parents, names);
  }
  if (!converged) {
    trace.push(expectedMoments(columns, patterns, params, order, data.rowCount).logLikelihood);
  }
  return { parameters: params, logLikelihood: trace[trace.length - 1]!, trace, iterations, converged };
}

interface Pattern {
  observed: number[];
  missing: number[];
  rows: number[];
}

/** Rows grouped by the set of values they miss. */
function missingPatterns(columns: readonly Float64Array[], rowCount: number): Pattern[] {
  const byKey = new Map<string, Pattern>();
  for (let r = 0; r < rowCount; r++) {
    const missing = columns.flatMap((c, v) => (Number.isNaN(c[r]!) ? [v] : []));
    const key = missing.join();
    let p = byKey.get(key);
    if (!p) {
      p = { observed: columns.flatMap((_, v) => (missing.includes(v) ? [] : [v])), missing, rows: [] };
      byKey.set(key, p);
    }
    p.rows.push(r);
  }
  return [...byKey.values()];
}

/**
 * The start: each node's observed mean and variance, with small seeded coefficients (scaled by
 * the spread of child and parent) and the intercept that keeps the child's mean.
 */
function startingParameters(
  columns: readonly Float64Array[],
  parents: readonly (readonly number[])[],
  seed: number,
  names: readonly string[],
): GaussianParameters {
  const rng = createRng(seed);
  const moments = columns.map((c, v) => {
    const xs = Array.from(c).filter((x) => !Number.isNaN(x));
    if (xs.length < 2) throw new EngineError(`'${names[v]}' has ${xs.length} observed values: EM needs at least 2`);
    const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
    const variance = xs.reduce((s, x) => s + (x - mean) ** 2, 0) / xs.length;
    if (!(variance > 0)) throw new EngineError(`'${names[v]}' takes one value only: its variance is 0`);
    return { mean, variance };
  });
  const coefficients = parents.map((ps, v) =>
    ps.map((p) => 0.1 * rng.normal() * Math.sqrt(moments[v]!.variance / moments[p]!.variance)),
  );
  return {
    parents: parents.map((ps) => [...ps]),
    intercept: parents.map((ps, v) =>
      ps.reduce((s, p, k) => s - coefficients[v]![k]! * moments[p]!.mean, moments[v]!.mean),
    ),
    coefficients,
    variance: moments.map((m) => m.variance),
  };
}

/** E-step: expected means and (ML, divisor n) covariances, and the observed-data log-likelihood. */
function expectedMoments(
  columns: readonly Float64Array[],
  patterns: readonly Pattern[],
  params: GaussianParameters,
  order: readonly number[],
  rowCount: number,
): { mean: Float64Array; cov: Float64Array; logLikelihood: number } {
  const d = columns.length;
  const { mean: mu, cov: sigma } = jointGaussian(params, order);
  // Accumulate around μ: the offsets of the variables cancel before any square is summed.
  const sum = new Float64Array(d),
    cross = new Float64Array(d * d);
  let logLikelihood = 0;
  const e = new Float64Array(d);
  for (const { observed: O, missing: M, rows } of patterns) {
    const o = O.length,
      m = M.length;
    const sub = (A: readonly number[], B: readonly number[]) => {
      const out = new Float64Array(A.length * B.length);
      A.forEach((a, i) => B.forEach((b, j) => (out[i * B.length + j] = sigma[a * d + b]!)));
      return out;
    };
    const L = o ? choleskyFactor(sub(O, O), o) : new Float64Array(0);
    if (!L) throw new EngineError('the covariance of the observed values is singular: a variance reached 0');
    let logDet = 0;
    for (let i = 0; i < o; i++) logDet += 2 * Math.log(L[i * o + i]!);
    // W = Σ_OO⁻¹ Σ_OM and the conditional covariance Σ_MM − Σ_MO W, once per pattern.
    const SOM = sub(O, M);
    const W = new Float64Array(o * m);
    for (let j = 0; j < m; j++) {
      const col = Array.from({ length: o }, (_, i) => SOM[i * m + j]!);
      const x = solveWithCholesky(L, o, col);
      for (let i = 0; i < o; i++) W[i * m + j] = x[i]!;
    }
    const C = sub(M, M);
    for (let a = 0; a < m; a++) {
      for (let b = 0; b < m; b++) {
        let s = 0;
        for (let i = 0; i < o; i++) s += SOM[i * m + a]! * W[i * m + b]!;
        C[a * m + b]! -= s;
      }
    }
    for (const r of rows) {
      const diff = O.map((v) => columns[v]![r]! - mu[v]!);
      const z = solveLower(L, o, diff);
      logLikelihood -= 0.5 * (o * Math.log(2 * Math.PI) + logDet + z.reduce((s, x) => s + x * x, 0));
      O.forEach((v, i) => (e[v] = diff[i]!));
      // E[x_M] − μ_M = Σ_MO Σ_OO⁻¹ (x_O − μ_O) = Wᵀ (x_O − μ_O).
      M.forEach((v, j) => {
        let s = 0;
        for (let i = 0; i < o; i++) s += W[i * m + j]! * diff[i]!;
        e[v] = s;
      });
      for (let a = 0; a < d; a++) {
        sum[a]! += e[a]!;
        for (let b = 0; b < d; b++) cross[a * d + b]! += e[a]! * e[b]!;
      }
    }
    M.forEach((a, i) => M.forEach((b, j) => (cross[a * d + b]! += rows.length * C[i * m + j]!)));
  }
  const mean = new Float64Array(d),
    cov = new Float64Array(d * d);
  for (let a = 0; a < d; a++) mean[a] = mu[a]! + sum[a]! / rowCount;
  for (let a = 0; a < d; a++) {
    for (let b = 0; b < d; b++)
      cov[a * d + b] = cross[a * d + b]! / rowCount - (sum[a]! / rowCount) * (sum[b]! / rowCount);
  }
  return { mean, cov, logLikelihood };
}

/** M-step: each node's least squares on its parents from the expected moments. */
function maximise(
  mean: Float64Array,
  cov: Float64Array,
  parents: readonly (readonly number[])[],
  names: readonly string[],
): GaussianParameters {
  const d = mean.length;
  const fits = parents.map((ps, v) => {
    const fit = regressFromMoments(mean, cov, d, v, ps);
    if (!(fit.variance > 0)) throw new EngineError(`EM drove the variance of '${names[v]}' to 0 (its parents fix it)`);
    return fit;
  });
  return {
    parents: parents.map((ps) => [...ps]),
    intercept: fits.map((f) => f.intercept),
    coefficients: fits.map((f) => [...f.coefficients]),
    variance: fits.map((f) => f.variance),
  };
}
