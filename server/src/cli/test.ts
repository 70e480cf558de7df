/** `bayes test [PATHS…]`: every `expect` of the .bayes files found, as a test report for CI. */
import { relative, resolve } from 'node:path';
import { bayesFilesUnder } from '../workspace/modelListing.js';
import { parseArgs } from 'node:util';
import { runText } from '../run/pipeline.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { environmentFor, MAX_FILE_USAGE } from './workspace.js';
import { formatDiagnostic, readModel } from './check.js';
import { expectCases, type ExpectCase, type FileCases } from '../protocol/expectCases.js';
import { junitReport, tapReport } from './testReports.js';

const OPTIONS = {
  reporter: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
} as const;

const REPORTERS = ['text', 'junit', 'tap', 'json'] as const;

const USAGE = `bayes test [PATHS…] [--reporter text|junit|tap|json] [options]

Runs every .bayes file under PATHS (files, or folders searched recursively; default: the current
folder; folders named node_modules or starting with '.' are skipped) and reports each \`expect\`
line as a test: passed, failed (expected and actual), or error (an expect that gave no verdict,
or a model with errors, reported as a test named after the file). Exits 1 on any failure or error,
or when no .bayes file is found.

Options:
  --reporter R      text (default), junit (JUnit XML: testsuites/testsuite per file/testcase per
                    expect, with <failure> or <error>), tap (TAP 13), json ({"files": [{"file",
                    "timeMs", "cases": [{"name", "line", "range", "status", "expected", "actual"?,
                    "message"?, "timeMs"?}]}], "tests", "passed", "failed", "errors"})
  --workspace DIR   the workspace folder the models may read from (default: as bayes run)
  --data-root DIR   a further folder data may be read from (repeatable; also $BAYES_DATA_ROOT)
${MAX_FILE_USAGE}`;

export const testCommand: CliCommand = {
  name: 'test',
  summary: 'run every expect of the .bayes files found (folders recursed); JUnit, TAP or JSON reports',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    const reporter = values.reporter ?? 'text';
    if (!(REPORTERS as readonly string[]).includes(reporter))
      throw new UsageError(`--reporter must be ${REPORTERS.join(', ')}, not '${reporter}'`);
    const paths = positionals.length ? positionals : ['.'];
    const found: string[] = [];
    for (const path of paths) {
      const more = modelFiles(path, io);
      if (!more) return 1;
      found.push(...more);
    }
    if (found.length === 0) {
      io.err(`bayes test: no .bayes file in ${paths.join(', ')}\n`);
      return 1;
    }
    const files: FileCases[] = [];
    for (const file of found) {
      const absolute = resolve(io.cwd, file);
      const shown = relative(io.cwd, absolute) || file;
      const text = readModel(absolute, io);
      if (text === undefined) {
        files.push({ file: shown, timeMs: 0, cases: [readError(shown)] });
        continue;
      }
      const started = performance.now();
      const result = await runText(text, shown, environmentFor(absolute, values, io));
      files.push({ file: shown, timeMs: performance.now() - started, cases: expectCases(result, formatDiagnostic) });
    }
    io.out(report(reporter as (typeof REPORTERS)[number], files));
    return files.some((f) => f.cases.some((c) => c.status !== 'passed')) ? 1 : 0;
  },
};

function readError(file: string): ExpectCase {
  return { name: file, line: 1, status: 'error', expected: '', message: `cannot read ${file}` };
}

/** The .bayes files of a path: itself, or the ones under a folder (sorted). undefined after an error. */
function modelFiles(path: string, io: CliIO): string[] | undefined {
  const absolute = resolve(io.cwd, path);
  try {
    const found = bayesFilesUnder(absolute);
    return found.length === 1 && found[0] === absolute ? [path] : found.map((f) => relative(io.cwd, f) || f);
  } catch (e) {
    io.err(`bayes test: cannot read ${path}: ${(e as Error).message}\n`);
    return undefined;
  }
}

function report(reporter: (typeof REPORTERS)[number], files: FileCases[]): string {
  if (reporter === 'junit') return junitReport(files);
  if (reporter === 'tap') return tapReport(files);
  const all = files.flatMap((f) => f.cases);
  const count = (s: ExpectCase['status']) => all.filter((c) => c.status === s).length;
  if (reporter === 'json') {
    const summary = { tests: all.length, passed: count('passed'), failed: count('failed'), errors: count('error') };
    return JSON.stringify({ files, ...summary }, null, 1) + '\n';
  }
  const lines: string[] = [];
  for (const f of files) {
    lines.push(f.file);
    for (const c of f.cases) {
      const mark = c.status === 'passed' ? '✓' : c.status === 'failed' ? '✗' : '!';
      lines.push(`  ${String(c.line).padStart(4)}  ${mark} ${c.name}${c.message ? `  —  ${c.message}` : ''}`);
    }
  }
  lines.push(`${all.length} tests: ${count('passed')} passed, ${count('failed')} failed, ${count('error')} errors`);
  return lines.join('\n') + '\n';
}
