/** `query optimal V over H`: the Bayes optimal classification argmax_v Σ_h P(v|h) P(h|D). */
import type * as A from '../../language/ast.js';
import { bayesOptimal } from '../../engine/hypotheses/bayesOptimal.js';
import type { OptimalResult } from '../../protocol/runResult.js';
import { type Handler } from '../handlerContext.js';
import { hypothesisPredictions } from '../learning/optimal.js';
import { fmt, queryOf } from '../learning/queryParts.js';

export const optimalHandler: Handler = async (ctx) => {
  const query = queryOf<A.OptimalQuery>(ctx);
  const { hypotheses, values } = await hypothesisPredictions(ctx, query);
  const answer = bayesOptimal(hypotheses, values);
  const p = answer.values.find((v) => v.value === answer.optimal)!.probability;
  const result: OptimalResult = {
    kind: 'optimal',
    range: ctx.statement.range,
    source: ctx.source,
    ...answer,
    headline: `${answer.optimal} · ${fmt(p)} (h_MAP ${answer.map} says ${answer.mapPrediction})`,
  };
  return { results: [result], diagnostics: [], value: answer.optimal };
};
