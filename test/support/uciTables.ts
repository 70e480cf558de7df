/**
 * The categorical UCI tables in ../shared/data/tables/uci (see its README), read as the tests and
 * bench/nb.ts use them: comma-separated rows, the class in a known column. A '?' in house-votes
 * (did not vote) and mushroom (stalk-root unknown) becomes the value 'unknown', so every side of a
 * comparison (scikit-learn cannot take missing values) sees the same categories.
 */
import { readFileSync } from 'node:fs';
import { encodeCategorical, type CategoricalDataset } from '../../server/src/engine/categoricalData.js';
import { sharedFile } from './shared.js';

export interface UciTable {
  name: string;
  file: string;
  header: string[];
  target: string;
}

const numbered = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);

export const UCI_CATEGORICAL: UciTable[] = [
  {
    name: 'car',
    file: 'car/car.data',
    header: ['buying', 'maint', 'doors', 'persons', 'lug_boot', 'safety', 'class'],
    target: 'class',
  },
  {
    name: 'nursery',
    file: 'nursery/nursery.data',
    header: ['parents', 'has_nurs', 'form', 'children', 'housing', 'finance', 'social', 'health', 'class'],
    target: 'class',
  },
  {
    name: 'mushroom',
    file: 'mushroom/agaricus-lepiota.data',
    header: ['class', ...numbered('a', 22)],
    target: 'class',
  },
  {
    name: 'house-votes-84',
    file: 'house-votes-84/house-votes-84.data',
    header: ['party', ...numbered('vote', 16)],
    target: 'party',
  },
];

/** A table as a categorical data set, or undefined when ../shared is absent. */
export function loadUciTable(table: UciTable): CategoricalDataset | undefined {
  const file = sharedFile('tables/uci', table.file);
  if (!file) return undefined;
  const rows = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) =>
      l
        .trim()
        .split(',')
        .map((v) => (v === '?' ? 'unknown' : v)),
    );
  return encodeCategorical(table.header, rows);
}

/** The peers' X (row-major value codes of the input attributes, rows × attributes) and y (class codes). */
export function peerMatrix(
  data: CategoricalDataset,
  target: string,
): { X: Int32Array; y: Int32Array; k: number[]; C: number } {
  const t = data.attributes.findIndex((a) => a.name === target);
  const inputs = data.columns.filter((_, i) => i !== t),
    m = inputs.length;
  const X = new Int32Array(data.rowCount * m);
  inputs.forEach((column, a) => {
    for (let r = 0; r < data.rowCount; r++) X[r * m + a] = column[r]!;
  });
  return {
    X,
    y: data.columns[t]!,
    k: data.attributes.filter((_, i) => i !== t).map((a) => a.values.length),
    C: data.attributes[t]!.values.length,
  };
}
