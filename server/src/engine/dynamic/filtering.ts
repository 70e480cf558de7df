/**
 * Filtering (and smoothing when it fits) of a sequence, exact while it fits the memory budget:
 * - the 1.5-slice junction tree fits, and so do the stored messages: exact filtering and
 *   smoothing (forwardBackward.ts);
 * - the tree fits but one message per step does not: exact filtering only (memory one slice),
 *   no smoothing, and a note saying why;
 * - the tree does not fit: the particle filter (particleFilter.ts), estimates with standard
 *   errors, and a note saying why.
 * `bayes filter` and the language's queries over time both come through here.
 */
import { BudgetError, DEFAULT_BUDGETS } from '../budget.js';
import type { CancelSignal } from '../cancellation.js';
import { DynamicTrees, forwardBackwardSteps, type DynamicResult } from './forwardBackward.js';
import { particleFilterSteps, type ParticleResult } from './particleFilter.js';
import { complete, type Stepwise } from '../stepwise.js';
import type { StepFindings } from './sliceTree.js';
import type { TwoSliceNetwork } from './twoSliceNetwork.js';

export interface FilteringOptions {
  maxEntries?: number;
  smooth?: boolean;
  predict?: number;
  /** The particle filter's size, seed and budget of sampled states, used only beyond the tables' budget. */
  particles?: number;
  maxSamples?: number;
  seed?: number;
  signal?: CancelSignal;
}

export type FilteringResult =
  ({ method: 'exact'; note?: string } & DynamicResult) | ({ method: 'particle'; note: string } & ParticleResult);

export function filterSequence(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  options: FilteringOptions = {},
): FilteringResult {
  return complete(filterSequenceSteps(dbn, findings, options));
}

/** filterSequence, yielding after each step of each pass. */
export function* filterSequenceSteps(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  options: FilteringOptions = {},
): Stepwise<FilteringResult> {
  const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
  const common = { predict: options.predict, signal: options.signal };
  let trees: DynamicTrees;
  try {
    trees = new DynamicTrees(dbn, maxEntries);
  } catch (e) {
    if (!(e instanceof BudgetError)) throw e;
    const r = yield* particleFilterSteps(dbn, findings, {
      ...common,
      particles: options.particles,
      seed: options.seed,
      maxSamples: options.maxSamples,
    });
    const note = `${e.message}: filtered by a particle filter (${r.particles} particles, seed ${r.seed}); no smoothing`;
    return { method: 'particle', note, ...r };
  }
  const messages = (findings.length + 1) * trees.step.ifaceSize;
  if (options.smooth && messages > maxEntries) {
    const r = yield* forwardBackwardSteps(dbn, findings, { ...common, maxEntries, trees, smooth: false });
    const note = `smoothing ${findings.length} steps stores ${messages} entries, over the budget of ${maxEntries}: exact filtering only`;
    return { method: 'exact', note, ...r };
  }
  return {
    method: 'exact',
    ...(yield* forwardBackwardSteps(dbn, findings, { ...common, maxEntries, trees, smooth: options.smooth })),
  };
}
