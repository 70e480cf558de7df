/** `query likelihood h given D`: P(D|h) of one hypothesis (a tree, or an explicit h with tables P(X | H)), also in bits. */
import type * as A from '../../language/ast.js';
import { bitsOfLogProbability } from '../../engine/hypotheses/mdl.js';
import type { LikelihoodResult } from '../../protocol/runResult.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { hypothesisEntry, scoredHypotheses } from '../learning/hypothesisSpace.js';

export const likelihoodHandler: Handler = async (ctx) => {
  const query = queryOf<A.ScoreQuery>(ctx);
  const { space, index } = hypothesisEntry(ctx, query.model);
  const given: A.Assignment = { kind: 'assignment', variable: query.given, range: query.given.range };
  const scored = await scoredHypotheses(ctx, space, [given]);
  const logLikelihood = scored.logLikelihoods[index]!;
  const likelihood = Math.exp(logLikelihood);
  const bits = bitsOfLogProbability(logLikelihood);
  const result: LikelihoodResult = {
    kind: 'likelihood',
    range: ctx.statement.range,
    source: ctx.source,
    hypothesis: query.model.text,
    likelihood,
    ...(Number.isFinite(bits) ? { bits } : {}),
    headline: `P(${query.given.text} | ${query.model.text}) = ${fmt(likelihood)}`,
  };
  return { results: [result], diagnostics: [], value: likelihood };
};
