/** Where in the file a position is: its statement, network scope and the text before it. */
import type * as A from '../language/index.js';
import type { Position } from '../language/index.js';
import { contains } from './nameIndex.js';

export interface PositionContext {
  /** The statement containing the position (innermost: a statement inside a network). */
  statement?: A.Statement;
  /** The network the position is in ('' = the default model). */
  scope: string;
  /** The line's text before the position. */
  linePrefix: string;
  position: Position;
}

export function positionContext(file: A.BayesFile, text: string, position: Position): PositionContext {
  let statement: A.Statement | undefined;
  let scope = '';
  for (const s of file.statements) {
    if (!contains(s.range, position)) continue;
    statement = s;
    if (s.kind === 'network') {
      scope = s.name.text;
      statement = s.statements.find((inner) => contains(inner.range, position)) ?? s;
    }
  }
  return { statement, scope, linePrefix: lineAt(text, position.line).slice(0, position.character), position };
}

export function lineAt(text: string, line: number): string {
  let start = 0;
  for (let i = 0; i < line; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return '';
    start = next + 1;
  }
  const end = text.indexOf('\n', start);
  return text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
}

/** Offset of a position in the text (UTF-16, as LSP counts). */
export function offsetAt(text: string, position: Position): number {
  let start = 0;
  for (let i = 0; i < position.line; i++) {
    const next = text.indexOf('\n', start);
    if (next < 0) return text.length;
    start = next + 1;
  }
  return Math.min(start + position.character, text.length);
}
