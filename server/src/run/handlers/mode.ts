/** `query mode P(X = x) given D`: the MAP value of the parameter; none when the density has no single peak. */
import type * as A from '../../language/ast.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { parameterAnswer, parameterName, parameterSummary } from '../learning/parameters.js';

export const modeHandler: Handler = async (ctx) => {
  const query = queryOf<A.MomentQuery>(ctx);
  const { ref, summary, index } = await parameterSummary(ctx, query.prob, query.given);
  const mode = summary.mode?.[index];
  if (mode === undefined) {
    const output = parameterAnswer(ctx, ref, summary, `${parameterName(ref)} has no single mode`);
    output.diagnostics.push({
      severity: 'warning',
      code: 'no-mode',
      message: `the posterior Dirichlet(${summary.posterior.join(', ')}) has no single maximum`,
      range: ctx.statement.range,
    });
    return output;
  }
  return parameterAnswer(ctx, ref, summary, `mode ${parameterName(ref)} = ${fmt(mode)}`, mode);
};
