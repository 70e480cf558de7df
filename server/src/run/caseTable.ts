/**
 * A data set as records over a network's variables, for `predict` and `validate`: each column
 * naming a variable re-indexed onto the variable's states (a value outside them is an error on
 * the data set's name), the other columns ignored.
 */
import type * as A from '../language/ast.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { CaseTable } from '../engine/classifiers/validation.js';
import { CompileError } from '../model/compileError.js';
import type { Diagnostic } from '../language/diagnostics.js';

export interface NamedCaseTable {
  table: CaseTable;
  /** Evidence columns (every variable column but the target's), and columns naming no variable. */
  evidence: string[];
  ignored: string[];
}

export function caseTable(net: BayesianNetwork, target: number, data: CategoricalDataset, on: A.Name): NamedCaseTable {
  const byName = new Map(data.attributes.map((a, i) => [a.name, i]));
  const columns = net.variables.map((v) => {
    const c = byName.get(v.name);
    if (c === undefined) return undefined;
    const map = data.attributes[c]!.values.map((value) => v.states.indexOf(value));
    const bad = data.attributes[c]!.values.filter((_, i) => map[i]! < 0);
    if (bad.length)
      throw new CompileError(
        `column ${v.name} of '${on.text}' has values that are not states of ${v.name} (${v.states.join(', ')}): ${bad.join(', ')}`,
        on.range,
      );
    return data.columns[c]!.map((s) => (s < 0 ? -1 : map[s]!));
  });
  const names = new Set(net.variables.map((v) => v.name));
  return {
    table: { columns, rowCount: data.rowCount },
    evidence: net.variables.filter((v, i) => i !== target && columns[i]).map((v) => v.name),
    ignored: data.attributes.filter((a) => !names.has(a.name)).map((a) => a.name),
  };
}

/** The information diagnostic for ignored columns (none when every column is a variable). */
export function ignoredColumns(ignored: string[], on: A.Name, network: string): Diagnostic[] {
  if (!ignored.length) return [];
  const one = ignored.length === 1;
  return [
    {
      severity: 'information',
      code: 'unused-column',
      range: on.range,
      message: `column${one ? '' : 's'} ${ignored.join(', ')} of '${on.text}' ${one ? 'is no variable' : 'are no variables'} of ${network}: ignored`,
    },
  ];
}
