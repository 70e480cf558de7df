/**
 * One `sequence` result per (network over time, observations) pair the run's statements asked
 * about, for the results panel's charts over t: every step's filtered and smoothed posterior of
 * every variable, what was observed, the most likely sequence and the log-likelihood. The queries
 * record their pairs as they run (recordSequence); after the statements each pair is computed once
 * through filterSequence (exact, or the particle filter beyond the budget) and Viterbi. A long
 * sequence is sent in at most SEQUENCE_POINTS buckets per series: each bucket's mean with its
 * least and greatest value (the envelope), the observed and most likely states by majority.
 * Gaussian networks over time record their pairs here too (recordGaussianSequence); their result
 * is built by gaussianSequenceResults.ts.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic, Range } from '../language/diagnostics.js';
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import type { SliceMarginals } from '../engine/dynamic/forwardBackward.js';
import { filterSequence } from '../engine/dynamic/filtering.js';
import { mostLikelySequence, type MostLikelySequence } from '../engine/dynamic/viterbi.js';
import { BudgetError, DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import { EngineError } from '../engine/engineError.js';
import { CancelledError } from '../engine/cancellation.js';
import {
  SEQUENCE_POINTS,
  type SequenceBands,
  type GaussianSequenceResult,
  type SequenceResult,
  type SequenceVariable,
} from '../protocol/runResult.js';
import type { HandlerContext } from './handlerContext.js';
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import type { GaussianObservations } from '../engine/dynamic/kalman.js';
import { gaussianSequenceResult, type AskedGaussianSequence } from './gaussianSequenceResults.js';

/** A pair as the first statement that asked about it read it. */
interface AskedSequence {
  kind?: 'discrete';
  dbn: TwoSliceNetwork;
  data: string;
  findings: readonly StepFindings[];
  statement: { range: Range };
}

const KEY = 'sequences';

type Asked = AskedSequence | AskedGaussianSequence;

function askedPairs(ctx: HandlerContext): Map<string, Asked> {
  if (!ctx.shared.has(KEY)) ctx.shared.set(KEY, new Map<string, Asked>());
  return ctx.shared.get(KEY) as Map<string, Asked>;
}

/** Notes the pair a query over time read (the first statement asking keeps the entry's range). */
export function recordSequence(
  ctx: HandlerContext,
  dbn: TwoSliceNetwork,
  given: readonly A.Assignment[],
  findings: readonly StepFindings[],
): void {
  const asked = askedPairs(ctx);
  // Soft and virtual findings after the data make another sequence of evidence: a pair of its own.
  const key = JSON.stringify([dbn.name, given.map(findingKey)]);
  if (!asked.has(key)) asked.set(key, { dbn, data: givenText(given), findings, statement: ctx.statement });
}

/**
 * Notes the (Gaussian network, data) pair a query read, and how far past the data it looked: the
 * chart forecasts up to the furthest step any statement asked about.
 */
export function recordGaussianSequence(
  ctx: HandlerContext,
  net: GaussianTwoSliceNetwork,
  data: string,
  steps: readonly GaussianObservations[],
  step: number,
): void {
  const asked = askedPairs(ctx);
  const key = JSON.stringify(['gaussian', net.name, data]);
  const forecast = Math.max(0, step - steps.length);
  const known = asked.get(key) as AskedGaussianSequence | undefined;
  if (known) known.forecast = Math.max(known.forecast, forecast);
  else asked.set(key, { kind: 'gaussian', net, data, steps, forecast, statement: ctx.statement });
}

function findingKey(g: A.Assignment): unknown {
  if (!g.finding) return g.variable.text;
  const entries = g.finding.entries.map((e) => [e.state?.text, e.value.value]);
  return [g.variable.text, g.time?.offset, g.finding.likelihood ? 'likelihood' : 'soft', entries];
}

function givenText(given: readonly A.Assignment[]): string {
  const extra = given.slice(1).filter((g) => g.finding).length;
  return given[0]!.variable.text + (extra ? ` and ${extra} finding${extra > 1 ? 's' : ''}` : '');
}

interface Emitted {
  results: Array<SequenceResult | GaussianSequenceResult>;
  diagnostics: Diagnostic[];
}

/** The recorded pairs' results, in the order they were first asked. */
export function sequenceResults(
  shared: Map<string, unknown>,
  budgets: Budgets | undefined,
  signal?: AbortSignal,
): Emitted {
  const out: Emitted = { results: [], diagnostics: [] };
  const asked = shared.get(KEY) as Map<string, Asked> | undefined;
  for (const a of asked?.values() ?? []) {
    if (signal?.aborted) break;
    try {
      const b = budgets ?? DEFAULT_BUDGETS;
      out.results.push(a.kind === 'gaussian' ? gaussianSequenceResult(a, b, signal) : sequenceResult(a, b, signal));
    } catch (e) {
      // A run cancelled while charting: the statements' answers stand, the charts are left out.
      if (e instanceof CancelledError) break;
      // The queries that read the pair already said why it cannot be computed, on their lines.
      if (!(e instanceof EngineError)) throw e;
      const name = a.kind === 'gaussian' ? a.net.name : a.dbn.name;
      const message = `no chart over time of ${name} given ${a.data}: ${e.message}`;
      out.diagnostics.push({ severity: 'information', code: 'sequence-chart', message, range: a.statement.range });
    }
  }
  return out;
}

export function sequenceResult(a: AskedSequence, budgets: Budgets, signal?: AbortSignal): SequenceResult {
  const { dbn, findings } = a;
  const T = findings.length;
  const bucket = Math.max(1, Math.ceil(T / SEQUENCE_POINTS));
  const points = Math.ceil(T / bucket);
  const states = dbn.variables.reduce((n, v) => n + v.states.length, 0);
  // Per state: mean, min and max of two series, and the standard errors: at most 7 numbers a point.
  const entries = points * states * 7;
  if (entries > budgets.maxTotalEntries)
    throw new BudgetError(`the chart's ${entries} numbers are over the budget of ${budgets.maxTotalEntries}`);
  const r = filterSequence(dbn, findings, {
    smooth: true,
    maxEntries: budgets.maxTotalEntries,
    maxSamples: budgets.maxSamples,
    signal,
  });
  const notes = r.note ? [r.note] : [];
  let best: MostLikelySequence | undefined;
  if (r.method === 'exact') {
    try {
      best = mostLikelySequence(dbn, r.findings, signal, budgets.maxTotalEntries);
    } catch (e) {
      if (!(e instanceof BudgetError)) throw e;
      notes.push(`${e.message}: no most likely sequence`);
    }
  }
  const ml = best;
  const buckets = (series: SliceMarginals[], v: number) => bands(series, v, dbn.variables[v]!.states.length, bucket);
  const variables = dbn.variables.map((variable, v): SequenceVariable => ({
    name: variable.name,
    states: [...variable.states],
    filtered: buckets(r.filtered, v),
    ...(r.method === 'exact' && r.smoothed ? { smoothed: buckets(r.smoothed, v) } : {}),
    ...(r.method === 'particle' ? { standardErrors: buckets(r.filteredErrors, v).mean } : {}),
    ...observedStates(bucket, T, variable.states, (t) => findings[t]!.evidence.get(v)),
    ...(ml ? majority('mostLikely', bucket, T, variable.states, (t) => ml.states[t + 1]![v]) : {}),
  }));
  const how = r.method === 'exact' ? 'exact' : `particle filter (${r.particles} particles, seed ${r.seed})`;
  const per = bucket > 1 ? ` · ${points} points of ${bucket} steps` : '';
  return {
    kind: 'sequence',
    range: a.statement.range,
    source: `${dbn.name} over time given ${a.data}`,
    headline: `${T} steps · log-likelihood ${r.logLikelihood.toFixed(4)} · ${how}${per}`,
    network: dbn.name,
    data: a.data,
    steps: T,
    bucket,
    method: r.method,
    ...(r.method === 'particle' ? { particles: r.particles, seed: r.seed } : {}),
    logLikelihood: r.logLikelihood,
    ...(notes.length ? { note: notes.join('; ') } : {}),
    variables,
  };
}

/** Per state, each bucket's mean (and, with more than one step a bucket, its least and greatest value). */
export function bands(series: readonly SliceMarginals[], v: number, k: number, bucket: number): SequenceBands {
  const points = Math.ceil(series.length / bucket);
  const make = () => Array.from({ length: k }, () => new Array<number>(points).fill(0));
  const mean = make();
  const min = bucket > 1 ? make() : undefined;
  const max = bucket > 1 ? make() : undefined;
  for (let b = 0; b < points; b++) {
    const from = b * bucket,
      to = Math.min(series.length, from + bucket);
    for (let s = 0; s < k; s++) {
      let sum = 0,
        lo = Infinity,
        hi = -Infinity;
      for (let t = from; t < to; t++) {
        const p = series[t]![v]![s]!;
        sum += p;
        lo = Math.min(lo, p);
        hi = Math.max(hi, p);
      }
      mean[s]![b] = sum / (to - from);
      if (min) min[s]![b] = lo;
      if (max) max[s]![b] = hi;
    }
  }
  return { mean, ...(min ? { min, max } : {}) };
}

function observedStates(
  bucket: number,
  T: number,
  states: readonly string[],
  at: (t: number) => number | undefined,
): Pick<SequenceVariable, 'observed' | 'observedSteps'> {
  const r = majority('observed', bucket, T, states, at);
  return { observed: r.observed ?? [], ...(r.observedSteps ? { observedSteps: r.observedSteps } : {}) };
}

/** Each bucket's most frequent state among its steps' (undefined: none), and how many steps had it. */
function majority(
  field: 'observed' | 'mostLikely',
  bucket: number,
  T: number,
  states: readonly string[],
  at: (t: number) => number | undefined,
): Partial<SequenceVariable> {
  const labels: Array<string | null> = [];
  const counts: number[] = [];
  const tally = new Array<number>(states.length);
  for (let from = 0; from < T; from += bucket) {
    tally.fill(0);
    for (let t = from; t < Math.min(T, from + bucket); t++) {
      const s = at(t);
      if (s !== undefined) tally[s]!++;
    }
    const top = tally.indexOf(Math.max(...tally));
    labels.push(tally[top]! > 0 ? states[top]! : null);
    counts.push(field === 'observed' ? tally.reduce((a, b) => a + b, 0) : tally[top]!);
  }
  if (field === 'observed') return { observed: labels, ...(bucket > 1 ? { observedSteps: counts } : {}) };
  return { mostLikely: labels.map((x) => x ?? ''), ...(bucket > 1 ? { mostLikelySteps: counts } : {}) };
}
