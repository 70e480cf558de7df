/**
 * A scanner for the bodies of inline `data T { … }` blocks, run on the raw text before
 * Chevrotain lexes it. A data body is most of any large model and a simple grammar (names,
 * quoted names, numbers incl. negatives, `?`, commas, `//` comments, line breaks), so reading
 * it char by char is several times quicker than lexing it into tokens and then into cells.
 *
 * The scanner only takes bodies it reads completely; anything else (a fraction, a stray
 * symbol, a `///` or block comment, a statement keyword starting a row, no closing `}`) leaves
 * the block to the lexer and the grammar, so errors keep the parser's diagnostics and ranges.
 * The lexer then skips the scanned bodies (`lexAround`): it lexes the stretches between them.
 */
import type * as A from './ast.js';
import { statementKeywords } from './tokens.js';
import type { ILexingError, IToken } from 'chevrotain';
import { collect, lex, type Lexed } from './lexer.js';
import { CellStore, ScannedRow, MISSING, NUMBER, REF, STRING } from './dataCells.js';

/**
 * A scanned body: its rows (the header first), the offsets of its `{` and `}` in the scanned
 * text, and the line (counted from the text's first) and column of the `}`.
 */
export interface ScannedBlock {
  open: number;
  close: number;
  closeLine: number;
  closeColumn: number;
  rows: A.DataRow[];
}

/** Scanned blocks by the offset of their `{`, in text order. */
export type ScannedBlocks = Map<number, ScannedBlock>;

const statementWords = new Set([...statementKeywords].map((t) => t.name.slice('kw_'.length)));
const HEADER = /^[ \t]*data[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*\{/gm;
const NUMBER_RE = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const STRING_RE = /"(?:[^"\\\r\n]|\\.)*"/y;

/** Finds and scans the inline data bodies of `text`, whose first line is `firstLine` of the document. */
export function scanDataBlocks(text: string, firstLine: number): ScannedBlocks {
  const blocks: ScannedBlocks = new Map();
  // Block comments span lines and JS's `^` also matches after U+2028/9: leave such texts to the lexer.
  if (text.includes('/*') || /[\u2028\u2029]/.test(text)) return blocks;
  let counted = 0; // line breaks before this offset are counted in `line`
  let line = firstLine;
  let store: CellStore | undefined; // the cells of every body scanned, made at the first
  HEADER.lastIndex = 0;
  for (let m = HEADER.exec(text); m; m = HEADER.exec(text)) {
    const open = m.index + m[0].length - 1;
    line += lineBreaks(text, counted, open);
    counted = open;
    store ??= new CellStore(capacityFor(text.length - open));
    const block = scanBody(store, text, open, line, open - lineStart(text, open), firstLine);
    if (!block) continue;
    blocks.set(open, block);
    line = block.closeLine + firstLine;
    counted = block.close;
    HEADER.lastIndex = block.close;
  }
  return blocks;
}

/**
 * The tokens of `text` but the scanned bodies: the stretches before, between and after them
 * are lexed on their own (no token spans lines, and a stretch ends after a `{` and starts at a
 * `}`) and moved to their place — quicker than lexing a text with the bodies blanked.
 */
export function lexAround(text: string, blocks: ScannedBlocks): Lexed {
  return collect((take) => lexAroundEach(text, blocks, take));
}

/** `lexAround`, handing each token to `take` as it is read (see `lex`); returns the lexing errors. */
export function lexAroundEach(text: string, blocks: ScannedBlocks, take: (token: IToken) => void): ILexingError[] {
  if (blocks.size === 0) return lex(text, take);
  const errors: ILexingError[] = [];
  let from = 0,
    line = 0,
    column = 0; // where the next stretch starts
  for (const block of [...blocks.values(), undefined]) {
    const stretch = text.slice(from, block ? block.open + 1 : text.length);
    for (const e of lex(stretch, (t) => take(moved(t, from, line, column)))) errors.push(moved(e, from, line, column));
    if (block) ({ close: from, closeLine: line, closeColumn: column } = block);
  }
  return errors;
}

/** A token or lexing error of a stretch starting at `offset`, on line `line` + 1, column `column` + 1 of the text. */
function moved<
  T extends
    | { startOffset: number; startLine?: number; startColumn?: number }
    | { offset: number; line?: number; column?: number },
>(x: T, offset: number, line: number, column: number): T {
  if ('startOffset' in x) {
    if (x.startLine === 1) x.startColumn! += column;
    x.startOffset += offset;
    x.startLine! += line;
  } else {
    if (x.line === 1) x.column! += column;
    x.offset += offset;
    x.line! += line;
  }
  return x;
}

/**
 * Room for the cells of `length` characters of data (a cell and its separator take 4 to 10 of
 * them), at most 2^18 (3.4 MB) in case the text is not all data; the store grows if need be.
 */
function capacityFor(length: number): number {
  return Math.min(1 << 18, Math.max(16, length >> 3));
}

function lineBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) n++;
  }
  return n;
}

function lineStart(text: string, offset: number): number {
  let i = offset;
  while (i > 0 && text.charCodeAt(i - 1) !== 10 && text.charCodeAt(i - 1) !== 13) i--;
  return i;
}

const enum C {
  Tab = 9,
  LF = 10,
  VT = 11,
  FF = 12,
  CR = 13,
  Space = 32,
  Quote = 34,
  Comma = 44,
  Minus = 45,
  Dot = 46,
  Slash = 47,
  Zero = 48,
  Nine = 57,
  Question = 63,
  RCurly = 125,
  NBSP = 0xa0,
  BOM = 0xfeff,
}

function isDigit(c: number): boolean {
  return c >= C.Zero && c <= C.Nine;
}

function isNameStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

function startsNumber(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  return isDigit(c) || (c === C.Dot && isDigit(text.charCodeAt(i + 1)));
}

/** Reads the body after the `{` at `open` (on `line`, column `column`), up to its `}`; undefined when it is not plain
 * cells. */
function scanBody(
  store: CellStore,
  text: string,
  open: number,
  line: number,
  column: number,
  firstLine: number,
): ScannedBlock | undefined {
  const rows: A.DataRow[] = [];
  const end = scanCells(text, open + 1, line, open - column, rows, store);
  return end && end.close >= 0
    ? { open, close: end.close, closeLine: end.line - firstLine, closeColumn: end.column, rows }
    : undefined;
}

/**
 * The rows of whole lines of a data body (`text` starts at a line start, on `line`), for
 * re-scanning the rows an edit changed; undefined unless every line is plain cells.
 */
export function scanRows(text: string, line: number): A.DataRow[] | undefined {
  const rows: A.DataRow[] = [];
  const end = scanCells(text, 0, line, 0, rows, new CellStore(capacityFor(text.length)));
  return end && end.close < 0 ? rows : undefined;
}

/**
 * Reads cells into `rows`, a row per line with cells (as `groupRows` makes them), from `from`
 * (on `line`, whose start is at `lineAt`) up to a `}` (`close` is its offset) or the end of
 * the text (`close` is -1); undefined at anything else. The cells go to one compact store
 * (see `dataCells.ts`), not into a node each.
 */
function scanCells(
  text: string,
  from: number,
  line: number,
  lineAt: number,
  rows: A.DataRow[],
  store: CellStore,
): { close: number; line: number; column: number } | undefined {
  const mark = store.length;
  const scanned = scanInto(store, text, from, line, lineAt, rows);
  if (!scanned) store.length = mark; // a body left to the grammar: drop its cells
  return scanned;
}

function scanInto(
  store: CellStore,
  text: string,
  from: number,
  line: number,
  lineAt: number,
  rows: A.DataRow[],
): { close: number; line: number; column: number } | undefined {
  let first = store.length; // the current line's first cell in `store`
  const flush = () => {
    if (store.length > first) rows.push(new ScannedRow(store, first, store.length - first, line));
    first = store.length;
  };
  const match = (re: RegExp, at: number) => {
    re.lastIndex = at;
    return re.test(text) ? re.lastIndex : -1;
  };
  for (let i = from; i < text.length;) {
    const c = text.charCodeAt(i);
    if (c === C.Space || c === C.Tab || c === C.Comma || c === C.VT || c === C.FF || c === C.NBSP || c === C.BOM) {
      i++;
      continue;
    }
    if (c === C.LF || c === C.CR) {
      flush();
      i += c === C.CR && text.charCodeAt(i + 1) === C.LF ? 2 : 1;
      line++;
      lineAt = i;
      continue;
    }
    if (c === C.RCurly) {
      flush();
      return { close: i, line, column: i - lineAt };
    }
    let end: number;
    if (c === C.Slash) {
      if (text.charCodeAt(i + 1) !== C.Slash || text.charCodeAt(i + 2) === C.Slash) return undefined; // `/`, `///`
      while (i < text.length && text.charCodeAt(i) !== C.LF && text.charCodeAt(i) !== C.CR) i++;
      continue;
    } else if (c === C.Question) {
      end = i + 1;
      store.push(MISSING, i - lineAt, end - lineAt, text, i, end);
    } else if (c === C.Quote) {
      end = match(STRING_RE, i);
      if (end < 0) return undefined;
      const value = text.slice(i + 1, end - 1).replace(/\\(.)/g, '$1');
      store.push(STRING, i - lineAt, end - lineAt, value, 0, value.length);
    } else if (startsNumber(text, i) || (c === C.Minus && startsNumber(text, i + 1))) {
      end = match(NUMBER_RE, c === C.Minus ? i + 1 : i);
      const next = text.charCodeAt(end);
      if (next === C.Slash || next === 37 /* % */) return undefined; // fractions and percentages: the grammar's
      // The source text is kept; its value is Number(text), which equals the negated body for `-x`.
      store.push(NUMBER, i - lineAt, end - lineAt, text, i, end);
    } else if (isNameStart(c)) {
      end = i + 1;
      while (isNameChar(text.charCodeAt(end))) end++;
      // A statement keyword starting a line may start a statement (see `chunks.ts`).
      if (store.length === first && statementWords.has(text.slice(i, end))) return undefined;
      store.push(REF, i - lineAt, end - lineAt, text, i, end);
    } else {
      return undefined;
    }
    i = end;
  }
  flush();
  return { close: -1, line, column: text.length - lineAt };
}
