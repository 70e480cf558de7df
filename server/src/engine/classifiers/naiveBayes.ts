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
  MISSING,
  type CategoricalAttribute,
  type CategoricalDataset,
} from '../categoricalData.js';
import { smoothedEstimate, type Smoothing } from '../estimators/mEstimate.js';
import { argmax, normalizeLog } from '../math/logMath.js';
import type { BayesianNetwork } from '../network.js';

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
  const labels = data.columns[t]!;
  const classCounts = new Float64Array(C);
  for (const r of rows) if (labels[r] !== MISSING) classCounts[labels[r]!]!++;
  const total = classCounts.reduce((s, n) => s + n, 0);
  if (total === 0) throw new EngineError(`no training example has a known ${target}`);
  const attributes = columnOf.map((c) => data.attributes[c]!);
  const counts = columnOf.map((c, a) => countByClass(data.columns[c]!, labels, rows, C, attributes[a]!.values.length));
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

function countByClass(column: Int32Array, labels: Int32Array, rows: Int32Array, C: number, k: number): Float64Array {
  const table = new Float64Array(C * k);
  for (const r of rows) {
    const v = labels[r]!,
      x = column[r]!;
    if (v !== MISSING && x !== MISSING) table[v * k + x]!++;
  }
  return table;
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
    const raw = instance[a.name];
    codes[i] = MISSING;
    if (raw === undefined || raw === '?') {
      ignored.push({ attribute: a.name, value: '?', reason: 'missing' });
      return;
    }
    const code = a.values.indexOf(raw);
    // Like Table 6.2's unknown words: a value without training evidence says nothing about v.
    if (code < 0 || !model.seen[i]![code]) ignored.push({ attribute: a.name, value: raw, reason: 'unseen' });
    else codes[i] = code;
  });
  const logScores = logScoresOf(model, codes);
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

/** ln P(v) + Σ ln P(a_i = codes[i] | v) over observed, seen attributes. */
function logScoresOf(model: NaiveBayesModel, codes: Int32Array): Float64Array {
  const C = model.target.values.length;
  const scores = Float64Array.from(model.logPrior);
  for (let a = 0; a < codes.length; a++) {
    const x = codes[a]!;
    if (x === MISSING) continue;
    const k = model.attributes[a]!.values.length,
      table = model.logLikelihood[a]!;
    for (let v = 0; v < C; v++) scores[v]! += table[v * k + x]!;
  }
  return scores;
}

/** Class posteriors of rows of an encoded data set (same columns as the training data). */
export function naiveBayesPosteriors(
  model: NaiveBayesModel,
  data: CategoricalDataset,
  rows: Int32Array,
): { predicted: Int32Array; posteriors: Float64Array } {
  const C = model.target.values.length;
  const predicted = new Int32Array(rows.length);
  const posteriors = new Float64Array(rows.length * C);
  const codes = new Int32Array(model.attributes.length);
  rows.forEach((r, i) => {
    model.columnOf.forEach((c, a) => {
      const x = data.columns[c]![r]!;
      codes[a] = x !== MISSING && x < model.seen[a]!.length && model.seen[a]![x] ? x : MISSING;
    });
    const scores = logScoresOf(model, codes);
    const p = normalizeLog(scores);
    predicted[i] = p ? argmax(scores) : MISSING;
    if (p) posteriors.set(p, i * C);
    else posteriors.fill(NaN, i * C, (i + 1) * C);
  });
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
