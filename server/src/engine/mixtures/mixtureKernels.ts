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
import { EngineError } from '../engineError.js';
import { choleskyFactor, invertLowerTriangular } from '../math/linearAlgebra.js';
import type { NumericData } from '../dataset.js';
import { expNonPositive } from '../math/fastExp.js';

const LOG_2PI = Math.log(2 * Math.PI);

/** Lower triangles are stored packed by rows: entry (a, b), b ≤ a, at a(a+1)/2 + b. */
export function packedSize(d: number): number {
  return (d * (d + 1)) / 2;
}

/**
 * Each component's log density for one E-step, as one run of 1 + d + d(d+1)/2 numbers per
 * component, read together for every point: log w − ½(d log 2π + log |Σ|), μ, then L⁻¹ packed.
 */
export interface ComponentTerms {
  k: number;
  dims: number;
  /** k × d, the means (also the shift of the statistics). */
  means: Float64Array;
  /** k × stride(d). */
  runs: Float64Array;
}

/** The run length per component; the kernels' sums use the same runs: Σr, Σr(x − μ), Σr(x − μ)(x − μ)ᵀ packed. */
function stride(d: number): number {
  return 1 + d + packedSize(d);
}

export function componentTerms(
  weights: Float64Array,
  means: Float64Array,
  covariances: Float64Array,
  k: number,
  d: number,
): ComponentTerms {
  const z = stride(d);
  const runs = new Float64Array(k * z);
  for (let j = 0; j < k; j++) {
    const l = choleskyFactor(covariances, d, j * d * d);
    if (!l) throw new EngineError(`component ${j + 1}: covariance is not positive definite; raise regCovar`);
    let logDet = 0;
    for (let a = 0; a < d; a++) logDet += 2 * Math.log(l[a * d + a]!);
    runs[j * z] = Math.log(weights[j]!) - 0.5 * (d * LOG_2PI + logDet);
    runs.set(means.subarray(j * d, (j + 1) * d), j * z + 1);
    const inverse = invertLowerTriangular(l, d);
    for (let a = 0, o = j * z + 1 + d; a < d; a++) for (let b = 0; b <= a; b++) runs[o++] = inverse[a * d + b]!;
  }
  return { k, dims: d, means: Float64Array.from(means), runs };
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
  return {
    k,
    dims: d,
    shift,
    weight: new Float64Array(k),
    first: new Float64Array(k * d),
    second: new Float64Array(k * packedSize(d)),
  };
}

/**
 * One E-step pass: returns the total log-likelihood and the statistics about `terms.means`;
 * writes responsibilities (n × k) when `resp` is given.
 */
export type Scan = (
  x: NumericData,
  terms: ComponentTerms,
  resp?: Float64Array,
) => { logLikelihood: number; stats: SufficientStatistics };

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
  constructor(k: number) {
    this.block = Math.max(1, Math.floor(700 / Math.log(Math.max(k, 2))));
  }
  add(max: number, s: number): void {
    this.maxima += max;
    this.product *= s;
    if (++this.count === this.block) {
      this.logs += Math.log(this.product);
      this.product = 1;
      this.count = 0;
    }
  }
  value(): number {
    return this.maxima + this.logs + Math.log(this.product);
  }
}

function statisticsOf(acc: Float64Array, terms: ComponentTerms): SufficientStatistics {
  const { k, dims: d } = terms,
    t = packedSize(d),
    z = stride(d);
  const stats = emptyStatistics(terms.means, k, d);
  for (let j = 0; j < k; j++) {
    stats.weight[j] = acc[j * z]!;
    stats.first.set(acc.subarray(j * z + 1, j * z + 1 + d), j * d);
    stats.second.set(acc.subarray(j * z + 1 + d, (j + 1) * z), j * t);
  }
  return stats;
}

/**
 * Points go through in blocks, component by component within a block, so that a component's
 * terms and running sums sit in locals (registers) over a tight loop instead of being read and
 * written in memory for every point; log densities, then responsibilities, wait in lp[j·BLOCK + i].
 */
const BLOCK = 256;

/**
 * The two loops a kernel specialises: log densities of points first … first + count − 1 under the
 * component whose run starts at q[o], into lp[lo …]; and that component's sums over the block, from
 * the responsibilities in lp[lo …], added to acc[o …].
 */
interface Kernel {
  densities(
    xs: Float64Array,
    first: number,
    count: number,
    q: Float64Array,
    o: number,
    lp: Float64Array,
    lo: number,
  ): void;
  accumulate(
    xs: Float64Array,
    first: number,
    count: number,
    q: Float64Array,
    o: number,
    lp: Float64Array,
    lo: number,
    acc: Float64Array,
  ): void;
}

/**
 * log-sum-exp for each point of a block: lp ← responsibilities. The largest density of a point
 * contributes exp(0) = 1 without a call, so every sum lies in [1, k].
 */
function normaliseBlock(
  lp: Float64Array,
  k: number,
  count: number,
  ll: LogLikelihood,
  resp: Float64Array | undefined,
  first: number,
): void {
  for (let i = 0; i < count; i++) {
    let max = -Infinity,
      arg = 0;
    for (let j = 0, o = i; j < k; j++, o += BLOCK) {
      const v = lp[o]!;
      if (v > max) {
        max = v;
        arg = j;
      }
    }
    let sum = 1;
    for (let j = 0, o = i; j < k; j++, o += BLOCK)
      if (j !== arg) {
        const v = expNonPositive(lp[o]! - max);
        lp[o] = v;
        sum += v;
      }
    lp[arg * BLOCK + i] = 1;
    const inv = 1 / sum;
    for (let j = 0, o = i; j < k; j++, o += BLOCK) lp[o]! *= inv;
    if (resp) for (let j = 0, o = i; j < k; j++, o += BLOCK) resp[(first + i) * k + j] = lp[o]!;
    ll.add(max, sum);
  }
}

function scanWith(kernel: Kernel): Scan {
  return (x, terms, resp) => {
    const { k, dims: d, runs: q } = terms,
      z = stride(d),
      acc = new Float64Array(q.length);
    const xs = x.values,
      n = x.rows,
      lp = new Float64Array(k * BLOCK),
      ll = new LogLikelihood(k);
    for (let first = 0; first < n; first += BLOCK) {
      const count = Math.min(BLOCK, n - first);
      for (let j = 0; j < k; j++) kernel.densities(xs, first, count, q, j * z, lp, j * BLOCK);
      normaliseBlock(lp, k, count, ll, resp, first);
      for (let j = 0; j < k; j++) kernel.accumulate(xs, first, count, q, j * z, lp, j * BLOCK, acc);
    }
    return { logLikelihood: ll.value(), stats: statisticsOf(acc, terms) };
  };
}

export const scan1 = scanWith({
  densities(xs, first, count, q, o, lp, lo) {
    const c = q[o]!,
      m0 = q[o + 1]!,
      u00 = q[o + 2]!;
    for (let i = 0; i < count; i++) {
      const v0 = u00 * (xs[first + i]! - m0);
      lp[lo + i] = c - 0.5 * v0 * v0;
    }
  },
  accumulate(xs, first, count, q, o, lp, lo, acc) {
    const m0 = q[o + 1]!;
    let w = 0,
      f0 = 0,
      s00 = 0;
    for (let i = 0; i < count; i++) {
      const r = lp[lo + i]!,
        d0 = xs[first + i]! - m0,
        rd0 = r * d0;
      w += r;
      f0 += rd0;
      s00 += rd0 * d0;
    }
    acc[o]! += w;
    acc[o + 1]! += f0;
    acc[o + 2]! += s00;
  },
});

export const scan2 = scanWith({
  densities(xs, first, count, q, o, lp, lo) {
    const c = q[o]!,
      m0 = q[o + 1]!,
      m1 = q[o + 2]!,
      u00 = q[o + 3]!,
      u10 = q[o + 4]!,
      u11 = q[o + 5]!;
    for (let i = 0, xo = 2 * first; i < count; i++, xo += 2) {
      const d0 = xs[xo]! - m0,
        d1 = xs[xo + 1]! - m1;
      const v0 = u00 * d0,
        v1 = u10 * d0 + u11 * d1;
      lp[lo + i] = c - 0.5 * (v0 * v0 + v1 * v1);
    }
  },
  accumulate(xs, first, count, q, o, lp, lo, acc) {
    const m0 = q[o + 1]!,
      m1 = q[o + 2]!;
    let w = 0,
      f0 = 0,
      f1 = 0,
      s00 = 0,
      s10 = 0,
      s11 = 0;
    for (let i = 0, xo = 2 * first; i < count; i++, xo += 2) {
      const r = lp[lo + i]!,
        d0 = xs[xo]! - m0,
        d1 = xs[xo + 1]! - m1;
      const rd0 = r * d0,
        rd1 = r * d1;
      w += r;
      f0 += rd0;
      f1 += rd1;
      s00 += rd0 * d0;
      s10 += rd1 * d0;
      s11 += rd1 * d1;
    }
    acc[o]! += w;
    acc[o + 1]! += f0;
    acc[o + 2]! += f1;
    acc[o + 3]! += s00;
    acc[o + 4]! += s10;
    acc[o + 5]! += s11;
  },
});

export const scan3 = scanWith({
  densities(xs, first, count, q, o, lp, lo) {
    const c = q[o]!,
      m0 = q[o + 1]!,
      m1 = q[o + 2]!,
      m2 = q[o + 3]!;
    const u00 = q[o + 4]!,
      u10 = q[o + 5]!,
      u11 = q[o + 6]!,
      u20 = q[o + 7]!,
      u21 = q[o + 8]!,
      u22 = q[o + 9]!;
    for (let i = 0, xo = 3 * first; i < count; i++, xo += 3) {
      const d0 = xs[xo]! - m0,
        d1 = xs[xo + 1]! - m1,
        d2 = xs[xo + 2]! - m2;
      const v0 = u00 * d0,
        v1 = u10 * d0 + u11 * d1,
        v2 = u20 * d0 + u21 * d1 + u22 * d2;
      lp[lo + i] = c - 0.5 * (v0 * v0 + v1 * v1 + v2 * v2);
    }
  },
  accumulate(xs, first, count, q, o, lp, lo, acc) {
    const m0 = q[o + 1]!,
      m1 = q[o + 2]!,
      m2 = q[o + 3]!;
    let w = 0,
      f0 = 0,
      f1 = 0,
      f2 = 0,
      s00 = 0,
      s10 = 0,
      s11 = 0,
      s20 = 0,
      s21 = 0,
      s22 = 0;
    for (let i = 0, xo = 3 * first; i < count; i++, xo += 3) {
      const r = lp[lo + i]!,
        d0 = xs[xo]! - m0,
        d1 = xs[xo + 1]! - m1,
        d2 = xs[xo + 2]! - m2;
      const rd0 = r * d0,
        rd1 = r * d1,
        rd2 = r * d2;
      w += r;
      f0 += rd0;
      f1 += rd1;
      f2 += rd2;
      s00 += rd0 * d0;
      s10 += rd1 * d0;
      s11 += rd1 * d1;
      s20 += rd2 * d0;
      s21 += rd2 * d1;
      s22 += rd2 * d2;
    }
    acc[o]! += w;
    acc[o + 1]! += f0;
    acc[o + 2]! += f1;
    acc[o + 3]! += f2;
    acc[o + 4]! += s00;
    acc[o + 5]! += s10;
    acc[o + 6]! += s11;
    acc[o + 7]! += s20;
    acc[o + 8]! += s21;
    acc[o + 9]! += s22;
  },
});

/** Any d: the same loops with x − μ in a scratch row. Dimensions come from the run length of q. */
function genericKernel(dims: number): Kernel {
  const row = new Float64Array(dims);
  return {
    densities(xs, first, count, q, o, lp, lo) {
      // Locals, not closure slots, in the loops.
      const d = dims,
        diff = row,
        c = q[o]!,
        mo = o + 1,
        uo = o + 1 + d;
      for (let i = 0, xo = d * first; i < count; i++, xo += d) {
        for (let a = 0; a < d; a++) diff[a] = xs[xo + a]! - q[mo + a]!;
        // |L⁻¹(x − μ)|², L⁻¹ packed by rows.
        let maha = 0;
        for (let a = 0, u = uo; a < d; a++) {
          let v = 0;
          for (let b = 0; b <= a; b++) v += q[u++]! * diff[b]!;
          maha += v * v;
        }
        lp[lo + i] = c - 0.5 * maha;
      }
    },
    accumulate(xs, first, count, q, o, lp, lo, acc) {
      const d = dims,
        diff = row,
        mo = o + 1,
        so = o + 1 + d;
      for (let i = 0, xo = d * first; i < count; i++, xo += d) {
        const r = lp[lo + i]!;
        acc[o]! += r;
        for (let a = 0; a < d; a++) diff[a] = xs[xo + a]! - q[mo + a]!;
        for (let a = 0, s = so; a < d; a++) {
          const ra = r * diff[a]!;
          acc[mo + a]! += ra;
          for (let b = 0; b <= a; b++) acc[s++]! += ra * diff[b]!;
        }
      }
    },
  };
}

export const scanGeneric: Scan = (x, terms, resp) => scanWith(genericKernel(terms.dims))(x, terms, resp);

/** The fastest scan for d dimensions. */
export function scanFor(d: number): Scan {
  return d === 1 ? scan1 : d === 2 ? scan2 : d === 3 ? scan3 : scanGeneric;
}

/** Adds one point with responsibility r for component j (the hard assignment of the start). */
export function addPoint(stats: SufficientStatistics, xs: Float64Array, xo: number, j: number, r: number): void {
  const d = stats.dims,
    mo = j * d;
  stats.weight[j]! += r;
  for (let a = 0, o = j * packedSize(d); a < d; a++) {
    const da = xs[xo + a]! - stats.shift[mo + a]!;
    stats.first[mo + a]! += r * da;
    for (let b = 0; b <= a; b++) stats.second[o++]! += r * da * (xs[xo + b]! - stats.shift[mo + b]!);
  }
}
