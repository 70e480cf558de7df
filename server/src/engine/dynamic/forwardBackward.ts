/**
 * Filtering, smoothing, prediction and the log-likelihood of a sequence by the interface
 * algorithm (Murphy 2002 §3.3): a forward pass of one 1.5-slice junction-tree propagation per
 * step, passing α_t = P(I_t | e_1..t) over the forward interface, and a backward pass passing
 * β_t(I_t) ∝ P(e_{t+1..T} | I_t). Every message is normalised, so nothing underflows at any T;
 * the log-likelihood is the sum of each step's log P(e_t | e_1..t−1).
 *
 * Time convention (Russell & Norvig's umbrella world): slice 0 is the prior P(X₀), with no
 * findings; findings[0] are those of step t = 1.
 */
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import type { CancelSignal } from '../cancellation.js';
import { throwIfCancelled } from '../cancellation.js';
import { NO_FINDINGS, SliceTree, planSliceTree, type StepFindings } from './sliceTree.js';
import type { TwoSliceNetwork } from './twoSliceNetwork.js';
import { propagateStep } from './softFindings.js';
import { complete, type Stepwise } from '../stepwise.js';

export interface DynamicOptions {
  /** Largest total of clique entries one 1.5-slice tree may allocate (and of the stored messages). */
  maxEntries?: number;
  signal?: CancelSignal;
  /** Compute P(X_t | e_1..T) too (stores one message over the interface per step). */
  smooth?: boolean;
  /** Steps to forecast after the last one: P(X_{T+k} | e_1..T), k = 1…predict. */
  predict?: number;
  /** The trees, when the caller compiled them already. */
  trees?: DynamicTrees;
}

/** Per step, per slice variable, its distribution over the variable's states. */
export type SliceMarginals = Float64Array[];

export interface DynamicResult {
  /** filtered[t−1][v] = P(X_v,t | e_1..t). */
  filtered: SliceMarginals[];
  /** smoothed[t−1][v] = P(X_v,t | e_1..T). */
  smoothed?: SliceMarginals[];
  /** predicted[k−1][v] = P(X_v,T+k | e_1..T). */
  predicted?: SliceMarginals[];
  /** log P(e_1..T) (natural log). */
  logLikelihood: number;
  /** The findings with every soft finding resolved into its likelihood (for Viterbi). */
  findings: StepFindings[];
}

/** The trees of one run: the initial slice's and the 1.5-slice's, compiled once. */
export class DynamicTrees {
  readonly first: SliceTree;
  readonly step: SliceTree;
  constructor(
    readonly dbn: TwoSliceNetwork,
    readonly maxEntries = DEFAULT_BUDGETS.maxTotalEntries,
  ) {
    // Both trees planned before either is compiled: a template over the budget is refused in
    // the time of two triangulations, allocating nothing. The 1.5-slice tree first: the larger,
    // and the one a refusal should name.
    const step = planSliceTree(dbn, maxEntries);
    const first = planSliceTree(dbn, maxEntries, true);
    this.first = new SliceTree(dbn, maxEntries, true, first);
    this.step = new SliceTree(dbn, maxEntries, false, step);
  }

  /** α₀ = P(I₀). */
  priorInterface(signal?: CancelSignal): Float64Array {
    this.first.propagate(undefined, undefined, NO_FINDINGS, 0, signal);
    return this.first.interfaceJoint();
  }

  sliceMarginals(tree: SliceTree = this.step): SliceMarginals {
    return this.dbn.variables.map((_, v) => tree.marginal(v));
  }
}

/**
 * Filtering without keeping the past: memory is one slice's tree and one message, whatever the
 * number of steps. `onStep` sees each step's filtered marginals and log P(e_t | e_1..t−1).
 * Returns α_T (for prediction) and the log-likelihood.
 */
export function filterForward(
  trees: DynamicTrees,
  findings: Iterable<StepFindings>,
  onStep: OnForwardStep,
  signal?: CancelSignal,
): { alpha: Float64Array; logLikelihood: number; steps: number } {
  return complete(filterForwardSteps(trees, findings, onStep, signal));
}

type OnForwardStep = (
  t: number,
  filtered: SliceMarginals,
  alpha: Float64Array,
  logStep: number,
  resolved: StepFindings,
) => void;

/** filterForward, yielding after each step. */
export function* filterForwardSteps(
  trees: DynamicTrees,
  findings: Iterable<StepFindings>,
  onStep: OnForwardStep,
  signal?: CancelSignal,
): Stepwise<{ alpha: Float64Array; logLikelihood: number; steps: number }> {
  let alpha = trees.priorInterface(signal);
  let logLikelihood = 0;
  let t = 0;
  for (const f of findings) {
    throwIfCancelled(signal);
    t++;
    const { logStep, findings: resolved } = propagateStep(trees.step, alpha, f, t, signal);
    logLikelihood += logStep;
    alpha = trees.step.interfaceJoint();
    onStep(t, trees.sliceMarginals(), alpha, logStep, resolved);
    yield { phase: 'forward', done: t };
  }
  return { alpha, logLikelihood, steps: t };
}

/** P(X_{T+k} | e_1..T) for k = 1…K from α_T. */
export function predictAhead(
  trees: DynamicTrees,
  alpha: Float64Array,
  k: number,
  signal?: CancelSignal,
): SliceMarginals[] {
  const out: SliceMarginals[] = [];
  for (let i = 1; i <= k; i++) {
    throwIfCancelled(signal);
    trees.step.propagate(alpha, undefined, NO_FINDINGS, i, signal);
    out.push(trees.sliceMarginals());
    alpha = trees.step.interfaceJoint();
  }
  return out;
}

/** Forward (and, with `smooth`, backward) over the whole sequence. */
export function forwardBackward(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  options: DynamicOptions = {},
): DynamicResult {
  return complete(forwardBackwardSteps(dbn, findings, options));
}

/** forwardBackward, yielding after each step of each pass. */
export function* forwardBackwardSteps(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  options: DynamicOptions = {},
): Stepwise<DynamicResult> {
  const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
  const trees = options.trees ?? new DynamicTrees(dbn, maxEntries);
  const T = findings.length;
  if (options.smooth)
    requireWithin('the forward messages of smoothing', (T + 1) * trees.step.ifaceSize, maxEntries, 'entries');
  const alphas: Float64Array[] = [];
  const filtered: SliceMarginals[] = [];
  const resolvedFindings: StepFindings[] = [];
  const prior = trees.priorInterface(options.signal);
  if (options.smooth) alphas.push(prior);
  const forward = yield* filterForwardSteps(
    trees,
    findings,
    (_t, marginals, alpha, _logStep, resolved) => {
      filtered.push(marginals);
      resolvedFindings.push(resolved);
      if (options.smooth) alphas.push(alpha);
    },
    options.signal,
  );
  const result: DynamicResult = { filtered, logLikelihood: forward.logLikelihood, findings: resolvedFindings };
  if (options.smooth) result.smoothed = yield* smoothBackward(trees, resolvedFindings, alphas, options.signal);
  if (options.predict) result.predicted = predictAhead(trees, forward.alpha, options.predict, options.signal);
  return result;
}

/**
 * The backward pass: at step t the tree with α_{t−1}, β_t and e_t gives P(X_t | e_1..T); the same
 * tree with α ones gives β_{t−1}(I_{t−1}) ∝ Σ P(slice t | I_{t−1}) P(e_t | slice t) β_t(I_t).
 */
function* smoothBackward(
  trees: DynamicTrees,
  findings: readonly StepFindings[],
  alphas: readonly Float64Array[],
  signal?: CancelSignal,
): Stepwise<SliceMarginals[]> {
  const T = findings.length;
  const smoothed = new Array<SliceMarginals>(T);
  const ones = new Float64Array(trees.step.ifaceSize).fill(1);
  let beta: Float64Array | undefined; // β_T = 1
  for (let t = T; t >= 1; t--) {
    throwIfCancelled(signal);
    trees.step.propagate(alphas[t - 1], beta, findings[t - 1]!, t, signal);
    smoothed[t - 1] = trees.sliceMarginals();
    yield { phase: 'backward', done: T - t + 1 };
    if (t === 1) break;
    trees.step.propagate(ones, beta, findings[t - 1]!, t, signal);
    beta = trees.step.previousJoint();
  }
  return smoothed;
}
