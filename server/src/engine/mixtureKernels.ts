/**
 * The inner loop of EM for Gaussian mixtures: one pass over the data that does the E-step
 * (log density of every point under every component, log-sum-exp) and gathers the M-step's
 * sufficient statistics in the same loop, so each iteration reads the data once and never
 * stores the n × k responsibilities (they are written only when asked, for the final E-step).
 *
 * Per iteration each component's covariance is factored once (Σ = L Lᵀ) and L⁻¹ kept, so the
 * per-point work is multiply-adds: Mahalanobis distance = |L⁻¹(x − μ)|². d = 1 and d = 2 (Mitchell's
 * 1-D example, Old Faithful) have unrolled kernels; `scanGeneric` serves any d.
 *
 * The statistics are taken about a shift — the component's mean in this E-step, whose x − μ the
 * density already computed: Σr, Σr·(x − μ), Σr·(x − μ)(x − μ)ᵀ. Near convergence x − μ is small
 * and centred, so the one-pass covariance does not cancel catastrophically even when the data sit
 * far from the origin (x + 1e6).
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
 * Σ log(sum) is gathered as the log of a running product, one Math.log per block: every sum lies
 * in [1, k] (the largest component contributes exp(0) = 1), so k^block must stay finite.
 */
function logBlock(k: number): number {
  return Math.max(1, Math.floor(700 / Math.log(Math.max(k, 2))));
}

export const scan1: Scan = (x, terms, resp) => {
  const { k, means: m, constant: c, inverseFactor: u } = terms;
  const stats = emptyStatistics(terms.means, k, 1);
  const { weight: w, first: f, second: s } = stats;
  const xs = x.values, n = x.rows, e = new Float64Array(k), block = logBlock(k);
  let maxTotal = 0, logTotal = 0, product = 1, inBlock = 0;
  for (let i = 0; i < n; i++) {
    const x0 = xs[i]!;
    let max = -Infinity, arg = 0;
    for (let j = 0; j < k; j++) {
      const v = u[j]! * (x0 - m[j]!);
      const lp = c[j]! - 0.5 * v * v;
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    let sum = 1;
    for (let j = 0; j < k; j++) if (j !== arg) { const v = expNonPositive(e[j]! - max); e[j] = v; sum += v; }
    e[arg] = 1;
    const inv = 1 / sum;
    for (let j = 0; j < k; j++) {
      const r = e[j]! * inv, d0 = x0 - m[j]!, rd0 = r * d0;
      w[j]! += r; f[j]! += rd0; s[j]! += rd0 * d0;
      if (resp) resp[i * k + j] = r;
    }
    maxTotal += max;
    product *= sum;
    if (++inBlock === block) { logTotal += Math.log(product); product = 1; inBlock = 0; }
  }
  return { logLikelihood: maxTotal + logTotal + Math.log(product), stats };
};

export const scan2: Scan = (x, terms, resp) => {
  const { k, means: m, constant: c, inverseFactor: u } = terms;
  // Per component, interleaved: c, μ0, μ1, u00, u10, u11 in; W, f0, f1, s00, s10, s11 out.
  const q = new Float64Array(6 * k), acc = new Float64Array(6 * k);
  for (let j = 0; j < k; j++) q.set([c[j]!, m[2 * j]!, m[2 * j + 1]!, u[3 * j]!, u[3 * j + 1]!, u[3 * j + 2]!], 6 * j);
  const xs = x.values, n = x.rows, e = new Float64Array(k), block = logBlock(k);
  let maxTotal = 0, logTotal = 0, product = 1, inBlock = 0;
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
    let sum = 1;
    for (let j = 0; j < k; j++) if (j !== arg) { const v = expNonPositive(e[j]! - max); e[j] = v; sum += v; }
    e[arg] = 1;
    const inv = 1 / sum;
    for (let j = 0, o = 0; j < k; j++, o += 6) {
      const r = e[j]! * inv, d0 = x0 - q[o + 1]!, d1 = x1 - q[o + 2]!;
      const rd0 = r * d0, rd1 = r * d1;
      acc[o]! += r; acc[o + 1]! += rd0; acc[o + 2]! += rd1;
      acc[o + 3]! += rd0 * d0; acc[o + 4]! += rd1 * d0; acc[o + 5]! += rd1 * d1;
      if (resp) resp[i * k + j] = r;
    }
    maxTotal += max;
    product *= sum;
    if (++inBlock === block) { logTotal += Math.log(product); product = 1; inBlock = 0; }
  }
  const stats = emptyStatistics(terms.means, k, 2);
  for (let j = 0; j < k; j++) {
    stats.weight[j] = acc[6 * j]!;
    stats.first.set(acc.subarray(6 * j + 1, 6 * j + 3), 2 * j);
    stats.second.set(acc.subarray(6 * j + 3, 6 * j + 6), 3 * j);
  }
  return { logLikelihood: maxTotal + logTotal + Math.log(product), stats };
};

export const scanGeneric: Scan = (x, terms, resp) => {
  const { k, dims: d, means: m, constant: c, inverseFactor: u } = terms;
  const t = packedSize(d);
  const stats = emptyStatistics(terms.means, k, d);
  const { weight: w, first: f, second: s } = stats;
  const xs = x.values, n = x.rows, e = new Float64Array(k), diff = new Float64Array(k * d), block = logBlock(k);
  let maxTotal = 0, logTotal = 0, product = 1, inBlock = 0;
  for (let i = 0; i < n; i++) {
    const xo = i * d;
    let max = -Infinity, arg = 0;
    for (let j = 0; j < k; j++) {
      const mo = j * d, uo = j * t;
      for (let a = 0; a < d; a++) diff[mo + a] = xs[xo + a]! - m[mo + a]!;
      // |L⁻¹(x − μ)|², row a of L⁻¹ being packed at uo + a(a+1)/2.
      let maha = 0;
      for (let a = 0, o = uo; a < d; a++) {
        let v = 0;
        for (let b = 0; b <= a; b++) v += u[o++]! * diff[mo + b]!;
        maha += v * v;
      }
      const lp = c[j]! - 0.5 * maha;
      e[j] = lp;
      if (lp > max) { max = lp; arg = j; }
    }
    let sum = 1;
    for (let j = 0; j < k; j++) if (j !== arg) { const v = expNonPositive(e[j]! - max); e[j] = v; sum += v; }
    e[arg] = 1;
    const inv = 1 / sum;
    for (let j = 0; j < k; j++) {
      const r = e[j]! * inv, mo = j * d;
      w[j]! += r;
      for (let a = 0, o = j * t; a < d; a++) {
        const ra = r * diff[mo + a]!;
        f[mo + a]! += ra;
        for (let b = 0; b <= a; b++) s[o++]! += ra * diff[mo + b]!;
      }
      if (resp) resp[i * k + j] = r;
    }
    maxTotal += max;
    product *= sum;
    if (++inBlock === block) { logTotal += Math.log(product); product = 1; inBlock = 0; }
  }
  return { logLikelihood: maxTotal + logTotal + Math.log(product), stats };
};

/** The fastest scan for d dimensions. */
export function scanFor(d: number): Scan {
  return d === 1 ? scan1 : d === 2 ? scan2 : scanGeneric;
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
