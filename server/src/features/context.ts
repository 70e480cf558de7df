/** Where in the file a position is: its statement, network scope and the text before it. */
import type * as A from '../language/index.js';
import { lineStarts, type Position } from '../language/index.js';
import { contains } from '../language/index.js';

export interface PositionContext {
  /** The statement containing the position (innermost: a statement inside a network). */
  statement?: A.Statement;
  /** The network the position is in ('' = the default model). */
  scope: string;
  /** The line's text before the position, and all of it. */
  linePrefix: string;
  line: string;
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
  const line = lineAt(text, position.line);
  return { statement, scope, linePrefix: line.slice(0, position.character), line, position };
}

/** The text of one line, without its line break; `starts` from `lineStarts` when asking often. */
export function lineAt(text: string, line: number, starts: number[] = lineStarts(text)): string {
  const start = starts[line];
  if (start === undefined) return '';
  const end = line + 1 < starts.length ? starts[line + 1] : text.length;
  return text.slice(start, end).replace(/(\r\n|\n|\r)$/, '');
}

/** Offset of a position in the text (UTF-16, as LSP counts). */
export function offsetAt(text: string, position: Position): number {
  const start = lineStarts(text)[position.line];
  return start === undefined ? text.length : Math.min(start + position.character, text.length);
}
