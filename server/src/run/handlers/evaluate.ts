/**
 * `query evaluate C split 2/3 { seed }` (seeded random split: the fraction trains), `folds k
 * { seed }` (k-fold cross-validation) or `on D` (trained on all its data, tested on D).
 * The value is the accuracy. Without split, folds or on: split 2/3, seed 1.
 */
import type * as A from '../../language/ast.js';
import type { EvaluationPlan } from '../../engine/classifiers/evaluation.js';
import { type Handler } from '../handlerContext.js';
import { evaluateOn, evaluateOwn, evaluationAnswer } from '../learning/evaluationQueries.js';
import { queryOf, seedOption } from '../learning/queryParts.js';
import { crossValidateNetwork } from './evaluateNetwork.js';

export const evaluateHandler: Handler = async (ctx) => {
  const query = queryOf<A.EvaluateQuery>(ctx);
  if (query.on && query.folds) return crossValidateNetwork(ctx, query);
  if (query.on) {
    const { evaluation, diagnostics } = await evaluateOn(ctx, query.classifier, query.on);
    return evaluationAnswer(ctx, query.classifier, evaluation, `on ${query.on.text}`, diagnostics);
  }
  const seed = seedOption(query.options);
  const plan: EvaluationPlan = query.folds
    ? { kind: 'folds', k: query.folds.value, seed }
    : { kind: 'split', trainFraction: query.split?.value ?? 2 / 3, seed };
  const method =
    plan.kind === 'folds' ? `${plan.k} folds, seed ${seed}` : `split ${query.split?.text ?? '2/3'}, seed ${seed}`;
  return evaluationAnswer(ctx, query.classifier, await evaluateOwn(ctx, query.classifier, plan), method);
};
