/**
 * Choosing how to answer a network with continuous variables: exact (clgInference.ts) while its
 * enumeration — configurations of the discrete parents of continuous variables × the entries of
 * one Gaussian joint — fits the total-entries budget, else Rao-Blackwellised likelihood
 * weighting (hybridSampling.ts), with a note that says why.
 */
import { BudgetError, DEFAULT_BUDGETS, type Budgets } from '../budget.js';
import type { CancelSignal } from '../cancellation.js';
import { exactCost, hybridPosterior, type HybridEvidence, type HybridPosterior } from './clgInference.js';
import type { HybridNetwork } from './hybridNetwork.js';
import { hybridLikelihoodWeighting, type SampledHybridPosterior } from './hybridSampling.js';

export interface HybridMarginalsOptions {
  method?: 'auto' | 'exact' | 'lw';
  samples?: number;
  seed?: number;
  budgets?: Budgets;
  signal?: CancelSignal;
}

export type HybridAnswer = (HybridPosterior | SampledHybridPosterior) & { note?: string };

export function hybridMarginals(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridMarginalsOptions = {},
): HybridAnswer {
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
