/**
 * The lexer: `.bayes` text → Chevrotain tokens, by the first character. It gives exactly what
 * Chevrotain's Lexer does with the token definitions of `tokens.ts` (first matching pattern in
 * their order, start positions only, `///` lines in the `doc` group, the same errors and
 * resynchronisation), then keyword images their keyword type — a test compares the two on the
 * examples and on random text. Hand-written because a fresh `bayes check` builds no lexer (the
 * Chevrotain one analyses its patterns first) and every token is one branch, not a pattern loop.
 */
import type { IToken, ILexingError, TokenType } from 'chevrotain';
import * as T from './tokens.js';

export interface Lexed {
  tokens: IToken[];
  groups: { doc: IToken[] };
  errors: ILexingError[];
}

const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\\r\n]|\\.)*"/y;
const BLOCK_COMMENT = /\/\*[\s\S]*?\*\//y;

/** One-character tokens whose character starts no longer token, by character code. */
const single: (TokenType | undefined)[] = [];
const singles = [T.LCurly, T.RCurly, T.LParen, T.RParen, T.LBracket, T.RBracket, T.Comma, T.Colon, T.Pipe];
for (const t of [...singles, T.Question, T.Percent]) single[(t.PATTERN as string).charCodeAt(0)] = t;

/** The first characters of keywords, by character code: a name starting otherwise (`Storm`) is no keyword. */
const keywordStart: boolean[] = [];
for (const word of T.keywordByImage.keys()) keywordStart[word.charCodeAt(0)] = true;

/** A match of whitespace or a comment: skipped, no token. */
const SKIP = 'skip';
type Matched = { type: TokenType | typeof SKIP | undefined; length: number };

function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13) || c === 0xa0; // [ \t\n\v\f\r\u00a0]
}

function isIdentifierStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isIdentifierPart(c: number): boolean {
  return isIdentifierStart(c) || (c >= 48 && c <= 57);
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

/** Length of the match of a sticky pattern at `offset`, or 0. */
function sticky(pattern: RegExp, text: string, offset: number): number {
  pattern.lastIndex = offset;
  return pattern.test(text) ? pattern.lastIndex - offset : 0;
}

/** Offset just past the end of the line at `offset` (before its `\n` or `\r`). */
function lineEnd(text: string, offset: number): number {
  let i = offset;
  for (let c = text.charCodeAt(i); i < text.length && c !== 10 && c !== 13; c = text.charCodeAt(++i));
  return i;
}

/**
 * The token that starts at `offset`: its type (SKIP for whitespace and comments) and length;
 * type undefined and length 0 when no pattern matches there.
 */
function match(text: string, offset: number, out: Matched): void {
  const c = text.charCodeAt(offset);
  out.type = undefined;
  out.length = 1;
  const one = c < 128 ? single[c] : undefined;
  if (c === 0xfeff && offset === 0) {
    out.type = SKIP; // a byte-order mark; U+FEFF anywhere else is an invisible character (an error)
  } else if (one) {
    out.type = one;
  } else if (isIdentifierStart(c)) {
    let end = offset + 1;
    while (end < text.length && isIdentifierPart(text.charCodeAt(end))) end++;
    out.type = T.Identifier;
    out.length = end - offset;
  } else if (isSpace(c)) {
    let end = offset + 1;
    while (end < text.length && isSpace(text.charCodeAt(end))) end++;
    out.type = SKIP;
    out.length = end - offset;
  } else if (isDigit(c) || c === 46 /* . */) {
    const length = sticky(NUMBER, text, offset);
    out.type = length > 0 ? T.NumberLit : T.Dot;
    out.length = length || 1;
  } else if (c === 47 /* / */) {
    const next = text.charCodeAt(offset + 1);
    if (next === 47) {
      out.type = text.charCodeAt(offset + 2) === 47 ? T.DocComment : SKIP;
      out.length = lineEnd(text, offset) - offset;
    } else {
      const length = next === 42 /* * */ ? sticky(BLOCK_COMMENT, text, offset) : 0;
      out.type = length > 0 ? SKIP : T.Slash;
      out.length = length || 1;
    }
  } else if (c === 34 /* " */) {
    out.length = sticky(STRING, text, offset);
    out.type = out.length > 0 ? T.StringLit : undefined;
  } else {
    operator(c, text.charCodeAt(offset + 1), out);
  }
}

/** The operators, one or two characters (`~=` before `~`, `->` before `-`, …); length 0 for none. */
function operator(c: number, next: number, out: Matched): void {
  const pair = (second: number, long: TokenType, short: TokenType) => {
    out.type = next === second ? long : short;
    out.length = next === second ? 2 : 1;
  };
  switch (c) {
    case 0x2248: // ≈
      out.type = T.Approx;
      return;
    case 0xb1: // ±
      out.type = T.PlusMinus;
      return;
    case 0x2192: // →
      out.type = T.Arrow;
      return;
    case 0x2264: // ≤
      out.type = T.LessEq;
      return;
    case 0x2265: // ≥
      out.type = T.GreaterEq;
      return;
    case 61: // =
      out.type = T.Equals;
      return;
    case 126: // ~
      return pair(61, T.Approx, T.Tilde);
    case 43: // +
      return pair(45, T.PlusMinus, T.Plus);
    case 45: // -
      return pair(62, T.Arrow, T.Minus);
    case 60: // <
      return pair(61, T.LessEq, T.Less);
    case 62: // >
      return pair(61, T.GreaterEq, T.Greater);
    default:
      out.type = undefined;
      out.length = 0;
  }
}

/** Lexes `text`; names that are keywords get their keyword's token type. */
export function tokenize(text: string): Lexed {
  return collect((take) => lex(text, take));
}

/** The tokens `read` hands to `take`, `///` comments apart, and the lexing errors it returns. */
export function collect(read: (take: (token: IToken) => void) => ILexingError[]): Lexed {
  const tokens: IToken[] = [];
  const doc: IToken[] = [];
  const errors = read((token) => (token.tokenType === T.DocComment ? doc : tokens).push(token));
  return { tokens, groups: { doc }, errors };
}

/**
 * Lexes `text`, handing each token (`///` comments included) to `take` as soon as it is read,
 * so a caller that is done with a statement's tokens lets them go while the rest is lexed (the
 * parser keeps no token array of the whole file: short-lived tokens cost the collector little).
 * Returns the lexing errors.
 */
export function lex(text: string, take: (token: IToken) => void): ILexingError[] {
  const errors: ILexingError[] = [];
  const m: Matched = { type: undefined, length: 0 };
  let line = 1;
  let lineStart = 0; // offset of the current line's first character
  for (let offset = 0; offset < text.length;) {
    match(text, offset, m);
    if (m.length === 0) {
      offset = lexingError(text, offset, line, offset - lineStart + 1, errors, m);
      continue;
    }
    if (m.type === SKIP) {
      // Only whitespace and block comments hold line breaks (`\n`, `\r\n` or a lone `\r`).
      for (let i = offset; i < offset + m.length; i++) {
        const c = text.charCodeAt(i);
        if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
          line++;
          lineStart = i + 1;
        }
      }
    } else if (m.type !== undefined) {
      let type = m.type;
      const image = text.substring(offset, offset + m.length);
      if (type === T.Identifier && keywordStart[text.charCodeAt(offset)]) type = T.keywordByImage.get(image) ?? type;
      take({
        image,
        startOffset: offset,
        startLine: line,
        startColumn: offset - lineStart + 1,
        tokenTypeIdx: type.tokenTypeIdx!,
        tokenType: type,
      });
    }
    offset += m.length;
  }
  return errors;
}

/**
 * Characters no token starts with, from `offset` to the next one some token starts with (as
 * Chevrotain resynchronises), as one error with Chevrotain's message. Returns where lexing resumes.
 */
function lexingError(
  text: string,
  offset: number,
  line: number,
  column: number,
  errors: ILexingError[],
  m: Matched,
): number {
  let end = offset + 1;
  for (; end < text.length; end++) {
    match(text, end, m);
    if (m.length > 0) break;
  }
  const length = end - offset;
  errors.push({
    offset,
    line,
    column,
    length,
    message: `unexpected character: ->${text.charAt(offset)}<- at offset: ${offset}, skipped ${length} characters.`,
  });
  return end;
}
