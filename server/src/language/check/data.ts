/** Data sets and corpora: files, row widths, and cells against the declared domains. */
import type * as A from '../ast.js';
import type { DataInfo, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { resolveModelPath } from '../files.js';
import { CheckMemo } from '../memo.js';
import { cellCount, cellKind, cellNode, cellText } from '../dataCells.js';
import { checkChoice, checkState, listStates } from './resolve.js';
import { findVariable } from '../references/lookup.js';

export function checkData(ctx: CheckContext): void {
  for (const info of ctx.symbols.data.values()) {
    if (info.decl.source) checkCsvColumns(ctx, info);
    else checkInlineOnce(ctx, info.decl);
  }
}

/**
 * Findings of each row of inline data, replayed while the row and the variables the columns
 * name are unchanged: an edit inside a block re-scans only its changed rows (see
 * `editDataRows`), and only those are checked again.
 */
const rowMemo = new CheckMemo<A.DataRow>();

function checkInlineOnce(ctx: CheckContext, decl: A.DataDecl): void {
  const variables = rowMemo.canonical(
    decl.header.map((column) => findVariable(ctx, ctx.symbols.defaultScope, column.text)),
  );
  const width = decl.header.length;
  if (width === 0) {
    ctx.report.error(
      'data-width',
      `data '${decl.name.text}' is empty: its first row names the columns`,
      decl.name.range,
    );
    return;
  }
  for (const cell of decl.header) {
    if (cell.text === '?')
      ctx.report.error('data-width', 'the first row names the columns; a column name cannot be ?', cell.range);
  }
  for (const row of decl.rows) rowMemo.run(ctx.report, row, variables, () => checkRow(ctx, row, variables));
  decl.header.forEach((column, i) => {
    if (!declared(variables[i])) describeColumn(ctx, decl, column, i);
  });
}

function declared(variable: VariableInfo | undefined): variable is VariableInfo {
  return variable !== undefined && variable.type !== 'column';
}

/** A row's width against the header, and its cells against the declared columns' states. */
function checkRow(ctx: CheckContext, row: A.DataRow, variables: (VariableInfo | undefined)[]): void {
  const width = variables.length;
  const count = cellCount(row);
  if (count !== width) {
    ctx.report.error(
      'data-width',
      `this row has ${count} value${count === 1 ? '' : 's'} but the header names ${width} columns`,
      row.range,
    );
  }
  variables.forEach((variable, i) => {
    if (declared(variable) && i < count && !fitsDomain(variable, row, i)) checkState(ctx, variable, cellNode(row, i)!);
  });
}

/**
 * Whether cell `i` is `?` or plainly in the variable's domain, read off the compact cells;
 * otherwise `checkState` builds the cell's node and says what is wrong.
 */
function fitsDomain(variable: VariableInfo, row: A.DataRow, i: number): boolean {
  const kind = cellKind(row, i);
  if (kind === 'missing') return true;
  if (variable.type === 'real') return kind === 'number';
  const text = cellText(row, i);
  return text === undefined ? !variable.states : !variable.states || variable.states.includes(text);
}

/** What an undeclared column takes: numbers, or the states seen in it. */
function describeColumn(ctx: CheckContext, decl: A.DataDecl, column: A.Name, i: number): void {
  const values = new Set<string>();
  let numeric = true;
  for (const row of decl.rows) {
    const kind = cellKind(row, i);
    // A parsed `T.x` cell has no value text but its name counts as seen.
    const text = kind === 'ref' ? (cellText(row, i) ?? (cellNode(row, i) as A.Ref).name.text) : cellText(row, i);
    if (text !== undefined) values.add(text);
    if (kind !== undefined && kind !== 'number' && kind !== 'missing') numeric = false;
  }
  const domain =
    numeric && decl.rows.length > 0 ? 'numbers' : `the states seen in the data: ${listStates([...values])}`;
  ctx.report.info(
    'undeclared-column',
    `column '${column.text}' is not a declared variable; it takes ${domain}`,
    column.range,
  );
}

function checkCsvColumns(ctx: CheckContext, info: DataInfo): void {
  if (!info.columns) return;
  const undeclared = [...info.columns.keys()].filter((c) => {
    const v = findVariable(ctx, ctx.symbols.defaultScope, c);
    return !v || v.type === 'column';
  });
  if (undeclared.length > 0) {
    ctx.report.info(
      'undeclared-column',
      `column${undeclared.length === 1 ? '' : 's'} ${listStates(undeclared)} of "${info.decl.source!.value}" ${undeclared.length === 1 ? 'is' : 'are'} not declared; ${undeclared.length === 1 ? 'its states come' : 'their states come'} from the data`,
      info.decl.source!.range,
    );
  }
}

export function checkCorpus(ctx: CheckContext, decl: A.CorpusDecl): void {
  resolveModelPath(decl.source, ctx.env, ctx.report);
  if (decl.label) checkChoice(ctx, decl.label, ['folder'], 'a way to label documents');
}
