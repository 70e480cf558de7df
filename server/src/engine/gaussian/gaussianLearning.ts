/**
 * Parameters of linear Gaussian and conditional linear Gaussian (CLG) families from complete
 * data. A continuous child with continuous parents Y and discrete parents D has, per configuration
 * d of D, X | y, d ~ N(b0_d + Σ b_jd y_j, σ²_d): one regression per configuration, fitted on the
 * rows showing it (Lauritzen's CG model; bnlearn's bn.fit).
 *  - Maximum likelihood: b by least squares (Mitchell §6.4: least squares is the ML hypothesis
 *    under normal noise), σ² = RSS / n. bnlearn's bn.fit reports the residual standard deviation
 *    sqrt(RSS / (n − p − 1)) instead (unbiased for σ², not the ML estimate): the two differ by the
 *    factor n / (n − p − 1), e.g. 1.0012 for 6 parents and 5,000 rows.
 *  - Conjugate prior (normal-inverse-gamma): σ² ~ InvGamma(a, b) and, given σ², each slope
 *    b_j ~ N(0, σ²/λ) independently, with a flat prior on the intercept. The estimates are the
 *    posterior means: on the rows centred (x̃ = x − x̄, ỹ = y − ȳ), b = (X̃ᵀX̃ + λI)⁻¹ X̃ᵀỹ (ridge),
 *    b0 = ȳ − bᵀx̄, and E[σ²] = b_n / (a_n − 1) with a_n = a + (n − 1)/2,
 *    b_n = b + ½ (ỹᵀỹ − bᵀX̃ᵀỹ) (the flat intercept costs one row). As λ, a, b → 0 the
 *    coefficients tend to least squares' and the variance to RSS / (n − 3).
 * Rows with a value missing in the family are left out (EM, gaussianEm.ts, uses them instead).
 */
import { EngineError } from '../engineError.js';
import { choleskySolve } from '../math/linearAlgebra.js';
import { regress } from './regression.js';
import { completeRows, configurations, continuousValues, isContinuous, type HybridDataset } from './hybridData.js';

export interface GaussianRegression {
  intercept: number;
  /** One per continuous parent, in the family's order. */
  coefficients: number[];
  variance: number;
  /** Rows this configuration was fitted on. */
  rows: number;
}

export interface ClgFamily {
  child: number;
  continuousParents: number[];
  discreteParents: number[];
  /** One per configuration of the discrete parents (the first parent's level slowest). */
  regressions: GaussianRegression[];
}

/** Normal-inverse-gamma hyperparameters: slopes' prior precision factor λ, and σ² ~ InvGamma(a, b). */
export interface NormalInverseGammaPrior {
  lambda: number;
  a: number;
  b: number;
}

export interface GaussianFitOptions {
  prior?: NormalInverseGammaPrior;
}

/** The family of continuous `child` with `parents` (discrete and continuous, any order). */
export function fitGaussianFamily(
  data: HybridDataset,
  child: number,
  parents: readonly number[],
  options: GaussianFitOptions = {},
): ClgFamily {
  const name = (v: number) => data.columns[v]!.name;
  if (!isContinuous(data, child)) throw new EngineError(`'${name(child)}' is discrete: it has no regression`);
  const continuousParents = parents.filter((p) => isContinuous(data, p));
  const discreteParents = parents.filter((p) => !isContinuous(data, p));
  const rows = completeRows(data, [child, ...parents]);
  const { config, count } = configurations(data, discreteParents);
  const byConfig: number[][] = Array.from({ length: count }, () => []);
  for (const r of rows) byConfig[config[r]!]!.push(r);
  const y = continuousValues(data, child);
  const xs = continuousParents.map((p) => continuousValues(data, p));
  const regressions = byConfig.map((rs, c) => {
    const where = () => configurationText(data, discreteParents, c);
    if (options.prior) return posteriorMean(y, xs, rs, options.prior, () => `${name(child)}${where()}`);
    const fit = regress(y, xs, rs);
    const variance = fit.rss / fit.rows;
    if (!(variance > 0)) {
      throw new EngineError(
        `${name(child)}${where()}: ${rs.length} complete rows leave no residual variance ` +
          `(a regression on ${xs.length} parents needs more rows, not all on one line)`,
      );
    }
    return { intercept: fit.intercept, coefficients: [...fit.coefficients], variance, rows: rs.length };
  });
  return { child, continuousParents, discreteParents, regressions };
}

/** " given D=a, E=b" for configuration c of the discrete parents ("" without them). */
export function configurationText(data: HybridDataset, discrete: readonly number[], c: number): string {
  if (!discrete.length) return '';
  const parts: string[] = [];
  for (let i = discrete.length - 1; i >= 0; i--) {
    const col = data.columns[discrete[i]!]!;
    const levels = col.kind === 'discrete' ? col.levels : [];
    parts.unshift(`${col.name}=${levels[c % levels.length]}`);
    c = Math.floor(c / levels.length);
  }
  return ` given ${parts.join(', ')}`;
}

/** The posterior-mean estimates under the normal-inverse-gamma prior: see the head comment. */
function posteriorMean(
  y: Float64Array,
  xs: readonly Float64Array[],
  rows: readonly number[],
  prior: NormalInverseGammaPrior,
  where: () => string,
): GaussianRegression {
  const n = rows.length,
    p = xs.length;
  const an = prior.a + (n - 1) / 2;
  if (n === 0 || !(an > 1)) {
    throw new EngineError(
      `${where()}: ${n} rows and a = ${prior.a} leave the posterior mean of the variance undefined`,
    );
  }
  const mean = (v: Float64Array) => rows.reduce((s, r) => s + v[r]!, 0) / n;
  const ybar = mean(y),
    xbar = xs.map(mean);
  const A = new Float64Array(p * p),
    c = new Float64Array(p);
  let yy = 0;
  for (const r of rows) {
    const dy = y[r]! - ybar;
    yy += dy * dy;
    for (let i = 0; i < p; i++) {
      const di = xs[i]![r]! - xbar[i]!;
      c[i]! += di * dy;
      for (let j = 0; j <= i; j++) A[i * p + j]! += di * (xs[j]![r]! - xbar[j]!);
    }
  }
  for (let i = 0; i < p; i++) {
    A[i * p + i]! += prior.lambda;
    for (let j = 0; j < i; j++) A[j * p + i] = A[i * p + j]!;
  }
  const b = p ? choleskySolve(A, p, c) : new Float64Array(0);
  const bn = prior.b + 0.5 * (yy - b.reduce((s, bi, i) => s + bi * c[i]!, 0));
  const intercept = b.reduce((s, bi, i) => s - bi * xbar[i]!, ybar);
  return { intercept, coefficients: [...b], variance: bn / (an - 1), rows: n };
}
