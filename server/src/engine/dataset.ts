/**
 * Data the learning algorithms read: one integer column per discrete variable, each cell the
 * index of its state in `variables[c].states`, −1 when the value is missing. Columns are typed
 * arrays sized to the variable's cardinality (Int8 up to 127 states), so a million rows of a
 * 37-variable table take 37 MB and never hold a string per cell.
 */
import type { DiscreteVariable } from './network.js';

export type StateColumn = Int8Array | Int16Array | Int32Array;

export interface DiscreteData {
  variables: DiscreteVariable[];
  columns: StateColumn[];
  rows: number;
}

export const MISSING = -1;

/** Continuous data for mixtures: row-major `rows × dims` values. */
export interface NumericData {
  names: string[];
  values: Float64Array;
  rows: number;
  dims: number;
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

export function groupRows(data: DiscreteData): RowPatterns {
  const width = data.columns.length;
  const index = new Map<string, number>();
  const states: number[] = [];
  const weights: number[] = [];
  const codes = new Array<number>(width);
  for (let r = 0; r < data.rows; r++) {
    // States fit in 16 bits; +1 lifts MISSING to 0 so one char per cell is an exact key.
    for (let c = 0; c < width; c++) codes[c] = data.columns[c]![r]! + 1;
    const key = String.fromCharCode(...codes);
    const at = index.get(key);
    if (at !== undefined) { weights[at]!++; continue; }
    index.set(key, weights.length);
    weights.push(1);
    for (let c = 0; c < width; c++) states.push(codes[c]! - 1);
  }
  return { states: Int32Array.from(states), weights: Float64Array.from(weights), count: weights.length, width };
}

/** A state column of the smallest integer type that holds `cardinality` states and −1. */
export function stateColumn(length: number, cardinality: number): StateColumn {
  if (cardinality <= 127) return new Int8Array(length);
  if (cardinality <= 32767) return new Int16Array(length);
  return new Int32Array(length);
}

export type AlignResult = { data: DiscreteData; hidden: string[] } | { error: string };

/**
 * Re-indexes a table onto a network's variables: columns in network order, cells as the
 * network's state indices. A network variable with no column is hidden (all missing); a column
 * the network does not have, or a value that is not one of the variable's states, is an error.
 */
export function alignToNetwork(variables: DiscreteVariable[], data: DiscreteData): AlignResult {
  const byName = new Map(data.variables.map((v, i) => [v.name, i]));
  const known = new Set(variables.map((v) => v.name));
  const extra = data.variables.filter((v) => !known.has(v.name)).map((v) => v.name);
  if (extra.length) return { error: `the data has columns the network does not: ${extra.join(', ')}` };
  const hidden: string[] = [];
  const columns: StateColumn[] = [];
  for (const v of variables) {
    const c = byName.get(v.name);
    const col = stateColumn(data.rows, v.states.length);
    columns.push(col);
    if (c === undefined) { col.fill(MISSING); hidden.push(v.name); continue; }
    const map = data.variables[c]!.states.map((s) => v.states.indexOf(s));
    const bad = data.variables[c]!.states.filter((_, i) => map[i]! < 0);
    if (bad.length) return { error: `column ${v.name} has values that are not its states (${v.states.join(', ')}): ${bad.join(', ')}` };
    const src = data.columns[c]!;
    for (let r = 0; r < data.rows; r++) col[r] = src[r]! < 0 ? MISSING : map[src[r]!]!;
  }
  return { data: { variables, columns, rows: data.rows }, hidden };
}
