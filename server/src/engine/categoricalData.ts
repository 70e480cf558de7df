/**
 * A table of categorical examples, column-major with values as small integer codes: the shape
 * every counting learner (naive Bayes, decision trees, concept learning) reads. Encoding once
 * keeps the learners free of string handling and fast on real sizes.
 */
import { EngineError } from './engineError.js';
import { ownValue } from './records.js';

export interface CategoricalAttribute {
  name: string;
  values: readonly string[];
}

export interface CategoricalDataset {
  attributes: CategoricalAttribute[];
  /** columns[a][row] = index into attributes[a].values, or -1 when the value is missing. */
  columns: Int32Array[];
  rowCount: number;
  /**
   * How many times each row counts (absent: once each): a table of distinct rows with their
   * multiplicities, or a bootstrap resample as weights over the original rows. Only counting
   * (countConfigurations, and the structure scores on it) honours weights; expandRows turns
   * them back into rows for everything else.
   */
  weights?: Float64Array;
}

/** Marker for a missing value in raw rows (the language writes `?`). */
export const MISSING = -1;

/**
 * Encodes rows of strings (null, undefined or '?' = missing). Domains are `declared` ones when
 * given (a value outside them is an error) and otherwise the values in order of first appearance.
 */
export function encodeCategorical(
  header: readonly string[],
  rows: readonly (readonly (string | null | undefined)[])[],
  declared: Readonly<Record<string, readonly string[]>> = {},
): CategoricalDataset {
  const domains = header.map((name) => ownValue(declared, name));
  const attributes = header.map((name, a) => ({ name, values: [...(domains[a] ?? [])] }));
  const lookups = attributes.map((a) => new Map(a.values.map((v, i) => [v, i])));
  const columns = header.map(() => new Int32Array(rows.length));
  rows.forEach((row, r) => {
    if (row.length !== header.length)
      throw new EngineError(
        `row ${r + 1} has ${row.length} value${row.length === 1 ? '' : 's'} for ${header.length} columns`,
      );
    row.forEach((raw, a) => {
      columns[a]![r] = encodeValue(raw, attributes[a]!, lookups[a]!, domains[a] !== undefined, r);
    });
  });
  return { attributes, columns, rowCount: rows.length };
}

function encodeValue(
  raw: string | null | undefined,
  attribute: { name: string; values: string[] },
  lookup: Map<string, number>,
  fixed: boolean,
  row: number,
): number {
  if (raw === null || raw === undefined || raw === '?') return MISSING;
  let code = lookup.get(raw);
  if (code === undefined) {
    if (fixed)
      throw new EngineError(
        `row ${row + 1}: '${raw}' is not a value of ${attribute.name} (values: ${attribute.values.join(', ')})`,
      );
    code = attribute.values.length;
    attribute.values.push(raw);
    lookup.set(raw, code);
  }
  return code;
}

export function attributeIndex(data: CategoricalDataset, name: string): number {
  const i = data.attributes.findIndex((a) => a.name === name);
  if (i < 0) throw new EngineError(`no column '${name}' (columns: ${data.attributes.map((a) => a.name).join(', ')})`);
  return i;
}

/** 0..n−1, the default row selection. */
export function allRows(n: number): Int32Array {
  const rows = new Int32Array(n);
  for (let i = 0; i < n; i++) rows[i] = i;
  return rows;
}

/**
 * Below this many rows a column (4 bytes a value) fits in a core's cache, so the order it is read
 * in costs next to nothing and sorting would be all overhead (most of a first, not yet compiled run).
 */
export const CACHED_ROWS = 1 << 15;

/**
 * A permutation `order` of the positions of `rows` with rows[order[0]] ≤ rows[order[1]] ≤ …, or
 * undefined when the rows are best read as given: already ascending, a table of fewer than
 * `cachedRows` rows, or so few rows of a long table that a pass over the table costs more than it
 * saves. Columns read in row order are read front to back; read in a shuffled fold's order, every
 * value is a cache miss, which at 1e6 rows is most of the time of counting or classifying.
 */
export function columnOrder(rows: Int32Array, rowCount: number, cachedRows = CACHED_ROWS): Int32Array | undefined {
  if (rowCount < cachedRows || rows.length * 64 < rowCount) return undefined;
  let ascending = true;
  for (let i = 1; i < rows.length && ascending; i++) ascending = rows[i - 1]! <= rows[i]!;
  if (ascending) return undefined;
  // A counting sort, O(rows + rowCount), stable, repeats kept (a bootstrap sample repeats rows).
  const start = new Int32Array(rowCount + 1);
  for (let i = 0; i < rows.length; i++) start[rows[i]! + 1]!++;
  for (let r = 0; r < rowCount; r++) start[r + 1]! += start[r]!;
  const order = new Int32Array(rows.length);
  for (let i = 0; i < rows.length; i++) order[start[rows[i]!]!++] = i;
  return order;
}

/**
 * The distinct rows of `data` with how many times each occurs (missing values included in the
 * match): counting over them, weighted, gives the same counts in fewer passes (10,000 ALARM
 * records hold ≈ 6,000 distinct rows). Weights of equal rows add up.
 */
export function distinctRows(data: CategoricalDataset): CategoricalDataset & { weights: Float64Array; of: Int32Array } {
  const index = new Map<string, number>();
  const of = new Int32Array(data.rowCount);
  const firsts: number[] = [];
  const weights: number[] = [];
  for (let r = 0; r < data.rowCount; r++) {
    const key = data.columns.map((c) => c[r]).join(',');
    let p = index.get(key);
    if (p === undefined) {
      p = firsts.length;
      index.set(key, p);
      firsts.push(r);
      weights.push(0);
    }
    of[r] = p;
    weights[p]! += data.weights?.[r] ?? 1;
  }
  const columns = data.columns.map((c) => Int32Array.from(firsts, (r) => c[r]!));
  return { attributes: data.attributes, columns, rowCount: firsts.length, weights: Float64Array.from(weights), of };
}

/** Rows repeated as their (whole) weights say, without weights: for learners that do not read weights. */
export function expandRows(data: CategoricalDataset): CategoricalDataset {
  const w = data.weights;
  if (!w) return data;
  const rows: number[] = [];
  for (let r = 0; r < data.rowCount; r++) {
    if (!Number.isInteger(w[r]!) || w[r]! < 0) throw new EngineError(`row ${r + 1} has weight ${w[r]}, not a count`);
    for (let k = 0; k < w[r]!; k++) rows.push(r);
  }
  const columns = data.columns.map((c) => Int32Array.from(rows, (r) => c[r]!));
  return { attributes: data.attributes, columns, rowCount: rows.length };
}
