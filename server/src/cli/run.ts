import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { runText } from '../run/pipeline.js';
import { testHook } from '../run/testHooks.js';
import { hasErrors } from '../language/diagnostics.js';
import type { RunResult } from '../protocol/runResult.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { environmentFor, WORKSPACE_OPTIONS, WORKSPACE_USAGE } from './workspace.js';
import { formatDiagnostic, readModel } from './check.js';
import { paint, paintDiagnostic, type Painter } from './progress.js';

export const runCommand: CliCommand = {
  name: 'run',
  summary: "run a model's learn, query and expect statements",
  usage: `bayes run FILE… [options]\n\nRuns each model and prints its results; exits 1 on any error or failed expect.\n${WORKSPACE_USAGE}`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: WORKSPACE_OPTIONS, allowPositionals: true });
    if (positionals.length === 0) throw new UsageError('give at least one .bayes file');
    const results: RunResult[] = [];
    let failed = false;
    for (const file of positionals) {
      const text = readModel(file, io, values['max-file-mb']);
      if (text === undefined) {
        failed = true;
        continue;
      }
      const shown = relative(io.cwd, resolve(io.cwd, file)) || file;
      await testHook(text, io.err);
      const result = await runText(text, shown, environmentFor(file, values, io));
      results.push(result);
      failed ||= runFailed(result);
      if (!values.json) io.out(formatRun(result, paint(io, 'out')));
    }
    if (values.json) io.out(JSON.stringify(results.length === 1 ? results[0] : results, null, 2) + '\n');
    return failed ? 1 : 0;
  },
};

export function runFailed(result: RunResult): boolean {
  return (
    hasErrors(result.diagnostics) ||
    result.results.some((r) => r.kind === 'expect' && r.passed === false) ||
    (result.notEvaluated?.length ?? 0) > 0
  );
}

/** Human-readable report: each result's headline at its line, then the diagnostics (coloured on a terminal). */
export function formatRun(result: RunResult, painter?: Painter): string {
  const lines = [`${result.file}`];
  const inSourceOrder = [...result.results].sort((a, b) => a.range.start.line - b.range.start.line);
  for (const r of inSourceOrder) {
    const mark = r.kind !== 'expect' ? '⇒' : r.passed ? (painter?.pass('✓') ?? '✓') : (painter?.fail('✗') ?? '✗');
    lines.push(`  ${String(r.range.start.line + 1).padStart(4)}  ${mark} ${r.source.trim()}  —  ${r.headline}`);
  }
  for (const d of result.diagnostics) {
    const line = formatDiagnostic(result.file, d);
    lines.push('  ' + (painter ? paintDiagnostic(line, painter) : line));
  }
  const expects = result.results.filter((r) => r.kind === 'expect');
  const passed = expects.filter((r) => r.passed).length;
  const skipped = result.notEvaluated ?? [];
  const total = expects.length + skipped.length;
  lines.push(
    `  ${result.results.length - expects.length} results, ${passed}/${total} expectations hold` +
      (skipped.length > 0 ? `, ${skipped.length} not evaluated` : '') +
      (result.elapsedMs !== undefined ? `, ${result.elapsedMs.toFixed(0)} ms` : ''),
  );
  for (const s of skipped) {
    lines.push(`    line ${s.range.start.line + 1} not evaluated (${s.reason}): ${s.source.trim().split('\n')[0]}`);
  }
  return lines.join('\n') + '\n\n';
}
