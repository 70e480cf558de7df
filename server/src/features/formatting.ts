/**
 * Document formatting: indentation by bracket depth (two spaces), continuation lines one level
 * deeper, CPT rows and inline data tables aligned in columns, trailing spaces and runs of blank
 * lines removed. Comments are kept where they are. Idempotent: formatting its own output changes
 * nothing. A file with syntax errors is not formatted (undefined): the structure is not known.
 */
import type { TextEdit } from 'vscode-languageserver/node';
import type { IToken } from 'chevrotain';
import type * as A from '../language/index.js';
import type { ParseResult } from '../language/index.js';
import { tokenize, LCurly, LParen, LBracket, RCurly, RParen, RBracket } from '../language/tokens.js';
import { alignedRows } from './alignRows.js';

const INDENT = '  ';

export function formatting(parse: ParseResult, text: string): TextEdit[] | undefined {
  if (parse.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const formatted = formatText(parse.ast, text);
  if (formatted === text) return [];
  return [{ range: wholeRange(text), newText: formatted }];
}

export function formatText(file: A.BayesFile, text: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const lines = text.split(/\r?\n/);
  const tokens = tokenize(text).tokens;
  const depths = lineDepths(tokens, lines.length);
  const continuation = continuationLines(file, depths);
  const inComment = blockCommentLines(text);
  const rewritten = alignedRows(file, lines);
  const out: string[] = [];
  lines.forEach((line, i) => {
    if (inComment.has(i)) return void out.push(line.trimEnd());
    const content = (rewritten.get(i) ?? line).trim();
    if (content === '') {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      return;
    }
    out.push(INDENT.repeat(depths.depth[i] + (continuation.has(i) ? 1 : 0)) + content);
  });
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join(eol) + eol;
}

function wholeRange(text: string) {
  const lines = text.split('\n');
  return {
    start: { line: 0, character: 0 },
    end: { line: lines.length - 1, character: lines[lines.length - 1].length },
  };
}

const OPENERS = new Set([LCurly, LParen, LBracket]);
const CLOSERS = new Set([RCurly, RParen, RBracket]);

interface Depths {
  /** The bracket depth each line is indented at: open brackets before it, less one if it starts by closing. */
  depth: number[];
  /** Lines whose first token closes a bracket. */
  closing: Set<number>;
}

function lineDepths(tokens: IToken[], lineCount: number): Depths {
  const depth: number[] = new Array(lineCount).fill(-1);
  const closing = new Set<number>();
  let open = 0;
  for (const t of tokens) {
    const line = t.startLine! - 1;
    if (depth[line] < 0) {
      if (CLOSERS.has(t.tokenType)) closing.add(line);
      depth[line] = Math.max(0, CLOSERS.has(t.tokenType) ? open - 1 : open);
    }
    if (OPENERS.has(t.tokenType)) open++;
    else if (CLOSERS.has(t.tokenType)) open = Math.max(0, open - 1);
  }
  // Lines without tokens (comments, blanks) take the depth of the next line with code,
  // so a comment above a row is indented like the row.
  let next = 0;
  for (let i = lineCount - 1; i >= 0; i--) {
    if (depth[i] < 0) depth[i] = next;
    else next = depth[i];
  }
  return { depth, closing };
}

/** Lines that continue a statement outside any bracket (`prior uniform` under `hypotheses …`). */
function continuationLines(file: A.BayesFile, { depth, closing }: Depths): Set<number> {
  const lines = new Set<number>();
  const visit = (statements: A.Statement[]) => {
    for (const s of statements) {
      if (s.kind === 'network') {
        visit(s.statements);
        continue;
      }
      const base = depth[s.range.start.line];
      for (let l = s.range.start.line + 1; l <= s.range.end.line; l++)
        if (depth[l] === base && !closing.has(l)) lines.add(l);
    }
  };
  visit(file.statements);
  return lines;
}

/** Lines inside a block comment after its first: their text is the author's, untouched. */
function blockCommentLines(text: string): Set<number> {
  const lines = new Set<number>();
  const lineOf = lineCounter(text);
  const scanner = /"(?:[^"\\\r\n]|\\.)*"|\/\/[^\n]*|\/\*[\s\S]*?(?:\*\/|$)/g;
  for (let m = scanner.exec(text); m; m = scanner.exec(text)) {
    if (!m[0].startsWith('/*')) continue;
    const first = lineOf(m.index);
    const last = lineOf(m.index + m[0].length);
    for (let l = first + 1; l <= last; l++) lines.add(l);
  }
  return lines;
}

/**
 * The line of an offset, for offsets asked in increasing order: each call counts the line
 * breaks since the previous one, so a whole scan of the text costs one pass over it.
 */
function lineCounter(text: string): (offset: number) => number {
  let line = 0;
  let next = text.indexOf('\n');
  return (offset) => {
    for (; next >= 0 && next < offset; next = text.indexOf('\n', next + 1)) line++;
    return line;
  };
}
