/**
 * Data for learning continuous and hybrid networks: each column is either continuous (numbers,
 * NaN missing) or discrete (codes into its levels, −1 missing). Tables are read as categorical
 * (model/dataTable.ts) and typed here: a column is continuous when every value it takes is a
 * number, unless the caller forces it either way.
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { EngineError } from '../engineError.js';
import { DEFAULT_BUDGETS, requireWithin, tableEntries } from '../budget.js';

export type HybridColumn =
  | { kind: 'continuous'; name: string; values: Float64Array }
  | { kind: 'discrete'; name: string; levels: readonly string[]; codes: Int32Array };

export interface HybridDataset {
  columns: HybridColumn[];
  rowCount: number;
}

export interface ColumnTyping {
  /** Columns to read as continuous whatever they hold (every value must be a number). */
  continuous?: readonly string[];
  /** Columns to read as discrete even when every value is a number (codes 0/1, counts). */
  discrete?: readonly string[];
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** Is this cell text a finite number (the forms a CSV writes: 1, -2.5, .5, 1e-3)? */
export function isNumberText(text: string): boolean {
  return NUMBER.test(text.trim()) && Number.isFinite(Number(text));
}

/** Types each column of a categorical table: see the head comment. */
export function typeColumns(data: CategoricalDataset, typing: ColumnTyping = {}): HybridDataset {
  const names = data.attributes.map((a) => a.name);
  for (const name of [...(typing.continuous ?? []), ...(typing.discrete ?? [])]) {
    if (!names.includes(name)) throw new EngineError(`'${name}' is not a column (${names.join(', ')})`);
  }
  const columns = data.attributes.map((attribute, a): HybridColumn => {
    const { name, values: levels } = attribute;
    const codes = data.columns[a]!;
    const numeric = levels.every(isNumberText);
    const forcedContinuous = typing.continuous?.includes(name) ?? false;
    if (forcedContinuous && !numeric) {
      const bad = levels.find((l) => !isNumberText(l));
      throw new EngineError(`column '${name}' cannot be continuous: '${bad}' is not a number`);
    }
    if (typing.discrete?.includes(name) || !(numeric || forcedContinuous) || levels.length === 0) {
      return { kind: 'discrete', name, levels, codes };
    }
    const byCode = levels.map(Number);
    const values = new Float64Array(data.rowCount);
    for (let r = 0; r < data.rowCount; r++) values[r] = codes[r]! < 0 ? NaN : byCode[codes[r]!]!;
    return { kind: 'continuous', name, values };
  });
  return { columns, rowCount: data.rowCount };
}

export function isContinuous(data: HybridDataset, v: number): boolean {
  return data.columns[v]!.kind === 'continuous';
}

/** The continuous column v's values (an error naming it when it is discrete). */
export function continuousValues(data: HybridDataset, v: number): Float64Array {
  const c = data.columns[v]!;
  if (c.kind !== 'continuous') throw new EngineError(`'${c.name}' is discrete, not continuous`);
  return c.values;
}

/**
 * Per row, the configuration of the discrete columns `discrete` (first slowest), −1 when one is
 * missing; and how many configurations there are.
 */
export function configurations(
  data: HybridDataset,
  discrete: readonly number[],
): { config: Int32Array; count: number } {
  const cards = discrete.map((d) => {
    const c = data.columns[d]!;
    return c.kind === 'discrete' ? c.levels.length : 1;
  });
  const names = discrete.map((d) => data.columns[d]!.name).join(', ');
  // Every fit keeps a list (and the search cache a matrix) per configuration.
  requireWithin(`the configurations of ${names}`, tableEntries(cards), DEFAULT_BUDGETS.maxTableEntries);
  const config = new Int32Array(data.rowCount);
  let count = 1;
  for (const d of discrete) {
    const c = data.columns[d]!;
    if (c.kind !== 'discrete') throw new EngineError(`'${c.name}' is continuous, not discrete`);
    const r = c.levels.length;
    for (let i = 0; i < data.rowCount; i++) {
      config[i] = config[i]! < 0 || c.codes[i]! < 0 ? -1 : config[i]! * r + c.codes[i]!;
    }
    count *= r;
  }
  return { config, count };
}

/** Rows with a value in every one of the columns `vars` (continuous or discrete). */
export function completeRows(data: HybridDataset, vars: readonly number[]): Int32Array {
  const keep: number[] = [];
  for (let i = 0; i < data.rowCount; i++) {
    if (vars.every((v) => present(data.columns[v]!, i))) keep.push(i);
  }
  return Int32Array.from(keep);
}

function present(c: HybridColumn, i: number): boolean {
  return c.kind === 'continuous' ? !Number.isNaN(c.values[i]!) : c.codes[i]! >= 0;
}
