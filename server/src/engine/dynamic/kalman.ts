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
 * needs are recomputed from the filtered ones (A P Aᵀ + Q) instead of being stored. All of them
 * live in a few flat arrays and every per-step temporary in one preallocated Scratch, so 10^5
 * steps allocate no per-step matrices (the marginals returned are views into flat arrays).
 */
import { choleskyFactor } from '../math/linearAlgebra.js';
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

/**
 * The slice's beliefs of steps 0…T, each mean (n numbers) and covariance (n², row-major,
 * symmetric) at its offset in one array: a step's belief is two offsets, not two objects, so the
 * passes over 10^5 steps allocate nothing per step but the marginals they return.
 */
interface Beliefs {
  means: Float64Array;
  covariances: Float64Array;
}

/**
 * Every per-step matrix of one run, allocated once: a Kalman step on a small slice costs less
 * than allocating its dozen temporaries did.
 */
class Scratch {
  readonly AP: Float64Array;
  readonly S: Float64Array;
  readonly L: Float64Array;
  readonly W: Float64Array;
  readonly Gt: Float64Array;
  readonly conditional: Float64Array;
  readonly dP: Float64Array;
  readonly dPGt: Float64Array;
  readonly z: Float64Array;
  readonly x: Float64Array;
  readonly column: Float64Array;
  readonly dm: Float64Array;
  readonly y: Float64Array;
  readonly O: Int32Array;
  readonly U: Int32Array;
  /** The prediction m⁻, P⁻ of the step at hand. */
  readonly mean: Float64Array;
  readonly covariance: Float64Array;
  constructor(readonly n: number) {
    const square = () => new Float64Array(n * n);
    [this.AP, this.S, this.L, this.W, this.Gt, this.conditional] = [
      square(),
      square(),
      square(),
      square(),
      square(),
      square(),
    ];
    [this.dP, this.dPGt, this.covariance] = [square(), square(), square()];
    [this.z, this.x, this.column, this.dm, this.y, this.mean] = Array.from({ length: 6 }, () => new Float64Array(n));
    this.O = new Int32Array(n);
    this.U = new Int32Array(n);
  }
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
  const K = options.predict ?? 0;
  const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
  const marginalsSize = 2 * n * (T + K);
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
  const scratch = new Scratch(n);
  // Every filtered mean is kept (they are the filtered marginals' means); the covariances of every
  // step only when smoothing, else the last two.
  const beliefs: Beliefs = {
    means: new Float64Array((T + 1) * n),
    covariances: new Float64Array((smooth ? T + 1 : 2) * n * n),
  };
  beliefs.means.set(model.initialMean);
  beliefs.covariances.set(model.initialCovariance);
  const variances = new Float64Array(T * n);
  const filtered: GaussianMarginals[] = [];
  let logLikelihood = 0;
  for (let t = 0; t < T; t++) {
    throwIfCancelled(options.signal);
    const from = smooth ? t : t % 2;
    const to = smooth ? t + 1 : (t + 1) % 2;
    predictInto(model, beliefs, t * n, from * n * n, scratch);
    logLikelihood += conditionInto(scratch, observations[t]!, beliefs, (t + 1) * n, to * n * n);
    diagonal(beliefs.covariances, to * n * n, n, variances, t * n);
    filtered.push({
      means: beliefs.means.subarray((t + 1) * n, (t + 2) * n),
      variances: variances.subarray(t * n, (t + 1) * n),
    });
    yield { phase: 'forward', done: t + 1 };
  }
  const result: KalmanResult = { filtered, logLikelihood, ...(note ? { note } : {}) };
  if (smooth) {
    const smoothed = yield* rtsSmoother(model, beliefs, T, scratch, options.signal);
    result.smoothed = smoothed.marginals;
    result.mostLikely = smoothed.marginals.map((m) => m.means);
    result.mostLikelyLogDensity = smoothed.modeLogDensity + logLikelihood;
  }
  if (K) {
    result.predicted = yield* forecast(model, beliefs, T * n, (smooth ? T : T % 2) * n * n, K, scratch, options.signal);
  }
  return result;
}

/** K steps ahead of the belief at (meanAt, covarianceAt): predictions only, nothing observed. */
function* forecast(
  model: SliceModel,
  beliefs: Beliefs,
  meanAt: number,
  covarianceAt: number,
  K: number,
  scratch: Scratch,
  signal?: CancelSignal,
): Stepwise<GaussianMarginals[]> {
  const n = model.n;
  const means = new Float64Array(K * n);
  const variances = new Float64Array(K * n);
  // Two beliefs in turn: the last filtered one, then each prediction.
  const rolling: Beliefs = { means: new Float64Array(2 * n), covariances: new Float64Array(2 * n * n) };
  rolling.means.set(beliefs.means.subarray(meanAt, meanAt + n));
  rolling.covariances.set(beliefs.covariances.subarray(covarianceAt, covarianceAt + n * n));
  const out: GaussianMarginals[] = [];
  for (let k = 0; k < K; k++) {
    throwIfCancelled(signal);
    const from = k % 2,
      to = (k + 1) % 2;
    predictInto(model, rolling, from * n, from * n * n, scratch);
    rolling.means.set(scratch.mean, to * n);
    rolling.covariances.set(scratch.covariance, to * n * n);
    means.set(scratch.mean, k * n);
    diagonal(scratch.covariance, 0, n, variances, k * n);
    out.push({ means: means.subarray(k * n, (k + 1) * n), variances: variances.subarray(k * n, (k + 1) * n) });
    yield { phase: 'predict', done: k + 1 };
  }
  return out;
}

/**
 * Rauch–Tung–Striebel, from the filtered beliefs of slices 0…T: with the prediction
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
function* rtsSmoother(
  model: SliceModel,
  beliefs: Beliefs,
  T: number,
  scratch: Scratch,
  signal?: CancelSignal,
): Stepwise<{ marginals: GaussianMarginals[]; modeLogDensity: number }> {
  const n = model.n;
  const nn = n * n;
  const smoothed = new Array<GaussianMarginals>(T);
  if (T === 0) return { marginals: smoothed, modeLogDensity: 0 };
  const means = new Float64Array(T * n);
  const variances = new Float64Array(T * n);
  // The smoothed covariance of slice t + 1, then of t (two in turn); the means go straight to `means`.
  const covariances = new Float64Array(2 * nn);
  const mark = (t: number, covarianceAt: number) => {
    diagonal(covariances, covarianceAt, n, variances, (t - 1) * n);
    smoothed[t - 1] = { means: means.subarray((t - 1) * n, t * n), variances: variances.subarray((t - 1) * n, t * n) };
  };
  means.set(beliefs.means.subarray(T * n, (T + 1) * n), (T - 1) * n);
  covariances.set(beliefs.covariances.subarray(T * nn, (T + 1) * nn));
  mark(T, 0);
  const mode = { logDet: 0, dimension: 0 };
  addLogDet(mode, beliefs.covariances, T * nn, beliefs.covariances, T * nn, n, scratch);
  const { AP, Gt, conditional, dm, dP, dPGt, column, L } = scratch;
  const P = beliefs.covariances;
  for (let t = T - 1; t >= 1; t--) {
    throwIfCancelled(signal);
    const own = t * nn;
    // Slice s's smoothed covariance is in slot (T − s) mod 2.
    const next = ((T - t - 1) % 2) * nn;
    const here = ((T - t) % 2) * nn;
    // The prediction from slice t; predictInto leaves A P_t in AP.
    predictInto(model, beliefs, t * n, own, scratch);
    if (!choleskyFactor(scratch.covariance, n, 0, L))
      throw new EngineError(`the predicted covariance at step ${t + 1} is not positive definite`);
    // Gᵀ = (P⁻)⁻¹ (A P_t): column by column through the factor.
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) column[i] = AP[i * n + j]!;
      solveInPlace(L, n, column, scratch);
      for (let i = 0; i < n; i++) Gt[i * n + j] = scratch.x[i]!;
    }
    // Cov(x_t | x_{t+1}, y_1..t) = P_t − (A P_t)ᵀ Gᵀ
    for (let i = 0; i < n; i++)
      for (let j = 0; j < n; j++) {
        let s = P[own + i * n + j]!;
        for (let k = 0; k < n; k++) s -= AP[k * n + i]! * Gt[k * n + j]!;
        conditional[i * n + j] = s;
      }
    addLogDet(mode, conditional, 0, P, own, n, scratch);
    const meanAt = (t - 1) * n;
    for (let i = 0; i < n; i++) dm[i] = means[t * n + i]! - scratch.mean[i]!;
    for (let i = 0; i < nn; i++) dP[i] = covariances[next + i]! - scratch.covariance[i]!;
    for (let i = 0; i < n; i++) {
      let m = beliefs.means[t * n + i]!;
      for (let k = 0; k < n; k++) m += Gt[k * n + i]! * dm[k]!;
      means[meanAt + i] = m;
    }
    // G dP Gᵀ = (Gᵀ)ᵀ dP Gᵀ
    multiplyInto(dP, Gt, 0, n, dPGt);
    for (let i = 0; i < n; i++)
      for (let j = 0; j <= i; j++) {
        let s = 0;
        for (let k = 0; k < n; k++) s += Gt[k * n + i]! * dPGt[k * n + j]!;
        const v = 0.5 * (P[own + i * n + j]! + P[own + j * n + i]!) + s;
        covariances[here + i * n + j] = v;
        covariances[here + j * n + i] = v;
      }
    mark(t, here);
    yield { phase: 'backward', done: T - t };
  }
  return { marginals: smoothed, modeLogDensity: -0.5 * (mode.dimension * LOG_2PI + mode.logDet) };
}

/**
 * Adds log |C_UU| for the step's unobserved variables U (those with a filtered variance > 0 in
 * `filtered`: observed ones were set to exactly 0) and counts them. C and `filtered` are n × n at
 * their offsets.
 */
function addLogDet(
  mode: { logDet: number; dimension: number },
  C: Float64Array,
  at: number,
  filtered: Float64Array,
  filteredAt: number,
  n: number,
  scratch: Scratch,
): void {
  const U = scratch.U;
  let k = 0;
  for (let i = 0; i < n; i++) if (filtered[filteredAt + i * n + i]! > 0) U[k++] = i;
  if (!k) return;
  const sub = scratch.S;
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) sub[a * k + b] = C[at + U[a]! * n + U[b]!]!;
  const L = choleskyFactor(sub, k, 0, scratch.L);
  if (!L) throw new EngineError('the posterior covariance of the unobserved variables is not positive definite');
  for (let a = 0; a < k; a++) mode.logDet += 2 * Math.log(L[a * k + a]!);
  mode.dimension += k;
}

/**
 * One step ahead of the belief at (meanAt, covarianceAt): m⁻ = A m + c, P⁻ = A P Aᵀ + Q into
 * scratch.mean and scratch.covariance (symmetric: the upper half mirrors the lower), A P in scratch.AP.
 */
function predictInto(
  model: SliceModel,
  beliefs: Beliefs,
  meanAt: number,
  covarianceAt: number,
  scratch: Scratch,
): void {
  const n = model.n;
  const A = model.transition;
  const { mean, covariance, AP } = scratch;
  for (let i = 0; i < n; i++) {
    let m = model.offset[i]!;
    for (let k = 0; k < n; k++) m += A[i * n + k]! * beliefs.means[meanAt + k]!;
    mean[i] = m;
  }
  multiplyInto(A, beliefs.covariances, covarianceAt, n, AP);
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = model.noise[i * n + j]!;
      for (let k = 0; k < n; k++) s += AP[i * n + k]! * A[j * n + k]!;
      covariance[i * n + j] = s;
      covariance[j * n + i] = s;
    }
}

/**
 * The prediction in scratch conditioned on x_O = y exactly (see the module comment), written to
 * the belief at (meanAt, covarianceAt); returns log p(y).
 */
function conditionInto(
  scratch: Scratch,
  observed: GaussianObservations,
  beliefs: Beliefs,
  meanAt: number,
  covarianceAt: number,
): number {
  const n = scratch.n;
  const { O, y, S, W, z, mean: m, covariance: P } = scratch;
  const mean = beliefs.means;
  const covariance = beliefs.covariances;
  let k = 0;
  for (const [v, x] of observed) {
    O[k] = v;
    y[k++] = x;
  }
  for (let i = 0; i < n; i++) mean[meanAt + i] = m[i]!;
  if (k === 0) {
    covariance.set(P, covarianceAt);
    return 0;
  }
  for (let a = 0; a < k; a++) for (let b = 0; b < k; b++) S[a * k + b] = P[O[a]! * n + O[b]!]!;
  const L = choleskyFactor(S, k, 0, scratch.L);
  if (!L) throw new EngineError('the covariance of the observed variables is not positive definite');
  // W = L⁻¹ P_O· (k × n) and z = L⁻¹ (y − m_O), by forward substitution.
  for (let a = 0; a < k; a++) {
    const d = L[a * k + a]!;
    let r = y[a]! - m[O[a]!]!;
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
  for (let j = 0; j < n; j++) for (let a = 0; a < k; a++) mean[meanAt + j]! += W[a * n + j]! * z[a]!;
  for (let i = 0; i < n; i++)
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let a = 0; a < k; a++) s += W[a * n + i]! * W[a * n + j]!;
      const v = 0.5 * (P[i * n + j]! + P[j * n + i]!) - s;
      covariance[covarianceAt + i * n + j] = v;
      covariance[covarianceAt + j * n + i] = v;
    }
  // Observed exactly: the value, no spread (rounding would leave ±1e-17 there).
  for (let a = 0; a < k; a++) {
    const o = O[a]!;
    mean[meanAt + o] = y[a]!;
    for (let j = 0; j < n; j++) covariance[covarianceAt + o * n + j] = covariance[covarianceAt + j * n + o] = 0;
  }
  return -0.5 * (k * LOG_2PI + logDet + mahalanobis);
}

/** The variances (the diagonal, negative rounding clipped to 0) of the n × n matrix at `at`, to out at `outAt`. */
function diagonal(C: Float64Array, at: number, n: number, out: Float64Array, outAt: number): void {
  for (let i = 0; i < n; i++) out[outAt + i] = Math.max(0, C[at + i * n + i]!);
}

/** L Lᵀ x = b into scratch.x (b is overwritten by the forward pass's z). */
function solveInPlace(L: Float64Array, n: number, b: Float64Array, scratch: Scratch): void {
  const z = scratch.z;
  const x = scratch.x;
  for (let i = 0; i < n; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= L[i * n + k]! * z[k]!;
    z[i] = s / L[i * n + i]!;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = z[i]!;
    for (let k = i + 1; k < n; k++) s -= L[k * n + i]! * x[k]!;
    x[i] = s / L[i * n + i]!;
  }
}

/** X Y into out, for n × n row-major matrices (Y at offset yAt). */
function multiplyInto(X: Float64Array, Y: Float64Array, yAt: number, n: number, out: Float64Array): void {
  out.fill(0);
  for (let i = 0; i < n; i++)
    for (let k = 0; k < n; k++) {
      const x = X[i * n + k]!;
      if (x === 0) continue;
      for (let j = 0; j < n; j++) out[i * n + j]! += x * Y[yAt + k * n + j]!;
    }
}
