/** `query P(a <= P(X = x) <= b) given D`: the posterior probability that the parameter lies in [a, b]. */
import type * as A from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { parameterAnswer, parameterName, parameterSummary } from '../learning/parameters.js';

export const boundHandler: Handler = async (ctx) => {
  const query = queryOf<A.BoundQuery>(ctx);
  const lower = query.lower.value,
    upper = query.upper.value;
  // The density is continuous: < and <= give the same probability.
  if (!(lower >= 0 && lower <= upper && upper <= 1))
    throw new CompileError('the bounds need 0 ≤ lower ≤ upper ≤ 1', query.range);
  const { ref, summary } = await parameterSummary(ctx, query.prob, query.given, {
    between: { value: '', lower, upper },
  });
  const p = summary.probability!.p;
  return parameterAnswer(ctx, ref, summary, `P(${fmt(lower)} ≤ ${parameterName(ref)} ≤ ${fmt(upper)}) = ${fmt(p)}`, p);
};
