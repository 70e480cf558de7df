/**
 * Document formatting: indentation by bracket depth (two spaces), continuation lines one level
 * deeper, CPT rows and inline data tables aligned in columns, trailing spaces and runs of blank
 * lines removed; inside a line, runs of spaces between tokens become one, none after `(` `[` or
 * before `)` `]` `,`, one after `,` and around `=` `~` `|` `≈` `±` (the gap after a `:` and before
 * a `{` is kept: authors align keyed entries and blocks). Comments are kept where they are.
 * Idempotent: formatting its own output changes nothing. A file with syntax errors is not
 * formatted (undefined): the structure is not known.
 */
import type { TextEdit } from 'vscode-languageserver/node';
import type { IToken } from 'chevrotain';
import type * as A from '../language/index.js';
import type { ParseResult } from '../language/index.js';
import { LCurly, LParen, LBracket, RCurly, RParen, RBracket } from '../language/tokens.js';
import { tokenize } from '../language/lexer.js';
import { alignedRows } from './alignRows.js';

const INDENT = '  ';

export function formatting(parse: ParseResult, text: string): TextEdit[] | undefined {
  if (parse.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const formatted = formatText(parse.ast, text);
  if (formatted === text) return [];
  return [{ range: wholeRange(text), newText: formatted }];
}

/**
 * Range formatting: the lines the range touches, each formatted as whole-document formatting
 * would (indentation, spacing, aligned rows), blank lines kept so the rest of the file stays put.
 */
export function rangeFormatting(
  parse: ParseResult,
  text: string,
  range: { start: { line: number }; end: { line: number; character: number } },
): TextEdit[] | undefined {
  if (parse.diagnostics.some((d) => d.severity === 'error')) return undefined;
  const lines = text.split(/\r?\n/);
  const formatted = formattedLines(parse.ast, text).lines;
  const last = range.end.character === 0 && range.end.line > range.start.line ? range.end.line - 1 : range.end.line;
  const edits: TextEdit[] = [];
  for (let l = range.start.line; l <= Math.min(last, lines.length - 1); l++) {
    const want = formatted[l] ?? '';
    const whole = { start: { line: l, character: 0 }, end: { line: l, character: lines[l]!.length } };
    if (want !== lines[l]) edits.push({ range: whole, newText: want });
  }
  return edits;
}

export function formatText(file: A.BayesFile, text: string): string {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const out: string[] = [];
  const { lines, inComment } = formattedLines(file, text);
  for (const [i, line] of lines.entries()) {
    if (line === '' && !inComment.has(i)) {
      if (out.length > 0 && out[out.length - 1] !== '') out.push('');
      continue;
    }
    out.push(line);
  }
  while (out.length > 0 && out[out.length - 1] === '') out.pop();
  return out.join(eol) + eol;
}

/** Each line of the text formatted, one for one (blank lines stay, as empty strings). */
function formattedLines(file: A.BayesFile, text: string): { lines: string[]; inComment: Set<number> } {
  const lines = text.split(/\r?\n/);
  const tokens = tokenize(text).tokens;
  const depths = lineDepths(tokens, lines.length);
  const continuation = continuationLines(file, depths);
  const inComment = blockCommentLines(text);
  const rewritten = alignedRows(file, lines);
  const spaced = spacedLines(file, text, tokens, lines, rewritten, inComment);
  const out = lines.map((line, i) => {
    if (inComment.has(i)) return line.trimEnd();
    const content = (rewritten.get(i) ?? spaced.get(i) ?? line).trim();
    return content === '' ? '' : INDENT.repeat(depths.depth[i] + (continuation.has(i) ? 1 : 0)) + content;
  });
  return { lines: out, inComment };
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

const BINARY = new Set(['=', '~', '|', '≈', '±']);

/** The space between two tokens of one line, given the gap the author left (empty or not). */
function spaceBetween(prev: string, next: string, gap: string): string {
  // After a key's colon and before a block's brace authors align columns: the gap is theirs.
  if (prev === ':' || (next === '{' && gap !== '')) return gap;
  if (prev === '(' || prev === '[' || next === ')' || next === ']' || next === ',') return '';
  if (prev === ',' || BINARY.has(prev) || BINARY.has(next)) return ' ';
  return gap === '' ? '' : ' ';
}

/**
 * Lines whose spacing between tokens is normalised (spaceBetween); lines the row aligner
 * rewrote, data rows, and lines with a comment between tokens or a token over several lines
 * are left as they are. A trailing comment keeps its text and the gap before it.
 */
function spacedLines(
  file: A.BayesFile,
  text: string,
  tokens: IToken[],
  lines: string[],
  rewritten: Map<number, string>,
  inComment: Set<number>,
): Map<number, string> {
  const skip = new Set<number>([...rewritten.keys(), ...inComment]);
  const visit = (statements: A.Statement[]) => {
    for (const s of statements) {
      if (s.kind === 'network') visit(s.statements);
      else if (s.kind === 'data' || s.kind === 'corpus')
        for (let l = s.range.start.line; l <= s.range.end.line; l++) skip.add(l);
    }
  };
  visit(file.statements);
  const byLine = new Map<number, IToken[]>();
  for (const t of tokens) {
    const line = t.startLine! - 1;
    if (/[\r\n]/.test(t.image)) {
      skip.add(line);
      continue;
    }
    const list = byLine.get(line) ?? [];
    list.push(t);
    byLine.set(line, list);
  }
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  const out = new Map<number, string>();
  for (const [line, ts] of byLine) {
    if (skip.has(line)) continue;
    const original = lines[line]!;
    const at = (t: IToken) => t.startOffset - starts[line]!;
    const lead = original.slice(0, at(ts[0]!));
    if (lead.trim() !== '') continue;
    let built = '';
    let ok = true;
    ts.forEach((t, i) => {
      if (i > 0) {
        const prev = ts[i - 1]!;
        const gap = original.slice(prev.startOffset + prev.image.length - starts[line]!, at(t));
        if (gap.trim() !== '') ok = false;
        built += spaceBetween(prev.image, t.image, gap);
      }
      built += t.image;
    });
    if (!ok) continue;
    const last = ts[ts.length - 1]!;
    const rest = original.slice(last.startOffset + last.image.length - starts[line]!);
    const comment = rest.trimStart();
    if (comment !== '' && !comment.startsWith('//')) continue;
    const result = lead + built + (comment ? rest.slice(0, rest.length - comment.length) + comment : '');
    if (result !== original) out.set(line, result.trimEnd());
  }
  return out;
}
