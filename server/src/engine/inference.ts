/**
 * Choosing how to answer posterior marginals: exact (junction tree) when the largest clique
 * table fits the budget, else a seeded sampler whose answer says so, with the cost that
 * ruled exact inference out (the glue turns that into a warning diagnostic).
 */
import type { BayesianNetwork } from './network.js';
import { JunctionTree, junctionTreeOrder, ImpossibleEvidenceError, type CancelSignal, type Evidence } from './junctionTree.js';
import { likelihoodWeighting } from './likelihoodWeighting.js';
import { gibbsSampling } from './gibbsSampling.js';
import type { EliminationOrder } from './eliminationOrder.js';
import { NoConsistentSampleError } from './sampling.js';

/** Largest clique table (entries) exact inference may build by default: 2²² doubles = 32 MB. */
export const DEFAULT_BUDGET = 1 << 22;
/** Beyond this many entries in all cliques together even an explicit `exact` is refused (memory). */
export const EXACT_HARD_LIMIT = 1 << 26;

export type InferenceMethod = 'exact' | 'lw' | 'gibbs';

export interface MarginalsOptions {
  method?: InferenceMethod | 'auto';
  /** Largest clique table exact inference may use when the method is 'auto'. */
  budget?: number;
  samples?: number;
  seed?: number;
  signal?: CancelSignal;
}

export type MarginalsAnswer =
  | {
      ok: true;
      method: InferenceMethod;
      /** P(v | e) for every variable (observed ones as point masses). */
      marginals: Float64Array[];
      /** Sampled answers: standard error of each probability. */
      stderr?: Float64Array[];
      samples?: number;
      seed?: number;
      /** Largest clique table of the exact plan, and the budget it was compared with. */
      cost: number;
      budget: number;
      /** log P(e), exact answers only. */
      logEvidence?: number;
      /** Why a sampler answered (over budget), for a warning. */
      note?: string;
    }
  | { ok: false; method: InferenceMethod; message: string; cost: number; budget: number };

const plans = new WeakMap<BayesianNetwork, { order: EliminationOrder; tree?: JunctionTree }>();

/** The junction tree plan of `net`, triangulated once and cached with the network object. */
export function exactPlan(net: BayesianNetwork): { order: EliminationOrder; tree(): JunctionTree } {
  let plan = plans.get(net);
  if (!plan) { plan = { order: junctionTreeOrder(net) }; plans.set(net, plan); }
  const p = plan;
  return { order: p.order, tree: () => (p.tree ??= JunctionTree.compile(net, { order: p.order })) };
}

export function posteriorMarginals(net: BayesianNetwork, evidence: Evidence, options: MarginalsOptions = {}): MarginalsAnswer {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const plan = exactPlan(net);
  const cost = plan.order.maxCliqueSize;
  const requested = options.method ?? 'auto';
  const method: InferenceMethod = requested === 'auto' ? (cost <= budget ? 'exact' : 'lw') : requested;
  const note = requested === 'auto' && method !== 'exact'
    ? `exact inference needs a clique table of ${cost} entries, over the budget of ${budget}: answered by likelihood weighting`
    : undefined;
  try {
    if (method === 'exact') {
      if (plan.order.totalSize > EXACT_HARD_LIMIT) {
        return { ok: false, method, cost, budget, message: `exact inference needs ${plan.order.totalSize} clique entries in all, more than the ${EXACT_HARD_LIMIT} this machine allows; use a sampler` };
      }
      const jt = plan.tree();
      jt.setEvidence(evidence);
      jt.propagate(options.signal);
      const logEvidence = jt.logEvidence;
      if (logEvidence === -Infinity) throw new ImpossibleEvidenceError();
      return { ok: true, method, cost, budget, logEvidence, marginals: net.variables.map((_, v) => jt.marginal(v)) };
    }
    const sampler = method === 'lw' ? likelihoodWeighting : gibbsSampling;
    const seed = options.seed ?? 1;
    const r = sampler(net, evidence, { samples: options.samples ?? 20000, seed, signal: options.signal });
    return { ok: true, method, cost, budget, seed, marginals: r.marginals, stderr: r.stderr, samples: r.samples, ...(note ? { note } : {}) };
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError || e instanceof NoConsistentSampleError) return { ok: false, method, cost, budget, message: e.message };
    throw e;
  }
}
