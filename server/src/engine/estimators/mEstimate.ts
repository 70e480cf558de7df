/**
 * Mitchell's m-estimate of probability (eq. 6.22): (n_c + m p) / (n + m), i.e. the observed
 * frequency n_c / n pulled toward a prior estimate p by m virtual samples. With p = 1/k and
 * m = k it is Laplace's rule (n_c + 1) / (n + k); with m = 0 it is the plain frequency.
 */
import { EngineError } from '../engineError.js';

export function mEstimate(nc: number, n: number, p: number, m: number): number {
  if (!(m >= 0)) throw new EngineError(`the equivalent sample size m must be ≥ 0, got ${m}`);
  if (!(p >= 0 && p <= 1)) throw new EngineError(`the prior estimate p must be in [0, 1], got ${p}`);
  if (n + m === 0) throw new EngineError('no examples and m = 0: the estimate is 0/0');
  return (nc + m * p) / (n + m);
}

/**
 * The m-estimate as a prior (eq. 6.22): pseudo-counts m p_i for each of k values, p uniform by
 * default. Added to the counts n_i, their normalised sum is `mEstimate(n_i, n, p_i, m)` for every i.
 */
export function mEstimatePseudoCounts(k: number, m: number, p?: readonly number[]): number[] {
  if (!(m > 0)) throw new EngineError(`m must be positive to act as a prior, got ${m}`);
  const prior = p ?? new Array<number>(k).fill(1 / k);
  if (prior.length !== k) throw new EngineError(`${prior.length} prior estimates for ${k} values`);
  return prior.map((pi) => m * pi);
}

export function laplaceEstimate(nc: number, n: number, k: number): number {
  return mEstimate(nc, n, 1 / k, k);
}

/** How attribute tables P(a | v) are smoothed (naive Bayes, CPT learning). */
export type Smoothing =
  | { kind: 'none' }
  | { kind: 'laplace' }
  /** m virtual samples at prior p; p defaults to uniform 1/k over the attribute's k values. */
  | { kind: 'mEstimate'; m: number; p?: number };

/** The smoothed estimate of P(value | class) from its count n_c among n examples of the class. */
export function smoothedEstimate(smoothing: Smoothing, nc: number, n: number, k: number): number {
  switch (smoothing.kind) {
    case 'none':
      return n === 0 ? 0 : nc / n;
    case 'laplace':
      return laplaceEstimate(nc, n, k);
    case 'mEstimate':
      return mEstimate(nc, n, smoothing.p ?? 1 / k, smoothing.m);
  }
}
