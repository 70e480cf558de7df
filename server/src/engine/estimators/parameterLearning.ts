/**
 * One summary for a learned probability parameter with a conjugate prior (Poole §10.2.1): a
 * Boolean parameter is the two-value case (Beta), a K-valued one uses the Dirichlet; its pseudo-
 * counts come from Beta/Dirichlet priors, experts or an m-estimate (m p_i pseudo-counts each).
 */
import { EngineError } from '../engineError.js';
import { dirichletInterval, dirichletPosterior, dirichletProbabilityBetween } from './dirichlet.js';

export interface ParameterQuery {
  /** Central credible interval level, e.g. 0.95. */
  level?: number;
  /** P(lower ≤ θ_value ≤ upper). */
  between?: { value: string; lower: number; upper: number };
}

export interface ParameterSummary {
  values: string[];
  /** Pseudo-counts of the prior, one per value. */
  prior: number[];
  counts: number[];
  /** Posterior Dirichlet (Beta for two values) parameters: prior + counts. */
  posterior: number[];
  mean: number[];
  /** MAP estimate; absent when the density has no unique maximum (e.g. uniform). */
  mode?: number[];
  interval?: { level: number; bounds: [number, number][] };
  probability?: { value: string; lower: number; upper: number; p: number };
}

export function parameterPosterior(
  values: readonly string[],
  prior: readonly number[],
  counts: readonly number[],
  query: ParameterQuery = {},
): ParameterSummary {
  if (values.length !== prior.length)
    throw new EngineError(`${prior.length} pseudo-counts for ${values.length} values`);
  const d = dirichletPosterior(prior, counts);
  const summary: ParameterSummary = {
    values: [...values],
    prior: [...prior],
    counts: [...counts],
    posterior: d.alphas,
    mean: d.mean,
  };
  if (d.mode) summary.mode = d.mode;
  if (query.level !== undefined) {
    summary.interval = {
      level: query.level,
      bounds: values.map((_, i) => dirichletInterval(d.alphas, i, query.level!)),
    };
  }
  if (query.between) {
    const { value, lower, upper } = query.between;
    const i = values.indexOf(value);
    if (i < 0) throw new EngineError(`'${value}' is not one of ${values.join(', ')}`);
    summary.probability = { value, lower, upper, p: dirichletProbabilityBetween(d.alphas, i, lower, upper) };
  }
  return summary;
}
