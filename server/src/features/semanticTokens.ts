/**
 * Semantic tokens: names are coloured by what they resolve to (variable, value, hypothesis
 * space, network, data set, classifier), so `map` used as a state name is not a keyword.
 * Keywords, numbers, strings and `///` doc comments come from the lexer.
 *
 * A big model is mostly scanned data rows (366,000 cells for 10,000 ALARM records). The lexer
 * skips their bodies, as the parser's does, and their cells are coloured straight from the cell
 * store, a style per distinct value of a column; the other tokens meet the name index's
 * occurrences in one merge by position.
 */
import type { SemanticTokens, SemanticTokensLegend } from 'vscode-languageserver/node';
import type { IToken } from 'chevrotain';
import type * as A from '../language/index.js';
import {
  firstAtOrAfter,
  lexAround,
  lineStarts,
  scannedBodies,
  MISSING,
  NUMBER,
  REF,
  ScannedRow,
  type CellStore,
  type Position,
  type Range,
} from '../language/index.js';
import { Identifier, NumberLit, StringLit } from '../language/tokens.js';
import { tokenize } from '../language/lexer.js';
import { comparePositions, stateNamed, type NameKind, type NameSymbol, type Occurrence } from '../language/index.js';
import { nameIndex } from '../language/index.js';

export const TOKEN_TYPES = [
  'keyword',
  'variable',
  'enumMember',
  'type',
  'namespace',
  'struct',
  'class',
  'property',
  'function',
  'number',
  'string',
  'comment',
] as const;
export const TOKEN_MODIFIERS = ['declaration', 'documentation', 'defaultLibrary'] as const;
export const legend: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

type TokenType = (typeof TOKEN_TYPES)[number];
const TYPE_OF: Record<NameKind, TokenType> = {
  variable: 'variable',
  state: 'enumMember',
  hypotheses: 'type',
  hypothesis: 'enumMember',
  network: 'namespace',
  data: 'struct',
  column: 'property',
  corpus: 'struct',
  classifier: 'class',
  mixture: 'class',
};
const bit = (m: (typeof TOKEN_MODIFIERS)[number]) => 1 << TOKEN_MODIFIERS.indexOf(m);

/** A token's type index and modifier bits. */
interface Style {
  type: number;
  modifiers: number;
}
const style = (type: TokenType, modifiers = 0): Style => ({ type: TOKEN_TYPES.indexOf(type), modifiers });
const NUMBER_STYLE = style('number');
const STRING_STYLE = style('string');

/** The tokens of the whole text, or of the lines `range` spans. */
export function semanticTokens(
  file: A.BayesFile,
  text: string,
  range?: Range,
  starts: readonly number[] = lineStarts(text),
): SemanticTokens {
  // A packed array of small integers made at once: growing it a push at a time took most of the time.
  return { data: encode(file, text, range, starts, (size) => new Array<number>(size).fill(0)) };
}

/**
 * All tokens encoded into a typed array, `reuse`'s memory when it is large enough: for deltas
 * (`semanticTokensDelta.ts`), which keep the last two encodings and send neither, so a
 * keystroke allocates no new 1.8 million numbers for the collector to sweep.
 */
export function semanticTokensInto(
  file: A.BayesFile,
  text: string,
  starts: readonly number[],
  reuse?: Int32Array,
): Int32Array {
  return encode(file, text, undefined, starts, (size) =>
    reuse && reuse.buffer.byteLength >= size * 4 ? new Int32Array(reuse.buffer) : new Int32Array(size),
  );
}

function encode<T extends number[] | Int32Array>(
  file: A.BayesFile,
  text: string,
  range: Range | undefined,
  starts: readonly number[],
  room: (size: number) => T,
): T {
  const index = nameIndex(file);
  // Each scanned body is skipped from after its header line (the header's names are occurrences) to its `}`.
  const bodies = [...scannedBodies(file, text, starts).values()].map((b) => {
    const last = b.decl.header[b.decl.header.length - 1];
    return { ...b, open: last ? starts[last.range.end.line] + last.range.end.character - 1 : b.open };
  });
  const lexed = lexAround(text, new Map(bodies.map((b) => [b.open, b])));
  const tokens = [...lexed.tokens, ...(lexed.groups.doc ?? [])].sort((a, b) => a.startOffset - b.startOffset);
  const out = new Encoder(room(5 * (tokens.length + bodies.reduce((n, b) => n + cellsIn(b.rows, range), 0))), range);
  const occurrences = index.occurrences;
  const blocks = new Map(index.cellBlocks.map((b) => [b.decl, b.columns]));
  let o = 0;
  let body = 0;
  tokens.forEach((t, i) => {
    for (; body < bodies.length && bodies[body].open < t.startOffset; body++) {
      cellTokens(out, bodies[body].decl.rows, blocks.get(bodies[body].decl) ?? []);
    }
    const at: Position = { line: t.startLine! - 1, character: t.startColumn! - 1 };
    while (o < occurrences.length && comparePositions(occurrences[o].name.range.start, at) < 0) o++;
    let found: Occurrence | undefined; // names declared and used at once occur twice: the last says how
    for (; o < occurrences.length && comparePositions(occurrences[o].name.range.start, at) === 0; o++)
      found = occurrences[o];
    const s = found ? nameStyle(found.symbol, found.declaration) : lexical(t, tokens[i + 1]);
    if (s) out.push(at.line, at.character, t.image.length, s);
  });
  return out.finish();
}

/** How many cells the rows on the range's lines (all rows without one) have. */
function cellsIn(rows: readonly A.DataRow[], range: Range | undefined): number {
  let n = 0;
  for (
    let r = range ? lineIndex(rows, range.start.line) : 0;
    r < rows.length && (!range || rows[r].range.start.line <= range.end.line);
    r++
  ) {
    n += rows[r] instanceof ScannedRow ? (rows[r] as ScannedRow).count : 0;
  }
  return n;
}

/** The first of `rows` (sorted by line) on or after `line`. */
function lineIndex(rows: readonly A.DataRow[], line: number): number {
  return firstAtOrAfter(rows.length, (i) => rows[i].range.start.line, line);
}

/** The style of a name that resolved. */
function nameStyle(symbol: NameSymbol, declaration: boolean): Style {
  const builtIn = !symbol.declaration && symbol.owner?.kind === 'variable';
  return style(TYPE_OF[symbol.kind], (declaration ? bit('declaration') : 0) | (builtIn ? bit('defaultLibrary') : 0));
}

/**
 * The cells of scanned rows, row by row: numbers and strings as such, a name as the value of its
 * column it names (else as the lexer would see the word alone: a keyword, or nothing). `-2` is
 * two tokens to the lexer, and only `2` a number. The loop reads the store's arrays, and keeps
 * the style of each column's values by their interned text's id: a few lookups a cell.
 */
function cellTokens(
  out: Encoder<number[] | Int32Array>,
  rows: readonly A.DataRow[],
  columns: readonly NameSymbol[],
): void {
  let styles: StyleCache | undefined;
  for (let r = out.firstRow(rows); r < rows.length; r++) {
    const row = rows[r];
    if (!(row instanceof ScannedRow)) continue;
    const line = row.range.start.line;
    if (out.pastEnd(line)) return;
    const { store, first } = row;
    if (styles?.store !== store) styles = new StyleCache(store, columns);
    for (let k = first, end = first + row.count; k < end; k++) {
      const kind = store.kinds[k];
      const start = store.starts[k];
      const length = store.ends[k] - start;
      if (kind === NUMBER) {
        const signed = store.strings[store.texts[k]].charCodeAt(0) === 45; // '-'
        out.push(line, signed ? start + 1 : start, signed ? length - 1 : length, NUMBER_STYLE);
      } else if (kind === REF) {
        const s = styles.of(k - first, store.texts[k]);
        if (s) out.push(line, start, length, s);
      } else if (kind !== MISSING) {
        out.push(line, start, length, STRING_STYLE);
      }
    }
  }
}

/** The style of each value of each column, by the id of its text in one store. */
class StyleCache {
  private readonly byColumn: (Style | null | undefined)[][] = [];

  constructor(
    readonly store: CellStore,
    private readonly columns: readonly NameSymbol[],
  ) {}

  of(column: number, id: number): Style | null {
    const known = (this.byColumn[column] ??= []);
    let s = known[id];
    if (s === undefined) {
      const text = this.store.strings[id];
      const state = stateNamed(this.columns[column], text);
      s = known[id] = state ? nameStyle(state, false) : (wordStyle(text) ?? null);
    }
    return s;
  }
}

const words = new Map<string, Style | undefined>();
/** How the lexer would colour a name alone (a keyword used as a value is one). */
function wordStyle(text: string): Style | undefined {
  if (!words.has(text)) words.set(text, lexical(tokenize(text).tokens[0], undefined));
  return words.get(text);
}

/** A token no name resolved: keyword, literal, doc comment, function name or option key. */
function lexical(t: IToken | undefined, next: IToken | undefined): Style | undefined {
  const type = t?.tokenType;
  if (!t || !type) return undefined;
  if (type === NumberLit) return NUMBER_STYLE;
  if (type === StringLit) return STRING_STYLE;
  if (type.name === 'DocComment') return style('comment', bit('documentation'));
  const isName = type === Identifier || type.CATEGORIES?.includes(Identifier);
  if (!isName) return undefined;
  if (next?.image === '(' && t.image !== 'P') return style('function', bit('defaultLibrary'));
  if (next?.image === ':') return style('property');
  if (type !== Identifier) return style('keyword');
  return undefined;
}

/**
 * The LSP encoding: five numbers a token, line and start relative to the previous token's,
 * written into room made beforehand. Tokens outside `range`'s lines are dropped.
 */
class Encoder<T extends number[] | Int32Array> {
  private length = 0;
  private line = 0;
  private character = 0;

  constructor(
    private readonly data: T,
    private readonly range?: Range,
  ) {}

  /** The encoded tokens (for a typed array, a view of its start); the encoder is spent. */
  finish(): T {
    if (Array.isArray(this.data)) {
      this.data.length = this.length;
      return this.data;
    }
    return this.data.subarray(0, this.length) as T;
  }

  push(line: number, character: number, length: number, s: Style): void {
    if (this.range && (line < this.range.start.line || line > this.range.end.line)) return;
    const d = this.data;
    const n = this.length;
    this.length += 5;
    d[n] = line - this.line;
    d[n + 1] = line === this.line ? character - this.character : character;
    d[n + 2] = length;
    d[n + 3] = s.type;
    d[n + 4] = s.modifiers;
    this.line = line;
    this.character = character;
  }

  /** The first of `rows` (sorted by line) within the range. */
  firstRow(rows: readonly A.DataRow[]): number {
    return this.range ? lineIndex(rows, this.range.start.line) : 0;
  }

  pastEnd(line: number): boolean {
    return this.range !== undefined && line > this.range.end.line;
  }
}
