/** How a run summary reads, for the status bar (client) and the code lens (server). */
import type { RunSummary } from './messages.js';

/** `1 result`, `2 results`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** What the status bar and the code lens say: `3 results · 1 failure · 12 ms`. */
export function summaryText(s: Pick<RunSummary, 'queries' | 'failures' | 'elapsedMs'>, separator = ' · '): string {
  return [
    counted(s.queries, 'result'),
    ...(s.failures ? [counted(s.failures, 'failure')] : []),
    ...(s.elapsedMs !== undefined ? [`${s.elapsedMs.toFixed(0)} ms`] : []),
  ].join(separator);
}
