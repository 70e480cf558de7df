/**
 * Least squares for linear Gaussian families: y = b0 + Σ b_j x_j + ε over a subset of the rows,
 * by Householder QR of the design [1 x_1 … x_p] (backward stable; the normal equations square
 * the condition number). A regressor that is, to rounding, a linear combination of the ones
 * before it is left out with coefficient 0, as R's dqrdc2 (lm, bnlearn's bn.fit) does — the fit
 * and the residual sum of squares are those of the full design, only the coefficients of an
 * unidentified direction are pinned.
 */
import { choleskySolve } from '../math/linearAlgebra.js';

export interface Regression {
  intercept: number;
  /** One per regressor, in the order given (0 for one left out as dependent). */
  coefficients: Float64Array;
  /** Residual sum of squares Σ (y − ŷ)². */
  rss: number;
  /** Rows fitted. */
  rows: number;
  /** Columns of the design kept (the intercept counts). */
  rank: number;
}

/** A column whose residual norm falls below this fraction of its own norm is dependent. */
const DEPENDENT = 1e-9;

/** Regresses y on the columns xs over `rows` (indices into them). */
export function regress(y: Float64Array, xs: readonly Float64Array[], rows: ArrayLike<number>): Regression {
  const n = rows.length,
    m = xs.length + 1;
  // Column-major design: each Householder step walks contiguous columns.
  const A = new Float64Array(n * m),
    b = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const r = rows[i]!;
    A[i] = 1;
    for (let j = 1; j < m; j++) A[j * n + i] = xs[j - 1]![r]!;
    b[i] = y[r]!;
  }
  const norms = Array.from({ length: m }, (_, j) => columnNorm(A, j * n, 0, n));
  const kept: number[] = [];
  for (let j = 0; j < m && kept.length < n; j++) {
    const k = kept.length;
    const norm = columnNorm(A, j * n, k, n);
    if (!(norm > DEPENDENT * norms[j]!)) continue;
    const alpha = A[j * n + k]! > 0 ? -norm : norm;
    const v = A.slice(j * n + k, j * n + n);
    v[0]! -= alpha;
    let vv = 0;
    for (let i = 0; i < v.length; i++) vv += v[i]! * v[i]!;
    for (let c = j; c < m; c++) reflect(v, vv, A, c * n + k);
    reflect(v, vv, b, k);
    kept.push(j);
  }
  const beta = new Float64Array(m);
  for (let r = kept.length - 1; r >= 0; r--) {
    const c = kept[r]!;
    let s = b[r]!;
    for (let r2 = r + 1; r2 < kept.length; r2++) s -= A[kept[r2]! * n + r]! * beta[kept[r2]!]!;
    beta[c] = s / A[c * n + r]!;
  }
  let rss = 0;
  for (let i = kept.length; i < n; i++) rss += b[i]! * b[i]!;
  return { intercept: beta[0]!, coefficients: beta.slice(1), rss, rows: n, rank: kept.length };
}

/** x[offset + i] −= (2 vᵀx / vᵀv) v_i: the reflection I − 2 v vᵀ / vᵀv on a column. */
function reflect(v: Float64Array, vv: number, x: Float64Array, offset: number): void {
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += v[i]! * x[offset + i]!;
  const f = (2 * dot) / vv;
  for (let i = 0; i < v.length; i++) x[offset + i]! -= f * v[i]!;
}

/** ‖x[offset + from .. offset + to)‖₂, scaled so the squares cannot overflow. */
function columnNorm(x: Float64Array, offset: number, from: number, to: number): number {
  let scale = 0;
  for (let i = from; i < to; i++) scale = Math.max(scale, Math.abs(x[offset + i]!));
  if (scale === 0 || !Number.isFinite(scale)) return scale;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const t = x[offset + i]! / scale;
    sum += t * t;
  }
  return scale * Math.sqrt(sum);
}

/**
 * The regression of `child` on `parents` from (expected) moments — means and the centred
 * second moments Σ (x − x̄)(x − x̄)ᵀ / n of all the variables, d × d row-major — as EM's M-step
 * needs: b = C_pp⁻¹ C_py, b0 = ȳ − bᵀx̄, residual variance C_yy − bᵀC_py (maximum likelihood).
 * Centring first keeps the solve well conditioned whatever the variables' offsets.
 */
export function regressFromMoments(
  mean: Float64Array,
  cov: Float64Array,
  d: number,
  child: number,
  parents: readonly number[],
): { intercept: number; coefficients: Float64Array; variance: number } {
  const p = parents.length;
  const Cpp = new Float64Array(p * p),
    Cpy = new Float64Array(p);
  parents.forEach((a, i) => {
    Cpy[i] = cov[a * d + child]!;
    parents.forEach((b, j) => (Cpp[i * p + j] = cov[a * d + b]!));
  });
  const coefficients = p ? choleskySolve(Cpp, p, Cpy) : new Float64Array(0);
  let intercept = mean[child]!,
    variance = cov[child * d + child]!;
  parents.forEach((a, i) => {
    intercept -= coefficients[i]! * mean[a]!;
    variance -= coefficients[i]! * Cpy[i]!;
  });
  return { intercept, coefficients, variance };
}
