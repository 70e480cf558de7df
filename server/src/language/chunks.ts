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

export function splitStatements(tokens: readonly IToken[]): Chunk[] {
  const chunks: Chunk[] = [];
  let current: IToken[] = [];
  let depth = 0;
  let startColumn = 0;
  let previousLine = -1;
  const flush = (kind: ChunkKind = 'statement') => {
    if (current.length > 0) chunks.push({ kind, tokens: current });
    current = [];
    depth = 0;
  };
  for (const t of tokens) {
    const lineStart = t.startLine !== previousLine;
    previousLine = t.endLine!;
    if (current.length > 0 && lineStart && T.statementKeywords.has(t.tokenType) && (depth <= 0 || t.startColumn! <= startColumn)) {
      flush();
    }
    if (t.tokenType === T.RCurly && depth <= 0) {
      flush();
      chunks.push({ kind: 'networkClose', tokens: [t] });
      continue;
    }
    if (current.length === 0) startColumn = t.startColumn!;
    current.push(t);
    if (openers.has(t.tokenType)) {
      depth++;
      if (t.tokenType === T.LCurly && depth === 1 && current[0].tokenType === T.Kw.network) flush('networkOpen');
    } else if (closers.has(t.tokenType)) {
      depth--;
    }
  }
  flush();
  return chunks;
}

/** Whether every bracket opened on these tokens is closed on them. */
export function balanced(tokens: readonly IToken[]): boolean {
  return unclosedOpener(tokens) === undefined && tokens.every((t, i) => !closers.has(t.tokenType) || depthBefore(tokens, i) > 0);
}

function depthBefore(tokens: readonly IToken[], index: number): number {
  let depth = 0;
  for (let i = 0; i < index; i++) {
    if (openers.has(tokens[i].tokenType)) depth++;
    else if (closers.has(tokens[i].tokenType)) depth--;
  }
  return depth;
}

/** The first bracket these tokens open and never close, if any. */
export function unclosedOpener(tokens: readonly IToken[]): IToken | undefined {
  const stack: IToken[] = [];
  for (const t of tokens) {
    if (openers.has(t.tokenType)) stack.push(t);
    else if (closers.has(t.tokenType)) stack.pop();
  }
  return stack[0];
}
