/**
 * Mixtures of Gaussians by EM (Mitchell §6.12).
 *  - `kMeansEm`: Mitchell's k-means example (§6.12.1): k Gaussians with one known variance σ²
 *    and equal weights; only the means are learned — E-step eq 6.29, M-step eq 6.31 — in any
 *    dimension (σ²·I).
 *  - `gaussianMixture`: full mixtures — weights, means and full covariances — with the same
 *    E/M steps as scikit-learn's GaussianMixture (covariance_type='full', reg_covar added to
 *    the diagonal, stop when the mean log-likelihood changes by less than `tolerance`), so both
 *    reach the same optimum from the same start.
 * Flat Float64Arrays throughout; each iteration is one pass over the data (mixtureKernels.ts):
 * log-sum-exp over components, so far-away points do not underflow, with the M-step's
 * sufficient statistics gathered in the same loop.
 */
import { EngineError } from '../engineError.js';
import {
  addPoint,
  componentTerms,
  emptyStatistics,
  packedSize,
  scanFor,
  type ComponentTerms,
  type SufficientStatistics,
} from './mixtureKernels.js';
import type { NumericData } from '../dataset.js';
import type { Rng } from '../random.js';
import { createRng } from '../random.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';

export type { CancelSignal };

export interface MixtureParameters {
  k: number;
  dims: number;
  weights: Float64Array;
  /** k × dims, row-major. */
  means: Float64Array;
  /** k × dims × dims, row-major. */
  covariances: Float64Array;
}

export interface MixtureOptions {
  k: number;
  seed?: number;
  maxIterations?: number;
  /** Stop when the mean per-point log-likelihood changes by less than this (scikit-learn's tol). */
  tolerance?: number;
  /** Added to every covariance diagonal (scikit-learn's reg_covar). */
  regCovar?: number;
  /** Start from these parameters instead of the seeded k-means++ initialisation. */
  init?: MixtureParameters;
  signal?: CancelSignal;
  onProgress?: (iteration: number, logLikelihood: number) => void;
}

export interface MixtureFit extends MixtureParameters {
  /** Total log-likelihood of the data before each M-step (never decreasing). */
  trace: number[];
  /** Total log-likelihood under the final parameters. */
  logLikelihood: number;
  bic: number;
  iterations: number;
  converged: boolean;
  /** n × k posterior P(component | point) under the final parameters. */
  responsibilities: Float64Array;
}

/**
 * M-step (eq 6.31; scikit-learn's full-covariance update) from statistics about a shift s:
 * with W = Σr, f = Σr(x − s), S = Σr(x − s)(x − s)ᵀ and N = W + 10·eps (scikit-learn's guard
 * against an empty component), μ = s + δ with δ = f/N and
 * Σ = Σr(x − μ)(x − μ)ᵀ / N + reg·I = (S − f δᵀ − δ fᵀ + W δ δᵀ) / N + reg·I.
 */
function maximise(
  stats: SufficientStatistics,
  p: MixtureParameters,
  n: number,
  regCovar: number,
  meansOnly: boolean,
): void {
  const { k, dims: d } = p;
  const t = packedSize(d);
  const { weight, first: f, second: s, shift } = stats;
  const delta = new Float64Array(d);
  for (let j = 0; j < k; j++) {
    const w = weight[j]!,
      nk = w + 10 * Number.EPSILON,
      mo = j * d,
      co = j * d * d;
    for (let a = 0; a < d; a++) {
      delta[a] = f[mo + a]! / nk;
      p.means[mo + a] = shift[mo + a]! + delta[a]!;
    }
    if (meansOnly) continue;
    p.weights[j] = nk / n;
    for (let a = 0, o = j * t; a < d; a++) {
      for (let b = 0; b <= a; b++, o++) {
        const scatter = s[o]! - f[mo + a]! * delta[b]! - delta[a]! * f[mo + b]! + w * delta[a]! * delta[b]!;
        const v = scatter / nk + (a === b ? regCovar : 0);
        p.covariances[co + a * d + b] = v;
        p.covariances[co + b * d + a] = v;
      }
    }
  }
}

function termsOf(p: MixtureParameters): ComponentTerms {
  return componentTerms(p.weights, p.means, p.covariances, p.k, p.dims);
}

interface EmLoop {
  maxIterations: number;
  tolerance: number;
  regCovar: number;
  meansOnly: boolean;
  signal?: CancelSignal;
  onProgress?: (iteration: number, logLikelihood: number) => void;
}

function runEm(x: NumericData, p: MixtureParameters, loop: EmLoop): MixtureFit {
  validate(x, p);
  // One pass per iteration: the E-step and the M-step's statistics together.
  const scan = scanFor(p.dims);
  const trace: number[] = [];
  let converged = false;
  let previous = -Infinity;
  let iterations = 0;
  while (iterations < loop.maxIterations) {
    throwIfCancelled(loop.signal);
    const { logLikelihood: ll, stats } = scan(x, termsOf(p));
    trace.push(ll);
    maximise(stats, p, x.rows, loop.regCovar, loop.meansOnly);
    iterations++;
    loop.onProgress?.(iterations, ll);
    if (Math.abs(ll / x.rows - previous / x.rows) < loop.tolerance) {
      converged = true;
      break;
    }
    previous = ll;
  }
  const responsibilities = new Float64Array(x.rows * p.k);
  const { logLikelihood } = scan(x, termsOf(p), responsibilities);
  return {
    ...p,
    trace,
    logLikelihood,
    bic: bic(logLikelihood, x.rows, p, loop.meansOnly),
    iterations,
    converged,
    responsibilities,
  };
}

/** BIC as scikit-learn computes it: −2 log L + (free parameters) · log n. */
function bic(logLikelihood: number, n: number, p: MixtureParameters, meansOnly: boolean): number {
  const { k, dims: d } = p;
  const free = meansOnly ? k * d : (k * d * (d + 1)) / 2 + k * d + k - 1;
  return -2 * logLikelihood + free * Math.log(n);
}

function validate(x: NumericData, p: MixtureParameters): void {
  if (x.dims !== p.dims) throw new EngineError(`the data has ${x.dims} columns but the mixture ${p.dims} dimensions`);
  if (!(p.k >= 1) || !Number.isInteger(p.k)) throw new EngineError(`k must be a positive integer, not ${p.k}`);
  if (x.rows < p.k) throw new EngineError(`${x.rows} points cannot fit ${p.k} components`);
}

/** Full Gaussian mixture by EM. */
export function gaussianMixture(x: NumericData, options: MixtureOptions): MixtureFit {
  const regCovar = options.regCovar ?? 1e-6;
  const p = options.init
    ? copyParameters(options.init)
    : kMeansPlusPlusStart(x, options.k, createRng(options.seed ?? 0), regCovar);
  return runEm(x, p, {
    maxIterations: options.maxIterations ?? 100,
    tolerance: options.tolerance ?? 1e-3,
    regCovar,
    meansOnly: false,
    signal: options.signal,
    onProgress: options.onProgress,
  });
}

export interface KMeansEmOptions {
  k: number;
  /** The known standard deviation shared by every component. */
  sigma: number;
  seed?: number;
  initialMeans?: Float64Array;
  maxIterations?: number;
  tolerance?: number;
  signal?: CancelSignal;
  onProgress?: (iteration: number, logLikelihood: number) => void;
}

/** Mitchell §6.12.1: learn k means with a known shared σ and equal weights. */
export function kMeansEm(x: NumericData, options: KMeansEmOptions): MixtureFit {
  const { k, sigma } = options;
  if (!(sigma > 0)) throw new EngineError(`sigma must be positive, not ${sigma}`);
  const d = x.dims;
  const means = options.initialMeans
    ? Float64Array.from(options.initialMeans)
    : kMeansPlusPlusCenters(x, k, createRng(options.seed ?? 0));
  const covariances = new Float64Array(k * d * d);
  for (let j = 0; j < k; j++) for (let a = 0; a < d; a++) covariances[j * d * d + a * d + a] = sigma * sigma;
  const p: MixtureParameters = { k, dims: d, weights: new Float64Array(k).fill(1 / k), means, covariances };
  return runEm(x, p, {
    maxIterations: options.maxIterations ?? 100,
    tolerance: options.tolerance ?? 1e-9,
    regCovar: 0,
    meansOnly: true,
    signal: options.signal,
    onProgress: options.onProgress,
  });
}

/** k-means++ seeding (Arthur & Vassilvitskii): each next centre drawn with probability ∝ squared distance. */
export function kMeansPlusPlusCenters(x: NumericData, k: number, rng: Rng): Float64Array {
  const { rows: n, dims: d, values: xs } = x;
  if (n < k) throw new EngineError(`${n} points cannot fit ${k} components`);
  const centers = new Float64Array(k * d);
  const dist = new Float64Array(n).fill(Infinity);
  let c = rng.int(n);
  for (let j = 0; j < k; j++) {
    for (let a = 0; a < d; a++) centers[j * d + a] = xs[c * d + a]!;
    let total = 0;
    for (let i = 0; i < n; i++) {
      let s = 0;
      for (let a = 0; a < d; a++) {
        const t = xs[i * d + a]! - centers[j * d + a]!;
        s += t * t;
      }
      if (s < dist[i]!) dist[i] = s;
      total += dist[i]!;
    }
    c = total > 0 ? rng.categorical(dist, total) : rng.int(n);
  }
  return centers;
}

/** Start like scikit-learn: hard-assign each point to its nearest seeded centre, then one M-step. */
export function mixtureStart(x: NumericData, k: number, seed: number, regCovar = 1e-6): MixtureParameters {
  return kMeansPlusPlusStart(x, k, createRng(seed), regCovar);
}

function kMeansPlusPlusStart(x: NumericData, k: number, rng: Rng, regCovar: number): MixtureParameters {
  const d = x.dims;
  validate(x, { k, dims: d } as MixtureParameters);
  const centers = kMeansPlusPlusCenters(x, k, rng);
  const stats = emptyStatistics(centers, k, d);
  for (let i = 0; i < x.rows; i++) {
    let best = 0,
      bestDist = Infinity;
    for (let j = 0; j < k; j++) {
      let s = 0;
      for (let a = 0; a < d; a++) {
        const t = x.values[i * d + a]! - centers[j * d + a]!;
        s += t * t;
      }
      if (s < bestDist) {
        bestDist = s;
        best = j;
      }
    }
    addPoint(stats, x.values, i * d, best, 1);
  }
  const p: MixtureParameters = {
    k,
    dims: d,
    weights: new Float64Array(k),
    means: new Float64Array(k * d),
    covariances: new Float64Array(k * d * d),
  };
  maximise(stats, p, x.rows, regCovar, false);
  return p;
}

function copyParameters(p: MixtureParameters): MixtureParameters {
  return {
    k: p.k,
    dims: p.dims,
    weights: Float64Array.from(p.weights),
    means: Float64Array.from(p.means),
    covariances: Float64Array.from(p.covariances),
  };
}
