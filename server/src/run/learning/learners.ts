/**
 * A declared classifier as something to evaluate: its examples' labels and a fit-predict
 * function over example indices, for categorical naive Bayes (rows of its data set) and text
 * naive Bayes (documents of its corpus) alike.
 */
import type * as A from '../../language/ast.js';
import { MISSING, type CategoricalDataset } from '../../engine/categoricalData.js';
import { naiveBayesPosteriors, trainNaiveBayes } from '../../engine/classifiers/naiveBayes.js';
import type { FitPredict } from '../../engine/classifiers/evaluation.js';
import { CompileError } from '../../model/compileError.js';
import { EngineError } from '../../engine/engineError.js';
import type { HandlerContext } from '../handlerContext.js';
import { classifierDecl, naiveBayesClassifier, positionalArgument, smoothingOf } from '../classifiers.js';
import { modelData } from '../modelInputs.js';
import { textLearner } from '../textClassifiers.js';

export interface Learner {
  /** Class code of each example (examples without a class are left out). */
  labels: Int32Array;
  classNames: readonly string[];
  fitPredict: FitPredict;
}

export async function learnerOf(ctx: HandlerContext, name: A.Name): Promise<Learner> {
  const call = classifierDecl(ctx, name).definition;
  if (call.callee.text === 'text_naive_bayes') {
    const { text, fitPredict } = textLearner(ctx, name);
    return { labels: text.corpus.labels, classNames: text.corpus.classNames, fitPredict: stoppable(ctx, fitPredict) };
  }
  const model = await naiveBayesClassifier(ctx, name); // validates the declaration
  return categoricalLearner(await trainingData(ctx, call), model.target.name, smoothingOf(call));
}

/** Each training (a fold, a curve point: seconds on a corpus) first checks that the run still wants it. */
function stoppable(ctx: HandlerContext, fitPredict: FitPredict): FitPredict {
  return (train, test) => {
    if (ctx.signal?.aborted) throw new EngineError('the run was stopped');
    return fitPredict(train, test);
  };
}

/** The data set of `naive_bayes(DATA, …)` (the declaration is already validated). */
function trainingData(ctx: HandlerContext, call: A.Call): Promise<CategoricalDataset> {
  return modelData(ctx, (positionalArgument(call) as A.Ref).name);
}

/** Rows with a known class only; indices handed to the engine are positions in that list. */
function categoricalLearner(
  data: CategoricalDataset,
  target: string,
  smoothing: ReturnType<typeof smoothingOf>,
): Learner {
  const t = data.attributes.findIndex((a) => a.name === target);
  const rows = Int32Array.from(Array.from(data.columns[t]!.keys()).filter((r) => data.columns[t]![r] !== MISSING));
  const labels = Int32Array.from(rows, (r) => data.columns[t]![r]!);
  const fitPredict: FitPredict = (train, test) => {
    const model = trainNaiveBayes(
      data,
      target,
      smoothing,
      Int32Array.from(train, (i) => rows[i]!),
    );
    return naiveBayesPosteriors(
      model,
      data,
      Int32Array.from(test, (i) => rows[i]!),
    ).predicted;
  };
  return { labels, classNames: data.attributes[t]!.values, fitPredict };
}

/**
 * The classifier trained on all its data, applied to another data set of the same columns
 * (`evaluate C on TestDays`, `accuracy C on TestDays`): the test set's labels and predictions.
 */
export async function predictionsOn(
  ctx: HandlerContext,
  name: A.Name,
  on: A.Name,
): Promise<{ labels: Int32Array; predicted: Int32Array; classNames: readonly string[]; trained: number }> {
  if (classifierDecl(ctx, name).definition.callee.text === 'text_naive_bayes') {
    throw new CompileError('a text classifier is evaluated on its own corpus: use split or folds', on.range);
  }
  const model = await naiveBayesClassifier(ctx, name);
  const train = await trainingData(ctx, classifierDecl(ctx, name).definition);
  const test = await modelData(ctx, on);
  const same =
    test.attributes.length === train.attributes.length && train.attributes.every((a, c) => sameAttribute(test, c, a));
  if (!same) {
    throw new CompileError(
      `'${on.text}' must have the columns of the classifier's training data in the same order, with the same values (declare the variables to fix their values)`,
      on.range,
    );
  }
  const t = test.attributes.findIndex((a) => a.name === model.target.name);
  const rows = Int32Array.from(Array.from(test.columns[t]!.keys()).filter((r) => test.columns[t]![r] !== MISSING));
  const predicted = naiveBayesPosteriors(model, test, rows).predicted;
  const trained = model.classCounts.reduce((s, n) => s + n, 0);
  return {
    labels: Int32Array.from(rows, (r) => test.columns[t]![r]!),
    predicted,
    classNames: model.target.values,
    trained,
  };
}

function sameAttribute(
  data: CategoricalDataset,
  column: number,
  attribute: { name: string; values: readonly string[] },
): boolean {
  const a = data.attributes[column];
  return (
    a !== undefined &&
    a.name === attribute.name &&
    a.values.length === attribute.values.length &&
    a.values.every((v, i) => v === attribute.values[i])
  );
}
