/** Data sets and corpora: files, row widths, and cells against the declared domains. */
import type * as A from '../ast.js';
import type { DataInfo, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { pathProblemMessage, resolveModelPath } from '../files.js';
import { isArchivePath, listCorpusFolder } from '../folderCorpus.js';
import { dirnameOf, globBase, resolvePath } from '../paths.js';
import { CheckMemo } from '../memo.js';
import { cellCount, cellKind, cellNode, cellText } from '../dataCells.js';
import { checkChoice, checkState, listStates, hasState } from './resolve.js';
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
  describeColumns(
    ctx,
    decl,
    decl.header.flatMap((column, i) => (declared(variables[i]) ? [] : [i])),
  );
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
  return text === undefined ? !variable.states : !variable.states || hasState(variable.states, text);
}

/**
 * The undeclared columns of a data set, in one information diagnostic over their header cells
 * (one line per data set in `bayes check`, not one per column).
 */
function describeColumns(ctx: CheckContext, decl: A.DataDecl, columns: number[]): void {
  if (columns.length === 0) return;
  const first = decl.header[columns[0]!]!,
    last = decl.header[columns[columns.length - 1]!]!;
  const range = { start: first.range.start, end: last.range.end };
  if (columns.length === 1) {
    const message = `column '${first.text}' is not a declared variable; it takes ${columnDomain(decl, columns[0]!)}`;
    ctx.report.info('undeclared-column', message, range);
    return;
  }
  const each = columns.map((i) => `'${decl.header[i]!.text}' ${columnDomain(decl, i)}`);
  ctx.report.info(
    'undeclared-column',
    `${columns.length} columns of data '${decl.name.text}' are not declared variables; they take: ${each.join('; ')}`,
    range,
  );
}

/** What an undeclared column takes: numbers, or the states seen in it. */
function columnDomain(decl: A.DataDecl, i: number): string {
  const values = new Set<string>();
  let numeric = true;
  for (const row of decl.rows) {
    const kind = cellKind(row, i);
    // A parsed `T.x` cell has no value text but its name counts as seen.
    const text = kind === 'ref' ? (cellText(row, i) ?? (cellNode(row, i) as A.Ref).name.text) : cellText(row, i);
    if (text !== undefined) values.add(text);
    if (kind !== undefined && kind !== 'number' && kind !== 'missing') numeric = false;
  }
  return numeric && decl.rows.length > 0 ? 'numbers' : `the states seen in the data: ${listStates([...values])}`;
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
  const glob = globBase(decl.source.value) !== undefined;
  if (isArchivePath(decl.source.value) || glob) resolveModelPath(decl.source, ctx.env, ctx.report);
  else if (!ctx.env.listFiles) checkCorpusFolder(ctx, decl.source);
  // Hosts that list folders synchronously (the CLI) check a folder corpus's files here; the
  // language server leaves them to the run, in its worker, off the LSP thread.
  const reported = ctx.report.diagnostics.some((d) => d.range === decl.source.range);
  if (!isArchivePath(decl.source.value) && ctx.env.listFiles && !reported) {
    const listed = listCorpusFolder(decl.source.value, ctx.env);
    if ('error' in listed) ctx.report.error('corpus-empty', listed.error, decl.source.range);
  }
  if (decl.label) checkChoice(ctx, decl.label, ['folder'], 'a way to label documents');
}

/** A corpus folder on a host that does not list folders here (the language server): is it a folder? */
function checkCorpusFolder(ctx: CheckContext, path: A.StringLit): void {
  const from = ctx.env.documentPath ? dirnameOf(ctx.env.documentPath) : ctx.env.allowedRoots[0];
  if (from === undefined || !ctx.env.pathProblem) return;
  const absolute = resolvePath(from, path.value);
  const problem = ctx.env.pathProblem(absolute, 'folder');
  if (problem) ctx.report.error('file-not-found', pathProblemMessage(path.value, problem, absolute), path.range);
}
