/**
 * Maximum likelihood for a real-valued target (Mitchell §6.4): if d_i = f(x_i) + e_i with e_i
 * independent Normal(0, σ²) noise, the ML hypothesis minimises the sum of squared errors
 * (eq. 6.6). For linear hypotheses f(x) = w0 + Σ w_j x_j that is least squares, solved by QR.
 */
import { EngineError } from '../engineError.js';
import { leastSquaresSolve, matrixFromRows, multiply, withIntercept } from '../math/linearAlgebra.js';

export interface LeastSquaresFit {
  /** Names of the coefficients: 'intercept' first (when fitted), then the regressors. */
  names: string[];
  coefficients: number[];
  /** Σ (d_i − h(x_i))². */
  sse: number;
  /** ML estimate of σ: sqrt(SSE / m). */
  sigmaMl: number;
  /** Unbiased estimate: sqrt(SSE / (m − p)); absent when m = p. */
  sigmaUnbiased?: number;
  /** ln P(D|h_ML, σ_ML) = −m/2 (ln(2π σ²) + 1); absent for a perfect fit (σ = 0, unbounded density). */
  logLikelihood?: number;
  examples: number;
}

export function leastSquares(
  regressors: readonly string[],
  x: readonly (readonly number[])[],
  d: readonly number[],
  intercept = true,
): LeastSquaresFit {
  if (x.length !== d.length) throw new EngineError(`${x.length} input rows for ${d.length} targets`);
  if (x.length === 0) throw new EngineError('no examples to fit');
  if (!d.every(Number.isFinite)) throw new EngineError('targets must be finite numbers');
  const raw = matrixFromRows(x);
  if (raw.cols !== regressors.length)
    throw new EngineError(`${regressors.length} regressor names for ${raw.cols} columns`);
  const A = intercept ? withIntercept(raw) : raw;
  const names = intercept ? ['intercept', ...regressors] : [...regressors];
  const w = leastSquaresSolve(A, d, names);
  const fitted = multiply(A, w);
  const sse = d.reduce((s, di, i) => s + (di - fitted[i]!) ** 2, 0);
  // Values near 1e308 overflow the normal equations' products: the fit was printed as
  // "d = NaN + NaN·x · SSE NaN". Say so instead.
  if (!w.every(Number.isFinite) || !Number.isFinite(sse))
    throw new EngineError(
      'the least-squares fit overflows (values too large to square in doubles, about 1e154 and over): rescale the data',
    );
  const m = d.length,
    p = A.cols;
  const variance = sse / m;
  return {
    names,
    coefficients: Array.from(w),
    sse,
    sigmaMl: Math.sqrt(variance),
    examples: m,
    ...(m > p ? { sigmaUnbiased: Math.sqrt(sse / (m - p)) } : {}),
    ...(variance > 0 ? { logLikelihood: (-m / 2) * (Math.log(2 * Math.PI * variance) + 1) } : {}),
  };
}

/** ln P(D|h, σ) for any linear hypothesis w (for comparing hypotheses against h_ML). */
export function gaussianLogLikelihood(
  x: readonly (readonly number[])[],
  d: readonly number[],
  w: readonly number[],
  sigma: number,
  intercept = true,
): number {
  if (!(sigma > 0)) throw new EngineError(`σ must be positive, got ${sigma}`);
  const raw = matrixFromRows(x);
  const fitted = multiply(intercept ? withIntercept(raw) : raw, w);
  return d.reduce(
    (s, di, i) => s - 0.5 * Math.log(2 * Math.PI * sigma * sigma) - (di - fitted[i]!) ** 2 / (2 * sigma * sigma),
    0,
  );
}
