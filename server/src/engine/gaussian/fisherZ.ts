/**
 * Fisher's z test of X ⊥ Y | S on continuous data, bnlearn's `zf`: the partial correlation r of
 * X and Y given S read off the inverse Ω of the covariance matrix of (X, Y, S),
 * r = −Ω_xy / √(Ω_xx Ω_yy), then z = ½ ln((1 + r)/(1 − r)) · √(n − |S| − 3), two-sided against
 * N(0, 1). The inverse is the Moore–Penrose one (eigenvalues below √ε of the largest dropped), as
 * bnlearn's, so a singular covariance (a column copying another) still answers. Rows missing a
 * value of X, Y or S are left out of that test; with complete data the covariance matrix of all
 * the columns is computed once and each test reads its submatrix.
 */
import { EngineError } from '../engineError.js';
import { chiSquareSurvival } from '../structure/independenceTests.js';
import { completeRows, continuousValues, type HybridDataset } from './hybridData.js';

export interface FisherZResult {
  partialCorrelation: number;
  statistic: number;
  /** n − |S| − 3. */
  df: number;
  pValue: number;
}

export class FisherZ {
  private readonly columns: Float64Array[];
  /** Covariances of all the columns when no value is missing (d × d row-major), else undefined. */
  private readonly full: { cov: Float64Array; n: number } | undefined;

  constructor(data: HybridDataset) {
    this.columns = data.columns.map((_, v) => continuousValues(data, v));
    const all = completeRows(
      data,
      data.columns.map((_, v) => v),
    );
    this.full = all.length === data.rowCount ? { cov: covariance(this.columns, all), n: all.length } : undefined;
    this.data = data;
  }
  private readonly data: HybridDataset;

  test(x: number, y: number, s: readonly number[]): FisherZResult {
    const vars = [x, y, ...s];
    const d = vars.length;
    let cov: Float64Array, n: number;
    if (this.full) {
      const D = this.columns.length;
      cov = new Float64Array(d * d);
      vars.forEach((a, i) => vars.forEach((b, j) => (cov[i * d + j] = this.full!.cov[a * D + b]!)));
      n = this.full.n;
    } else {
      const rows = completeRows(this.data, vars);
      cov = covariance(
        vars.map((v) => this.columns[v]!),
        rows,
      );
      n = rows.length;
    }
    const r = partialCorrelationOf(cov, d);
    const df = n - s.length - 3;
    if (df < 1) return { partialCorrelation: r, statistic: 0, df, pValue: 1 };
    const statistic = 0.5 * Math.log((1 + r) / (1 - r)) * Math.sqrt(df);
    // Two-sided normal tail: P(|Z| > z) = P(χ²₁ > z²).
    const pValue = Number.isFinite(statistic) ? chiSquareSurvival(statistic * statistic, 1) : 0;
    return { partialCorrelation: r, statistic, df, pValue };
  }
}

/** The covariance matrix (divisor n − 1) of `columns` over `rows`, two passes (means first). */
export function covariance(columns: readonly Float64Array[], rows: ArrayLike<number>): Float64Array {
  const d = columns.length,
    n = rows.length;
  if (n < 2) throw new EngineError(`a covariance needs at least 2 complete rows, not ${n}`);
  const means = columns.map((c) => {
    let s = 0;
    for (let i = 0; i < n; i++) s += c[rows[i]!]!;
    return s / n;
  });
  const cov = new Float64Array(d * d);
  for (let a = 0; a < d; a++) {
    const ca = columns[a]!,
      ma = means[a]!;
    for (let b = a; b < d; b++) {
      const cb = columns[b]!,
        mb = means[b]!;
      let s = 0;
      for (let i = 0; i < n; i++) s += (ca[rows[i]!]! - ma) * (cb[rows[i]!]! - mb);
      cov[a * d + b] = cov[b * d + a] = s / (n - 1);
    }
  }
  return cov;
}

/** r(0, 1 | 2 … d−1) from a d × d covariance matrix, clamped to [−1, 1]. */
export function partialCorrelationOf(cov: Float64Array, d: number): number {
  const omega = pseudoInverse(cov, d);
  const denom = Math.sqrt(omega[0]! * omega[d + 1]!);
  if (!(denom > 0)) return 0;
  return Math.max(-1, Math.min(1, -omega[1]! / denom));
}

/** Moore–Penrose inverse of a symmetric d × d matrix by Jacobi eigendecomposition. */
export function pseudoInverse(m: Float64Array, d: number): Float64Array {
  const { values, vectors } = symmetricEigen(m, d);
  const largest = Math.max(...values.map(Math.abs));
  const inv = new Float64Array(d * d);
  values.forEach((lambda, k) => {
    if (Math.abs(lambda) <= Math.sqrt(Number.EPSILON) * largest) return;
    for (let i = 0; i < d; i++) {
      for (let j = 0; j < d; j++) inv[i * d + j]! += (vectors[i * d + k]! * vectors[j * d + k]!) / lambda;
    }
  });
  return inv;
}

/** Eigenvalues and eigenvectors (columns of `vectors`) of a symmetric matrix, cyclic Jacobi. */
export function symmetricEigen(m: Float64Array, d: number): { values: number[]; vectors: Float64Array } {
  const a = Float64Array.from(m);
  const v = new Float64Array(d * d);
  for (let i = 0; i < d; i++) v[i * d + i] = 1;
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0,
      scale = 0;
    for (let i = 0; i < d; i++) {
      scale += a[i * d + i]! * a[i * d + i]!;
      for (let j = i + 1; j < d; j++) off += a[i * d + j]! * a[i * d + j]!;
    }
    if (off <= 1e-30 * scale || off === 0) break;
    for (let p = 0; p < d; p++) {
      for (let q = p + 1; q < d; q++) {
        const apq = a[p * d + q]!;
        if (apq === 0) continue;
        const theta = (a[q * d + q]! - a[p * d + p]!) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1),
          s = t * c;
        for (let k = 0; k < d; k++) {
          const akp = a[k * d + p]!,
            akq = a[k * d + q]!;
          a[k * d + p] = c * akp - s * akq;
          a[k * d + q] = s * akp + c * akq;
        }
        for (let k = 0; k < d; k++) {
          const apk = a[p * d + k]!,
            aqk = a[q * d + k]!;
          a[p * d + k] = c * apk - s * aqk;
          a[q * d + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < d; k++) {
          const vkp = v[k * d + p]!,
            vkq = v[k * d + q]!;
          v[k * d + p] = c * vkp - s * vkq;
          v[k * d + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  return { values: Array.from({ length: d }, (_, i) => a[i * d + i]!), vectors: v };
}
