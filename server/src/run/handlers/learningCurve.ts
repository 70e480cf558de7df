/**
 * `query learning_curve C { sizes: [100, 1000], seed: 1 }`: accuracy on one seeded held-out
 * third against the number of training examples (nested training sets). The value is the
 * accuracy at the largest size.
 */
import type * as A from '../../language/ast.js';
import { learningCurve } from '../../engine/classifiers/evaluation.js';
import { CompileError } from '../../model/compileError.js';
import type { LearningCurveResult } from '../../protocol/runResult.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf, seedOption } from '../learning/queryParts.js';
import { learnerOf } from '../learning/learners.js';

export const learningCurveHandler: Handler = async (ctx) => {
  const query = queryOf<A.LearningCurveQuery>(ctx);
  const sizes = sizesOption(query);
  const seed = seedOption(query.options);
  const learner = await learnerOf(ctx, query.classifier);
  const points = learningCurve(learner.labels, learner.fitPredict, sizes, seed);
  const last = points[points.length - 1]!;
  const result: LearningCurveResult = {
    kind: 'learningCurve',
    range: ctx.statement.range,
    source: ctx.source,
    classifier: query.classifier.text,
    seed,
    points,
    headline: points.map((p) => `${p.trainingSize}: ${fmt(p.accuracy)}`).join(' · '),
  };
  return { results: [result], diagnostics: [], value: last.accuracy };
};

function sizesOption(query: A.LearningCurveQuery): number[] {
  const entry = query.options?.entries.find((e) => e.name?.text === 'sizes');
  if (!entry) throw new CompileError('learning_curve needs { sizes: [n, …] }', query.range);
  const items = entry.value.kind === 'list' ? entry.value.items : [entry.value];
  const sizes = items.map((item) => {
    if (item.kind !== 'number' || !Number.isInteger(item.value) || item.value < 1)
      throw new CompileError('a training size is a whole number ≥ 1', item.range);
    return item.value;
  });
  if (sizes.length === 0) throw new CompileError('sizes lists at least one training size', entry.value.range);
  return sizes;
}
