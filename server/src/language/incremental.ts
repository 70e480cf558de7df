/**
 * Incremental re-parsing for the editor: after an edit, only the top-level statements the edit
 * touched (with an unchanged neighbour where a statement boundary could move) are lexed and
 * parsed again; the statements before them are kept as they are, those after are kept and
 * moved by the number of lines the edit added or removed. The result is the AST and
 * diagnostics a full `parse` of the new text would give (a property test holds it to that);
 * whenever that cannot be guaranteed cheaply, it falls back to a full parse.
 */
import type * as A from './ast.js';
import type { Position, Range } from './diagnostics.js';
import { MAX_MODEL_CHARS, parse, parseRegion, type ParseOutput } from './parse.js';
import { firstAtOrAfter, lineStarts } from './lines.js';
import { statementKeywords } from './tokens.js';
import { editDataRows } from './dataBlock.js';

/** A parse with what the next incremental parse needs of its text. `reparse` consumes it: its nodes move on into the
 * next parse. */
export interface ParseState {
  text: string;
  starts: number[];
  output: ParseOutput;
}

export function fullParse(text: string): ParseState {
  return { text, starts: lineStarts(text), output: parse(text) };
}

/** The parse of `text`, reusing what `previous` parsed of the lines the edit left alone. */
export function reparse(previous: ParseState, text: string): ParseState {
  if (previous.text === text) return previous;
  if (text.length > MAX_MODEL_CHARS || previous.text.length > MAX_MODEL_CHARS) return fullParse(text);
  // A capped list of syntax errors depends on the whole text: parse it whole.
  if (previous.output.capped) return fullParse(text);
  const prefix = commonPrefix(previous.text, text);
  const suffix = commonSuffix(previous.text, text, Math.min(previous.text.length, text.length) - prefix);
  const starts = updatedStarts(previous.starts, previous.text.length, text, prefix, suffix);
  const edit = changedLines(previous, starts, prefix, suffix);
  const output = reparseDataRows(previous, text, starts, edit) ?? reparseRegion(previous, text, starts, edit);
  return { text, starts, output: output && !output.capped ? output : parse(text) };
}

/**
 * The lines an edit replaced: `first` to `lastOld` in the old text became `first` to
 * `lastOld + delta`; the texts agree on their first `prefix` characters.
 */
interface Edit {
  first: number;
  lastOld: number;
  delta: number;
  prefix: number;
}

/** The changed lines, given the length of the texts' common prefix and suffix. */
function changedLines(previous: ParseState, starts: number[], prefix: number, suffix: number): Edit {
  // An edit right after a `\r` may turn the line break `\r\n` into two: count the line it ends as changed.
  const afterCR = prefix > 0 && previous.text.charCodeAt(prefix - 1) === 13;
  const first = Math.max(0, lineOf(previous.starts, prefix) - (afterCR ? 1 : 0));
  const lastOld = lineOf(previous.starts, previous.text.length - suffix);
  return { first, lastOld, delta: starts.length - previous.starts.length, prefix };
}

/** Block sizes for comparing texts: string equality of slices is a memory compare, far quicker than a loop. */
const BLOCKS = [65536, 4096, 256, 16];

export function commonPrefix(a: string, b: string): number {
  const max = Math.min(a.length, b.length);
  let i = 0;
  for (const block of BLOCKS) while (i + block <= max && a.slice(i, i + block) === b.slice(i, i + block)) i += block;
  while (i < max && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The common suffix, at most `max` long (so that it does not overlap the common prefix). */
export function commonSuffix(a: string, b: string, max: number): number {
  let i = 0;
  for (const block of BLOCKS)
    while (
      i + block <= max &&
      a.slice(a.length - i - block, a.length - i) === b.slice(b.length - i - block, b.length - i)
    )
      i += block;
  while (i < max && a.charCodeAt(a.length - 1 - i) === b.charCodeAt(b.length - 1 - i)) i++;
  return i;
}

/**
 * The new text's line starts (as `lineStarts` counts them), from the old ones: starts well
 * before the change are kept, those in the common suffix move by the change in length, and
 * only the changed span is scanned.
 */
export function updatedStarts(
  oldStarts: number[],
  oldLength: number,
  text: string,
  prefix: number,
  suffix: number,
): number[] {
  // A start depends on the characters just before and at it: both must lie outside the change.
  const keep = Math.max(0, lineOf(oldStarts, prefix) - 1);
  let tail = lineOf(oldStarts, oldLength - suffix) + 1;
  const shift = text.length - oldLength;
  const end = tail < oldStarts.length ? oldStarts[tail] + shift : text.length + 1;
  const starts = oldStarts.slice(0, keep + 1);
  for (let i = oldStarts[keep]; i < text.length && i + 1 < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  for (; tail < oldStarts.length; tail++) starts.push(oldStarts[tail] + shift);
  return starts;
}

/** The line holding `offset` (binary search over line starts). */
function lineOf(starts: number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The parse after an edit inside the rows of a scanned data block: only the changed rows are scanned again (see
 * `editDataRows`). */
function reparseDataRows(previous: ParseState, text: string, starts: number[], edit: Edit): ParseOutput | undefined {
  const { statements } = previous.output.ast;
  const { lastLines, diagnostics } = previous.output;
  const k = firstAtOrAfter(lastLines.length, (i) => lastLines[i], edit.first);
  const decl = statements[k];
  if (decl?.kind !== 'data' || decl.range.end.line !== lastLines[k]) return undefined;
  const lastNew = edit.lastOld + edit.delta;
  const oldText = previous.text.slice(
    previous.starts[edit.first],
    previous.starts[edit.lastOld + 1] ?? previous.text.length,
  );
  const newText = text.slice(starts[edit.first], starts[lastNew + 1] ?? text.length);
  const changed = editDataRows(decl, edit.first, edit.lastOld, edit.delta, oldText, newText);
  if (!changed) return undefined;
  const after = statements.slice(k + 1);
  const above = diagnostics.filter((d) => d.range.start.line < edit.first);
  const below = diagnostics.filter((d) => d.range.start.line > edit.lastOld);
  moveDown([...changed.moved, ...after, ...below], edit.delta);
  const ast: A.BayesFile = {
    kind: 'file',
    statements: [...statements.slice(0, k), changed.decl, ...after],
    range: documentRangeOf(text, starts),
  };
  const moved = lastLines.slice(k).map((l) => l + edit.delta);
  return {
    ast,
    diagnostics: [...above, ...below],
    lastLines: [...lastLines.slice(0, k), ...moved],
    openAtEnd: previous.output.openAtEnd,
  };
}

function reparseRegion(previous: ParseState, text: string, starts: number[], edit: Edit): ParseOutput | undefined {
  const statements = previous.output.ast.statements;
  // A network whose header did not parse leaves its statements at the top level until its `}`:
  // the top level is then not a sequence of independent statements.
  if (statements.length === 0 || statements.some(headerlessNetwork)) return undefined;
  const region = regionAround(previous, edit, text, starts);
  if (!region) return undefined;
  const { lo, touched, next, firstLine, lastLineOld } = region;
  const lastLine = lastLineOld + edit.delta;
  const from = starts[firstLine];
  const to = lastLine + 1 < starts.length ? starts[lastLine + 1] : text.length;
  const oldText = previous.text.slice(
    previous.starts[firstLine],
    lastLineOld + 1 < previous.starts.length ? previous.starts[lastLineOld + 1] : previous.text.length,
  );
  const regionText = text.slice(from, to);
  // Block comments are the only tokens that span lines: leave them to a full parse.
  if (hasBlockComment(regionText) || hasBlockComment(oldText)) return undefined;
  const sub = parseRegion(regionText, firstLine, documentRangeOf(text, starts));
  const fresh = sub.ast.statements;
  if (fresh.some(headerlessNetwork) || sub.diagnostics.some((d) => d.code === 'unclosed-network')) return undefined;
  // The kept neighbours must come out of the region as they went in, or the statement
  // boundaries moved (a bracket the edit opened swallowed the next statement, …).
  if (lo < touched && !sameStart(fresh[0], statements[lo], 0)) return undefined;
  const lastLines = previous.output.lastLines;
  if (
    region.neighbour &&
    !(
      sameStart(fresh[fresh.length - 1], statements[next - 1], edit.delta) &&
      sub.lastLines[fresh.length - 1] === lastLines[next - 1] + edit.delta
    )
  )
    return undefined;
  // Without a neighbour, the next statement's keyword starts a statement unless a bracket is left open.
  if (!region.neighbour && next < statements.length && sub.openAtEnd) return undefined;
  const after = statements.slice(next);
  const old = previous.output.diagnostics;
  const above = old.filter((d) => d.range.start.line < firstLine);
  const below = old.filter((d) => d.range.start.line > lastLineOld);
  moveDown([...after, ...below], edit.delta);
  const ast: A.BayesFile = {
    kind: 'file',
    statements: [...statements.slice(0, lo), ...fresh, ...after],
    range: sub.ast.range,
  };
  const diagnostics = [...above, ...sub.diagnostics, ...below];
  const kept = lastLines.slice(next).map((l) => l + edit.delta);
  return {
    ast,
    diagnostics,
    lastLines: [...lastLines.slice(0, lo), ...sub.lastLines, ...kept],
    openAtEnd: previous.output.openAtEnd,
  };
}

function headerlessNetwork(s: A.Statement): boolean {
  return s.kind === 'error' && s.keyword === 'network';
}

function hasBlockComment(text: string): boolean {
  return text.includes('/*') || text.includes('*/');
}

interface Region {
  /** The first statement parsed again, and the first the edit touched. */
  lo: number;
  touched: number;
  /** The first statement kept after the region (the statement count when none is). */
  next: number;
  /** Whether the statement before `next` is an unchanged neighbour parsed to check the boundary. */
  neighbour: boolean;
  /** The region's lines in the old text. */
  firstLine: number;
  lastLineOld: number;
}

/**
 * The statements an edit touched, and their lines. The statement before them is parsed again
 * too unless the edit leaves the touched statement's first token alone; the statement after
 * them too unless it starts a line with a statement keyword (it then starts a statement
 * whatever comes before it, bar an open bracket, which `openAtEnd` tells). The region starts
 * on the line after the statement before `lo`, so the comments above `lo` — its doc — are
 * parsed with it; statements sharing a line with the region's edges widen it.
 */
function regionAround(previous: ParseState, edit: Edit, text: string, starts: number[]): Region | undefined {
  const statements = previous.output.ast.statements;
  const n = statements.length;
  const lastLines = previous.output.lastLines;
  let touched = 0; // first statement ending at or after the edit
  while (touched < n && lastLines[touched] < edit.first) touched++;
  // The statement before the edit is parsed again too — unless the edit leaves the first token
  // of the touched statement as it was: that token begins a statement whatever follows it.
  let lo = touched < n && firstTokenKept(previous, statements[touched], edit) ? touched : Math.max(0, touched - 1);
  while (lo > 0 && !cleanStart(previous, lo)) lo--;
  let hi = touched;
  while (hi < n && statements[hi].range.start.line <= edit.lastOld) hi++;
  const firstLine = lo === 0 ? 0 : lastLines[lo - 1] + 1;
  if (firstLine > edit.first) return undefined;
  if (hi < n && hi > lo && startsStatement(previous, hi, edit, text, starts)) {
    return { lo, touched, next: hi, neighbour: false, firstLine, lastLineOld: statements[hi].range.start.line - 1 };
  }
  while (hi < n - 1 && statements[hi + 1].range.start.line <= lastLines[hi]) hi++;
  const lastLineOld = hi < n ? lastLines[hi] : previous.starts.length - 1;
  return { lo, touched, next: Math.min(hi + 1, n), neighbour: hi < n, firstLine, lastLineOld };
}

const statementWords = new Set([...statementKeywords].map((t) => t.name.slice('kw_'.length)));

/**
 * Whether statement `i`, after the edit, begins its line with a statement keyword on a line of
 * its own (no statement ends there) and has no `///` line above it, before or after the edit.
 */
function startsStatement(previous: ParseState, i: number, edit: Edit, text: string, starts: number[]): boolean {
  const { line, character } = previous.output.ast.statements[i].range.start;
  if (previous.output.lastLines[i - 1] >= line) return false;
  const lineText = lineAt(previous.text, previous.starts, line);
  const word = /^[ \t]*([A-Za-z_][A-Za-z0-9_]*)/.exec(lineText);
  if (!word || word[0].length - word[1].length !== character || !statementWords.has(word[1])) return false;
  return (
    !lineAt(previous.text, previous.starts, line - 1).includes('///') &&
    !lineAt(text, starts, line - 1 + edit.delta).includes('///')
  );
}

function lineAt(text: string, starts: number[], line: number): string {
  return line < 0 || line >= starts.length ? '' : text.slice(starts[line], starts[line + 1] ?? text.length);
}

/** Whether the edit starts past the statement's first token (and a character after it). */
function firstTokenKept(previous: ParseState, statement: A.Statement, edit: Edit): boolean {
  const { line, character } = statement.range.start;
  const start = previous.starts[line] + character;
  const word = /[A-Za-z_][A-Za-z0-9_]*/y;
  word.lastIndex = start;
  const length = word.test(previous.text) ? word.lastIndex - start : 1;
  return edit.prefix > start + length;
}

/** Whether statement `i` can start a region: it begins on a later line than `i - 1` ends, and that line has no `///`
 * to lend it. */
function cleanStart(previous: ParseState, i: number): boolean {
  const statements = previous.output.ast.statements;
  const before = previous.output.lastLines[i - 1];
  if (statements[i].range.start.line <= before) return false;
  const lineText = previous.text.slice(previous.starts[before], previous.starts[before + 1] ?? previous.text.length);
  return !lineText.includes('///');
}

function samePosition(a: Position, b: Position, delta: number): boolean {
  return a.line === b.line + delta && a.character === b.character;
}

function sameStart(a: A.Statement | undefined, b: A.Statement, delta: number): boolean {
  return a !== undefined && samePosition(a.range.start, b.range.start, delta);
}

function documentRangeOf(text: string, starts: number[]): Range {
  const last = starts.length - 1;
  return { start: { line: 0, character: 0 }, end: { line: last, character: text.length - starts[last] } };
}

/**
 * Moves statements and diagnostics `delta` lines down, in place. In place rather than copied:
 * copying half a 10,000-line AST per keystroke costs more in garbage collection than parsing
 * it, and nodes that keep their identity keep the checker's memo (see `memo.ts`). The
 * previous parse is consumed. Nodes share position objects (a row's range starts where its
 * first key's does; a diagnostic may use a node's range) and each must move once: the first
 * pass writes the new line as `-1 - line` (lines are never negative, so a negative line means
 * "already moved"), the second turns it back. Cheaper than a set of visited positions.
 */
function moveDown(nodes: readonly object[], delta: number): void {
  if (delta === 0) return;
  forEachPosition(nodes, (p) => {
    if (p.line >= 0) p.line = -1 - (p.line + delta);
  });
  forEachPosition(nodes, (p) => {
    if (p.line < 0) p.line = -1 - p.line;
  });
}

function forEachPosition(nodes: readonly object[], f: (p: Position) => void): void {
  const visit = (value: object): void => {
    if (Array.isArray(value)) {
      for (const item of value) if (typeof item === 'object' && item !== null) visit(item);
      return;
    }
    for (const key in value) {
      const v = (value as Record<string, unknown>)[key];
      if (typeof v !== 'object' || v === null) continue;
      if (key === 'range') {
        f((v as Range).start);
        f((v as Range).end);
      } else {
        visit(v);
      }
    }
  };
  for (const node of nodes) visit(node);
}
