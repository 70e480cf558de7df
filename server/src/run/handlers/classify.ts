/**
 * `query classify C { Attr: value, … }`: v_NB of one instance. Values never seen in training
 * are left out of the product (as Table 6.2 does with unknown words); each one gets an
 * information diagnostic on its value. Text classifiers take `{ text: "…" }`.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { classifyNaiveBayes, type IgnoredValue, type NaiveBayesModel } from '../../engine/classifiers/naiveBayes.js';
import { CompileError } from '../../model/compileError.js';
import type { ClassifyFactor, ClassifyResult } from '../../protocol/runResult.js';
import { type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { classesLeftOutNote, classifierDecl, naiveBayesClassifier, shownClasses } from '../classifiers.js';
import { classifyTextInstance } from '../textClassifiers.js';
import { fmt } from '../learning/queryParts.js';
import { setOwn } from '../../engine/records.js';

export const classifyHandler: Handler = async (ctx) => {
  if (ctx.statement.kind === 'learn') throw new Error('classify got a learn statement');
  const query = ctx.statement.query as A.ClassifyQuery;
  const kind = classifierDecl(ctx, query.classifier).definition.callee.text;
  if (kind === 'text_naive_bayes') return classifyTextInstance(ctx, query);
  return classifyCategorical(ctx, query);
};

async function classifyCategorical(ctx: HandlerContext, query: A.ClassifyQuery): Promise<HandlerOutput> {
  const model = await naiveBayesClassifier(ctx, query.classifier);
  const instance: Record<string, string> = {};
  const ranges = new Map<string, A.Expr['range']>();
  for (const entry of query.instance.entries) {
    const value = valueText(entry.value);
    if (!entry.name || value === undefined)
      throw new CompileError('an instance is written { Attribute: value, … }', entry.range);
    setOwn(instance, entry.name.text, value);
    ranges.set(entry.name.text, entry.value.range);
  }
  const answer = classifyNaiveBayes(model, instance);
  const diagnostics: Diagnostic[] = answer.ignored
    .filter((i) => i.reason === 'unseen')
    .map((i) => ({
      severity: 'information',
      code: 'unseen-value',
      message: `${i.attribute} = ${i.value} never occurs in the training data: it is left out of the product`,
      range: ranges.get(i.attribute) ?? query.instance.range,
    }));
  const best = answer.classes.find((c) => c.value === answer.predicted);
  const listed = shownClasses(answer.classes);
  const result: ClassifyResult = {
    kind: 'classify',
    range: ctx.statement.range,
    source: ctx.source,
    classifier: query.classifier.text,
    classes: listed.shown.map(({ entry, index }) => ({
      ...entry,
      factors: productFactors(model, index, instance, answer.ignored),
    })),
    ...(listed.classesLeftOut ? { classesLeftOut: listed.classesLeftOut } : {}),
    ignored: answer.ignored,
    ...(answer.predicted ? { predicted: answer.predicted } : {}),
    headline: best ? `${best.value} · ${fmt(best.posterior ?? 0)}` : 'every class has probability 0',
  };
  diagnostics.push(...classesLeftOutNote(ctx, listed.shown.length, listed.classesLeftOut, 'the most probable'));
  return { results: [result], diagnostics, ...(answer.predicted ? { value: answer.predicted } : {}) };
}

/** The factors of P(v) Π P(a_i|v) the score multiplied, with the counts behind them when unsmoothed (Mitchell
 * §6.9.1). */
function productFactors(
  model: NaiveBayesModel,
  v: number,
  instance: Record<string, string>,
  ignored: IgnoredValue[],
): ClassifyFactor[] {
  const plain = model.smoothing.kind === 'none';
  const total = model.classCounts.reduce((s, n) => s + n, 0);
  const className = model.target.values[v]!;
  const factors: ClassifyFactor[] = [
    { term: `P(${className})`, p: Math.exp(model.logPrior[v]!), count: model.classCounts[v]!, total },
  ];
  model.attributes.forEach((a, i) => {
    const value = instance[a.name];
    if (value === undefined || ignored.some((x) => x.attribute === a.name)) return;
    const k = a.values.length,
      x = a.values.indexOf(value);
    const row = model.counts[i]!.subarray(v * k, (v + 1) * k);
    const p = Math.exp(model.logLikelihood[i]![v * k + x]!);
    factors.push({
      term: `P(${value}|${className})`,
      p,
      ...(plain ? { count: row[x]!, total: row.reduce((s, n) => s + n, 0) } : {}),
    });
  });
  return factors;
}
