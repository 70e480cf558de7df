/**
 * BIC of Gaussian (`bic-g`) and conditional Gaussian (`bic-cg`) networks, on bnlearn's scale:
 * the log-likelihood minus (k/2)·ln N, higher is better, family by family (decomposable), so the
 * discrete searches' hill climbing runs on it unchanged (a FamilyScores, hillClimb.ts).
 * The numbers are bnlearn 4.9's (src/scores/gaussian.loglikelihood.c, cg.loglikelihood.c):
 *  - a continuous child with p continuous parents and discrete parents of q configurations in all:
 *    per configuration c with n_c rows, the least-squares fit and the log-likelihood
 *    Σ log φ(x; ŷ, s_c) with s_c² = RSS_c / (n_c − p − 1) — bnlearn's residual standard deviation,
 *    not the ML RSS_c / n_c — that is −(n_c/2) ln(2π s_c²) − (n_c − p − 1)/2; k = q (p + 2)
 *    (intercept, p coefficients and a standard deviation per configuration). A configuration
 *    with n_c ≤ p + 1 rows, or s_c below √ε, makes the model singular: −∞. One with no row adds 0.
 *  - a discrete child with discrete parents: the multinomial log-likelihood, k = q (r − 1), as the
 *    discrete `bic`. A discrete child with a continuous parent is not a CG network: −∞ (the
 *    searches forbid such arcs beforehand, see clgForbidden).
 * N is the number of rows of the data; rows missing a value of the family are left out of its fit.
 */
import { EngineError } from '../engineError.js';
import type { FamilyScores } from '../structure/structureScore.js';
import { regress } from './regression.js';
import { completeRows, configurations, continuousValues, isContinuous, type HybridDataset } from './hybridData.js';

export type GaussianScoreName = 'bic-g' | 'bic-cg';

const MACHINE_TOL = Math.sqrt(Number.EPSILON);

/** The family's log-likelihood and its parameter count k, as bnlearn counts them. */
export function familyLikelihood(
  data: HybridDataset,
  child: number,
  parents: readonly number[],
): { logLikelihood: number; parameters: number } {
  const discreteParents = parents.filter((p) => !isContinuous(data, p));
  const rows = completeRows(data, [child, ...parents]);
  const { config, count } = configurations(data, discreteParents);
  if (!isContinuous(data, child)) {
    if (discreteParents.length < parents.length) return { logLikelihood: -Infinity, parameters: 0 };
    return discreteLikelihood(data, child, rows, config, count);
  }
  const continuousParents = parents.filter((p) => isContinuous(data, p));
  const y = continuousValues(data, child);
  const xs = continuousParents.map((p) => continuousValues(data, p));
  const m = xs.length + 1;
  const byConfig: number[][] = Array.from({ length: count }, () => []);
  for (const r of rows) byConfig[config[r]!]!.push(r);
  let logLikelihood = 0;
  for (const rs of byConfig) {
    const n = rs.length;
    if (n === 0) continue;
    if (n <= m) return { logLikelihood: -Infinity, parameters: count * (m + 1) };
    const s2 = regress(y, xs, rs).rss / (n - m);
    if (Math.sqrt(s2) < MACHINE_TOL) return { logLikelihood: -Infinity, parameters: count * (m + 1) };
    logLikelihood += -0.5 * n * Math.log(2 * Math.PI * s2) - 0.5 * (n - m);
  }
  return { logLikelihood, parameters: count * (m + 1) };
}

function discreteLikelihood(
  data: HybridDataset,
  child: number,
  rows: Int32Array,
  config: Int32Array,
  q: number,
): { logLikelihood: number; parameters: number } {
  const col = data.columns[child]!;
  if (col.kind !== 'discrete') throw new EngineError(`'${col.name}' is continuous`);
  const r = col.levels.length;
  const counts = new Float64Array(q * r),
    totals = new Float64Array(q);
  for (const i of rows) {
    counts[config[i]! * r + col.codes[i]!]!++;
    totals[config[i]!]!++;
  }
  let logLikelihood = 0;
  for (let j = 0; j < q; j++) {
    for (let k = 0; k < r; k++) {
      const c = counts[j * r + k]!;
      if (c > 0) logLikelihood += c * Math.log(c / totals[j]!);
    }
  }
  return { logLikelihood, parameters: q * (r - 1) };
}

/** BIC of one family on bnlearn's scale: see the head comment. */
export function gaussianFamilyScore(data: HybridDataset, child: number, parents: readonly number[]): number {
  const { logLikelihood, parameters } = familyLikelihood(data, child, parents);
  return logLikelihood - 0.5 * Math.log(Math.max(data.rowCount, 1)) * parameters;
}

/** Checks the data fit the score: `bic-g` wants every column continuous. */
export function checkScoreData(data: HybridDataset, score: GaussianScoreName): void {
  const discrete = data.columns.filter((c) => c.kind === 'discrete').map((c) => c.name);
  if (score === 'bic-g' && discrete.length) {
    throw new EngineError(
      `bic-g scores Gaussian networks, but ${discrete.map((d) => `'${d}'`).join(', ')} ` +
        `${discrete.length > 1 ? 'are' : 'is'} not numeric: use bic-cg for a conditional Gaussian network`,
    );
  }
}

/** Arcs a CG network may not have: continuous → discrete, as [from, to]. */
export function clgForbidden(data: HybridDataset): Array<[number, number]> {
  const arcs: Array<[number, number]> = [];
  data.columns.forEach((from, f) =>
    data.columns.forEach((to, t) => {
      if (from.kind === 'continuous' && to.kind === 'discrete') arcs.push([f, t]);
    }),
  );
  return arcs;
}

/** Family scores memoised by (child, parent set), for the searches. */
export class GaussianScoreCache implements FamilyScores {
  private readonly cache: Array<Map<string, number>>;
  constructor(readonly data: HybridDataset) {
    this.cache = data.columns.map(() => new Map());
  }

  family(child: number, parents: readonly number[]): number {
    const key = [...parents].sort((a, b) => a - b).join();
    const cache = this.cache[child]!;
    let s = cache.get(key);
    if (s === undefined) {
      s = gaussianFamilyScore(this.data, child, parents);
      cache.set(key, s);
    }
    return s;
  }

  familyWith(child: number, parents: readonly number[], x: number): number {
    return this.family(child, [...parents, x]);
  }

  prefetch(): void {}

  total(parents: readonly (readonly number[])[]): number {
    return parents.reduce((s, ps, v) => s + this.family(v, ps), 0);
  }
}
