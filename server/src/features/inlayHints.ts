/**
 * Inlay hints from the last run: after each query and learn line its headline (`⇒ healthy ·
 * 0.79`), after a failed expect the value it actually got, after a passing one a tick.
 */
import { InlayHintKind, type InlayHint, type Range } from 'vscode-languageserver/node';
import type { RunResult } from '../run/runResult.js';
import { lineStarts } from '../language/index.js';
import { lineAt } from './context.js';

export function inlayHints(text: string, run: RunResult | undefined, range: Range): InlayHint[] {
  if (!run) return [];
  const hints: InlayHint[] = [];
  const starts = lineStarts(text);
  for (const entry of run.results) {
    const line = entry.range.end.line;
    if (line < range.start.line || line > range.end.line) continue;
    const position = { line, character: lineAt(text, line, starts).replace(/\s*(\/\/.*)?$/, '').length };
    const label = entry.kind !== 'expect'
      ? `⇒ ${entry.headline}`
      : entry.passed ? '✓' : `✗ actual ${typeof entry.actual === 'number' ? String(Number(entry.actual.toPrecision(6))) : entry.actual}`;
    hints.push({ position, label, kind: InlayHintKind.Type, paddingLeft: true });
  }
  return hints;
}
