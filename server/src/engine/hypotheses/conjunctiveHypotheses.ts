/**
 * Conjunctive hypotheses over categorical attributes (Mitchell §2.2): one constraint per
 * attribute, either '?' (any value) or a required value; plus the empty hypothesis ∅ that
 * classifies every instance negative. Every non-empty conjunction denotes a different set of
 * instances, so the semantically distinct hypotheses number 1 + Π_i (k_i + 1).
 */
import { EngineError } from '../engineError.js';
import { attributeIndex, MISSING, type CategoricalAttribute, type CategoricalDataset } from '../categoricalData.js';

/** constraints[i] = required value code of attribute i, or ANY; `null` is the empty hypothesis ∅. */
export type Conjunction = Int32Array | null;
export const ANY = -1;

/** Training examples for a Boolean target concept, encoded. */
export interface ConceptExamples {
  attributes: CategoricalAttribute[];
  /** rows[e][i] = value code of attribute i in example e. */
  rows: Int32Array[];
  positive: boolean[];
}

/** Reads examples `target = positiveValue` vs the rest from a data set (no missing values). */
export function conceptExamples(
  data: CategoricalDataset,
  inputs: readonly string[],
  target: string,
  positiveValue: string,
): ConceptExamples {
  const t = attributeIndex(data, target);
  const positiveCode = data.attributes[t]!.values.indexOf(positiveValue);
  if (positiveCode < 0) throw new EngineError(`'${positiveValue}' is not a value of ${target}`);
  const columns = inputs.map((name) => attributeIndex(data, name));
  const rows: Int32Array[] = [],
    positive: boolean[] = [];
  for (let r = 0; r < data.rowCount; r++) {
    const row = Int32Array.from(columns, (c) => data.columns[c]![r]!);
    if (row.includes(MISSING) || data.columns[t]![r] === MISSING) {
      throw new EngineError(`example ${r + 1} has a missing value: concept learning needs complete examples`);
    }
    rows.push(row);
    positive.push(data.columns[t]![r] === positiveCode);
  }
  return { attributes: columns.map((c) => data.attributes[c]!), rows, positive };
}

export function hypothesisSpaceSize(attributes: readonly CategoricalAttribute[]): bigint {
  return attributes.reduce((n, a) => n * BigInt(a.values.length + 1), 1n) + 1n;
}

export function covers(h: Conjunction, x: Int32Array): boolean {
  if (h === null) return false;
  for (let i = 0; i < h.length; i++) if (h[i] !== ANY && h[i] !== x[i]) return false;
  return true;
}

/** h1 ≥g h2: every instance h2 covers, h1 covers too. */
export function moreGeneralOrEqual(h1: Conjunction, h2: Conjunction): boolean {
  if (h2 === null) return true;
  if (h1 === null) return false;
  for (let i = 0; i < h1.length; i++) if (h1[i] !== ANY && h1[i] !== h2[i]) return false;
  return true;
}

/** Mitchell's notation: <Sunny, Warm, ?, Strong, ?, ?>, and <∅, …, ∅> for the empty hypothesis. */
export function describeConjunction(h: Conjunction, attributes: readonly CategoricalAttribute[]): string[] {
  return attributes.map((a, i) => (h === null ? '∅' : h[i] === ANY ? '?' : a.values[h[i]!]!));
}
