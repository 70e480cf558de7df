/** What the status bar and the code lens say of a finished run. */
import type { RunRecord, RunSummary } from '../protocol/messages.js';

export function summary(record: RunRecord): RunSummary {
  const failures =
    record.result.results.filter((r) => r.kind === 'expect' && r.passed === false).length +
    record.result.diagnostics.filter((d) => d.severity === 'error').length;
  // Network entries draw the graph; the count is of the statements that asked for something.
  const queries = record.result.results.filter((r) => r.kind !== 'network').length;
  return { queries, failures, elapsedMs: record.result.elapsedMs, cached: record.cached };
}
