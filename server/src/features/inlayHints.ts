/**
 * Inlay hints from the last run: after each query and learn line its headline (`⇒ healthy ·
 * 0.79`), after a failed expect the value it actually got, after a passing one a tick.
 */
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver/node';
import type { RunResult } from '../protocol/runResult.js';
import { lineStarts } from '../language/index.js';
import { lineAt } from './context.js';
import { formatNumber, tidyNumbers } from './resultView.js';
import { expectDigits } from './resultExplain.js';

/** `starts`: the document's line starts when the caller has them (the editor's parse keeps them). */
export function inlayHints(text: string, run: RunResult | undefined, range: Range, starts?: number[]): InlayHint[] {
  if (!run) return [];
  const hints: InlayHint[] = [];
  starts ??= lineStarts(text);
  for (const entry of run.results) {
    // A network entry describes a whole network for the graph view; no line asked for it.
    if (entry.kind === 'network' || entry.kind === 'sequence') continue;
    const line = entry.range.end.line;
    if (line < range.start.line || line > range.end.line) continue;
    const position = { line, character: lineAt(text, line, starts).replace(/\s*(\/\/.*)?$/, '').length };
    const label =
      entry.kind !== 'expect'
        ? `⇒ ${tidyNumbers(entry.headline)}`
        : entry.passed
          ? '✓'
          : `✗ actual ${typeof entry.actual === 'number' ? formatNumber(entry.actual, Math.max(6, expectDigits(entry.expected))) : entry.actual}`;
    hints.push({ position, label, kind: InlayHintKind.Type, paddingLeft: true });
  }
  return hints;
}
