/** Data sets and corpora: files, row widths, and cells against the declared domains. */
import type * as A from '../ast.js';
import type { DataInfo, VariableInfo } from '../symbols.js';
import type { CheckContext } from './context.js';
import { resolveModelPath } from './files.js';
import { CheckMemo } from './memo.js';
import { checkChoice, checkState, findVariable, listStates } from './resolve.js';

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
  const variables = decl.header.map((column) => findVariable(ctx, ctx.symbols.defaultScope, column.text));
  const width = decl.header.length;
  if (width === 0) {
    ctx.report.error('data-width', `data '${decl.name.text}' is empty: its first row names the columns`, decl.name.range);
    return;
  }
  for (const cell of decl.header) {
    if (cell.text === '?') ctx.report.error('data-width', 'the first row names the columns; a column name cannot be ?', cell.range);
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
  if (row.cells.length !== width) {
    ctx.report.error('data-width', `this row has ${row.cells.length} value${row.cells.length === 1 ? '' : 's'} but the header names ${width} columns`, row.range);
  }
  variables.forEach((variable, i) => {
    const cell = row.cells[i];
    if (declared(variable) && cell && cell.kind !== 'missing') checkState(ctx, variable, cell);
  });
}

/** What an undeclared column takes: numbers, or the states seen in it. */
function describeColumn(ctx: CheckContext, decl: A.DataDecl, column: A.Name, i: number): void {
  const values = new Set<string>();
  for (const row of decl.rows) {
    const cell = row.cells[i];
    if (cell?.kind === 'ref') values.add(cell.name.text);
    else if (cell?.kind === 'string') values.add(cell.value);
    else if (cell?.kind === 'number') values.add(cell.text);
  }
  const numeric = decl.rows.every((r) => !r.cells[i] || r.cells[i].kind === 'number' || r.cells[i].kind === 'missing');
  const domain = numeric && decl.rows.length > 0 ? 'numbers' : `the states seen in the data: ${listStates([...values])}`;
  ctx.report.info('undeclared-column', `column '${column.text}' is not a declared variable; it takes ${domain}`, column.range);
}

function checkCsvColumns(ctx: CheckContext, info: DataInfo): void {
  if (!info.columns) return;
  const undeclared = [...info.columns.keys()].filter((c) => {
    const v = findVariable(ctx, ctx.symbols.defaultScope, c);
    return !v || v.type === 'column';
  });
  if (undeclared.length > 0) {
    ctx.report.info('undeclared-column',
      `column${undeclared.length === 1 ? '' : 's'} ${listStates(undeclared)} of "${info.decl.source!.value}" ${undeclared.length === 1 ? 'is' : 'are'} not declared; ${undeclared.length === 1 ? 'its states come' : 'their states come'} from the data`,
      info.decl.source!.range);
  }
}

export function checkCorpus(ctx: CheckContext, decl: A.CorpusDecl): void {
  resolveModelPath(decl.source, ctx.env, ctx.report);
  if (decl.label) checkChoice(ctx, decl.label, ['folder'], 'a way to label documents');
}
