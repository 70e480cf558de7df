/**
 * `query accuracy C [on D]`: the fraction of D (default: the training examples themselves, i.e.
 * the training accuracy) that the classifier trained on all its data gets right.
 */
import type * as A from '../../language/ast.js';
import { type Handler } from '../handlerContext.js';
import { evaluateOn, evaluateOnTraining, evaluationAnswer } from '../learning/evaluationQueries.js';
import { queryOf } from '../learning/queryParts.js';

export const accuracyHandler: Handler = async (ctx) => {
  const query = queryOf<A.AccuracyQuery>(ctx);
  if (query.on)
    return evaluationAnswer(
      ctx,
      query.classifier,
      await evaluateOn(ctx, query.classifier, query.on),
      `on ${query.on.text}`,
    );
  const evaluation = await evaluateOnTraining(ctx, query.classifier);
  return evaluationAnswer(ctx, query.classifier, evaluation, 'on its training data');
};
