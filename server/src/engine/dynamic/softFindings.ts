/**
 * Soft findings at a step of a network over time (Jeffrey's rule, as engine/inference/
 * softEvidence.ts states it for one network): "at step t, given e_1..t−1 and the step's other
 * findings, X_t is distributed as q". The forward pass meets it by a likelihood λ(x) =
 * q(x) / P(X_t = x | e_1..t−1, other findings of t) on X_t, so the step's belief in X_t is q and
 * everything later (filtering of later steps, smoothing, the most likely sequence) is Jeffrey's
 * revision followed by conditioning on the later evidence (Chan & Darwiche 2005, §4). Several soft
 * findings at one step are met together by iterative proportional fitting, as in one network.
 *
 * The finding is defined on the filtered belief (what is known up to t), which is why it is
 * resolved in the forward pass: the backward pass and Viterbi then use the resolved likelihood.
 * A soft finding adds nothing to log P(e_1..T): Σ_x P(x | …) λ(x) = Σ_x q(x) = 1.
 */
import { EngineError } from '../engineError.js';
import type { DiscreteVariable } from '../network.js';
import { SOFT_MAX_SWEEPS, SOFT_TOLERANCE } from '../inference/softEvidence.js';
import type { CancelSignal } from '../cancellation.js';
import type { SliceTree, StepFindings } from './sliceTree.js';

/** The likelihood λ = q / p that turns belief p into q; an error when q wants a state p rules out. */
export function jeffreyLikelihood(
  p: ArrayLike<number>,
  q: ArrayLike<number>,
  variable: DiscreteVariable,
  step: number,
): Float64Array {
  const lambda = new Float64Array(q.length);
  for (let x = 0; x < q.length; x++) {
    if (p[x]! > 0) lambda[x] = q[x]! / p[x]!;
    else if (q[x]! > 0)
      throw new EngineError(
        `the soft finding on ${variable.name} at step ${step} gives probability to ${variable.states[x]}, which is impossible there`,
      );
  }
  return lambda;
}

/**
 * Propagates step t's findings on `tree` with α_{t−1}; soft findings are turned into the
 * likelihoods that meet them. Returns log P(e_t | e_1..t−1) and the step's findings with the soft
 * ones resolved (no `soft` left).
 */
export function propagateStep(
  tree: SliceTree,
  alpha: Float64Array | undefined,
  f: StepFindings,
  t: number,
  signal?: CancelSignal,
): { logStep: number; findings: StepFindings } {
  const plain: StepFindings = { evidence: f.evidence, ...(f.likelihoods ? { likelihoods: f.likelihoods } : {}) };
  const logStep = tree.propagate(alpha, undefined, plain, t, signal);
  if (!f.soft?.size) return { logStep, findings: plain };
  const likelihoods = new Map<number, ArrayLike<number>>(f.likelihoods ?? []);
  for (let sweep = 0; sweep < SOFT_MAX_SWEEPS; sweep++) {
    let worst = 0;
    for (const [v, q] of f.soft) {
      const p = tree.marginal(v);
      for (let x = 0; x < q.length; x++) worst = Math.max(worst, Math.abs(p[x]! - q[x]!));
      const lambda = jeffreyLikelihood(p, q, tree.dbn.variables[v]!, t);
      const before = likelihoods.get(v);
      if (before) for (let x = 0; x < lambda.length; x++) lambda[x]! *= before[x]!;
      likelihoods.set(v, lambda);
      tree.propagate(alpha, undefined, { evidence: f.evidence, likelihoods }, t, signal);
    }
    if (worst < SOFT_TOLERANCE || f.soft.size === 1)
      return { logStep, findings: { evidence: f.evidence, likelihoods } };
  }
  throw new EngineError(`the soft findings at step ${t} cannot all hold together`);
}
