/**
 * A declared classifier as something to evaluate: its examples' labels and a fit-predict
 * function over example indices, for categorical naive Bayes (rows of its data set) and text
 * naive Bayes (documents of its corpus) alike.
 */
import type * as A from '../../language/ast.js';
import { MISSING, type CategoricalDataset } from '../../engine/categoricalData.js';
import { naiveBayesPredict, trainNaiveBayes } from '../../engine/classifiers/naiveBayes.js';
import { predictAligned, type AlignedPredictions } from '../../engine/classifiers/alignData.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import type { FitPredict } from '../../engine/classifiers/evaluation.js';
import { CompileError } from '../../model/compileError.js';
import { EngineError } from '../../engine/engineError.js';
import type { HandlerContext } from '../handlerContext.js';
import { classifierDecl, naiveBayesClassifier, positionalArgument, smoothingOf } from '../classifiers.js';
import { modelData } from '../modelInputs.js';
import { textLearner, textPredictionsOn } from '../textClassifiers.js';

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
    return naiveBayesPredict(
      model,
      data,
      Int32Array.from(test, (i) => rows[i]!),
    );
  };
  return { labels, classNames: data.attributes[t]!.values, fitPredict };
}

/**
 * The classifier trained on all its data, applied to another data set (`evaluate C on TestDays`,
 * `accuracy C on TestDays`): the test set's labels and predictions. Columns and values match the
 * training data's by name (see engine/classifiers/alignData.ts); what does not match is said in
 * information diagnostics on the data set's name.
 */
export async function predictionsOn(
  ctx: HandlerContext,
  name: A.Name,
  on: A.Name,
): Promise<{
  labels: Int32Array;
  predicted: Int32Array;
  classNames: readonly string[];
  trained: number;
  diagnostics: Diagnostic[];
}> {
  if (classifierDecl(ctx, name).definition.callee.text === 'text_naive_bayes') {
    return textPredictionsOn(ctx, name, on);
  }
  const model = await naiveBayesClassifier(ctx, name);
  const test = await modelData(ctx, on);
  let aligned: AlignedPredictions;
  try {
    aligned = predictAligned(model, test);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(`'${on.text}': ${e.message}`, on.range);
    throw e;
  }
  const trained = model.classCounts.reduce((s, n) => s + n, 0);
  const { labels, predicted, classNames } = aligned;
  return { labels, predicted, classNames, trained, diagnostics: alignmentNotes(aligned, name.text, on) };
}

/** What did not match between the training data and the data set `on`, as information diagnostics. */
function alignmentNotes(a: AlignedPredictions, classifier: string, on: A.Name): Diagnostic[] {
  const notes: Diagnostic[] = [];
  const note = (code: string, message: string) => {
    notes.push({ severity: 'information', code, message, range: on.range });
  };
  const rows = (n: number) => `${n} row${n === 1 ? '' : 's'}`;
  if (a.unseen.length > 0) {
    const values = a.unseen.flatMap((u) => u.values.map((v) => `${u.attribute} = ${v.value} (${rows(v.rows)})`));
    const shown = values.length > 8 ? [...values.slice(0, 8), `${values.length - 8} more`] : values;
    const have = a.unseenRows === 1 ? 'has' : 'have';
    note(
      'unseen-value',
      `${rows(a.unseenRows)} of '${on.text}' ${have} values never seen ` +
        `in ${classifier}'s training data; they are left out of the product: ${shown.join(', ')}`,
    );
  }
  for (const c of a.newClasses) {
    note(
      'unseen-value',
      `class ${c.value} (${rows(c.rows)} of '${on.text}') never ` +
        `occurs in ${classifier}'s training data: it cannot be predicted, so those rows count as errors`,
    );
  }
  if (a.missingColumns.length > 0) {
    note(
      'missing-column',
      `'${on.text}' has no column ${a.missingColumns.join(', ')}: ` +
        `${a.missingColumns.length === 1 ? 'it is' : 'they are'} left out of every row's product`,
    );
  }
  if (a.unusedColumns.length > 0) {
    const one = a.unusedColumns.length === 1;
    note(
      'unused-column',
      `column${one ? '' : 's'} ${a.unusedColumns.join(', ')} of '${on.text}' ` +
        `${one ? 'is no attribute' : 'are no attributes'} of ${classifier}: ignored`,
    );
  }
  return notes;
}
