/**
 * Observations of a network over time: a CSV whose header names observed variables and whose
 * rows are the steps t = 1, 2, … in order; a cell `?` or empty is a missing value (that variable
 * was not observed at that step). Pure: the caller reads the text.
 */
import type { DiscreteVariable } from '../engine/network.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import { CsvSplitter, CsvSyntaxError } from './csvSplitter.js';

export interface SequenceError {
  line: number;
  column: number;
  message: string;
}

/** One column per observed variable; `findings[t−1]` are step t's. */
export function readObservationSequence(
  text: string,
  variables: readonly DiscreteVariable[],
): { findings: StepFindings[] } | { error: SequenceError } {
  const r = readSequence(
    text,
    variables.map((v) => v.name),
    (v, cell) => {
      const s = variables[v]!.states.indexOf(cell);
      return s >= 0 ? s : `'${cell}' is not a state of ${variables[v]!.name} (${variables[v]!.states.join(', ')})`;
    },
  );
  return 'error' in r ? r : { findings: r.steps.map((evidence) => ({ evidence })) };
}

/**
 * Readings of a Gaussian network over time (all variables real): each cell a finite number, `?`
 * or empty when missing; `steps[t−1]` maps step t's observed variables to their values.
 */
export function readNumericSequence(
  text: string,
  names: readonly string[],
): { steps: Map<number, number>[] } | { error: SequenceError } {
  return readSequence(text, names, (v, cell) => {
    const x = Number(cell);
    return Number.isFinite(x) && /^[-+]?(\d|\.\d)/.test(cell) ? x : `'${cell}' is not a number (${names[v]} is real)`;
  });
}

/** The header and the rows, each cell read by `value` (a number, or an error message). */
function readSequence(
  text: string,
  names: readonly string[],
  value: (v: number, cell: string) => number | string,
): { steps: Map<number, number>[] } | { error: SequenceError } {
  const index = new Map(names.map((v, i) => [v, i]));
  let columns: number[] | undefined;
  const steps: Map<number, number>[] = [];
  let error: SequenceError | undefined;
  const splitter = new CsvSplitter(',', (cells, line) => {
    if (error) return;
    if (!columns) {
      columns = [];
      for (let j = 0; j < cells.length; j++) {
        const name = cells[j]!.trim();
        const v = index.get(name);
        if (v === undefined) {
          error = {
            line,
            column: columnOf(cells, j),
            message: `'${name}' is not a variable of the network (${names.join(', ')})`,
          };
          return;
        }
        if (columns.includes(v)) {
          error = { line, column: columnOf(cells, j), message: `'${name}' is a column twice` };
          return;
        }
        columns.push(v);
      }
      return;
    }
    if (cells.length === 1 && cells[0]!.trim() === '' && columns.length > 1) return; // a blank line
    if (cells.length !== columns.length) {
      error = { line, column: 1, message: `${cells.length} cells, the header has ${columns.length}` };
      return;
    }
    const evidence = new Map<number, number>();
    for (let j = 0; j < cells.length; j++) {
      const cell = cells[j]!.trim();
      if (cell === '' || cell === '?') continue;
      const x = value(columns[j]!, cell);
      if (typeof x === 'string') {
        error = { line, column: columnOf(cells, j), message: x };
        return;
      }
      evidence.set(columns[j]!, x);
    }
    steps.push(evidence);
  });
  try {
    splitter.push(text);
    splitter.end();
  } catch (e) {
    if (!(e instanceof CsvSyntaxError)) throw e;
    return { error: { line: e.line, column: 1, message: e.message } };
  }
  if (error) return { error };
  if (!columns)
    return { error: { line: 1, column: 1, message: 'no header: the first line names the observed variables' } };
  return { steps };
}

/** The 1-based column where cell j starts (cells joined by commas, as written without quotes). */
function columnOf(cells: readonly string[], j: number): number {
  let c = 1;
  for (let i = 0; i < j; i++) c += cells[i]!.length + 1;
  return c;
}
