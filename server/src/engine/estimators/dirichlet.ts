/**
 * The Dirichlet distribution, conjugate prior of a K-valued parameter vector θ (Poole §10.2.1):
 * Dirichlet(α_1..α_K) + counts n_i → Dirichlet(α_i + n_i). Each θ_i is marginally
 * Beta(α_i, α_0 − α_i), which gives its intervals.
 */
import { EngineError } from '../engineError.js';
import { betaInterval, betaProbabilityBetween } from './betaDistribution.js';

export interface DirichletSummary {
  alphas: number[];
  mean: number[];
  /** MAP estimate; undefined when some α_i < 1 (density unbounded) or all α_i = 1 (flat). */
  mode: number[] | undefined;
}

export function dirichletSummary(alphas: readonly number[]): DirichletSummary {
  if (alphas.length < 2) throw new EngineError('a Dirichlet needs at least two values');
  if (!alphas.every((a) => a > 0)) {
    throw new EngineError(`Dirichlet(${alphas.join(', ')}) needs every count positive (add data or pseudo-counts)`);
  }
  const total = alphas.reduce((s, a) => s + a, 0);
  // Dirichlet(1e308, 1e308) has means 1/2, but the total overflows: they came out 0.
  if (!Number.isFinite(total)) throw new EngineError(`Dirichlet(${alphas.join(', ')}): the counts sum past 1.8e308`);
  return { alphas: [...alphas], mean: alphas.map((a) => a / total), mode: dirichletMode(alphas) };
}

function dirichletMode(alphas: readonly number[]): number[] | undefined {
  if (alphas.some((a) => a < 1) || alphas.every((a) => a === 1)) return undefined;
  // Maximise Σ (α_i − 1) ln θ_i on the simplex: components with α_i = 1 go to 0.
  const excess = alphas.reduce((s, a) => s + (a - 1), 0);
  return alphas.map((a) => (a - 1) / excess);
}

export function dirichletPosterior(prior: readonly number[], counts: readonly number[]): DirichletSummary {
  if (prior.length !== counts.length)
    throw new EngineError(`${prior.length} pseudo-counts for ${counts.length} values`);
  if (!counts.every((n) => n >= 0)) throw new EngineError('counts must be non-negative');
  return dirichletSummary(prior.map((a, i) => a + counts[i]!));
}

function marginal(alphas: readonly number[], i: number): [number, number] {
  // The others' sum, not total − α_i: with (1e-300, 1), 1 + 1e-300 − 1 is 0, and Beta(1, 0) no distribution.
  const rest = alphas.reduce((s, a, j) => (j === i ? s : s + a), 0);
  return [alphas[i]!, rest];
}

/** Central credible interval for θ_i. */
export function dirichletInterval(alphas: readonly number[], i: number, level: number): [number, number] {
  const [a, b] = marginal(alphas, i);
  return betaInterval(a, b, level);
}

/** P(lower ≤ θ_i ≤ upper). */
export function dirichletProbabilityBetween(
  alphas: readonly number[],
  i: number,
  lower: number,
  upper: number,
): number {
  const [a, b] = marginal(alphas, i);
  return betaProbabilityBetween(a, b, lower, upper);
}
