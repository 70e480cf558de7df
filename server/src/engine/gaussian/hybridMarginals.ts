/**
 * Choosing how to answer a network with continuous variables: exact (clgInference.ts) while its
 * enumeration — configurations of the discrete parents of continuous variables × the entries of
 * one Gaussian joint — fits the total-entries budget, else Rao-Blackwellised likelihood
 * weighting (hybridSampling.ts), with a note that says why. Virtual and soft findings on discrete
 * variables are entered first as observed λ nodes (hybridFindings.ts) and left out of the answer.
 */
import { BudgetError, DEFAULT_BUDGETS, type Budgets } from '../budget.js';
import type { CancelSignal } from '../cancellation.js';
import { exactCost, hybridPosterior, type HybridEvidence, type HybridPosterior } from './clgInference.js';
import type { HybridNetwork } from './hybridNetwork.js';
import { hybridLikelihoodWeighting, type SampledHybridPosterior } from './hybridSampling.js';
import { hasFindings, virtualHybridNetwork } from './hybridFindings.js';
import type { SamplesDone } from '../sampling/sampledNetwork.js';

export interface HybridMarginalsOptions {
  method?: 'auto' | 'exact' | 'lw';
  samples?: number;
  seed?: number;
  budgets?: Budgets;
  signal?: CancelSignal;
  /** Likelihood weighting's progress (samples drawn, of how many). */
  onSamples?: SamplesDone;
}

export type HybridAnswer = (HybridPosterior | SampledHybridPosterior) & {
  note?: string;
  /** With findings: variable → the likelihood in force, largest entry 1 (soft: the fitted one). */
  likelihoods?: Map<number, Float64Array>;
};

export function hybridMarginals(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridMarginalsOptions = {},
): HybridAnswer {
  if (!hasFindings(evidence)) return answer(net, evidence, options);
  const virtual = virtualHybridNetwork(net, evidence, options);
  const n = net.variables.length;
  const full = answer(virtual.net, virtual.evidence, options);
  // The λ nodes come last: the answer by the network's own variables is its first n entries.
  const own = { ...full, discrete: full.discrete.slice(0, n), continuous: full.continuous.slice(0, n) };
  if (own.method === 'lw') own.discreteStderr = own.discreteStderr.slice(0, n);
  if (own.method === 'lw') own.meanStderr = own.meanStderr.slice(0, n);
  return { ...own, likelihoods: virtual.likelihoods };
}

function answer(net: HybridNetwork, evidence: HybridEvidence, options: HybridMarginalsOptions): HybridAnswer {
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  const method = options.method ?? 'auto';
  if (method === 'lw') return hybridLikelihoodWeighting(net, evidence, options);
  if (method === 'exact') return hybridPosterior(net, evidence, options);
  const cost = exactCost(net, evidence);
  if (cost.entries <= budgets.maxTotalEntries) {
    try {
      return hybridPosterior(net, evidence, options);
    } catch (e) {
      if (!(e instanceof BudgetError)) throw e; // the discrete part's own tree over its budget
      return {
        ...hybridLikelihoodWeighting(net, evidence, options),
        note: `${e.message}: answered by likelihood weighting`,
      };
    }
  }
  const note =
    `exact inference needs ${cost.configurations.toExponential(2)} configurations of the discrete parents × ` +
    `${Math.round(cost.entries / cost.configurations)} entries, over the budget of ${budgets.maxTotalEntries}: answered by likelihood weighting`;
  return { ...hybridLikelihoodWeighting(net, evidence, options), note };
}
