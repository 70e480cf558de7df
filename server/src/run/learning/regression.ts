/**
 * Generated spaces of real-valued hypotheses: `linear(d ~ x1 + x2) noise normal` (Mitchell §6.4:
 * with Normal noise h_ML is the least-squares fit) and `logistic(d ~ x1 + x2)` (§6.5: h_ML
 * maximises the cross entropy; found by Newton steps, which reach the optimum of eq. 6.15's
 * gradient ascent). The weights carry a flat prior, so h_MAP = h_ML.
 */
import type * as A from '../../language/ast.js';
import { leastSquares } from '../../engine/hypotheses/leastSquares.js';
import { logisticNewton } from '../../engine/hypotheses/sigmoidUnit.js';
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
  const formula = call.args[0]?.value;
  if (call.args.length !== 1 || formula?.kind !== 'formula')
    throw new CompileError(`${call.callee.text}(d ~ x1 + x2): one formula`, call.range);
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
  const fit = logisticNewton(terms, x, d);
  const result: LogisticResult = {
    kind: 'logistic',
    ...base,
    ...fit,
    method: 'newton',
    headline: `P(${response}) = σ(${equation(fit.names, fit.weights)})`,
  };
  const diagnostics = fit.note
    ? [{ severity: 'warning' as const, code: 'not-converged', message: fit.note, range: ctx.statement.range }]
    : [];
  return { results: [result], diagnostics };
}

function equation(names: readonly string[], weights: readonly number[]): string {
  return names.map((n, i) => (n === 'intercept' ? fmt(weights[i]!) : `${fmt(weights[i]!)}·${n}`)).join(' + ');
}
