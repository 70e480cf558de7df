/**
 * A `network N { … }` block (or the file's top-level variables and tables) as the network IR:
 * variables with their states, one CPT per variable in BIF row order. Entries the model does not
 * give (a table learned from data, a missing row) are NaN, as the IR marks unknown entries.
 * Used to export a network as BIF and to show its graph; the checker has already reported what
 * is wrong with the tables, so this takes what is there.
 */
import type * as A from '../language/index.js';
import type { BayesianNetwork, Cpt, DiscreteVariable } from '../engine/network.js';

export function networkFromStatements(name: string, statements: readonly A.Statement[]): BayesianNetwork {
  const variables: DiscreteVariable[] = [];
  for (const s of statements) {
    if (s.kind === 'variable' && s.domain.type !== 'real') {
      const states = s.domain.type === 'bool' ? ['true', 'false'] : s.domain.states.map((x) => x.text);
      for (const n of s.names) variables.push({ name: n.text, states });
    }
    if (s.kind === 'hypotheses' && !s.generator) variables.push({ name: s.name.text, states: s.entries.map((e) => e.name.text) });
  }
  const index = new Map(variables.map((v, i) => [v.name, i]));
  const cpts: Cpt[] = variables.map((_, child) => ({ child, parents: [], table: new Float64Array(variables[child].states.length).fill(NaN) }));
  for (const s of statements) {
    if (s.kind === 'hypotheses' && !s.generator) fillPriors(cpts[index.get(s.name.text)!], s, variables);
    if (s.kind !== 'table') continue;
    const child = index.get(s.head.targets[0]?.variable.text ?? '');
    const parents = s.head.conditions.map((c) => index.get(c.variable.text));
    if (child === undefined || parents.some((p) => p === undefined)) continue;
    cpts[child] = tableCpt(s, child, parents as number[], variables);
  }
  return { name, variables, cpts };
}

/** The networks a file declares: each `network` block, and the top level when it has variables. */
export function networksOf(file: A.BayesFile, fileName: string): BayesianNetwork[] {
  const nets = file.statements.filter((s): s is A.NetworkDecl => s.kind === 'network').map((n) => networkFromStatements(n.name.text, n.statements));
  const top = networkFromStatements(fileName, file.statements);
  return top.variables.length > 0 ? [top, ...nets] : nets;
}

function fillPriors(cpt: Cpt, s: A.HypothesesDecl, variables: DiscreteVariable[]): void {
  const k = variables[cpt.child].states.length;
  s.entries.forEach((e, i) => (cpt.table[i] = e.prior ? e.prior.value : s.prior?.text === 'uniform' ? 1 / k : NaN));
}

function tableCpt(t: A.TableDecl, child: number, parents: number[], variables: DiscreteVariable[]): Cpt {
  const states = variables[child].states;
  const k = states.length;
  const radices = parents.map((p) => variables[p].states);
  const rows = radices.reduce((n, r) => n * r.length, 1);
  const table = new Float64Array(rows * k).fill(NaN);
  const bool = k === 2 && states[0] === 'true' && states[1] === 'false';
  const put = (row: number, entries: number[]) => entries.forEach((x, i) => (table[row * k + i] = x));
  if (t.value) put(0, [t.value.value, 1 - t.value.value]);
  if (parents.length === 0) {
    for (const r of t.rows) {
      const x = states.indexOf(r.keys[0]?.text ?? '');
      if (x >= 0 && r.entries[0]) table[x] = r.entries[0].value.value;
    }
  } else {
    for (const r of t.rows) {
      const row = rowIndex(r.keys.map((key) => key.text), radices);
      if (row === undefined) continue;
      if (r.form === 'map') for (const e of r.entries) { const x = states.indexOf(e.state?.text ?? ''); if (x >= 0) table[row * k + x] = e.value.value; }
      else if (r.form === 'single' && bool && r.entries[0]) put(row, [r.entries[0].value.value, 1 - r.entries[0].value.value]);
      else put(row, r.entries.slice(0, k).map((e) => e.value.value));
    }
  }
  return { child, parents, table };
}

/** The mixed-radix row number of parent states (first parent slowest), or undefined for an unknown state. */
function rowIndex(keys: string[], radices: string[][]): number | undefined {
  if (keys.length !== radices.length) return undefined;
  let row = 0;
  for (let i = 0; i < keys.length; i++) {
    const s = radices[i].indexOf(keys[i]);
    if (s < 0) return undefined;
    row = row * radices[i].length + s;
  }
  return row;
}
