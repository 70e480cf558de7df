/**
 * Maximum likelihood for probabilistic targets (Mitchell §6.5): a sigmoid unit
 * h(x) = 1 / (1 + exp(−w·x)) trained to maximise the cross entropy
 *   G(h, D) = Σ d_i ln h(x_i) + (1 − d_i) ln(1 − h(x_i))   (eq. 6.13)
 * by gradient ascent, Δw_j = η Σ (d_i − h(x_i)) x_ij (eq. 6.15), from seeded small random
 * weights. `logisticNewton` reaches the same optimum by Newton steps (IRLS), far faster; the two
 * agreeing is a check on both.
 */
import { EngineError } from '../engineError.js';
import { choleskySolve, matrixFromRows, multiply, withIntercept, type Matrix } from '../math/linearAlgebra.js';
import { createRng } from '../random.js';

export interface SigmoidFit {
  names: string[];
  weights: number[];
  /** G(h, D), the log-likelihood of the targets (eq. 6.13). */
  crossEntropy: number;
  iterations: number;
  converged: boolean;
  /** Largest |∂G/∂w_j| at the end. */
  gradientNorm: number;
  /** Why it did not converge, e.g. separable data (the weights grow without bound). */
  note?: string;
}

export interface GradientOptions {
  seed: number;
  /** η of eq. 6.15; default 4/λ_max(XᵀX), the largest step that always increases G. */
  learningRate?: number;
  maxIterations?: number;
  /** Stop when every |∂G/∂w_j| / m falls below this. */
  tolerance?: number;
  intercept?: boolean;
}

interface Problem {
  A: Matrix;
  d: Float64Array;
  names: string[];
}

function setUp(
  inputs: readonly string[],
  x: readonly (readonly number[])[],
  d: readonly number[],
  intercept: boolean,
): Problem {
  if (x.length !== d.length) throw new EngineError(`${x.length} input rows for ${d.length} targets`);
  if (x.length === 0) throw new EngineError('no examples to fit');
  if (!d.every((t) => t >= 0 && t <= 1))
    throw new EngineError('targets of a sigmoid unit must be probabilities in [0, 1]');
  const raw = matrixFromRows(x);
  if (raw.cols !== inputs.length) throw new EngineError(`${inputs.length} input names for ${raw.cols} columns`);
  return {
    A: intercept ? withIntercept(raw) : raw,
    d: Float64Array.from(d),
    names: intercept ? ['w0', ...inputs] : [...inputs],
  };
}

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** G(h, D) computed from the net inputs z = w·x, stable for large |z|. */
function crossEntropyOf(z: Float64Array, d: Float64Array): number {
  let g = 0;
  for (let i = 0; i < z.length; i++) {
    // ln h = −ln(1 + e^−z), ln(1 − h) = −ln(1 + e^z).
    const lnH = -softplus(-z[i]!),
      ln1mH = -softplus(z[i]!);
    g += (d[i]! > 0 ? d[i]! * lnH : 0) + (d[i]! < 1 ? (1 - d[i]!) * ln1mH : 0);
  }
  return g;
}

function softplus(t: number): number {
  return t > 0 ? t + Math.log1p(Math.exp(-t)) : Math.log1p(Math.exp(t));
}

/** ∂G/∂w_j = Σ (d_i − h_i) x_ij (eq. 6.14). */
function gradient(P: Problem, w: Float64Array): { g: Float64Array; z: Float64Array } {
  const z = multiply(P.A, w);
  const g = new Float64Array(P.A.cols);
  for (let i = 0; i < P.A.rows; i++) {
    const r = P.d[i]! - sigmoid(z[i]!);
    for (let j = 0; j < P.A.cols; j++) g[j]! += r * P.A.data[i * P.A.cols + j]!;
  }
  return { g, z };
}

/** Largest eigenvalue of AᵀA by power iteration (it bounds the curvature of G). */
function largestEigenvalue(A: Matrix): number {
  let v = new Float64Array(A.cols).fill(1 / Math.sqrt(A.cols));
  let lambda = 0;
  for (let it = 0; it < 100; it++) {
    const Av = multiply(A, v);
    const next = new Float64Array(A.cols);
    for (let i = 0; i < A.rows; i++) for (let j = 0; j < A.cols; j++) next[j]! += A.data[i * A.cols + j]! * Av[i]!;
    const norm = Math.hypot(...next);
    if (norm === 0) return 0;
    lambda = norm;
    v = next.map((x) => x / norm);
  }
  return lambda;
}

export function sigmoidGradientAscent(
  inputs: readonly string[],
  x: readonly (readonly number[])[],
  d: readonly number[],
  options: GradientOptions,
): SigmoidFit {
  const P = setUp(inputs, x, d, options.intercept ?? true);
  const rng = createRng(options.seed);
  const w = Float64Array.from({ length: P.A.cols }, () => (rng.next() - 0.5) * 0.1); // Mitchell: small random weights
  const eta = options.learningRate ?? 4 / Math.max(largestEigenvalue(P.A), Number.MIN_VALUE);
  const maxIterations = options.maxIterations ?? 200_000,
    tolerance = options.tolerance ?? 1e-10;
  let iterations = 0,
    step = gradient(P, w),
    norm = maxAbs(step.g);
  while (norm / P.A.rows > tolerance && iterations < maxIterations) {
    for (let j = 0; j < w.length; j++) w[j]! += eta * step.g[j]!;
    step = gradient(P, w);
    norm = maxAbs(step.g);
    iterations++;
  }
  return finish(P, w, step, iterations, norm / P.A.rows <= tolerance);
}

function finish(
  P: Problem,
  w: Float64Array,
  step: { g: Float64Array; z: Float64Array },
  iterations: number,
  converged: boolean,
): SigmoidFit {
  const crossEntropy = crossEntropyOf(step.z, P.d);
  // Every 0/1 target on the right side of w·x = 0: scaling w up always increases G, so G has no
  // maximum, even when its gradient has become too flat to see (Newton's steps get there quickly).
  const separable = P.d.every((t, i) => (t === 1 && step.z[i]! > 0) || (t === 0 && step.z[i]! < 0));
  // Quasi-separation: a fit that puts some 0/1 targets within 1e-8 of h (|z| > ln 1e8) is chasing
  // them along a direction that separates them from the rest; G has no maximum there either.
  const QUASI_Z = Math.log(1e8);
  let extreme = 0;
  P.d.forEach((t, i) => {
    if ((t === 1 && step.z[i]! > QUASI_Z) || (t === 0 && step.z[i]! < -QUASI_Z)) extreme++;
  });
  const quasi = !separable && extreme > 0;
  const met = converged && !separable && !quasi;
  return {
    names: P.names,
    weights: Array.from(w),
    crossEntropy,
    iterations,
    converged: met,
    gradientNorm: maxAbs(step.g),
    ...(met
      ? {}
      : {
          note: separable
            ? 'the classes are separable: G has no maximum and the weights grow without bound'
            : quasi
              ? `the classes are quasi-separable: ${extreme} of ${P.d.length} examples are fitted within 1e-8 of ` +
                'their targets, so G has no maximum and the weights grow without bound'
              : 'stopped at the iteration limit before converging',
        }),
  };
}

function maxAbs(xs: Float64Array): number {
  let m = 0;
  for (const x of xs) m = Math.max(m, Math.abs(x));
  return m;
}

/** Newton's method on G (iteratively reweighted least squares), from w = 0. */
export function logisticNewton(
  inputs: readonly string[],
  x: readonly (readonly number[])[],
  d: readonly number[],
  options: { intercept?: boolean; maxIterations?: number; tolerance?: number } = {},
): SigmoidFit {
  const P = setUp(inputs, x, d, options.intercept ?? true);
  const n = P.A.cols,
    tolerance = options.tolerance ?? 1e-10,
    maxIterations = options.maxIterations ?? 100;
  const w = new Float64Array(n);
  let iterations = 0,
    step = gradient(P, w);
  while (maxAbs(step.g) / P.A.rows > tolerance && iterations < maxIterations) {
    // Hessian of −G: Σ h(1 − h) x xᵀ.
    const H = new Float64Array(n * n);
    for (let i = 0; i < P.A.rows; i++) {
      const h = sigmoid(step.z[i]!),
        s = h * (1 - h);
      for (let a = 0; a < n; a++)
        for (let b = 0; b < n; b++) H[a * n + b]! += s * P.A.data[i * n + a]! * P.A.data[i * n + b]!;
    }
    let delta: Float64Array;
    try {
      delta = choleskySolve(H, n, step.g);
    } catch {
      break;
    } // flat curvature: separable data
    for (let j = 0; j < n; j++) w[j]! += delta[j]!;
    step = gradient(P, w);
    iterations++;
  }
  return finish(P, w, step, iterations, maxAbs(step.g) / P.A.rows <= tolerance);
}
