/**
 * `query interval 0.95 P(X = x) given D`: the central credible interval of the parameter.
 * Its value (for expect) is the interval's width; the bounds are in the result.
 */
import type * as A from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { parameterAnswer, parameterName, parameterSummary } from '../learning/parameters.js';

export const intervalHandler: Handler = async (ctx) => {
  const query = queryOf<A.IntervalQuery>(ctx);
  const level = query.level.value;
  if (!(level > 0 && level < 1))
    throw new CompileError('the credible level is a probability between 0 and 1, e.g. 0.95', query.level.range);
  const { ref, summary, index } = await parameterSummary(ctx, query.prob, query.given, { level });
  const [lo, hi] = summary.interval!.bounds[index]!;
  return parameterAnswer(
    ctx,
    ref,
    summary,
    `${parameterName(ref)} ∈ [${fmt(lo)}, ${fmt(hi)}] (${level * 100}%)`,
    hi - lo,
  );
};
