/** Shared by `evaluate`, `accuracy` and `learning_curve`: the result entry of an evaluation. */
import type * as A from '../../language/ast.js';
import { evaluate, type Evaluation, type EvaluationPlan } from '../../engine/classifiers/evaluation.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { EvaluationResult } from '../../protocol/runResult.js';
import { learnerOf, predictionsOn } from './learners.js';
import { fmt } from './queryParts.js';
import { classesLeftOutNote } from '../classifiers.js';
import { DEFAULT_BUDGETS } from '../../engine/budget.js';

/**
 * Runs a split or k-fold `plan` on the classifier's own examples, once per run: a `query` and
 * an `expect` asking the same question share the answer (text classifiers train for seconds).
 */
export async function evaluateOwn(
  ctx: HandlerContext,
  classifier: A.Name,
  plan: Exclude<EvaluationPlan, { kind: 'holdout' }>,
): Promise<Evaluation> {
  const key = `evaluation:${classifier.text}:${JSON.stringify(plan)}`;
  if (!ctx.shared.has(key)) {
    const learner = await learnerOf(ctx, classifier);
    ctx.shared.set(key, evaluate(learner.labels, learner.classNames, learner.fitPredict, plan, maxClasses(ctx)));
  }
  return ctx.shared.get(key) as Evaluation;
}

/** Trained and tested on all its examples: the training accuracy. */
export async function evaluateOnTraining(ctx: HandlerContext, classifier: A.Name): Promise<Evaluation> {
  const learner = await learnerOf(ctx, classifier);
  const all = Int32Array.from(learner.labels.keys());
  const plan = { kind: 'holdout', train: all, test: all } as const;
  return evaluate(learner.labels, learner.classNames, learner.fitPredict, plan, maxClasses(ctx));
}

/** Trained on all its data, tested on another data set. */
export async function evaluateOn(
  ctx: HandlerContext,
  classifier: A.Name,
  on: A.Name,
): Promise<{ evaluation: Evaluation; diagnostics: Diagnostic[] }> {
  const { labels, predicted, classNames, trained, diagnostics } = await predictionsOn(ctx, classifier, on);
  if (labels.length === 0) throw new CompileError(`'${on.text}' has no example with a known class`, on.range);
  const all = Int32Array.from(labels.keys());
  const evaluation = evaluate(
    labels,
    classNames,
    () => predicted,
    {
      kind: 'holdout',
      train: new Int32Array(0),
      test: all,
    },
    maxClasses(ctx),
  );
  return { evaluation: { ...evaluation, trained }, diagnostics };
}

function maxClasses(ctx: HandlerContext): number {
  return (ctx.env.budgets ?? DEFAULT_BUDGETS).maxClasses;
}

export function evaluationAnswer(
  ctx: HandlerContext,
  classifier: A.Name,
  evaluation: Evaluation,
  method: string,
  diagnostics: Diagnostic[] = [],
): HandlerOutput {
  const result: EvaluationResult = {
    kind: 'evaluation',
    range: ctx.statement.range,
    source: ctx.source,
    classifier: classifier.text,
    method,
    ...evaluation,
    headline: `accuracy ${fmt(evaluation.accuracy)} (${evaluation.correct}/${evaluation.tested}, ${method})`,
  };
  const note = classesLeftOutNote(ctx, evaluation.classes.length, evaluation.classesLeftOut);
  return { results: [result], diagnostics: [...diagnostics, ...note], value: evaluation.accuracy };
}
