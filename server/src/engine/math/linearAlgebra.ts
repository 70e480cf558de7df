/**
 * Dense linear algebra for the small systems of regression: least squares by Householder QR
 * (backward stable, unlike forming XᵀX) and symmetric positive definite solves by Cholesky.
 * Matrices are row-major Float64Arrays.
 */
import { EngineError } from '../engineError.js';

export interface Matrix {
  rows: number;
  cols: number;
  data: Float64Array;
}

export function matrixFromRows(rows: readonly (readonly number[])[]): Matrix {
  const cols = rows[0]?.length ?? 0;
  const data = new Float64Array(rows.length * cols);
  rows.forEach((row, i) => {
    if (row.length !== cols) throw new EngineError(`row ${i + 1} has ${row.length} values, expected ${cols}`);
    row.forEach((x, j) => {
      if (!Number.isFinite(x)) throw new EngineError(`row ${i + 1} has a non-finite value ${x}`);
      data[i * cols + j] = x;
    });
  });
  return { rows: rows.length, cols, data };
}

/**
 * Solves min ‖A x − b‖₂ by Householder QR. Throws when A's columns are (numerically) linearly
 * dependent: then the minimiser is not unique. `columnNames` only serve the message.
 */
export function leastSquaresSolve(A: Matrix, b: ArrayLike<number>, columnNames?: readonly string[]): Float64Array {
  const { rows: m, cols: n } = A;
  if (m < n) throw new EngineError(`${m} examples cannot determine ${n} coefficients`);
  const R = Float64Array.from(A.data);
  const y = Float64Array.from(b);
  const columnNorms = Array.from({ length: n }, (_, j) => columnNorm(A.data, n, j, 0, m));
  for (let k = 0; k < n; k++) {
    const norm = columnNorm(R, n, k, k, m);
    if (norm <= 1e-12 * Math.max(columnNorms[k]!, Number.MIN_VALUE) || columnNorms[k] === 0) {
      const name = columnNames?.[k] ?? `column ${k + 1}`;
      throw new EngineError(
        `${name} is a linear combination of the other regressors: the least-squares coefficients are not unique`,
      );
    }
    const alpha = R[k * n + k]! > 0 ? -norm : norm;
    // v = x − alpha e1, stored in place below the diagonal; H = I − 2 v vᵀ / vᵀv.
    const v = new Float64Array(m - k);
    for (let i = k; i < m; i++) v[i - k] = R[i * n + k]!;
    v[0]! -= alpha;
    const vv = v.reduce((s, x) => s + x * x, 0);
    for (let j = k; j < n; j++) reflect(v, vv, R, k * n + j, n);
    reflect(v, vv, y, k, 1);
  }
  const x = new Float64Array(n);
  for (let k = n - 1; k >= 0; k--) {
    let s = y[k]!;
    for (let j = k + 1; j < n; j++) s -= R[k * n + j]! * x[j]!;
    x[k] = s / R[k * n + k]!;
  }
  return x;
}

/** Applies H = I − 2 v vᵀ / vᵀv to the strided vector x[offset + i·stride]. */
function reflect(v: Float64Array, vv: number, x: Float64Array, offset: number, stride: number): void {
  let dot = 0;
  for (let i = 0; i < v.length; i++) dot += v[i]! * x[offset + i * stride]!;
  const f = (2 * dot) / vv;
  for (let i = 0; i < v.length; i++) x[offset + i * stride]! -= f * v[i]!;
}

/** ‖column j, rows from..to‖₂, scaled by the largest entry so squares cannot overflow. */
function columnNorm(data: Float64Array, cols: number, j: number, from: number, to: number): number {
  let scale = 0;
  for (let i = from; i < to; i++) scale = Math.max(scale, Math.abs(data[i * cols + j]!));
  if (scale === 0 || !Number.isFinite(scale)) return scale;
  let sum = 0;
  for (let i = from; i < to; i++) {
    const t = data[i * cols + j]! / scale;
    sum += t * t;
  }
  return scale * Math.sqrt(sum);
}

/**
 * Lower-triangular L with L Lᵀ = S for a symmetric positive-definite n × n matrix stored
 * row-major at `offset` in S; undefined when S is not positive definite.
 */
export function choleskyFactor(S: Float64Array, n: number, offset = 0, into?: Float64Array): Float64Array | undefined {
  // `into` (at least n² long, e.g. a loop's scratch) is written over: every entry read is set first.
  const L = into ?? new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let s = S[offset + i * n + j]!;
      for (let k = 0; k < j; k++) s -= L[i * n + k]! * L[j * n + k]!;
      if (i === j) {
        if (!(s > 0)) return undefined;
        L[i * n + i] = Math.sqrt(s);
      } else L[i * n + j] = s / L[j * n + j]!;
    }
  }
  return L;
}

/** L⁻¹ for lower-triangular L (n × n, row-major) by forward substitution, column by column; lower triangular too. */
export function invertLowerTriangular(L: Float64Array, n: number): Float64Array {
  const inv = new Float64Array(n * n);
  for (let c = 0; c < n; c++) {
    inv[c * n + c] = 1 / L[c * n + c]!;
    for (let i = c + 1; i < n; i++) {
      let s = 0;
      for (let k = c; k < i; k++) s -= L[i * n + k]! * inv[k * n + c]!;
      inv[i * n + c] = s / L[i * n + i]!;
    }
  }
  return inv;
}

/** Solves S x = b for symmetric positive definite S (n × n, row-major) by Cholesky. */
export function choleskySolve(S: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  const L = choleskyFactor(S, n);
  if (!L) throw new EngineError('the system is singular (not positive definite)');
  return solveWithCholesky(L, n, b);
}

/** Solves L Lᵀ x = b given the Cholesky factor L (when one factor serves many right-hand sides). */
export function solveWithCholesky(L: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  return solveUpperTransposed(L, n, solveLower(L, n, b));
}

/** Solves L z = b for lower-triangular L (n × n, row-major) by forward substitution. */
export function solveLower(L: Float64Array, n: number, b: ArrayLike<number>): Float64Array {
  const z = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * n + k]! * z[k]!;
    z[i] = s / L[i * n + i]!;
  }
  return z;
}

/** Solves Lᵀ x = z for lower-triangular L by back substitution (Lᵀ read from L's columns). */
function solveUpperTransposed(L: Float64Array, n: number, z: Float64Array): Float64Array {
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= L[k * n + i]! * x[k]!;
    x[i] = s / L[i * n + i]!;
  }
  return x;
}

/** A with a leading column of ones (the intercept w0). */
export function withIntercept(A: Matrix): Matrix {
  const data = new Float64Array(A.rows * (A.cols + 1));
  for (let i = 0; i < A.rows; i++) {
    data[i * (A.cols + 1)] = 1;
    for (let j = 0; j < A.cols; j++) data[i * (A.cols + 1) + j + 1] = A.data[i * A.cols + j]!;
  }
  return { rows: A.rows, cols: A.cols + 1, data };
}

export function multiply(A: Matrix, x: ArrayLike<number>): Float64Array {
  const out = new Float64Array(A.rows);
  for (let i = 0; i < A.rows; i++) {
    let s = 0;
    for (let j = 0; j < A.cols; j++) s += A.data[i * A.cols + j]! * x[j]!;
    out[i] = s;
  }
  return out;
}
