/** `query mean P(X = x) given D`: the posterior mean of the parameter, (α_x + n_x) / Σ(α + n). */
import type * as A from '../../language/ast.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { parameterAnswer, parameterName, parameterSummary } from '../learning/parameters.js';

export const meanHandler: Handler = async (ctx) => {
  const query = queryOf<A.MomentQuery>(ctx);
  const { ref, summary, index } = await parameterSummary(ctx, query.prob, query.given);
  const mean = summary.mean[index]!;
  return parameterAnswer(ctx, ref, summary, `mean ${parameterName(ref)} = ${fmt(mean)}`, mean);
};
