/**
 * Refactorings of a data set at the cursor: an inline table becomes a CSV file beside the
 * model (`data T from "T.csv"`), and a small CSV file becomes an inline table. Reading the CSV
 * needs a trusted workspace and goes through the confined, asynchronous reads of
 * workspace/files.ts (the same root, kind and size rules as a run); row comments of an inline
 * table do not survive the move.
 */
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CodeActionKind, type CodeAction, type CodeActionParams } from 'vscode-languageserver/node';
import type * as A from '../language/index.js';
import { allStatements, lineStarts, sliceRange } from '../language/index.js';
import { resolvePath } from '../language/paths.js';
import { CsvSplitter } from '../model/csvSplitter.js';
import type { ParsedDocument } from '../workspace/documents.js';
import type { Files } from '../language/environment.js';
import { contains } from '../language/index.js';

/** Bigger CSV files stay files: an inline table is for reading in the editor. */
const MAX_INLINE_ROWS = 500;
/** A CSV file larger than this is not read for inlining (500 rows fit with room). */
const MAX_INLINE_BYTES = 4 << 20;
const BARE = /^(?:[A-Za-z_][A-Za-z0-9_]*|-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?|\?)$/;

/** What the code actions need of the host: workspace trust, the document's path and file access. */
export interface CodeActionHost {
  trusted: boolean;
  documentPath?: string;
  /** Confined asynchronous file access (workspace/files.ts); content is read only when trusted. */
  files?: Files;
}

export async function dataTableActions(
  doc: ParsedDocument,
  params: CodeActionParams,
  host: CodeActionHost,
): Promise<CodeAction[]> {
  const decl = dataAt(doc.parse.ast, params.range.start);
  if (!decl || !host.documentPath) return [];
  const action = decl.source
    ? await csvToInline(doc, decl, host)
    : await inlineToCsv(doc, decl, host.documentPath, params.textDocument.uri, host);
  return action ? [action] : [];
}

function dataAt(file: A.BayesFile, position: A.Position): A.DataDecl | undefined {
  for (const s of allStatements(file)) if (s.kind === 'data' && contains(s.range, position)) return s;
  return undefined;
}

async function inlineToCsv(
  doc: ParsedDocument,
  decl: A.DataDecl,
  documentPath: string,
  uri: string,
  host: CodeActionHost,
): Promise<CodeAction | undefined> {
  if (decl.header.length === 0) return undefined;
  const folder = dirname(documentPath);
  let file = `${decl.name.text}.csv`;
  // Only existence (lstat) is asked here, never content; without files the client refuses to create over a file.
  for (let n = 2; host.files && (await host.files.exists(join(folder, file))); n++) file = `${decl.name.text}-${n}.csv`;
  const csvUri = pathToFileURL(join(folder, file)).toString();
  const starts = lineStarts(doc.text);
  const cell = (e: A.Expr) =>
    e.kind === 'string' ? csvQuote(e.value) : e.kind === 'missing' ? '' : sliceRange(doc.text, starts, e.range);
  const csv =
    [decl.header.map((h) => csvQuote(h.text)), ...decl.rows.map((r) => r.cells.map(cell))]
      .map((r) => r.join(','))
      .join('\n') + '\n';
  return {
    title: `Move data ${decl.name.text} to ${file}`,
    kind: CodeActionKind.RefactorRewrite,
    edit: {
      documentChanges: [
        { kind: 'create', uri: csvUri, options: { overwrite: false, ignoreIfExists: false } },
        {
          textDocument: { uri: csvUri, version: null },
          edits: [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, newText: csv }],
        },
        {
          textDocument: { uri, version: doc.version },
          edits: [{ range: decl.range, newText: `data ${decl.name.text} from "${file}"` }],
        },
      ],
    },
  };
}

/** CSV quoting only where needed; empty cells read as missing. */
function csvQuote(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

async function csvToInline(
  doc: ParsedDocument,
  decl: A.DataDecl,
  host: CodeActionHost,
): Promise<CodeAction | undefined> {
  if (!host.trusted || !host.files || !decl.source || !host.documentPath) return undefined;
  const path = resolvePath(dirname(host.documentPath), decl.source.value);
  let rows: string[][];
  try {
    if ((await host.files.stamp(path)).size > MAX_INLINE_BYTES) return undefined;
    // host.files refuses a path whose real path is outside the roots, a FIFO, a device, an oversize file.
    rows = [];
    const splitter = new CsvSplitter(',', (cells) => {
      rows.push(cells.map((c) => c.trim()));
    });
    splitter.push(new TextDecoder().decode(await host.files.bytes(path)));
    splitter.end();
  } catch {
    return undefined; // unreadable: the checker already reports the file
  }
  if (rows.length === 0 || rows.length - 1 > MAX_INLINE_ROWS) return undefined;
  const cell = (s: string) => (s === '' ? '?' : BARE.test(s) ? s : `"${s.replace(/["\\]/g, '\\$&')}"`);
  const indent = /^\s*/.exec(doc.text.split('\n')[decl.range.start.line])![0];
  const body = rows.map((r) => `${indent}  ${r.map(cell).join(', ')}`).join('\n');
  return {
    title: `Inline ${basename(path)} as a data table`,
    kind: CodeActionKind.RefactorRewrite,
    edit: {
      changes: {
        [doc.document.uri]: [{ range: decl.range, newText: `data ${decl.name.text} {\n${body}\n${indent}}` }],
      },
    },
  };
}
