/**
 * Text classifiers over corpora (Mitchell §6.10). A `corpus` is read and tokenized once per run
 * (the 20 Newsgroups archive takes about half a second to read); `text_naive_bayes(News, …)`
 * is trained once per run on the whole corpus for `classify`, and per split for `evaluate`.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { tokenizeLatin1Documents } from '../engine/classifiers/latin1Tokenizer.js';
import type { TokenizedCorpus } from '../engine/classifiers/tokenizer.js';
import {
  classifyText,
  predictTextNaiveBayes,
  trainTextNaiveBayes,
  type TextNaiveBayesModel,
  type VocabularyOptions,
} from '../engine/classifiers/textNaiveBayes.js';
import { allRows } from '../engine/categoricalData.js';
import type { FitPredict } from '../engine/classifiers/evaluation.js';
import { corpusFromFiles, documentText, newsgroupsFromEntries, type LabelledCorpus } from '../model/corpus.js';
import { ArchiveLimitError, gunzipTar } from '../model/tarArchive.js';
import { DEFAULT_FILE_LIMITS } from '../language/environment.js';
import { listModelFolder, readListedBytes, readModelBytes } from '../model/files.js';
import { isArchivePath } from '../language/folderCorpus.js';
import { CompileError } from '../model/compileError.js';
import type { ClassifyResult } from '../protocol/runResult.js';
import type { HandlerContext, HandlerOutput } from './handlerContext.js';
import {
  argument,
  classesLeftOutNote,
  classifierDecl,
  positionalArgument,
  requireClassCount,
  shownClasses,
} from './classifiers.js';
import { memo } from './modelInputs.js';

export interface TextCorpus {
  corpus: LabelledCorpus;
  tokens: TokenizedCorpus;
}

function corpusDecl(ctx: HandlerContext, name: A.Name): A.CorpusDecl {
  const global = ctx.symbols.globals.get(name.text);
  if (global?.kind !== 'corpus') throw new CompileError(`'${name.text}' is not a corpus`, name.range);
  return global.node as A.CorpusDecl;
}

/** A `corpus … from "x.tar.gz" label folder`, read and tokenized once per run. */
export function modelCorpus(ctx: HandlerContext, name: A.Name): TextCorpus {
  return memo(ctx, `corpus:${name.text}`, () => readCorpus(ctx, corpusDecl(ctx, name)));
}

function readCorpus(ctx: HandlerContext, decl: A.CorpusDecl): TextCorpus {
  if (decl.label && decl.label.text !== 'folder')
    throw new CompileError('documents are labelled by their folder: `label folder`', decl.label.range);
  if (!isArchivePath(decl.source.value)) {
    const files = listModelFolder(decl.source, ctx.env).map((f) => ({
      path: f.written,
      data: readListedBytes(decl.source, f, ctx.env),
    }));
    const corpus = corpusFromFiles(files);
    requireClassCount(ctx, corpus.classNames.length, decl.source.range, `"${decl.source.value}"`);
    return { corpus, tokens: tokenizeLatin1Documents(corpus.documents) };
  }
  const limits = ctx.env.limits ?? DEFAULT_FILE_LIMITS;
  const archive = { maxBytes: limits.maxArchiveBytes, maxEntries: limits.maxArchiveEntries };
  let entries;
  try {
    entries = gunzipTar(readModelBytes(decl.source, ctx.env), archive);
  } catch (e) {
    if (e instanceof ArchiveLimitError) {
      throw new CompileError(`"${decl.source.value}": ${e.message}`, decl.source.range);
    }
    throw e;
  }
  const corpus = newsgroupsFromEntries(entries);
  if (corpus.documents.length === 0)
    throw new CompileError(
      `"${decl.source.value}" holds no documents under <part>-train/ or <part>-test/ folders`,
      decl.source.range,
    );
  requireClassCount(ctx, corpus.classNames.length, decl.source.range, `"${decl.source.value}"`);
  return { corpus, tokens: tokenizeLatin1Documents(corpus.documents) };
}

export interface TextLearner {
  text: TextCorpus;
  options: VocabularyOptions;
  fitPredict: FitPredict;
}

/** `text_naive_bayes(Corpus, drop_most_frequent: 100, min_count: 3)` as a learner. */
export function textLearner(ctx: HandlerContext, name: A.Name): TextLearner {
  const call = classifierDecl(ctx, name).definition;
  const source = positionalArgument(call);
  if (source?.kind !== 'ref')
    throw new CompileError('text_naive_bayes(CORPUS, drop_most_frequent: n, min_count: n)', call.range);
  const text = modelCorpus(ctx, source.name);
  const options = {
    dropMostFrequent: countArgument(call, 'drop_most_frequent'),
    minCount: countArgument(call, 'min_count'),
  };
  const { corpus, tokens } = text;
  const fitPredict: FitPredict = (train, test) =>
    predictTextNaiveBayes(trainTextNaiveBayes(tokens, corpus.labels, corpus.classNames, train, options), tokens, test);
  return { text, options, fitPredict };
}

function countArgument(call: A.Call, name: string): number | undefined {
  const value = argument(call, name);
  if (!value) return undefined;
  if (value.kind !== 'number' || !Number.isInteger(value.value) || value.value < 0)
    throw new CompileError(`${name} is a whole number ≥ 0`, value.range);
  return value.value;
}

/** Trained on every document of its corpus, once per run. */
export function textClassifier(ctx: HandlerContext, name: A.Name): { model: TextNaiveBayesModel; text: TextCorpus } {
  return memo(ctx, `textClassifier:${name.text}`, () => {
    const { text, options } = textLearner(ctx, name);
    const model = trainTextNaiveBayes(
      text.tokens,
      text.corpus.labels,
      text.corpus.classNames,
      allRows(text.corpus.documents.length),
      options,
    );
    return { model, text };
  });
}

/** `classify NewsNB { text: "…" }`: the words outside the vocabulary are ignored, and said so. */
export function classifyTextInstance(ctx: HandlerContext, query: A.ClassifyQuery): HandlerOutput {
  const entry = query.instance.entries.find((e) => e.name?.text === 'text');
  if (!entry || entry.value.kind !== 'string' || query.instance.entries.length !== 1) {
    throw new CompileError('a text classifier classifies { text: "…" }', query.instance.range);
  }
  const { model, text } = textClassifier(ctx, query.classifier);
  const answer = classifyText(model, text.tokens, entry.value.value);
  const diagnostics: Diagnostic[] =
    answer.wordsIgnored > 0
      ? [
          {
            severity: 'information',
            code: 'unseen-value',
            range: entry.value.range,
            message: `${answer.wordsIgnored} of ${answer.wordsIgnored + answer.wordsUsed} words are not in the vocabulary: they are ignored`,
          },
        ]
      : [];
  const best = answer.classes.find((c) => c.value === answer.predicted)!;
  const listed = shownClasses(answer.classes);
  diagnostics.push(...classesLeftOutNote(ctx, listed.shown.length, listed.classesLeftOut, 'the most probable'));
  const result: ClassifyResult = {
    kind: 'classify',
    range: ctx.statement.range,
    source: ctx.source,
    classifier: query.classifier.text,
    classes: listed.shown.map((c) => c.entry),
    ...(listed.classesLeftOut ? { classesLeftOut: listed.classesLeftOut } : {}),
    predicted: answer.predicted,
    ignored: [],
    words: { used: answer.wordsUsed, ignored: answer.wordsIgnored },
    headline: `${answer.predicted} · ${Number(best.posterior.toPrecision(4))}`,
  };
  return { results: [result], diagnostics, value: answer.predicted };
}

/**
 * `accuracy C on Other`, `evaluate C on Other` for a text classifier: C trained on every document
 * of its corpus classifies each document of the corpus `Other`. Classes match by folder name; a
 * class C never saw cannot be predicted, so its documents count as errors (said in an
 * `unseen-value` information on `Other`), as for categorical naive Bayes.
 */
export function textPredictionsOn(
  ctx: HandlerContext,
  name: A.Name,
  on: A.Name,
): { labels: Int32Array; predicted: Int32Array; classNames: string[]; trained: number; diagnostics: Diagnostic[] } {
  const global = ctx.symbols.globals.get(on.text);
  if (global?.kind !== 'corpus')
    throw new CompileError(`a text classifier is tested on a corpus; '${on.text}' is not one`, on.range);
  const { model, text } = textClassifier(ctx, name);
  const test = modelCorpus(ctx, on).corpus;
  const classNames = [...model.classNames];
  const labels: number[] = [];
  const predicted: number[] = [];
  const unseen = new Map<string, number>();
  for (let d = 0; d < test.documents.length; d++) {
    if (ctx.signal?.aborted) throw new CompileError('the run was stopped', on.range);
    const label = test.classNames[test.labels[d]!];
    if (label === undefined) continue;
    let v = classNames.indexOf(label);
    if (v < 0) {
      v = classNames.length;
      classNames.push(label);
    }
    if (v >= model.classNames.length) unseen.set(label, (unseen.get(label) ?? 0) + 1);
    labels.push(v);
    predicted.push(classNames.indexOf(classifyText(model, text.tokens, documentText(test, d)).predicted));
  }
  const diagnostics: Diagnostic[] = [...unseen].map(([value, n]) => ({
    severity: 'information',
    code: 'unseen-value',
    range: on.range,
    message:
      `class ${value} (${n} document${n === 1 ? '' : 's'} of '${on.text}') never occurs in ${name.text}'s ` +
      'training corpus: it cannot be predicted, so those documents count as errors',
  }));
  return {
    labels: Int32Array.from(labels),
    predicted: Int32Array.from(predicted),
    classNames,
    trained: text.corpus.documents.length,
    diagnostics,
  };
}
