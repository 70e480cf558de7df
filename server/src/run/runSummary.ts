/** What the status bar and the code lens say of a finished run. */
import type { RunRecord, RunSummary } from '../protocol/messages.js';

export function summary(record: RunRecord): RunSummary {
  // A failed `expect` is both a result (passed: false) and an error on its line: count it once.
  // Each statement that failed counts once, whatever number of errors it reported.
  const failed = new Set<number>();
  for (const r of record.result.results) if (r.kind === 'expect' && r.passed === false) failed.add(r.range.start.line);
  const statements = record.result.results.map((r) => r.range);
  for (const d of record.result.diagnostics) {
    if (d.severity !== 'error') continue;
    const owner = statements.find((r) => r.start.line <= d.range.start.line && d.range.start.line <= r.end.line);
    failed.add(owner ? owner.start.line : d.range.start.line);
  }
  const failures = failed.size;
  // Network entries draw the graph; the count is of the statements that asked for something.
  const queries = record.result.results.filter((r) => r.kind !== 'network' && r.kind !== 'sequence').length;
  return { queries, failures, elapsedMs: record.result.elapsedMs, cached: record.cached };
}

export { counted, summaryText } from '../protocol/summaryText.js';
