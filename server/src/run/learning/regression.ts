/**
 * Generated spaces of real-valued hypotheses: `linear(d ~ x1 + x2) noise normal` (Mitchell §6.4:
 * with Normal noise h_ML is the least-squares fit) and `logistic(d ~ x1 + x2)` (§6.5: h_ML
 * maximises the cross entropy; found by Newton steps, or with `method: gradient` by eq. 6.15's
 * gradient ascent: the same optimum). The weights carry a flat prior, so h_MAP = h_ML.
 */
import type * as A from '../../language/ast.js';
import { leastSquares } from '../../engine/hypotheses/leastSquares.js';
import {
  logisticNewton,
  sigmoidGradientAscent,
  type GradientOptions as SigmoidGradientOptions,
} from '../../engine/hypotheses/sigmoidUnit.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { LeastSquaresResult, LogisticResult } from '../../protocol/runResult.js';
import { modelNumbers } from '../modelInputs.js';
import { fmt } from './queryParts.js';

export function isRegressionSpace(space: A.HypothesesDecl): boolean {
  const callee = space.generator?.call.callee.text;
  return callee === 'linear' || callee === 'logistic';
}

function formulaOf(space: A.HypothesesDecl): { response: string; terms: string[] } {
  const call = space.generator!.call;
  const positional = call.args.filter((a) => !a.name);
  const formula = positional[0]?.value;
  if (positional.length !== 1 || formula?.kind !== 'formula') {
    throw new CompileError(`${call.callee.text}(d ~ x1 + x2): one formula`, call.range);
  }
  const name = (e: A.Expr) => {
    if (e.kind !== 'ref' || e.member || e.columns)
      throw new CompileError('a formula names columns of the data', e.range);
    return e.name.text;
  };
  return { response: name(formula.response), terms: formula.terms.map(name) };
}

export async function regressionAnswer(
  ctx: HandlerContext,
  form: string,
  space: A.HypothesesDecl,
  given: readonly A.Assignment[],
): Promise<HandlerOutput> {
  const callee = space.generator!.call.callee.text;
  if (form !== 'ml' && form !== 'map')
    throw new CompileError(`${callee}(…) hypotheses answer ml (and map, the same under their flat prior), not ${form}`);
  const data = given.length === 1 && !given[0]!.value ? given[0]!.variable : undefined;
  if (!data || !ctx.symbols.data.has(data.text))
    throw new CompileError(`fitting ${callee}(…) needs a data set: 'given D'`, given[0]?.range);
  const { response, terms } = formulaOf(space);
  const columns = [response, ...terms].map((text): A.Name => ({ kind: 'name', text, range: data.range }));
  const numbers = await modelNumbers(ctx, { kind: 'ref', name: data, columns, range: data.range });
  const d = Array.from({ length: numbers.rows }, (_, r) => numbers.values[r * numbers.dims]!);
  const x = Array.from({ length: numbers.rows }, (_, r) =>
    Array.from(numbers.values.subarray(r * numbers.dims + 1, (r + 1) * numbers.dims)),
  );
  const base = { range: ctx.statement.range, source: ctx.source };
  if (callee === 'linear') {
    if (space.noise && (space.noise.kind !== 'name' || space.noise.text !== 'normal'))
      throw new CompileError('least squares is h_ML under `noise normal`', space.noise.range);
    const fit = leastSquares(terms, x, d);
    const result: LeastSquaresResult = {
      kind: 'leastSquares',
      ...base,
      ...fit,
      headline: `${response} = ${equation(fit.names, fit.coefficients)} · SSE ${fmt(fit.sse)}`,
    };
    return { results: [result], diagnostics: [] };
  }
  const how = sigmoidOptions(space.generator!.call);
  const fit =
    how.method === 'gradient'
      ? sigmoidGradientAscent(terms, x, d, how.options)
      : logisticNewton(terms, x, d, how.options);
  const result: LogisticResult = {
    kind: 'logistic',
    ...base,
    ...fit,
    method: how.method,
    headline: `P(${response}) = σ(${equation(fit.names, fit.weights)}) · ${how.method}, ${fit.iterations} iterations`,
  };
  const diagnostics = fit.note
    ? [{ severity: 'warning' as const, code: 'not-converged', message: fit.note, range: ctx.statement.range }]
    : [];
  return { results: [result], diagnostics };
}

/**
 * `logistic(d ~ x, method: gradient, seed: 1, rate: η, iterations: N, tolerance: t)`: Newton's
 * method (the default; from w = 0) or Mitchell's gradient ascent, eq. 6.15 (from seeded small
 * random weights; η defaults to 4/λ_max(XᵀX), the largest step that always climbs).
 */
function sigmoidOptions(call: A.Call): { method: 'newton' | 'gradient'; options: SigmoidGradientOptions } {
  const arg = (name: string) => call.args.find((a) => a.name?.text === name)?.value;
  const number = (name: string, check: (x: number) => boolean, what: string): number | undefined => {
    const e = arg(name);
    if (e === undefined) return undefined;
    if (e.kind !== 'number' || !check(e.value)) throw new CompileError(`${name}: is ${what}`, e.range);
    return e.value;
  };
  const m = arg('method');
  const method = m === undefined ? 'newton' : m.kind === 'ref' ? m.name.text : '';
  if (method !== 'newton' && method !== 'gradient') throw new CompileError('method: is newton or gradient', m!.range);
  const seed = number('seed', (x) => Number.isInteger(x) && x >= 0, 'a whole number ≥ 0');
  const rate = number('rate', (x) => x > 0, 'a positive number');
  if (method === 'newton' && (seed !== undefined || rate !== undefined)) {
    const given = seed !== undefined ? 'seed' : 'rate';
    const message = `Newton's method starts from w = 0 and takes no ${given}: use method: gradient`;
    throw new CompileError(message, arg(given)!.range);
  }
  const maxIterations = number('iterations', (x) => Number.isInteger(x) && x >= 1, 'a whole number ≥ 1');
  const tolerance = number('tolerance', (x) => x > 0, 'a positive number');
  return {
    method,
    options: {
      seed: seed ?? 1,
      ...(rate !== undefined ? { learningRate: rate } : {}),
      ...(maxIterations !== undefined ? { maxIterations } : {}),
      ...(tolerance !== undefined ? { tolerance } : {}),
    },
  };
}

function equation(names: readonly string[], weights: readonly number[]): string {
  // The constant term is `intercept` (least squares) or `w0` (the sigmoid unit's bias weight, first).
  const constant = (n: string, i: number) => n === 'intercept' || (i === 0 && n === 'w0');
  // Terms after the first keep their sign outside: `-1.443 + 0.7215·x − 0.593·x2`, not `+ -0.593·x2`.
  return names
    .map((n, i) => {
      const w = weights[i]!;
      const term = (x: number) => (constant(n, i) ? fmt(x) : `${fmt(x)}·${n}`);
      if (i === 0) return term(w);
      return w < 0 ? ` − ${term(-w)}` : ` + ${term(w)}`;
    })
    .join('');
}
