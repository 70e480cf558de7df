/**
 * EM for the CPTs of a Bayesian network with hidden variables and missing values (Mitchell
 * §6.12; Poole & Mackworth §10.2 / Koller & Friedman 19.2): the E-step takes expected family
 * counts by exact inference (expectedCounts.ts), the M-step normalises them plus the prior's
 * pseudo-counts. The objective — log-likelihood, plus the log Dirichlet prior density when a
 * prior is given — never decreases; `checkMonotone` turns that into a thrown invariant.
 * Seeded random restarts start from random Dirichlet(1) CPTs; the best run wins.
 */
import type { BayesianNetwork } from '../network.js';
import { cardinality } from '../network.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { ExpectationStep, type ImpossibleRecords } from './expectedCounts.js';
import { NO_PRIOR, normaliseRows, statePseudoCounts, withTables, type Prior } from './cptLearning.js';
import { createRng, type Rng } from '../random.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';

export interface EmProgress {
  restart: number;
  iteration: number;
  logLikelihood: number;
}

export interface NetworkEmOptions {
  prior?: Prior;
  maxIterations?: number;
  /** Stop when the objective per record improves by less than this. */
  tolerance?: number;
  /** Random starts (default 1). With `start: 'given'` the given CPTs are the first start. */
  restarts?: number;
  seed?: number;
  /** 'given': begin from the network's CPTs when none is unknown (NaN); default 'random'. */
  start?: 'random' | 'given';
  /** Throw if the objective ever falls (tests turn this on). */
  checkMonotone?: boolean;
  signal?: CancelSignal;
  onProgress?: (progress: EmProgress) => void;
}

export interface LearnRun {
  restart: number;
  logLikelihood: number;
  iterations: number;
  converged: boolean;
}

export interface NetworkEmResult {
  network: BayesianNetwork;
  /** Log-likelihood of the data under the returned CPTs. */
  logLikelihood: number;
  /** Log-likelihood of the winning run: at its start, then after each step. */
  trace: number[];
  iterations: number;
  converged: boolean;
  runs: LearnRun[];
  /** Distinct record patterns: the E-step ran once per pattern per iteration. */
  patterns: number;
  /** Counting only: records of probability 0 under the counted tables (logLikelihood is then −∞). */
  impossible?: ImpossibleRecords;
}

/** EM's objective fell: a bug, not bad input (EM cannot go down). */
export class MonotonicityError extends Error {}

/** Random Dirichlet(1) CPT rows: Gamma(1) draws (−ln u), normalised. */
export function randomTables(net: BayesianNetwork, rng: Rng): Float64Array[] {
  return net.cpts.map((cpt, v) => {
    const t = new Float64Array(cpt.table.length);
    for (let i = 0; i < t.length; i++) t[i] = -Math.log(1 - rng.next());
    return normaliseRows(t, cardinality(net, v), 0);
  });
}

/** log of the Dirichlet prior density (up to a constant) whose mode the M-step returns. */
function logPrior(net: BayesianNetwork, tables: Float64Array[], prior: Prior): number {
  if (prior.kind === 'none') return 0;
  let s = 0;
  tables.forEach((t, v) => {
    const a = statePseudoCounts(prior, net, v);
    const k = a.length;
    for (let i = 0; i < t.length; i++) if (a[i % k]! > 0) s += a[i % k]! * Math.log(t[i]!);
  });
  return s;
}

/** One update rule of the climb: EM's M-step, or a gradient step. */
export interface Stepper {
  next(net: BayesianNetwork, tables: Float64Array[], counts: Float64Array[], prior: Prior): Float64Array[];
  /** After a step that lowered the objective: shrink and retry (true), or give up (false). */
  shrink?(): boolean;
  /** May a small gain count as convergence now? (A step size recovering from rejections is small by construction.) */
  settled?(): boolean;
}

const emStep: Stepper = {
  // M-step: expected counts plus pseudo-counts, row-normalised.
  next: (net, _tables, counts, prior) =>
    counts.map((c, v) => normaliseRows(Float64Array.from(c), cardinality(net, v), statePseudoCounts(prior, net, v))),
};

export function networkEm(
  net: BayesianNetwork,
  data: CategoricalDataset,
  options: NetworkEmOptions = {},
): NetworkEmResult {
  return climbWithRestarts(net, data, options, () => emStep);
}

/** Runs the climb from each (seeded) start and keeps the best. */
export function climbWithRestarts(
  net: BayesianNetwork,
  data: CategoricalDataset,
  options: NetworkEmOptions,
  stepper: () => Stepper,
): NetworkEmResult {
  const estep = new ExpectationStep(net, data);
  const rng = createRng(options.seed ?? 0);
  const restarts = Math.max(1, options.restarts ?? 1);
  const given = options.start === 'given' && net.cpts.every((c) => c.table.every((p) => Number.isFinite(p)));
  let best: (ClimbResult & { restart: number }) | undefined;
  const runs: LearnRun[] = [];
  for (let r = 0; r < restarts; r++) {
    const start = r === 0 && given ? net.cpts.map((c) => Float64Array.from(c.table)) : randomTables(net, rng);
    const run = climb(net, estep, start, r, options, stepper());
    runs.push({ restart: r, logLikelihood: run.logLikelihood, iterations: run.iterations, converged: run.converged });
    if (!best || run.logLikelihood > best.logLikelihood) best = { ...run, restart: r };
  }
  const { tables, restart: _, ...result } = best!;
  return { ...result, network: withTables(net, (v) => tables[v]!), runs, patterns: estep.patterns };
}

interface ClimbResult {
  tables: Float64Array[];
  logLikelihood: number;
  trace: number[];
  iterations: number;
  converged: boolean;
}

function climb(
  net: BayesianNetwork,
  estep: ExpectationStep,
  start: Float64Array[],
  restart: number,
  options: NetworkEmOptions,
  stepper: Stepper,
): ClimbResult {
  const prior = options.prior ?? NO_PRIOR;
  const maxIterations = options.maxIterations ?? 100;
  const tolerance = options.tolerance ?? 1e-6;
  const objective = (t: Float64Array[], ll: number) => ll + logPrior(net, t, prior);
  let tables = start;
  let current = estep.run(tables, options.signal);
  let score = objective(tables, current.logLikelihood);
  const trace = [current.logLikelihood];
  let iterations = 0,
    converged = false;
  while (iterations < maxIterations) {
    throwIfCancelled(options.signal);
    const candidate = stepper.next(net, tables, current.counts, prior);
    const step = estep.run(candidate, options.signal);
    const next = objective(candidate, step.logLikelihood);
    // EM may round a hair below; a step size that can shrink retries any fall (a slight overshoot
    // must not pass for convergence).
    const fell = next < score - 1e-9 * Math.abs(score);
    if (fell || (stepper.shrink && next < score)) {
      if (stepper.shrink?.()) continue;
      if (fell && options.checkMonotone)
        throw new MonotonicityError(`the objective fell from ${score} to ${next} at iteration ${iterations + 1}`);
    }
    const gain = next - score;
    tables = candidate;
    current = step;
    score = next;
    iterations++;
    trace.push(step.logLikelihood);
    options.onProgress?.({ restart, iteration: iterations, logLikelihood: step.logLikelihood });
    if (gain / estep.rows < tolerance && (stepper.settled?.() ?? true)) {
      converged = true;
      break;
    }
  }
  return { tables, logLikelihood: current.logLikelihood, trace, iterations, converged };
}
