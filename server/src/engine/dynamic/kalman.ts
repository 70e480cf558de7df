/**
 * Exact inference in a linear Gaussian network over time (gaussianSlice.ts): the Kalman filter,
 * the Rauch–Tung–Striebel smoother, k-step prediction and the log-likelihood (Murphy 2012 §18.3).
 *
 * The state is the whole slice. A step's observations are a subset of its variables, observed
 * exactly: the tables already hold all the noise (a reading is a variable with its own variance),
 * so the update conditions N(m, P) on x_O = y (Murphy §4.3.1) through a Cholesky factor of
 * S = P_OO, the observed variables' predicted covariance, which is positive definite because the
 * process noise Q is:
 *
 *     L Lᵀ = S,  W = L⁻¹ P_O·,  z = L⁻¹ (y − m_O)
 *     m ← m + Wᵀ z,   P ← P − Wᵀ W   (symmetric by construction, observed rows and columns set to 0)
 *     log p(y_t | y_1..t−1) = −½ (k log 2π + log |S| + zᵀ z)
 *
 * No gain matrix is formed and nothing is inverted, so the update stays symmetric and positive
 * semi-definite (the role the Joseph form plays for a noisy measurement). Steps with nothing observed
 * only predict. Slice 0 is the prior; step t = 1 is the first row of observations.
 *
 * Memory: filtering keeps one mean and covariance (n + n² numbers) besides the per-step marginals
 * it returns (2n per step); smoothing stores every filtered mean and covariance, (T + 1)(n + n²)
 * numbers, checked against the budget before they are allocated. The predicted moments the smoother
 * needs are recomputed from the filtered ones (A P Aᵀ + Q) instead of being stored.
 */
import { choleskyFactor, solveWithCholesky } from '../math/linearAlgebra.js';
import { EngineError } from '../engineError.js';
import { BudgetError, DEFAULT_BUDGETS } from '../budget.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { complete, type Stepwise } from '../stepwise.js';
import { sliceModel, type GaussianTwoSliceNetwork, type SliceModel } from './gaussianSlice.js';

/** A step's exact observations: slice variable → value. */
export type GaussianObservations = ReadonlyMap<number, number>;

/** Each slice variable's mean and variance at one step. */
export interface GaussianMarginals {
  means: Float64Array;
  variances: Float64Array;
}

export interface KalmanResult {
  /** P(x_t | y_1..t), t = 1…T (index t − 1). */
  filtered: GaussianMarginals[];
  /** P(x_t | y_1..T), t = 1…T, when asked for and within the budget. */
  smoothed?: GaussianMarginals[];
  /**
   * The most likely sequence x_1..T given y_1..T: the posterior is jointly Gaussian, and a Gaussian's
   * mode is its mean, whose components are the marginal means, so it is the smoothed means.
   */
  mostLikely?: Float64Array[];
  /** P(x_{T+k} | y_1..T), k = 1…K. */
  predicted?: GaussianMarginals[];
  /**
   * ln p(x*_U, y_1..T): the joint density of the most likely values of the unobserved variables U
   * of steps 1…T together with the observations (its mode's height; slice 0 marginalised).
   */
  mostLikelyLogDensity?: number;
  /** ln p(y_1..T), the log density of the observations (0 when nothing is observed). */
  logLikelihood: number;
  /** Why smoothing was left out (its stored moments are over the budget). */
  note?: string;
}

export interface KalmanOptions {
  smooth?: boolean;
  predict?: number;
  /** Numbers the smoother may store (the budget's maxTotalEntries). */
  maxEntries?: number;
  signal?: CancelSignal;
}

const LOG_2PI = Math.log(2 * Math.PI);

/** A Gaussian belief over the slice: mean and covariance (n × n, row-major, symmetric). */
interface Belief {
  mean: Float64Array;
  covariance: Float64Array;
}

export function kalmanSmoother(
  net: GaussianTwoSliceNetwork,
  observations: readonly GaussianObservations[],
  options: KalmanOptions = {},
): KalmanResult {
  return complete(kalmanSteps(net, observations, { smooth: true, ...options }));
}

export function kalmanFilter(
  net: GaussianTwoSliceNetwork,
  observations: readonly GaussianObservations[],
  options: KalmanOptions = {},
): KalmanResult {
  return complete(kalmanSteps(net, observations, { ...options, smooth: false }));
}

/** The forward pass, then (options.smooth) the backward pass and (options.predict) the forecast, a step at a time. */
export function* kalmanSteps(
  net: GaussianTwoSliceNetwork,
  observations: readonly GaussianObservations[],
  options: KalmanOptions = {},
): Stepwise<KalmanResult> {
  const model = sliceModel(net);
  const n = model.n;
  const T = observations.length;
  const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
  const marginalsSize = 2 * n * (T + (options.predict ?? 0));
  if (marginalsSize > maxEntries)
    throw new BudgetError(
      `${T} steps of ${n} means and variances take ${marginalsSize} numbers, over the budget of ${maxEntries}`,
    );
  const stored = (T + 1) * (n + n * n);
  let smooth = options.smooth ?? false;
  let note: string | undefined;
  if (smooth && marginalsSize + stored > maxEntries) {
    smooth = false;
    note = `smoothing ${T} steps stores ${stored} numbers, over the budget of ${maxEntries}: filtering only`;
  }
  for (const [t, y] of observations.entries())
    for (const [v, x] of y)
      if (!(v >= 0 && v < n) || !Number.isFinite(x))
        throw new EngineError(`step ${t + 1}: an observation is not a finite value of a slice variable`);
  let belief: Belief = { mean: model.initialMean, covariance: model.initialCovariance };
  const beliefs: Belief[] | undefined = smooth ? [belief] : undefined;
  const filtered: GaussianMarginals[] = [];
  let logLikelihood = 0;
  for (let t = 0; t < T; t++) {
    throwIfCancelled(options.signal);
    const updated = condition(predict(model, belief), observations[t]!);
    logLikelihood += updated.logDensity;
    belief = updated;
    beliefs?.push(belief);
    filtered.push(marginalsOf(belief, n));
    yield { phase: 'forward', done: t + 1 };
  }
  const result: KalmanResult = { filtered, logLikelihood, ...(note ? { note } : {}) };
  if (beliefs) {
    const smoothed = yield* rtsSmoother(model, beliefs, options.signal);
    result.smoothed = smoothed.marginals;
    result.mostLikely = smoothed.marginals.map((m) => m.means);
    result.mostLikelyLogDensity = smoothed.modeLogDensity + logLikelihood;
  }
  if (options.predict) {
    result.predicted = [];
    for (let k = 0; k < options.predict; k++) {
      throwIfCancelled(options.signal);
      belief = predict(model, belief);
      result.predicted.push(marginalsOf(belief, n));
      yield { phase: 'predict', done: k + 1 };
    }
  }
  return result;
}

/**
 * Rauch–Tung–Striebel, from the filtered beliefs of slices 0…T (`beliefs[t]`): with the prediction
 * m⁻ = A m_t + c, P⁻ = A P_t Aᵀ + Q and the smoother gain G = P_t Aᵀ (P⁻)⁻¹ (solved through the
 * Cholesky factor of P⁻, never inverted),
 *
 *     m_t|T = m_t + G (m_{t+1}|T − m⁻),   P_t|T = P_t + G (P_{t+1}|T − P⁻) Gᵀ.
 *
 * Returns slices 1…T's marginals, and the log density of the posterior p(x_U | y_1..T) of the
 * unobserved variables of steps 1…T at its mode (the smoothed means): by the chain rule backward,
 * p(x_1..T | y) = p(x_T | y_1..T) Π p(x_t | x_{t+1}, y_1..t), whose covariances are P_T and
 * P_t − G P⁻ Gᵀ, each restricted to the step's unobserved variables (the observed ones are fixed).
 */
export function* rtsSmoother(
  model: SliceModel,
  beliefs: readonly Belief[],
  signal?: CancelSignal,
): Stepwise<{ marginals: GaussianMarginals[]; modeLogDensity: number }> {
  const n = model.n;
  const T = beliefs.length - 1;
  const smoothed = new Array<GaussianMarginals>(T);
  if (T === 0) return { marginals: smoothed, modeLogDensity: 0 };
  let next = beliefs[T]!;
  smoothed[T - 1] = marginalsOf(next, n);
  const mode = { logDet: 0, dimension: 0 };
  addLogDet(mode, next.covariance, next.covariance, n);
  for (let t = T - 1; t >= 1; t--) {
    throwIfCancelled(signal);
    const own = beliefs[t]!;
    const prior = predict(model, own);
    const L = choleskyFactor(prior.covariance, n);
    if (!L) throw new EngineError(`the predicted covariance at step ${t + 1} is not positive definite`);
    // Gᵀ = (P⁻)⁻¹ (A P_t): column by column through the factor.
    const AP = multiply(model.transition, own.covariance, n);
    const Gt = new Float64Array(n * n);
    const column = new Float64Array(n);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) column[i] = AP[i * n + j]!;
      const x = solveWithCholesky(L, n, column);
      for (let i = 0; i < n; i++) Gt[i * n + j] = x[i]!;
    }
    // Cov(x_t | x_{t+1}, y_1..t) = P_t − (A P_t)ᵀ Gᵀ
    const conditional = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = own.covariance[i * n + j]!;
        for (let k = 0; k < n; k++) s -= AP[k * n + i]! * Gt[k * n + j]!;
        conditional[i * n + j] = s;
      }
    addLogDet(mode, conditional, own.covariance, n);
    const mean = Float64Array.from(own.mean);
    const dm = new Float64Array(n);
    for (let i = 0; i < n; i++) dm[i] = next.mean[i]! - prior.mean[i]!;
    const dP = new Float64Array(n * n);
    for (let i = 0; i < n * n; i++) dP[i] = next.covariance[i]! - prior.covariance[i]!;
    for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) mean[i]! += Gt[k * n + i]! * dm[k]!;
    // G dP Gᵀ = (Gᵀ)ᵀ dP Gᵀ
    const dPGt = multiply(dP, Gt, n);
    const covariance = Float64Array.from(own.covariance);
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += Gt[k * n + i]! * dPGt[k * n + j]!;
        const v = 0.5 * (covariance[i * n + j]! + covariance[j * n + i]!) + s;
        covariance[i * n + j] = v;
        covariance[j * n + i] = v;
      }
    next = { mean, covariance };
    smoothed[t - 1] = marginalsOf(next, n);
    yield { phase: 'backward', done: T - t };
  }
  return { marginals: smoothed, modeLogDensity: -0.5 * (mode.dimension * LOG_2PI + mode.logDet) };
}

/**
 * Adds log |C_UU| for the step's unobserved variables U (those with a filtered variance > 0 in
 * `filtered`: observed ones were set to exactly 0) and counts them.
 */
function addLogDet(
  mode: { logDet: number; dimension: number },
  C: Float64Array,
  filtered: Float64Array,
  n: number,
): void {
  const U: number[] = [];
  for (let i = 0; i < n; i++) if (filtered[i * n + i]! > 0) U.push(i);
  const k = U.length;
  if (!k) return;
  const sub = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) sub[a * k + b] = C[U[a]! * n + U[b]!]!;
  const L = choleskyFactor(sub, k);
  if (!L) throw new EngineError('the posterior covariance of the unobserved variables is not positive definite');
  for (let a = 0; a < k; a++) mode.logDet += 2 * Math.log(L[a * k + a]!);
  mode.dimension += k;
}

/** One step ahead: m⁻ = A m + c, P⁻ = A P Aᵀ + Q (symmetric: the upper half mirrors the lower). */
export function predict(model: SliceModel, belief: Belief): Belief {
  const n = model.n;
  const A = model.transition;
  const mean = Float64Array.from(model.offset);
  for (let i = 0; i < n; i++) for (let k = 0; k < n; k++) mean[i]! += A[i * n + k]! * belief.mean[k]!;
  const AP = multiply(A, belief.covariance, n);
  const covariance = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = model.noise[i * n + j]!;
      for (let k = 0; k < n; k++) s += AP[i * n + k]! * A[j * n + k]!;
      covariance[i * n + j] = s;
      covariance[j * n + i] = s;
    }
  return { mean, covariance };
}

/** N(m, P) conditioned on x_O = y exactly (see the module comment), with log p(y). */
export function condition(belief: Belief, observed: GaussianObservations): Belief & { logDensity: number } {
  const n = belief.mean.length;
  const O = [...observed.keys()];
  const k = O.length;
  if (k === 0) return { ...belief, logDensity: 0 };
  const P = belief.covariance;
  const S = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) S[a * k + b] = P[O[a]! * n + O[b]!]!;
  const L = choleskyFactor(S, k);
  if (!L) throw new EngineError('the covariance of the observed variables is not positive definite');
  // W = L⁻¹ P_O· (k × n) and z = L⁻¹ (y − m_O), by forward substitution.
  const W = new Float64Array(k * n);
  const z = new Float64Array(k);
  for (let a = 0; a < k; a++) {
    const d = L[a * k + a]!;
    let r = observed.get(O[a]!)! - belief.mean[O[a]!]!;
    for (let b = 0; b < a; b++) r -= L[a * k + b]! * z[b]!;
    z[a] = r / d;
    for (let j = 0; j < n; j++) {
      let s = P[O[a]! * n + j]!;
      for (let b = 0; b < a; b++) s -= L[a * k + b]! * W[b * n + j]!;
      W[a * n + j] = s / d;
    }
  }
  let logDet = 0;
  let mahalanobis = 0;
  for (let a = 0; a < k; a++) {
    logDet += 2 * Math.log(L[a * k + a]!);
    mahalanobis += z[a]! * z[a]!;
  }
  const mean = Float64Array.from(belief.mean);
  for (let j = 0; j < n; j++) for (let a = 0; a < k; a++) mean[j]! += W[a * n + j]! * z[a]!;
  const covariance = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let a = 0; a < k; a++) s += W[a * n + i]! * W[a * n + j]!;
      const v = 0.5 * (P[i * n + j]! + P[j * n + i]!) - s;
      covariance[i * n + j] = v;
      covariance[j * n + i] = v;
    }
  // Observed exactly: the value, no spread (rounding would leave ±1e-17 there).
  for (const o of O) {
    mean[o] = observed.get(o)!;
    for (let j = 0; j < n; j++) covariance[o * n + j] = covariance[j * n + o] = 0;
  }
  return { mean, covariance, logDensity: -0.5 * (k * LOG_2PI + logDet + mahalanobis) };
}

function marginalsOf(belief: Belief, n: number): GaussianMarginals {
  const variances = new Float64Array(n);
  for (let i = 0; i < n; i++) variances[i] = Math.max(0, belief.covariance[i * n + i]!);
  return { means: Float64Array.from(belief.mean), variances };
}

/** X Y for n × n row-major matrices. */
function multiply(X: Float64Array, Y: Float64Array, n: number): Float64Array {
  const out = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = X[i * n + k]!;
      if (x === 0) continue;
      for (let j = 0; j < n; j++) out[i * n + j]! += x * Y[k * n + j]!;
    }
  return out;
}
