/**
 * The `sequence` result of a Gaussian network over time with its readings (the panel's chart over t
 * of real variables): the Kalman filter's and the RTS smoother's mean and variance of every variable
 * at every step, the ±2σ band, the readings, and the forecast up to the furthest step a statement
 * asked about. A long sequence is sent in at most SEQUENCE_POINTS buckets per series, as the
 * discrete chart is (sequenceResults.ts): each bucket's mean of the means and variances, the
 * envelope of its steps' bands and its least and greatest mean, so a spike inside a bucket still
 * shows in the band.
 */
import type { Range } from '../language/diagnostics.js';
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import { kalmanSmoother, type GaussianMarginals, type GaussianObservations } from '../engine/dynamic/kalman.js';
import { BudgetError, type Budgets } from '../engine/budget.js';
import type { CancelSignal } from '../engine/cancellation.js';
import {
  SEQUENCE_POINTS,
  type GaussianSequenceBands,
  type GaussianSequenceResult,
  type GaussianSequenceVariable,
} from '../protocol/runResult.js';

/** A (network, data) pair as the statements asking about it read it. */
export interface AskedGaussianSequence {
  kind: 'gaussian';
  net: GaussianTwoSliceNetwork;
  data: string;
  steps: readonly GaussianObservations[];
  /** Steps past the data the statements asked about (the forecast drawn). */
  forecast: number;
  statement: { range: Range };
}

/**
 * Numbers a point of one variable carries at most: two series of six (filtered and smoothed, or
 * the forecast) and four of the readings.
 */
const PER_POINT = 2 * 6 + 4;

export function gaussianSequenceResult(
  a: AskedGaussianSequence,
  budgets: Budgets,
  signal?: CancelSignal,
): GaussianSequenceResult {
  const { net, steps } = a;
  const T = steps.length;
  const K = a.forecast;
  const bucket = Math.max(1, Math.ceil((T + K) / SEQUENCE_POINTS));
  const points = Math.ceil(T / bucket) + Math.ceil(K / bucket);
  const entries = points * net.variables.length * PER_POINT;
  if (entries > budgets.maxTotalEntries)
    throw new BudgetError(`the chart's ${entries} numbers are over the budget of ${budgets.maxTotalEntries}`);
  const r = kalmanSmoother(net, steps, { predict: K, maxEntries: budgets.maxTotalEntries, signal });
  const variables = net.variables.map((name, v): GaussianSequenceVariable => ({
    name,
    filtered: gaussianBands(r.filtered, v, bucket),
    ...(r.smoothed ? { smoothed: gaussianBands(r.smoothed, v, bucket) } : {}),
    ...(r.predicted?.length ? { forecast: gaussianBands(r.predicted, v, bucket) } : {}),
    ...readingBands(steps, v, bucket),
  }));
  const per = bucket > 1 ? ` · ${points} points of ${bucket} steps` : '';
  const ahead = K ? ` · forecast ${K} step${K > 1 ? 's' : ''}` : '';
  return {
    kind: 'sequence',
    range: a.statement.range,
    source: `${net.name} over time given ${a.data}`,
    headline: `${T} steps${ahead} · log-likelihood ${r.logLikelihood.toFixed(4)} · Kalman filter and RTS smoother${per}`,
    network: net.name,
    data: a.data,
    steps: T,
    forecast: K,
    bucket,
    method: 'kalman',
    logLikelihood: r.logLikelihood,
    ...(r.note ? { note: r.note } : {}),
    variables,
  };
}

/** Variable v's means and variances in buckets, with the ±2σ band (see the module comment). */
export function gaussianBands(series: readonly GaussianMarginals[], v: number, bucket: number): GaussianSequenceBands {
  const points = Math.ceil(series.length / bucket);
  const out: GaussianSequenceBands = { mean: [], variance: [], lower: [], upper: [] };
  if (bucket > 1) Object.assign(out, { min: [], max: [] });
  for (let b = 0; b < points; b++) {
    const from = b * bucket,
      to = Math.min(series.length, from + bucket);
    let means = 0,
      variances = 0,
      lower = Infinity,
      upper = -Infinity,
      lo = Infinity,
      hi = -Infinity;
    for (let t = from; t < to; t++) {
      const m = series[t]!.means[v]!;
      const s2 = series[t]!.variances[v]!;
      const sd = Math.sqrt(s2);
      means += m;
      variances += s2;
      lower = Math.min(lower, m - 2 * sd);
      upper = Math.max(upper, m + 2 * sd);
      lo = Math.min(lo, m);
      hi = Math.max(hi, m);
    }
    out.mean.push(bucket > 1 ? means / (to - from) : means);
    out.variance.push(bucket > 1 ? variances / (to - from) : variances);
    out.lower.push(lower);
    out.upper.push(upper);
    out.min?.push(lo);
    out.max?.push(hi);
  }
  return out;
}

/** Each bucket's reading of variable v (a bucket: the mean, count, least and greatest of its readings). */
function readingBands(
  steps: readonly GaussianObservations[],
  v: number,
  bucket: number,
): Pick<GaussianSequenceVariable, 'observed' | 'observedSteps' | 'observedMin' | 'observedMax'> {
  const observed: Array<number | null> = [];
  const counts: number[] = [];
  const mins: Array<number | null> = [];
  const maxs: Array<number | null> = [];
  for (let from = 0; from < steps.length; from += bucket) {
    let n = 0,
      sum = 0,
      lo = Infinity,
      hi = -Infinity;
    for (let t = from; t < Math.min(steps.length, from + bucket); t++) {
      const x = steps[t]!.get(v);
      if (x === undefined) continue;
      n++;
      sum += x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    observed.push(n ? (bucket > 1 ? sum / n : sum) : null);
    counts.push(n);
    mins.push(n ? lo : null);
    maxs.push(n ? hi : null);
  }
  if (bucket === 1) return { observed };
  return { observed, observedSteps: counts, observedMin: mins, observedMax: maxs };
}
