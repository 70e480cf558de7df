/**
 * The symbol table: every declared name, the variables of each model scope (the file's default
 * model, each network, imported network, classifier and learned structure) and the columns of
 * every data set. Built in one pass over the AST; duplicates are reported while building.
 */
import type * as A from '../ast.js';
import { cellKind, cellText } from '../dataCells.js';
import type { CheckEnvironment } from '../environment.js';
import type { Reporter } from '../reporter.js';
import { resolveModelPath } from '../files.js';
import { CheckMemo } from '../memo.js';
import {
  ResolvedNames,
  type ColumnInfo,
  type DataInfo,
  type GlobalKind,
  type Scope,
  type SymbolTable,
  type VariableInfo,
} from './types.js';
import { allStatements, declaredKinds, trainingData } from './declarations.js';

export type { GlobalKind, GlobalSymbol, VariableInfo, Scope, ColumnInfo, DataInfo, SymbolTable } from './types.js';

export function buildSymbols(file: A.BayesFile, env: CheckEnvironment, report: Reporter): SymbolTable {
  const table: SymbolTable = {
    globals: new Map(),
    defaultScope: newScope('default', ''),
    scopes: new Map(),
    hypothesisEntries: new Map(),
    data: new Map(),
    tables: [],
    references: new ResolvedNames(),
  };
  declareStatements(table, file.statements, table.defaultScope, report);
  const statements = allStatements(file);
  for (const statement of statements) {
    if (statement.kind === 'data') table.data.set(statement.name.text, dataInfo(statement, env, report));
    if (statement.kind === 'import') table.scopes.set(statement.name.text, importScope(statement, env, report));
  }
  for (const statement of statements) {
    if (statement.kind === 'classifier') table.scopes.set(statement.name.text, classifierScope(statement, table));
    if (statement.kind === 'learn' && statement.structure) declareStructure(table, statement, report);
    if (statement.kind === 'queryStatement' && statement.query.form === 'strength') {
      declareStructure(table, statement.query, report, statement);
    }
  }
  return table;
}

function newScope(kind: Scope['kind'], name: string, open = false): Scope {
  return { kind, name, variables: new Map(), open };
}

function declareGlobal(table: SymbolTable, kind: GlobalKind, name: A.Name, node: A.Statement, report: Reporter): void {
  const existing = table.globals.get(name.text);
  if (existing && existing.kind !== 'unknown' && kind !== 'unknown') {
    report.error(
      'duplicate-name',
      `'${name.text}' is already declared (line ${existing.name.range.start.line + 1})`,
      name.range,
      { previous: existing.name.range },
    );
    return;
  }
  if (!existing || existing.kind === 'unknown') table.globals.set(name.text, { kind, name, node });
  table.references.set(name, name);
}

/** Declares a variable in its scope; false when the name was taken (and reported). */
function declareVariable(table: SymbolTable, scope: Scope, info: VariableInfo, report: Reporter): boolean {
  const existing = scope.variables.get(info.name);
  if (existing?.declaration && info.declaration) {
    const where = scope.kind === 'default' ? '' : ` in network '${scope.name}'`;
    report.error(
      'duplicate-name',
      `variable '${info.name}' is already declared${where} (line ${existing.declaration.range.start.line + 1})`,
      info.declaration.range,
      { previous: existing.declaration.range },
    );
    return false;
  }
  scope.variables.set(info.name, info);
  if (info.declaration) table.references.set(info.declaration, info.declaration);
  return true;
}

function declareStatements(table: SymbolTable, statements: A.Statement[], scope: Scope, report: Reporter): void {
  for (const s of statements) {
    const kind = declaredKinds[s.kind];
    if (s.kind === 'error') {
      for (const name of [...(s.name ? [s.name] : []), ...(s.others ?? [])])
        declareGlobal(table, 'unknown', name, s, report);
    } else if (kind && 'name' in s) {
      declareGlobal(table, kind, s.name, s, report);
    }
    switch (s.kind) {
      case 'variable': {
        const states = s.domain.type === 'real' ? undefined : stateList(table, s.domain.states);
        for (const name of s.names) {
          const declared = declareVariable(
            table,
            scope,
            { name: name.text, states, type: s.domain.type, declaration: name },
            report,
          );
          if (declared && scope.kind === 'default') declareGlobal(table, 'variable', name, s, report);
        }
        for (const duplicate of duplicateNames(s.domain.states)) {
          report.error('duplicate-state', `state '${duplicate.text}' is listed twice`, duplicate.range);
        }
        break;
      }
      case 'hypotheses':
        declareHypotheses(table, s, scope, report);
        break;
      case 'decision': {
        // A decision is a variable of its scope (tables may condition on it) whose value is chosen.
        const states = s.domain.type === 'real' ? undefined : stateList(table, s.domain.states);
        const info = { name: s.name.text, states, type: s.domain.type, declaration: s.name };
        const declared = declareVariable(table, scope, info, report);
        if (declared && scope.kind === 'default') declareGlobal(table, 'variable', s.name, s, report);
        for (const duplicate of duplicateNames(s.domain.states)) {
          report.error('duplicate-state', `state '${duplicate.text}' is listed twice`, duplicate.range);
        }
        break;
      }

      case 'network': {
        const inner = newScope('network', s.name.text);
        table.scopes.set(s.name.text, inner);
        if (scope.kind !== 'default')
          report.error('nested-network', 'a network cannot be declared inside another network', s.name.range);
        declareStatements(table, s.statements, inner, report);
        break;
      }
      case 'table':
        table.tables.push({ table: s, scope });
        break;
      default:
        break;
    }
  }
}

/** Each table's state lists by their content (see `stateList`). */
const stateLists = new WeakMap<SymbolTable, Map<string, string[]>>();

/**
 * The states `names` spell, as the one array the table holds for that list: variables declared
 * alike (`: bool`, the same states in network after network) share it, so the checker indexes
 * each distinct list once (`stateIndex` keeps an index per array), not once per variable.
 */
function stateList(table: SymbolTable, names: readonly A.Name[]): string[] {
  const states = names.map((n) => n.text);
  let lists = stateLists.get(table);
  if (!lists) stateLists.set(table, (lists = new Map()));
  const key = JSON.stringify(states);
  const known = lists.get(key);
  if (known) return known;
  lists.set(key, states);
  return states;
}

function declareHypotheses(table: SymbolTable, s: A.HypothesesDecl, scope: Scope, report: Reporter): void {
  const states = s.generator
    ? undefined
    : stateList(
        table,
        s.entries.map((e) => e.name),
      );
  declareVariable(table, scope, { name: s.name.text, states, type: 'hypotheses', declaration: s.name }, report);
  for (const duplicate of duplicateNames(s.entries.map((e) => e.name))) {
    report.error('duplicate-name', `hypothesis '${duplicate.text}' is listed twice`, duplicate.range);
  }
  for (const entry of s.entries) {
    if (!table.hypothesisEntries.has(entry.name.text))
      table.hypothesisEntries.set(entry.name.text, { space: s, entry });
    table.references.set(entry.name, entry.name);
  }
}

function duplicateNames(names: A.Name[]): A.Name[] {
  const seen = new Set<string>();
  return names.filter((n) => (seen.has(n.text) ? true : (seen.add(n.text), false)));
}

function dataInfo(decl: A.DataDecl, env: CheckEnvironment, report: Reporter): DataInfo {
  if (decl.source) {
    const path = resolveModelPath(decl.source, env, report);
    if (!path || !env.readCsvHeader) return { decl };
    const header = env.readCsvHeader(path);
    if (!Array.isArray(header)) {
      report.error('data-file', `cannot read "${decl.source.value}": ${header.error}`, decl.source.range);
      return { decl };
    }
    const columns = new Map<string, ColumnInfo>();
    for (const text of header)
      columns.set(text, { name: { kind: 'name', text, range: decl.source.range }, values: new Set(), numeric: false });
    return { decl, columns };
  }
  return { decl, columns: inlineColumns.run(report, decl, [], () => columnsOf(decl, report)) };
}

/** Columns of each inline data block, kept while the block's node lives (they depend on nothing else). */
const inlineColumns = new CheckMemo<A.DataDecl, Map<string, ColumnInfo>>();

function columnsOf(decl: A.DataDecl, report: Reporter): Map<string, ColumnInfo> {
  const columns = new Map<string, ColumnInfo>();
  decl.header.forEach((name, i) => {
    if (columns.has(name.text))
      report.error('duplicate-name', `column '${name.text}' appears twice in the header`, name.range);
    columns.set(name.text, lazyColumn(decl, name, i));
  });
  return columns;
}

/**
 * A column whose values are gathered on first use: only undeclared columns and column scopes
 * read them, and after an edit inside a big block the walk over every row would cost a keystroke more than the rest
 * of the check.
 */
function lazyColumn(decl: A.DataDecl, name: A.Name, i: number): ColumnInfo {
  let tally: { values: Set<string>; numeric: boolean } | undefined;
  const read = () => (tally ??= tallyColumn(decl, i));
  return {
    name,
    get values() {
      return read().values;
    },
    get numeric() {
      return read().numeric;
    },
  };
}

function tallyColumn(decl: A.DataDecl, i: number): { values: Set<string>; numeric: boolean } {
  const values = new Set<string>();
  let numeric = decl.rows.length > 0;
  for (const row of decl.rows) {
    const kind = cellKind(row, i);
    if (kind === undefined || kind === 'missing') continue;
    const text = cellText(row, i);
    if (text !== undefined) values.add(text);
    if (kind !== 'number') numeric = false;
  }
  return { values, numeric };
}

function importScope(decl: A.ImportDecl, env: CheckEnvironment, report: Reporter): Scope {
  const scope = newScope('import', decl.name.text, true);
  const path = resolveModelPath(decl.path, env, report);
  if (!path || !env.networkSymbols) return scope;
  const symbols = env.networkSymbols(path);
  if ('error' in symbols) {
    report.error('import-file', `cannot read network "${decl.path.value}": ${symbols.error}`, decl.path.range);
    return scope;
  }
  scope.open = false;
  for (const v of symbols.variables)
    scope.variables.set(
      v.name,
      v.real ? { name: v.name, type: 'real' } : { name: v.name, states: v.states, type: 'states' },
    );
  return scope;
}

/** A classifier is a network over its training data's columns (Poole fig. 10.3). */
function classifierScope(decl: A.ClassifierDecl, table: SymbolTable): Scope {
  const source = trainingData(decl);
  const data = source ? table.data.get(source.text) : undefined;
  return columnScope('classifier', decl.name.text, data, table);
}

/**
 * The data's columns as a scope. A column that is a declared variable takes its declared states
 * (as the data set's encoding does, compileData.ts), even those no row shows: a classifier with
 * smoothing estimates them; an undeclared column takes the values its rows show.
 */
function columnScope(kind: Scope['kind'], name: string, data: DataInfo | undefined, table: SymbolTable): Scope {
  const scope = newScope(kind, name, !data?.columns);
  for (const [text, column] of data?.columns ?? []) {
    const declared = table.defaultScope.variables.get(text);
    const declaredStates = declared?.type !== 'column' ? declared?.states : undefined;
    const states = declaredStates ?? (data!.decl.source || column.numeric ? undefined : [...column.values]);
    scope.variables.set(text, { name: text, states, type: 'column', declaration: column.name });
  }
  return scope;
}

/**
 * `learn structure Found from Days by k2` (and `query strength Found from Days`, the averaged
 * network): declares the network `Found` over the data's columns.
 */
function declareStructure(
  table: SymbolTable,
  s: A.LearnStmt | A.StrengthQuery,
  report: Reporter,
  node: A.Statement = s as A.LearnStmt,
): void {
  const existing = table.globals.get(s.model.text);
  if (existing) {
    report.error(
      'duplicate-name',
      `'${s.model.text}' is already declared (line ${existing.name.range.start.line + 1}); structure learning names a new network`,
      s.model.range,
    );
    return;
  }
  table.globals.set(s.model.text, { kind: 'network', name: s.model, node });
  const scope = columnScope('structure', s.model.text, s.from ? table.data.get(s.from.text) : undefined, table);
  // A column that holds a declared variable names that variable (as the editor's name index has it).
  for (const [text, v] of scope.variables) {
    const declared = table.defaultScope.variables.get(text);
    if (declared) scope.variables.set(text, { ...v, declaration: declared.declaration });
  }
  table.scopes.set(s.model.text, scope);
}
