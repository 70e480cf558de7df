/**
 * Data for learning networks: a CategoricalDataset (categoricalData.ts) — one Int32 column per
 * variable, each cell the index of its value, −1 missing — so a million rows never hold a
 * string per cell. Here: grouping rows into distinct patterns, and aligning a table to a
 * network's variables.
 */
import type { DiscreteVariable } from './network.js';
import { MISSING, type CategoricalDataset } from './categoricalData.js';

/** Continuous data for mixtures: row-major `rows × dims` values. */
export interface NumericData {
  names: string[];
  values: Float64Array;
  rows: number;
  dims: number;
}

/**
 * The named columns of numeric data, in the order named; `missing(name)` makes the error for a
 * name that is not a column (callers word it for their user: a diagnostic, a usage error).
 */
export function numericColumns(
  data: NumericData,
  names: readonly string[],
  missing: (name: string) => Error,
): NumericData {
  const picks = names.map((name) => {
    const i = data.names.indexOf(name);
    if (i < 0) throw missing(name);
    return i;
  });
  const values = new Float64Array(data.rows * picks.length);
  for (let r = 0; r < data.rows; r++)
    picks.forEach((c, j) => {
      values[r * picks.length + j] = data.values[r * data.dims + c]!;
    });
  return { names: [...names], values, rows: data.rows, dims: picks.length };
}

/** Distinct rows of a data set with their multiplicities — real data repeats, so the E-step runs once per pattern. */
export interface RowPatterns {
  /** Row-major `count × variables` state indices (−1 missing). */
  states: Int32Array;
  /** How many data rows have each pattern. */
  weights: Float64Array;
  count: number;
  width: number;
}

export function groupRows(data: CategoricalDataset): RowPatterns {
  const width = data.columns.length;
  const cols = data.columns;
  // Open addressing on a row hash (no string key per row, so a million rows stay cheap); the
  // table doubles whenever it is half full.
  let capacity = 1024;

  let slots = new Int32Array(capacity).fill(-1);
  let states = new Int32Array(Math.max(16, Math.min(data.rowCount, 4096)) * width);
  let weights = new Float64Array(states.length / width);
  let count = 0;
  const row = new Int32Array(width);
  const find = (cells: ArrayLike<number>, at: number): number => {
    const mask = slots.length - 1;
    let h = 0x811c9dc5;
    for (let c = 0; c < width; c++) h = Math.imul(h ^ (cells[at + c]! + 1), 0x01000193);
    let slot = (h ^ (h >>> 15)) & mask;
    for (;;) {
      const p = slots[slot]!;
      if (p < 0) return slot;
      let same = true;
      for (let c = 0, o = p * width; c < width; c++, o++)
        if (states[o] !== cells[at + c]) {
          same = false;
          break;
        }
      if (same) return slot;
      slot = (slot + 1) & mask;
    }
  };
  for (let r = 0; r < data.rowCount; r++) {
    for (let c = 0; c < width; c++) row[c] = cols[c]![r]!;
    let slot = find(row, 0);
    const p = slots[slot]!;
    if (p >= 0) {
      weights[p]!++;
      continue;
    }
    if ((count + 1) * width > states.length) {
      const s2 = new Int32Array(states.length * 2);
      s2.set(states);
      states = s2;
      const w2 = new Float64Array(weights.length * 2);
      w2.set(weights);
      weights = w2;
    }
    states.set(row, count * width);
    weights[count] = 1;
    if (2 * (count + 1) > slots.length) {
      slots = new Int32Array(slots.length * 2).fill(-1);
      for (let q = 0; q < count; q++) slots[find(states, q * width)] = q;
      slot = find(row, 0);
    }
    slots[slot] = count++;
  }
  return { states: states.slice(0, count * width), weights: weights.slice(0, count), count, width };
}

export type AlignResult = { data: CategoricalDataset; hidden: string[] } | { error: string };

/**
 * Re-indexes a table onto a network's variables: columns in network order, cells as the
 * network's state indices. A network variable with no column is hidden (all missing); a column
 * the network does not have, or a value that is not one of the variable's states, is an error.
 */
export function alignToNetwork(variables: DiscreteVariable[], data: CategoricalDataset): AlignResult {
  const byName = new Map(data.attributes.map((a, i) => [a.name, i]));
  const known = new Set(variables.map((v) => v.name));
  const extra = data.attributes.filter((a) => !known.has(a.name)).map((a) => a.name);
  if (extra.length) return { error: `the data has columns the network does not: ${extra.join(', ')}` };
  const hidden: string[] = [];
  const columns: Int32Array[] = [];
  for (const v of variables) {
    const c = byName.get(v.name);
    if (c === undefined) {
      columns.push(new Int32Array(data.rowCount).fill(MISSING));
      hidden.push(v.name);
      continue;
    }
    const values = data.attributes[c]!.values;
    // Read with the network's states already (model/dataTable's `declared`): share the column.
    if (values.length <= v.states.length && values.every((s, i) => s === v.states[i])) {
      columns.push(data.columns[c]!);
      continue;
    }
    const map = values.map((s) => v.states.indexOf(s));
    const bad = values.filter((_, i) => map[i]! < 0);
    if (bad.length)
      return {
        error: `column ${v.name} has values that are not its states (${v.states.join(', ')}): ${bad.join(', ')}`,
      };
    const src = data.columns[c]!,
      col = new Int32Array(data.rowCount);
    for (let r = 0; r < data.rowCount; r++) col[r] = src[r]! < 0 ? MISSING : map[src[r]!]!;
    columns.push(col);
  }
  return { data: networkDataset(variables, columns, data.rowCount), hidden };
}

/** A dataset whose columns are a network's variables, in network order. */
export function networkDataset(
  variables: DiscreteVariable[],
  columns: Int32Array[],
  rowCount: number,
): CategoricalDataset {
  return { attributes: variables.map((v) => ({ name: v.name, values: v.states })), columns, rowCount };
}
