/**
 * Quick fixes keyed on the checker's diagnostics (their `code` and `data`): replace a misspelt
 * name or value with the suggestion, normalise a row, add the missing rows of a CPT, declare an
 * undeclared variable. Refactorings on a data set: move an inline table to a CSV file, and
 * bring a CSV file inline.
 */
import {
  CodeActionKind,
  type CodeAction,
  type CodeActionParams,
  type Diagnostic,
  type TextEdit,
} from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import { allStatements, walk } from '../language/index.js';
import type { ParsedDocument } from '../workspace/documents.js';
import { contains } from '../language/index.js';
import { nameIndex } from '../language/index.js';
import { lineAt } from './context.js';
import { dataTableActions, type CodeActionHost } from './dataTableActions.js';
import { dirname } from 'node:path';

export type { CodeActionHost } from './dataTableActions.js';

export async function codeActions(
  doc: ParsedDocument,
  params: CodeActionParams,
  host: CodeActionHost,
): Promise<CodeAction[]> {
  const uri = params.textDocument.uri;
  const actions: CodeAction[] = [];
  const fix = (title: string, diagnostic: Diagnostic, edits: TextEdit[], preferred = false): void => {
    actions.push({
      title,
      kind: CodeActionKind.QuickFix,
      diagnostics: [diagnostic],
      isPreferred: preferred,
      edit: { changes: { [uri]: edits } },
    });
  };
  for (const d of params.context.diagnostics) {
    const data = (d.data ?? {}) as { suggestion?: unknown; missing?: unknown };
    if (typeof data.suggestion === 'string')
      fix(`Replace with '${data.suggestion}'`, d, [{ range: d.range, newText: data.suggestion }], true);
    if (d.code === 'row-sum') {
      const edits = normaliseEdits(doc.parse.ast, d);
      if (edits.length > 0) fix('Normalize so the probabilities sum to 1', d, edits, true);
    }
    if (d.code === 'missing-row' && Array.isArray(data.missing)) {
      const edits = missingRowEdits(doc, d, data.missing as (string | string[])[]);
      if (edits.length > 0) fix('Add the missing rows', d, edits);
    }
    const outside = d.code === 'file-outside-roots' && typeof (d.data as { path?: unknown })?.path === 'string';
    if (outside) {
      // The client's command adds the folder to the workspace's bayes.dataRoots (client/src/commands.ts).
      const folder = dirname((d.data as { path: string }).path);
      const title = `Add ${folder} to the data roots (bayes.dataRoots)`;
      actions.push({
        title,
        kind: CodeActionKind.QuickFix,
        diagnostics: [d],
        isPreferred: true,
        command: { title, command: 'bayes.addDataRoot', arguments: [uri, folder] },
      });
    }
    const message = typeof d.message === 'string' ? d.message : d.message.value;
    const undeclared =
      d.code === 'undefined-name' ? /^variable '([^']+)' is not defined/.exec(message)?.[1] : undefined;
    if (undeclared) {
      const edit = declareVariableEdit(doc, d, undeclared);
      if (edit) fix(`Declare variable '${undeclared}'`, d, [edit]);
    }
  }
  actions.push(...(await dataTableActions(doc, params, host)));
  return actions;
}

// ── normalise ───────────────────────────────────────────────────────────────────────────────

function tables(file: A.BayesFile): A.TableDecl[] {
  return allStatements(file).filter((s): s is A.TableDecl => s.kind === 'table');
}

const sameRange = (a: A.Range, b: A.Range) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

/** Enough digits that the rewritten row sums to 1 within the checker's tolerance. */
export function probabilityText(x: number): string {
  return String(Number(x.toPrecision(12)));
}

function normaliseEdits(file: A.BayesFile, d: Diagnostic): TextEdit[] {
  for (const t of tables(file)) {
    const row = t.rows.find((r) => sameRange(r.range, d.range));
    // A table without parents is one distribution spread over its rows; the diagnostic sits on its head.
    const entries = row ? row.entries : sameRange(t.head.range, d.range) ? t.rows.flatMap((r) => r.entries) : undefined;
    if (!entries) continue;
    const sum = entries.reduce((s, e) => s + e.value.value, 0);
    if (!(sum > 0)) return [];
    return entries.map((e) => ({ range: e.value.range, newText: probabilityText(e.value.value / sum) }));
  }
  return [];
}

// ── missing rows ────────────────────────────────────────────────────────────────────────────

function missingRowEdits(doc: ParsedDocument, d: Diagnostic, missing: (string | string[])[]): TextEdit[] {
  const table = tables(doc.parse.ast).find((t) => sameRange(t.head.range, d.range));
  if (!table || table.rows.length === 0) return [];
  const index = nameIndex(doc.parse.ast);
  const scope = scopeOf(doc.parse.ast, table);
  const target = index.variable(scope, table.head.targets[0]?.variable.text ?? '');
  const states = target?.states?.map((s) => s.name) ?? [];
  let rows: string[];
  if (missing.every((m) => typeof m === 'string')) {
    // No parents: the missing states share what the given ones leave of 1.
    const given = table.rows.reduce((s, r) => s + (r.entries[0]?.value.value ?? 0), 0);
    const share = probabilityText(Math.max(0, 1 - given) / missing.length);
    rows = (missing as string[]).map((state) => `${state}: ${share}`);
  } else {
    const bool = states.length === 2 && states[0] === 'true' && states[1] === 'false';
    const uniform = bool ? '0.5' : `{ ${states.map((s) => `${s}: 1/${states.length}`).join(', ')} }`;
    rows = (missing as string[][]).map((keys) => `${keys.join(', ')}: ${uniform}`);
  }
  const close = { line: table.range.end.line, character: table.range.end.character - 1 };
  const closingLine = lineAt(doc.text, close.line);
  if (closingLine.slice(0, close.character).trim() === '') {
    const last = table.rows[table.rows.length - 1];
    const indent = /^\s*/.exec(lineAt(doc.text, last.range.start.line))![0];
    return [
      {
        range: { start: { line: close.line, character: 0 }, end: { line: close.line, character: 0 } },
        newText: rows.map((r) => indent + r + '\n').join(''),
      },
    ];
  }
  const before = closingLine.slice(0, close.character).trimEnd().length;
  return [{ range: { start: { line: close.line, character: before }, end: close }, newText: `, ${rows.join(', ')} ` }];
}

function scopeOf(file: A.BayesFile, statement: A.Statement): string {
  for (const s of file.statements) if (s.kind === 'network' && s.statements.includes(statement)) return s.name.text;
  return '';
}

// ── declare a variable ──────────────────────────────────────────────────────────────────────

/** `variable X { … }` with the values the file uses for X (or `: bool`), above the statement using it. */
function declareVariableEdit(doc: ParsedDocument, d: Diagnostic, name: string): TextEdit | undefined {
  const file = doc.parse.ast;
  let statement: A.Statement | undefined;
  for (const s of file.statements) {
    if (!contains(s.range, d.range.start)) continue;
    statement = s.kind === 'network' ? s.statements.find((inner) => contains(inner.range, d.range.start)) : s;
  }
  if (!statement) return undefined;
  const values = valuesUsedFor(file, name);
  const domain =
    values.length === 0 || values.every((v) => v === 'true' || v === 'false') ? ': bool' : `{ ${values.join(', ')} }`;
  const indent = /^\s*/.exec(lineAt(doc.text, statement.range.start.line))![0];
  const at = { line: statement.range.start.line, character: 0 };
  return { range: { start: at, end: at }, newText: `${indent}variable ${name} ${domain}\n` };
}

function valuesUsedFor(file: A.BayesFile, name: string): string[] {
  const values = new Set<string>();
  const add = (e: A.Expr | undefined) => {
    if (e?.kind === 'list') e.items.forEach(add);
    else if (e?.kind === 'ref' && !e.member && !e.columns) values.add(e.name.text);
  };
  const visit = (node: A.AstNode) => {
    if (node.kind === 'assignment' && node.variable.text === name) add(node.value);
    if (node.kind === 'table') {
      const parent = node.head.conditions.findIndex((c) => c.variable.text === name);
      for (const row of node.rows) {
        if (parent >= 0 && row.keys[parent]) values.add(row.keys[parent].text);
        if (node.head.targets[0]?.variable.text === name)
          for (const e of row.entries) if (e.state) values.add(e.state.text);
      }
    }
  };
  // Data cells are values of columns, not assignments: skip the rows (the bulk of a big file).
  walk(file, (n) => n.kind !== 'data' && void visit(n));
  return [...values];
}
