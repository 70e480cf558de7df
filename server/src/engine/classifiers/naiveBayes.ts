/**
 * The naive Bayes classifier for categorical attributes (Mitchell §6.9, Poole §10.2.2):
 *   v_NB = argmax_v P(v) Π_i P(a_i | v)   (eq. 6.20)
 * P(v) is the observed class frequency; P(a_i | v) are counted and smoothed (none, Laplace,
 * m-estimate with k = the attribute's domain size). Scores are sums of logs. Missing values are
 * skipped when counting and when classifying (condition on the observed attributes only).
 */
import { EngineError } from '../engineError.js';
import {
  allRows,
  attributeIndex,
  columnOrder,
  MISSING,
  type CategoricalAttribute,
  type CategoricalDataset,
} from '../categoricalData.js';
import { smoothedEstimate, type Smoothing } from '../estimators/mEstimate.js';
import { argmax, normalizeLog, normalizeLogInPlace } from '../math/logMath.js';
import type { BayesianNetwork } from '../network.js';
import { ownValue } from '../records.js';

export interface NaiveBayesModel {
  target: CategoricalAttribute;
  /** Input attributes (every column but the target). */
  attributes: CategoricalAttribute[];
  /** Column index in the training data of each input attribute. */
  columnOf: number[];
  smoothing: Smoothing;
  classCounts: Float64Array;
  /** ln P(v). */
  logPrior: Float64Array;
  /** counts[a][v * k_a + x] = number of training examples of class v with attribute a = x. */
  counts: Float64Array[];
  /** logLikelihood[a][v * k_a + x] = ln P(a = x | v), smoothed. */
  logLikelihood: Float64Array[];
  /** seen[a][x]: value x of attribute a occurred in training (with a known class). */
  seen: Uint8Array[];
}

export function trainNaiveBayes(
  data: CategoricalDataset,
  target: string,
  smoothing: Smoothing,
  rows: Int32Array = allRows(data.rowCount),
): NaiveBayesModel {
  const t = attributeIndex(data, target);
  const targetAttr = data.attributes[t]!;
  const C = targetAttr.values.length;
  if (C < 2) throw new EngineError(`the target ${target} needs at least two classes, found ${C}`);
  const columnOf = data.attributes.map((_, i) => i).filter((i) => i !== t);
  const examples = labelledExamples(data.columns[t]!, rows, columnOrder(rows, data.rowCount));
  const classCounts = new Float64Array(C);
  for (let i = 0; i < examples.classOf.length; i++) classCounts[examples.classOf[i]!]!++;
  const total = examples.classOf.length;
  if (total === 0) throw new EngineError(`no training example has a known ${target}`);
  const attributes = columnOf.map((c) => data.attributes[c]!);
  checkMEstimatePrior(smoothing, attributes, target);
  const counts = columnOf.map((c, a) => countByClass(data.columns[c]!, examples, C, attributes[a]!.values.length));
  return {
    target: targetAttr,
    attributes,
    columnOf,
    smoothing,
    classCounts,
    logPrior: classCounts.map((n) => Math.log(n / total)),
    counts,
    logLikelihood: counts.map((table, a) => smoothTable(table, attributes[a]!.values.length, smoothing)),
    seen: counts.map((table, a) => seenValues(table, C, attributes[a]!.values.length)),
  };
}

/**
 * The training rows whose class is known, with their classes (read once, not once per attribute),
 * in column order when one is given (the counts do not depend on the order).
 */
interface LabelledExamples {
  rows: Int32Array;
  classOf: Int32Array;
}

function labelledExamples(labels: Int32Array, rows: Int32Array, order?: Int32Array): LabelledExamples {
  const known = new Int32Array(rows.length),
    classOf = new Int32Array(rows.length);
  let n = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[order ? order[i]! : i]!,
      v = labels[r]!;
    if (v === MISSING) continue;
    known[n] = r;
    classOf[n++] = v;
  }
  return { rows: known.subarray(0, n), classOf: classOf.subarray(0, n) };
}

/** counts[v * k + x] over the examples; a missing value is skipped. */
function countByClass(column: Int32Array, examples: LabelledExamples, C: number, k: number): Float64Array {
  // Each class's slot 0 takes the missing values (code −1), so the loop has no test in it.
  const stride = k + 1;
  const tally = new Int32Array(C * stride);
  const { rows, classOf } = examples;
  for (let i = 0; i < rows.length; i++) tally[classOf[i]! * stride + column[rows[i]!]! + 1]!++;
  const table = new Float64Array(C * k);
  for (let v = 0; v < C; v++) for (let x = 0; x < k; x++) table[v * k + x] = tally[v * stride + x + 1]!;
  return table;
}

/**
 * Eq. 6.22, (n_c + m·p) / (n + m), gives each P(a | v) row a distribution only when p = 1/k for the
 * attribute's k values: a `p:` that is not 1/k for every attribute would score the classes with rows
 * that do not sum to 1, so it is refused (leaving p out is 1/k per attribute).
 */
function checkMEstimatePrior(
  smoothing: Smoothing,
  attributes: readonly { name: string; values: readonly string[] }[],
  target: string,
): void {
  if (smoothing.kind !== 'mEstimate' || smoothing.p === undefined) return;
  const p = smoothing.p;
  const wrong = attributes.find((a) => Math.abs(p * a.values.length - 1) > 1e-6);
  if (!wrong) return;
  const k = wrong.values.length;
  throw new EngineError(
    `m_estimate's p: ${p} is not 1/${k} for ${wrong.name} (${k} values), so P(${wrong.name} | ${target}) would not ` +
      'sum to 1: leave p out (it is 1/k for each attribute)',
  );
}

function seenValues(table: Float64Array, C: number, k: number): Uint8Array {
  const seen = new Uint8Array(k);
  for (let v = 0; v < C; v++) for (let x = 0; x < k; x++) if (table[v * k + x]! > 0) seen[x] = 1;
  return seen;
}

function smoothTable(table: Float64Array, k: number, smoothing: Smoothing): Float64Array {
  const C = table.length / k;
  const out = new Float64Array(C * k);
  for (let v = 0; v < C; v++) {
    // n = examples of class v whose attribute value is observed (missing ones are skipped).
    let n = 0;
    for (let x = 0; x < k; x++) n += table[v * k + x]!;
    for (let x = 0; x < k; x++) out[v * k + x] = Math.log(smoothedEstimate(smoothing, table[v * k + x]!, n, k));
  }
  return out;
}

/**
 * Whether value x of attribute a enters the product: it is in the attribute's domain (its declared
 * states, or the values of its column) and either was seen in training or smoothing estimates it —
 * Laplace and the m-estimate give a value never counted (0 + m·p)/(n + m) (Mitchell eq. 6.22,
 * p = 1/|domain|), which is what they are for. Without smoothing an unseen value would have
 * probability 0 for every class, so like Table 6.2's unknown words it is left out.
 */
export function usesValue(model: NaiveBayesModel, a: number, x: number): boolean {
  const k = model.attributes[a]!.values.length;
  return x >= 0 && x < k && (model.seen[a]![x] === 1 || model.smoothing.kind !== 'none');
}

export interface IgnoredValue {
  attribute: string;
  value: string;
  reason: 'missing' | 'unseen';
}

export interface NaiveBayesClassification {
  /** score = P(v) Π P(a_i|v), unnormalised; posterior absent when every class has probability 0. */
  classes: { value: string; score: number; logScore: number; posterior?: number }[];
  /** v_NB; absent when every class has probability 0 (evidence impossible). */
  predicted?: string;
  /** Attribute values left out of the product (missing, or never seen in training). */
  ignored: IgnoredValue[];
}

/** Classifies one instance given as attribute name → value (undefined/'?' = missing). */
export function classifyNaiveBayes(
  model: NaiveBayesModel,
  instance: Readonly<Record<string, string | undefined>>,
): NaiveBayesClassification {
  for (const name of Object.keys(instance)) {
    if (name !== model.target.name && !model.attributes.some((a) => a.name === name)) {
      throw new EngineError(
        `'${name}' is not an attribute of the classifier (attributes: ${model.attributes.map((a) => a.name).join(', ')})`,
      );
    }
  }
  const codes = new Int32Array(model.attributes.length);
  const ignored: IgnoredValue[] = [];
  model.attributes.forEach((a, i) => {
    const raw = ownValue(instance, a.name);
    codes[i] = MISSING;
    if (raw === undefined || raw === '?') {
      ignored.push({ attribute: a.name, value: '?', reason: 'missing' });
      return;
    }
    const code = a.values.indexOf(raw);
    // Like Table 6.2's unknown words: a value nothing estimates says nothing about v (usesValue).
    if (!usesValue(model, i, code)) ignored.push({ attribute: a.name, value: raw, reason: 'unseen' });
    else codes[i] = code;
  });
  const logScores = logScoresInOrder(
    model,
    Array.from(codes, (x) => Int32Array.of(x)),
    Int32Array.of(0),
  );
  const posterior = normalizeLog(logScores);
  return {
    classes: model.target.values.map((value, v) => ({
      value,
      score: Math.exp(logScores[v]!),
      logScore: logScores[v]!,
      ...(posterior ? { posterior: posterior[v]! } : {}),
    })),
    ...(posterior ? { predicted: model.target.values[argmax(logScores)]! } : {}),
    ignored,
  };
}

/**
 * ln P(v) + Σ_a ln P(a = x_a | v) over the observed, seen attributes of each row of `data` (the
 * training data's columns), C scores per row. The rows are scored in column order: scores row j
 * belongs to rows[order[j]] (to rows[j] when there is no order), so that callers put back one
 * answer per row rather than C scores.
 */
function scoresInColumnOrder(
  model: NaiveBayesModel,
  data: CategoricalDataset,
  rows: Int32Array,
): { scores: Float64Array; order?: Int32Array } {
  const columns = model.columnOf.map((c) => data.columns[c]!);
  const order = columnOrder(rows, data.rowCount);
  const ordered = order ? Int32Array.from(order, (i) => rows[i]!) : rows;
  return { scores: logScoresInOrder(model, columns, ordered), order };
}

/**
 * One attribute at a time over all the rows, so that its column and its small table stay in
 * cache; each row still adds its terms in attribute order, as eq. 6.20 is written.
 */
function logScoresInOrder(model: NaiveBayesModel, columns: readonly Int32Array[], rows: Int32Array): Float64Array {
  const C = model.target.values.length;
  const scores = new Float64Array(rows.length * C);
  for (let i = 0; i < rows.length; i++) for (let v = 0; v < C; v++) scores[i * C + v] = model.logPrior[v]!;
  columns.forEach((column, a) => addEvidence(scores, column, rows, evidenceTable(model, a), C));
  return scores;
}

/**
 * Attribute a's terms by value, value-major: row x + 1 holds ln P(a = x | v) for each class v.
 * Row 0 (missing) and the rows of values left out (usesValue: unseen and not smoothed) hold 0: like
 * Table 6.2's unknown words, they say nothing about v (adding 0 leaves a score as skipping would).
 */
function evidenceTable(model: NaiveBayesModel, a: number): Float64Array {
  const C = model.target.values.length,
    k = model.attributes[a]!.values.length;
  const table = new Float64Array((k + 1) * C);
  const logLikelihood = model.logLikelihood[a]!;
  for (let x = 0; x < k; x++)
    if (usesValue(model, a, x)) for (let v = 0; v < C; v++) table[(x + 1) * C + v] = logLikelihood[v * k + x]!;
  return table;
}

function addEvidence(scores: Float64Array, column: Int32Array, rows: Int32Array, table: Float64Array, C: number) {
  const k = table.length / C - 1;
  for (let i = 0; i < rows.length; i++) {
    const x = column[rows[i]!]!;
    // A code outside the model's domain (another data set's value) counts as unseen.
    const at = x >= 0 && x < k ? (x + 1) * C : 0;
    for (let v = 0; v < C; v++) scores[i * C + v]! += table[at + v]!;
  }
}

/** v_NB of row i of the scores; MISSING when every class has probability 0. */
function predictedClass(scores: Float64Array, i: number, C: number): number {
  const v = argmax(scores, i * C, (i + 1) * C);
  return scores[i * C + v] === -Infinity ? MISSING : v;
}

/** v_NB of rows of an encoded data set (same columns as the training data); MISSING when impossible. */
export function naiveBayesPredict(model: NaiveBayesModel, data: CategoricalDataset, rows: Int32Array): Int32Array {
  const C = model.target.values.length;
  const { scores, order } = scoresInColumnOrder(model, data, rows);
  const predicted = new Int32Array(rows.length);
  for (let j = 0; j < rows.length; j++) predicted[order ? order[j]! : j] = predictedClass(scores, j, C);
  return predicted;
}

/** Class posteriors of rows of an encoded data set (same columns as the training data). */
export function naiveBayesPosteriors(
  model: NaiveBayesModel,
  data: CategoricalDataset,
  rows: Int32Array,
): { predicted: Int32Array; posteriors: Float64Array } {
  const C = model.target.values.length;
  const { scores, order } = scoresInColumnOrder(model, data, rows);
  // Each row's scores become its posteriors in place, once its class has been read off them.
  const predicted = new Int32Array(rows.length);
  const posteriors = order ? new Float64Array(scores.length) : scores;
  for (let j = 0; j < rows.length; j++) {
    const i = order ? order[j]! : j;
    predicted[i] = predictedClass(scores, j, C);
    if (!normalizeLogInPlace(scores, j * C, (j + 1) * C)) scores.fill(NaN, j * C, (j + 1) * C);
    if (order) posteriors.set(scores.subarray(j * C, (j + 1) * C), i * C);
  }
  return { predicted, posteriors };
}

/**
 * The classifier as the belief network it is (Poole fig. 10.3): the class is the root, each
 * attribute a child of the class alone, with the smoothed tables the classifier uses. Queries
 * such as P(Play | Outlook = Sunny) then run through ordinary inference.
 */
export function naiveBayesNetwork(model: NaiveBayesModel, name: string): BayesianNetwork {
  const variables = [model.target, ...model.attributes].map((a) => ({ name: a.name, states: [...a.values] }));
  const cpts = [
    { child: 0, parents: [], table: Float64Array.from(model.logPrior, Math.exp) },
    ...model.logLikelihood.map((table, a) => ({
      child: a + 1,
      parents: [0],
      table: Float64Array.from(table, Math.exp),
    })),
  ];
  return { name, variables, cpts };
}
