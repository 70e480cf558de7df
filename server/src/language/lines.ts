/** Line starts as LSP counts lines: `\n`, `\r\n` and a lone `\r` each end a line. */
import type { Range } from './diagnostics.js';

export function lineStarts(text: string): number[] {
  const starts = [0];
  if (!text.includes('\r')) {
    // Only `\n` ends lines: `indexOf` jumps between them far quicker than a loop over every character.
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    return starts;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** The text a range covers, given the document's line starts. */
export function sliceRange(text: string, starts: number[], range: Range): string {
  return text.slice(starts[range.start.line] + range.start.character, starts[range.end.line] + range.end.character);
}

/** The range of the whole document. */
export function documentRange(text: string): Range {
  const starts = lineStarts(text);
  const last = starts.length - 1;
  return { start: { line: 0, character: 0 }, end: { line: last, character: text.length - starts[last] } };
}

/** The first index in `0..count` whose line (`lineAt`, ascending) is at or after `line`: a binary search. */
export function firstAtOrAfter(count: number, lineAt: (i: number) => number, line: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (lineAt(mid) < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
