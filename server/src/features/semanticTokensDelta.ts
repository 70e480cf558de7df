/**
 * `semanticTokens/full/delta`: after an edit the editor asks what changed since the tokens it
 * has. A big model's full tokens are 1.8 million numbers (ALARM's 10,000 records), and sending
 * them as JSON after every keystroke costs more than computing them; the change a keystroke
 * makes to the encoding is a few numbers, since tokens are encoded relative to the previous one.
 * This keeps the last tokens sent for each document and answers with one edit: the numbers
 * between their common start and common end.
 */
import type { SemanticTokens, SemanticTokensDelta, SemanticTokensEdit } from 'vscode-languageserver/node';

export class SemanticTokensHistory {
  /** The last tokens sent for each document, and the memory of the ones before, to encode the next into. */
  private readonly last = new Map<string, { resultId: string; data: ArrayLike<number>; spare?: Int32Array }>();
  private next = 0;

  /** Full tokens, remembered for the next delta. */
  full(uri: string, tokens: SemanticTokens): SemanticTokens {
    return { resultId: this.remember(uri, tokens.data), data: tokens.data };
  }

  /**
   * The edit from the tokens sent as `previousResultId` to those `encode` writes (into the
   * memory it is given, if it is large enough); the full tokens when those are not the last sent.
   */
  delta(
    uri: string,
    previousResultId: string,
    encode: (reuse?: Int32Array) => Int32Array,
    full: () => SemanticTokens,
  ): SemanticTokens | SemanticTokensDelta {
    const previous = this.last.get(uri);
    if (previous?.resultId !== previousResultId) return this.full(uri, full());
    const data = encode(previous.spare);
    const edits = diff(previous.data, data);
    const spare = previous.data instanceof Int32Array ? new Int32Array(previous.data.buffer) : undefined;
    return { resultId: this.remember(uri, data, spare), edits };
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }

  private remember(uri: string, data: ArrayLike<number>, spare?: Int32Array): string {
    const resultId = String(++this.next);
    this.last.set(uri, { resultId, data, spare });
    return resultId;
  }
}

/** One edit turning `before` into `after` (none when equal): what lies between their common prefix and suffix. */
export function diff(before: ArrayLike<number>, after: ArrayLike<number>): SemanticTokensEdit[] {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before[start] === after[start]) start++;
  let end = 0;
  while (end < shorter - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  if (start === before.length && start === after.length) return [];
  return [
    {
      start,
      deleteCount: before.length - start - end,
      data: Array.prototype.slice.call(after, start, after.length - end),
    },
  ];
}
