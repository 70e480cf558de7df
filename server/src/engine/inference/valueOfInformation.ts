/**
 * Which unobserved variable is worth observing next, for a chosen target T (Jensen & Nielsen
 * §12.1 "value of information" with entropy as the value function; GeNIe's and Netica's
 * "sensitivity to findings"): for each unobserved X ≠ T, the mutual information
 *
 *   I(T; X | e) = Σ_{t,x} P(t, x | e) · ln( P(t, x | e) / (P(t | e) · P(x | e)) )
 *
 * which is the expected reduction of T's entropy, H(T | e) − Σ_x P(x | e) · H(T | x, e), from
 * observing X. In nats (natural logarithms); divide by ln 2 for bits. Each pair's joint comes
 * from variable elimination on the pair (pruned to its ancestral set), so a ranking over n
 * variables is n small eliminations; each is checked against `maxEntries` before it runs.
 */
import type { BayesianNetwork } from '../network.js';
import { EngineError } from '../engineError.js';
import type { CancelSignal } from '../cancellation.js';
import { variableElimination } from './variableElimination.js';
import type { Evidence } from './junctionTree.js';

export interface InformationValue {
  variable: number;
  /** I(T; X | e) in nats: the expected entropy reduction of the target from observing X. */
  nats: number;
}

export interface InformationRanking {
  target: number;
  /** H(T | e) in nats: the most any observation can remove. */
  entropy: number;
  /** Every unobserved variable but the target, most informative first (ties by index). */
  ranking: InformationValue[];
}

/** Shannon entropy of a distribution in nats (0 · ln 0 = 0). */
export function entropy(p: ArrayLike<number>): number {
  let h = 0;
  for (let i = 0; i < p.length; i++) if (p[i]! > 0) h -= p[i]! * Math.log(p[i]!);
  return h;
}

/**
 * I(A; B) in nats from a joint table over [A, B] (B varies fastest), `ka` × `kb` entries summing
 * to 1. Never negative: rounding below zero is clamped.
 */
export function mutualInformation(joint: ArrayLike<number>, ka: number, kb: number): number {
  const pa = new Float64Array(ka),
    pb = new Float64Array(kb);
  for (let a = 0; a < ka; a++)
    for (let b = 0; b < kb; b++) {
      const p = joint[a * kb + b]!;
      pa[a]! += p;
      pb[b]! += p;
    }
  let mi = 0;
  for (let a = 0; a < ka; a++)
    for (let b = 0; b < kb; b++) {
      const p = joint[a * kb + b]!;
      if (p > 0) mi += p * Math.log(p / (pa[a]! * pb[b]!));
    }
  return Math.max(0, mi);
}

export function informationRanking(
  net: BayesianNetwork,
  target: number,
  evidence: Evidence,
  options: { signal?: CancelSignal; maxEntries?: number } = {},
): InformationRanking {
  if (!(target >= 0 && target < net.variables.length)) throw new EngineError(`no variable ${target}`);
  if (evidence.has(target))
    throw new EngineError(`'${net.variables[target]!.name}' is observed: nothing is left to learn about it`);
  const prior = variableElimination(net, [target], evidence, options.signal, options.maxEntries);
  const kt = net.variables[target]!.states.length;
  const ranking: InformationValue[] = [];
  for (let x = 0; x < net.variables.length; x++) {
    if (x === target || evidence.has(x)) continue;
    const { factor } = variableElimination(net, [target, x], evidence, options.signal, options.maxEntries);
    ranking.push({ variable: x, nats: mutualInformation(factor.values, kt, net.variables[x]!.states.length) });
  }
  ranking.sort((a, b) => b.nats - a.nats || a.variable - b.variable);
  return { target, entropy: entropy(prior.factor.values), ranking };
}
