/**
 * Splits the token stream into statements before parsing, so a syntax error never spreads past
 * its statement. A statement starts at a statement keyword that begins a line, when we are not
 * inside brackets — or, if brackets were left open, when the keyword is indented no deeper
 * than the statement it would otherwise belong to (a forgotten `}` does not swallow the file).
 * `network N {` and its `}` become chunks of their own; `parse.ts` nests what lies between.
 */
import type { IToken, TokenType } from 'chevrotain';
import * as T from './tokens.js';
import { nearestName } from './suggest.js';

export type ChunkKind = 'statement' | 'networkOpen' | 'networkClose';
/**
 * A statement's tokens; `unclosed` when it leaves a bracket open (a later keyword then starts a
 * statement only if indented no deeper).
 */
export interface Chunk {
  kind: ChunkKind;
  tokens: IToken[];
  unclosed: boolean;
}

const openers = new Set([T.LCurly, T.LParen, T.LBracket]);
const closers = new Set([T.RCurly, T.RParen, T.RBracket]);

/** What each token type means to the splitter, by `tokenTypeIdx` (one array read per token). */
const enum Role {
  Other,
  Keyword,
  Opener,
  Closer,
}
const roles: Role[] = [];
for (const t of T.statementKeywords) roles[t.tokenTypeIdx!] = Role.Keyword;
for (const t of openers) roles[t.tokenTypeIdx!] = Role.Opener;
for (const t of closers) roles[t.tokenTypeIdx!] = Role.Closer;

/** Statement keywords by spelling, for `hypothesis Disease {…}` (did you mean 'hypotheses'?). */
const statementWords = new Map([...T.statementKeywords].filter((t) => t !== T.Kw.P).map((t) => [t.name.slice(3), t]));

/** A token retyped as the statement keyword it misspells: `image` is what was written. */
export interface MisspeltKeyword {
  token: IToken;
  image: string;
  keyword: string;
}

/**
 * A plain name that begins a line outside brackets, is followed by a name on the same line and
 * is a near spelling of a statement keyword is taken as that keyword (the parser then reads the
 * statement, declaring its name; parse.ts reports the spelling once).
 */
function misspelt(t: IToken, next: IToken | undefined): TokenType | undefined {
  if (t.tokenType !== T.Identifier || t.image.length < 3) return undefined;
  if (!next || next.startLine !== t.startLine || !/^[A-Za-z_]/.test(next.image)) return undefined;
  const word = nearestName(t.image, statementWords.keys());
  return word === undefined ? undefined : statementWords.get(word);
}

/**
 * Splits tokens into statements as they are lexed: `push` each token in order, then `end`;
 * each statement goes to `take` once its last token is known. A token is judged when the next
 * one arrives (a misspelt keyword is recognised by the name after it).
 */
export class StatementSplitter {
  private current: IToken[] = []; // the tokens of the statement being read
  // Open brackets of the current statement; a closer that does not match the top is a typo
  // inside the statement and must not end it (so it is ignored here).
  private open: IToken[] = [];
  private startColumn = 0;
  private previousLine = -1;
  private waiting: IToken | undefined;

  constructor(
    private readonly take: (chunk: Chunk) => void,
    private readonly retyped: MisspeltKeyword[] = [],
  ) {}

  push(token: IToken): void {
    if (this.waiting) this.split(this.waiting, token);
    this.waiting = token;
  }

  end(): void {
    if (this.waiting) this.split(this.waiting, undefined);
    this.waiting = undefined;
    this.flush();
  }

  private flush(kind: ChunkKind = 'statement'): void {
    if (this.current.length > 0) this.take({ kind, tokens: this.current, unclosed: this.open.length > 0 });
    this.current = [];
    this.open = [];
  }

  private split(t: IToken, next: IToken | undefined): void {
    // The first token of a line, with no bracket open or indented no deeper than the statement.
    const mayStart =
      t.startLine !== this.previousLine && (this.open.length === 0 || t.startColumn! <= this.startColumn);
    if (mayStart) {
      const keyword = misspelt(t, next);
      if (keyword) {
        this.retyped.push({ token: t, image: t.image, keyword: keyword.name.slice(3) });
        t.tokenType = keyword;
        t.tokenTypeIdx = keyword.tokenTypeIdx!;
      }
    }
    const role = roles[t.tokenTypeIdx] ?? Role.Other;
    this.previousLine = t.startLine!;
    if (role === Role.Keyword && mayStart && this.current.length > 0) this.flush();
    if (t.tokenType === T.RCurly && this.open.length === 0) {
      this.flush();
      this.take({ kind: 'networkClose', tokens: [t], unclosed: false });
      return;
    }
    if (this.current.length === 0) this.startColumn = t.startColumn!;
    this.current.push(t);
    if (role === Role.Opener) {
      this.open.push(t);
      if (t.tokenType === T.LCurly && this.open.length === 1 && this.current[0].tokenType === T.Kw.network)
        this.flush('networkOpen');
    } else if (role === Role.Closer && this.open.length > 0 && matches(this.open[this.open.length - 1], t)) {
      this.open.pop();
    }
  }
}

function matches(opener: IToken, closer: IToken): boolean {
  return (
    (opener.tokenType === T.LCurly && closer.tokenType === T.RCurly) ||
    (opener.tokenType === T.LParen && closer.tokenType === T.RParen) ||
    (opener.tokenType === T.LBracket && closer.tokenType === T.RBracket)
  );
}

/**
 * Whether the tokens of `line` can be dropped from a statement without unbalancing it: the
 * line closes every bracket it opens, and closes none opened on an earlier line.
 */
export function selfContained(tokens: readonly IToken[], line: number): boolean {
  const stack: IToken[] = [];
  for (const t of tokens) {
    if (openers.has(t.tokenType)) stack.push(t);
    else if (closers.has(t.tokenType) && stack.length > 0 && matches(stack[stack.length - 1], t)) {
      const opener = stack.pop()!;
      if (t.startLine === line && opener.startLine !== line) return false;
    }
  }
  return unclosedOpener(tokens.filter((t) => t.startLine === line)) === undefined;
}

/** The first bracket these tokens open and never close, if any. */
export function unclosedOpener(tokens: readonly IToken[]): IToken | undefined {
  const stack: IToken[] = [];
  for (const t of tokens) {
    if (openers.has(t.tokenType)) stack.push(t);
    else if (closers.has(t.tokenType) && stack.length > 0 && matches(stack[stack.length - 1], t)) stack.pop();
  }
  return stack[0];
}
