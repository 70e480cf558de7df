/**
 * `query classify C { Attr: value, … }`: v_NB of one instance. Values never seen in training
 * are left out of the product (as Table 6.2 does with unknown words); each one gets an
 * information diagnostic on its value. Text classifiers take `{ text: "…" }`.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { classifyNaiveBayes } from '../../engine/naiveBayes.js';
import { CompileError } from '../../model/compileError.js';
import type { ClassifyResult } from '../runResult.js';
import { registerHandler, type HandlerContext, type HandlerOutput } from './index.js';
import { classifierDecl, naiveBayesClassifier } from '../classifiers.js';
import { classifyTextInstance } from '../textClassifiers.js';
import { fmt } from '../learning/queryParts.js';

registerHandler('query classify', async (ctx) => {
  if (ctx.statement.kind === 'learn') throw new Error('classify got a learn statement');
  const query = ctx.statement.query as A.ClassifyQuery;
  const kind = classifierDecl(ctx, query.classifier).definition.callee.text;
  if (kind === 'text_naive_bayes') return classifyTextInstance(ctx, query);
  return classifyCategorical(ctx, query);
});

async function classifyCategorical(ctx: HandlerContext, query: A.ClassifyQuery): Promise<HandlerOutput> {
  const model = await naiveBayesClassifier(ctx, query.classifier);
  const instance: Record<string, string> = {};
  const ranges = new Map<string, A.Expr['range']>();
  for (const entry of query.instance.entries) {
    const value = valueText(entry.value);
    if (!entry.name || value === undefined) throw new CompileError('an instance is written { Attribute: value, … }', entry.range);
    instance[entry.name.text] = value;
    ranges.set(entry.name.text, entry.value.range);
  }
  const answer = classifyNaiveBayes(model, instance);
  const diagnostics: Diagnostic[] = answer.ignored.filter((i) => i.reason === 'unseen').map((i) => ({
    severity: 'information', code: 'unseen-value',
    message: `${i.attribute} = ${i.value} never occurs in the training data: it is left out of the product`,
    range: ranges.get(i.attribute) ?? query.instance.range,
  }));
  const best = answer.classes.find((c) => c.value === answer.predicted);
  const result: ClassifyResult = {
    kind: 'classify', range: ctx.statement.range, source: ctx.source, classifier: query.classifier.text,
    classes: answer.classes, ignored: answer.ignored,
    ...(answer.predicted ? { predicted: answer.predicted } : {}),
    headline: best ? `${best.value} · ${fmt(best.posterior ?? 0)}` : 'every class has probability 0',
  };
  return { results: [result], diagnostics, ...(answer.predicted ? { value: answer.predicted } : {}) };
}
