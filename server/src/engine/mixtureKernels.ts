/**
 * The inner loop of EM for Gaussian mixtures: one pass over the data that does the E-step
 * (log density of every point under every component, log-sum-exp) and gathers the M-step's
 * sufficient statistics in the same loop, so each iteration reads the data once and never
 * stores the n × k responsibilities (they are written only when asked, for the final E-step).
 *
 * Per iteration each component's covariance is factored once (Σ = L Lᵀ) and L⁻¹ kept, so the
 * per-point work is multiply-adds: Mahalanobis distance = |L⁻¹(x − μ)|². d = 1, 2 and 3 (Mitchell's
 * 1-D example, Old Faithful) have unrolled kernels; `scanGeneric` serves any d.
 *
 * The statistics are taken about a shift — the component's mean in this E-step, whose x − μ the
 * density already computed: Σr, Σr·(x − μ), Σr·(x − μ)(x − μ)ᵀ. x − μ is the size of the cluster,
 * not of the coordinates, and nearly centred (its weighted mean is the step the mean takes), so
 * the one-pass covariance does not cancel catastrophically even when the data sit far from the
 * origin (x + 1e6), as the raw E[xxᵀ] − E[x]E[x]ᵀ would.
 */
import { EngineError } from './engineError.js';
import { choleskyFactor, invertLowerTriangular } from './linearAlgebra.js';
import type { NumericData } from './dataset.js';
import { expNonPositive } from './fastExp.js';

const LOG_2PI = Math.log(2 * Math.PI);

/** Lower triangles are stored packed by rows: entry (a, b), b ≤ a, at a(a+1)/2 + b. */
export function packedSize(d: number): number {
  return d * (d + 1) / 2;
}

/** Each component's log density pieces for one E-step. */
export interface ComponentTerms {
  k: number;
  dims: number;
  /** log w_j − ½(d log 2π + log |Σ_j|). */
  constant: Float64Array;
  /** k × d, the means (also the shift of the statistics). */
  means: Float64Array;
  /** k × packedSize(d): L_j⁻¹, lower triangular. */
  inverseFactor: Float64Array;
}

export function componentTerms(weights: Float64Array, means: Float64Array, covariances: Float64Array, k: number, d: number): ComponentTerms {
  const t = packedSize(d);
  const constant = new Float64Array(k);
  const inverseFactor = new Float64Array(k * t);
  for (let j = 0; j < k; j++) {
    const l = choleskyFactor(covariances, d, j * d * d);
    if (!l) throw new EngineError(`component ${j + 1}: covariance is not positive definite; raise regCovar`);
    let logDet = 0;
    for (let a = 0; a < d; a++) logDet += 2 * Math.log(l[a * d + a]!);
    constant[j] = Math.log(weights[j]!) - 0.5 * (d * LOG_2PI + logDet);
    inverseFactor.set(packLower(invertLowerTriangular(l, d), d), j * t);
  }
  return { k, dims: d, constant, means: Float64Array.from(means), inverseFactor };
}

function packLower(m: Float64Array, d: number): Float64Array {
  const out = new Float64Array(packedSize(d));
  for (let a = 0, o = 0; a < d; a++) for (let b = 0; b <= a; b++) out[o++] = m[a * d + b]!;
  return out;
}

/** Σr, Σr·(x − s) and Σr·(x − s)(x − s)ᵀ (packed lower triangle) per component, about shift s. */
export interface SufficientStatistics {
  k: number;
  dims: number;
  shift: Float64Array;
  weight: Float64Array;
  first: Float64Array;
  second: Float64Array;
}

export function emptyStatistics(shift: Float64Array, k: number, d: number): SufficientStatistics {
  return { k, dims: d, shift, weight: new Float64Array(k), first: new Float64Array(k * d), second: new Float64Array(k * packedSize(d)) };
}

/**
 * One E-step pass: returns the total log-likelihood and the statistics about `terms.means`;
 * writes responsibilities (n × k) when `resp` is given.
 */
export type Scan = (x: NumericData, terms: ComponentTerms, resp?: Float64Array) => { logLikelihood: number; stats: SufficientStatistics };

/**
 * The log-likelihood Σᵢ (maxᵢ + log sᵢ), sᵢ being point i's sum of exp(log density − maxᵢ). The logs
 * are taken of running products, one Math.log per block: every s lies in [1, k] (the largest
 * component contributes exp(0) = 1), so k^block stays finite.
 */
class LogLikelihood {
  private maxima = 0;
  private logs = 0;
  private product = 1;
  private count = 0;
  private readonly block: number;
  constructor(k: number) { this.block = Math.max(1, Math.floor(700 / Math.log(Math.max(k, 2)))); }
  add(max: number, s: number): void {
    this.maxima += max;
    this.product *= s;
    if (++this.count === this.block) { this.logs += Math.log(this.product); this.product = 1; this.count = 0; }
  }
  value(): number { return this.maxima + this.logs + Math.log(this.product); }
}

/**
 * log-sum-exp's middle: e[j] ← exp(e[j] − max) for the log densities e, the largest (at arg)
 * being exp(0) = 1 without a call; returns their sum, which lies in [1, k].
 */
function exponentiate(e: Float64Array, k: number, max: number, arg: number): number {
  let sum = 1;
  for (let j = 0; j < k; j++) if (j !== arg) { const v = expNonPositive(e[j]! - max); e[j] = v; sum += v; }
  e[arg] = 1;
  return sum;
}

/**
 * Per component, one run of 1 + d + d(d+1)/2 numbers read together for every point: the constant,
 * μ, then L⁻¹ packed. The kernels' sums use the same runs: Σr, Σr(x − μ), Σr(x − μ)(x − μ)ᵀ packed.
 */
function stride(d: number): number {
  return 1 + d + packedSize(d);
}

function interleave(terms: ComponentTerms): Float64Array {
  const { k, dims: d } = terms, t = packedSize(d), z = stride(d);
  const q = new Float64Array(k * z);
  for (let j = 0; j < k; j++) {
    q[j * z] = terms.constant[j]!;
    q.set(terms.means.subarray(j * d, (j + 1) * d), j * z + 1);
    q.set(terms.inverseFactor.subarray(j * t, (j + 1) * t), j * z + 1 + d);
  }
  return q;
}

function statisticsOf(acc: Float64Array, terms: ComponentTerms): SufficientStatistics {
  const { k, dims: d } = terms, t = packedSize(d), z = stride(d);
  const stats = emptyStatistics(terms.means, k, d);
  for (let j = 0; j < k; j++) {
    stats.weight[j] = acc[j * z]!;
    stats.first.set(acc.subarray(j * z + 1, j * z + 1 + d), j * d);
    stats.second.set(acc.subarray(j * z + 1 + d, (j + 1) * z), j * t);
  }
  return stats;
}

export const scan1: Scan = (x, terms, resp) => {
  const k = terms.k, q = interleave(terms), acc = new Float64Array(q.length);
  const xs = x.values, n = x.rows, e = new Float64Array(k), ll = new LogLikelihood(k);
  for (let i = 0; i < n; i++) {
    const x0 = xs[i]!;
    let max = -Infinity, arg = 0;
    for (let j = 0, o = 0; j < k; j++, o += 3) {
      const v = q[o + 2]! * (x0 - q[o + 1]!);
      const lp = q[o]! - 0.5 * v * v;
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    const sum = exponentiate(e, k, max, arg), inv = 1 / sum;
    for (let j = 0, o = 0; j < k; j++, o += 3) {
      const r = e[j]! * inv, d0 = x0 - q[o + 1]!, rd0 = r * d0;
      acc[o]! += r; acc[o + 1]! += rd0; acc[o + 2]! += rd0 * d0;
      if (resp) resp[i * k + j] = r;
    }
    ll.add(max, sum);
  }
  return { logLikelihood: ll.value(), stats: statisticsOf(acc, terms) };
};

export const scan2: Scan = (x, terms, resp) => {
  const k = terms.k, q = interleave(terms), acc = new Float64Array(q.length);
  const xs = x.values, n = x.rows, e = new Float64Array(k), ll = new LogLikelihood(k);
  for (let i = 0; i < n; i++) {
    const x0 = xs[2 * i]!, x1 = xs[2 * i + 1]!;
    let max = -Infinity, arg = 0;
    for (let j = 0, o = 0; j < k; j++, o += 6) {
      const d0 = x0 - q[o + 1]!, d1 = x1 - q[o + 2]!;
      const v0 = q[o + 3]! * d0, v1 = q[o + 4]! * d0 + q[o + 5]! * d1;
      const lp = q[o]! - 0.5 * (v0 * v0 + v1 * v1);
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    const sum = exponentiate(e, k, max, arg), inv = 1 / sum;
    for (let j = 0, o = 0; j < k; j++, o += 6) {
      const r = e[j]! * inv, d0 = x0 - q[o + 1]!, d1 = x1 - q[o + 2]!;
      const rd0 = r * d0, rd1 = r * d1;
      acc[o]! += r; acc[o + 1]! += rd0; acc[o + 2]! += rd1;
      acc[o + 3]! += rd0 * d0; acc[o + 4]! += rd1 * d0; acc[o + 5]! += rd1 * d1;
      if (resp) resp[i * k + j] = r;
    }
    ll.add(max, sum);
  }
  return { logLikelihood: ll.value(), stats: statisticsOf(acc, terms) };
};

export const scan3: Scan = (x, terms, resp) => {
  const k = terms.k, q = interleave(terms), acc = new Float64Array(q.length);
  const xs = x.values, n = x.rows, e = new Float64Array(k), ll = new LogLikelihood(k);
  for (let i = 0; i < n; i++) {
    const x0 = xs[3 * i]!, x1 = xs[3 * i + 1]!, x2 = xs[3 * i + 2]!;
    let max = -Infinity, arg = 0;
    for (let j = 0, o = 0; j < k; j++, o += 10) {
      const d0 = x0 - q[o + 1]!, d1 = x1 - q[o + 2]!, d2 = x2 - q[o + 3]!;
      const v0 = q[o + 4]! * d0, v1 = q[o + 5]! * d0 + q[o + 6]! * d1, v2 = q[o + 7]! * d0 + q[o + 8]! * d1 + q[o + 9]! * d2;
      const lp = q[o]! - 0.5 * (v0 * v0 + v1 * v1 + v2 * v2);
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    const sum = exponentiate(e, k, max, arg), inv = 1 / sum;
    for (let j = 0, o = 0; j < k; j++, o += 10) {
      const r = e[j]! * inv, d0 = x0 - q[o + 1]!, d1 = x1 - q[o + 2]!, d2 = x2 - q[o + 3]!;
      const rd0 = r * d0, rd1 = r * d1, rd2 = r * d2;
      acc[o]! += r; acc[o + 1]! += rd0; acc[o + 2]! += rd1; acc[o + 3]! += rd2;
      acc[o + 4]! += rd0 * d0; acc[o + 5]! += rd1 * d0; acc[o + 6]! += rd1 * d1;
      acc[o + 7]! += rd2 * d0; acc[o + 8]! += rd2 * d1; acc[o + 9]! += rd2 * d2;
      if (resp) resp[i * k + j] = r;
    }
    ll.add(max, sum);
  }
  return { logLikelihood: ll.value(), stats: statisticsOf(acc, terms) };
};

export const scanGeneric: Scan = (x, terms, resp) => {
  const { k, dims: d } = terms, z = stride(d), q = interleave(terms), acc = new Float64Array(q.length);
  const xs = x.values, n = x.rows, e = new Float64Array(k), diff = new Float64Array(k * d), ll = new LogLikelihood(k);
  for (let i = 0; i < n; i++) {
    const xo = i * d;
    let max = -Infinity, arg = 0;
    for (let j = 0; j < k; j++) {
      const o = j * z, mo = j * d;
      for (let a = 0; a < d; a++) diff[mo + a] = xs[xo + a]! - q[o + 1 + a]!;
      // |L⁻¹(x − μ)|², L⁻¹ packed by rows after μ.
      let maha = 0;
      for (let a = 0, uo = o + 1 + d; a < d; a++) {
        let v = 0;
        for (let b = 0; b <= a; b++) v += q[uo++]! * diff[mo + b]!;
        maha += v * v;
      }
      const lp = q[o]! - 0.5 * maha;
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    const sum = exponentiate(e, k, max, arg), inv = 1 / sum;
    for (let j = 0; j < k; j++) {
      const r = e[j]! * inv, o = j * z, mo = j * d;
      acc[o]! += r;
      for (let a = 0, so = o + 1 + d; a < d; a++) {
        const ra = r * diff[mo + a]!;
        acc[o + 1 + a]! += ra;
        for (let b = 0; b <= a; b++) acc[so++]! += ra * diff[mo + b]!;
      }
      if (resp) resp[i * k + j] = r;
    }
    ll.add(max, sum);
  }
  return { logLikelihood: ll.value(), stats: statisticsOf(acc, terms) };
};

/** The fastest scan for d dimensions. */
export function scanFor(d: number): Scan {
  return d === 1 ? scan1 : d === 2 ? scan2 : d === 3 ? scan3 : scanGeneric;
}

/** Adds one point with responsibility r for component j (the hard assignment of the start). */
export function addPoint(stats: SufficientStatistics, xs: Float64Array, xo: number, j: number, r: number): void {
  const d = stats.dims, mo = j * d;
  stats.weight[j]! += r;
  for (let a = 0, o = j * packedSize(d); a < d; a++) {
    const da = xs[xo + a]! - stats.shift[mo + a]!;
    stats.first[mo + a]! += r * da;
    for (let b = 0; b <= a; b++) stats.second[o++]! += r * da * (xs[xo + b]! - stats.shift[mo + b]!);
  }
}
