/** `query estimate M.mean1`: one parameter of a mixture learnt earlier in the run (value = the number). */
import type { QueryStmt, ExpectStmt, EstimateQuery } from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import { type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { estimateOf, learnedMixture } from '../mixtures.js';
import type { EstimateResult } from '../../protocol/runResult.js';

function estimate(ctx: HandlerContext): HandlerOutput {
  const q = (ctx.statement as QueryStmt | ExpectStmt).query as EstimateQuery;
  if (ctx.symbols.globals.get(q.model.text)?.kind !== 'mixture') {
    throw new CompileError(
      `estimate reads a learnt mixture's parameters; for '${q.model.text}' ask P(…) in ${q.model.text}`,
      q.model.range,
    );
  }
  const value = estimateOf(learnedMixture(ctx, q.model), q.parameter);
  const result: EstimateResult = {
    kind: 'estimate',
    model: q.model.text,
    parameter: q.parameter.text,
    value,
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${q.model.text}.${q.parameter.text} = ${Number(value.toPrecision(6))}`,
  };
  return { results: [result], diagnostics: [], value };
}

export const estimateHandler: Handler = estimate;
