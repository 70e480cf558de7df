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
  private readonly last = new Map<string, { resultId: string; data: number[] }>();
  private next = 0;

  /** Full tokens, remembered for the next delta. */
  full(uri: string, tokens: SemanticTokens): SemanticTokens {
    return { resultId: this.remember(uri, tokens.data), data: tokens.data };
  }

  /** The edit from the tokens sent as `previousResultId`, or the full tokens when those are not the last sent. */
  delta(uri: string, previousResultId: string, tokens: SemanticTokens): SemanticTokens | SemanticTokensDelta {
    const previous = this.last.get(uri);
    if (previous?.resultId !== previousResultId) return this.full(uri, tokens);
    return { resultId: this.remember(uri, tokens.data), edits: diff(previous.data, tokens.data) };
  }

  forget(uri: string): void {
    this.last.delete(uri);
  }

  private remember(uri: string, data: number[]): string {
    const resultId = String(++this.next);
    this.last.set(uri, { resultId, data });
    return resultId;
  }
}

/** One edit turning `before` into `after` (none when equal): what lies between their common prefix and suffix. */
export function diff(before: readonly number[], after: readonly number[]): SemanticTokensEdit[] {
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before[start] === after[start]) start++;
  let end = 0;
  while (end < shorter - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  if (start === before.length && start === after.length) return [];
  return [{ start, deleteCount: before.length - start - end, data: after.slice(start, after.length - end) }];
}
