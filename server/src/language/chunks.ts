/**
 * Splits the token stream into statements before parsing, so a syntax error never spreads past
 * its statement. A statement starts at a statement keyword that begins a line, when we are not
 * inside brackets — or, if brackets were left open, when the keyword is indented no deeper
 * than the statement it would otherwise belong to (a forgotten `}` does not swallow the file).
 * `network N {` and its `}` become chunks of their own; `parse.ts` nests what lies between.
 */
import type { IToken } from 'chevrotain';
import * as T from './tokens.js';

export type ChunkKind = 'statement' | 'networkOpen' | 'networkClose';
export interface Chunk { kind: ChunkKind; tokens: IToken[] }

const openers = new Set([T.LCurly, T.LParen, T.LBracket]);
const closers = new Set([T.RCurly, T.RParen, T.RBracket]);

/** What each token type means to the splitter, by `tokenTypeIdx` (one array read per token). */
const enum Role { Other, Keyword, Opener, Closer }
const roles: Role[] = [];
for (const t of T.statementKeywords) roles[t.tokenTypeIdx!] = Role.Keyword;
for (const t of openers) roles[t.tokenTypeIdx!] = Role.Opener;
for (const t of closers) roles[t.tokenTypeIdx!] = Role.Closer;

export function splitStatements(tokens: readonly IToken[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: IToken[] = [];
  // Open brackets of the current statement; a closer that does not match the top is a typo
  // inside the statement and must not end it (so it is ignored here).
  let open: IToken[] = [];
  let startColumn = 0;
  let previousLine = -1;
  const flush = (kind: ChunkKind = 'statement') => {
    if (current.length > 0) chunks.push({ kind, tokens: current });
    current = [];
    open = [];
  };
  for (const t of tokens) {
    const role = roles[t.tokenTypeIdx] ?? Role.Other;
    const lineStart = t.startLine !== previousLine;
    previousLine = t.startLine!;
    if (role === Role.Keyword && lineStart && current.length > 0 && (open.length === 0 || t.startColumn! <= startColumn)) {
      flush();
    }
    if (t.tokenType === T.RCurly && open.length === 0) {
      flush();
      chunks.push({ kind: 'networkClose', tokens: [t] });
      continue;
    }
    if (current.length === 0) startColumn = t.startColumn!;
    current.push(t);
    if (role === Role.Opener) {
      open.push(t);
      if (t.tokenType === T.LCurly && open.length === 1 && current[0].tokenType === T.Kw.network) flush('networkOpen');
    } else if (role === Role.Closer && open.length > 0 && matches(open[open.length - 1], t)) {
      open.pop();
    }
  }
  flush();
  return chunks;
}

function matches(opener: IToken, closer: IToken): boolean {
  return (opener.tokenType === T.LCurly && closer.tokenType === T.RCurly)
    || (opener.tokenType === T.LParen && closer.tokenType === T.RParen)
    || (opener.tokenType === T.LBracket && closer.tokenType === T.RBracket);
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
