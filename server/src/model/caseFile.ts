/**
 * A case file (Netica's word): a CSV table of records to predict or score with a network, read
 * streaming — each record is handed on as it is split, so 10^5 rows need no table in memory.
 * The header names the columns; a column naming a network variable other than the target is
 * evidence, the target's column (if any) is the record's true value, any other column is
 * ignored. `?` or an empty cell is unobserved; any other cell must be a state of its variable.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DataError, eachRecord, EMPTY_TABLE, type Input } from './dataTable.js';

export interface CaseLayout {
  /** Network variable of each evidence column, and that column's place in the file. */
  evidenceVariables: number[];
  evidenceColumns: number[];
  /** The target's column in the file, or −1 when the file has none. */
  targetColumn: number;
  /** Header names that are no network variable (ignored). */
  ignored: string[];
}

/** One record: evidence states (−1 unobserved) in layout order, the true target state (−1 unknown), its line. */
export type CaseHandler = (evidence: Int32Array, truth: number, line: number) => void;

export async function readCases(
  input: Input,
  net: BayesianNetwork,
  target: number,
  onCase: CaseHandler,
  onLayout?: (layout: CaseLayout) => void,
): Promise<{ layout: CaseLayout; rows: number }> {
  let layout: CaseLayout | undefined;
  let lookups: Map<string, number>[] = [];
  let width = 0,
    rows = 0;
  let evidence = new Int32Array(0);
  const targetStates = new Map(net.variables[target]!.states.map((s, i) => [s, i]));
  await eachRecord(input, ',', (record, line) => {
    if (!layout) {
      layout = caseLayout(record, net, target, line);
      width = record.length;
      lookups = layout.evidenceVariables.map((v) => new Map(net.variables[v]!.states.map((s, i) => [s, i])));
      evidence = new Int32Array(layout.evidenceVariables.length);
      onLayout?.(layout);
      return;
    }
    if (record.length !== width)
      throw new DataError(`${record.length} values, expected ${width} (one per column)`, line);
    const l = layout;
    for (let c = 0; c < l.evidenceColumns.length; c++)
      evidence[c] = stateOf(record[l.evidenceColumns[c]!]!, lookups[c]!, net.variables[l.evidenceVariables[c]!]!, line);
    const truth =
      l.targetColumn < 0 ? -1 : stateOf(record[l.targetColumn]!, targetStates, net.variables[target]!, line);
    rows++;
    onCase(evidence, truth, line);
  });
  if (!layout) throw new DataError(EMPTY_TABLE, 1);
  return { layout, rows };
}

function stateOf(cell: string, states: Map<string, number>, v: { name: string; states: string[] }, line: number) {
  if (cell === '' || cell === '?') return -1;
  const s = states.get(cell);
  if (s === undefined)
    throw new DataError(`'${cell}' is not a state of ${v.name} (states: ${v.states.join(', ')})`, line);
  return s;
}

function caseLayout(header: string[], net: BayesianNetwork, target: number, line: number): CaseLayout {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const layout: CaseLayout = { evidenceVariables: [], evidenceColumns: [], targetColumn: -1, ignored: [] };
  const seen = new Set<string>();
  header.forEach((name, c) => {
    if (seen.has(name)) throw new DataError(`column '${name}' appears twice in the header`, line);
    seen.add(name);
    const v = index.get(name);
    if (v === undefined) layout.ignored.push(name);
    else if (v === target) layout.targetColumn = c;
    else {
      layout.evidenceVariables.push(v);
      layout.evidenceColumns.push(c);
    }
  });
  if (layout.evidenceVariables.length === 0 && layout.targetColumn < 0)
    throw new DataError(`no column names a variable of ${net.name} (header: ${header.join(', ')})`, line);
  return layout;
}
