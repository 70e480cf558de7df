import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { checkText, sortDiagnostics } from '../run/pipeline.js';
import { hasErrors, type Diagnostic } from '../language/diagnostics.js';
import { MAX_MODEL_CHARS } from '../language/parse.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { environmentFor, readCommandLineText, WORKSPACE_OPTIONS, WORKSPACE_USAGE } from './workspace.js';
import { paint, paintDiagnostic } from './progress.js';
import type { BayesFile, Statement } from '../language/ast.js';

export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`;
}

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'parse and check model files, printing file:line:col: severity: message',
  usage:
    'bayes check FILE… [options]\n\nPrints every diagnostic, then one line per file saying what was checked ' +
    '(statements, variables, networks) and what was found; exits 1 when any diagnostic is an error. With --json: ' +
    '{ file, diagnostics } per file\n(severity, code, message, range; an array for several files).\n' +
    WORKSPACE_USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: WORKSPACE_OPTIONS, allowPositionals: true });
    if (positionals.length === 0) throw new UsageError('give at least one .bayes file');
    let failed = false;
    const checked: { file: string; diagnostics: Diagnostic[] }[] = [];
    for (const file of positionals) {
      const text = readModel(file, io, values['max-file-mb']);
      if (text === undefined) {
        failed = true;
        continue;
      }
      const { diagnostics, parse } = checkText(text, environmentFor(file, values, io));
      const shown = relative(io.cwd, file) || file;
      const sorted = sortDiagnostics(diagnostics);
      if (values.json) checked.push({ file: shown, diagnostics: sorted });
      else {
        const painter = paint(io, 'out');
        for (const d of sorted) io.out(paintDiagnostic(formatDiagnostic(shown, d), painter) + '\n');
        io.out(checkSummary(shown, parse.ast, sorted) + '\n');
      }
      failed ||= hasErrors(diagnostics);
    }
    if (values.json) io.out(JSON.stringify(checked.length === 1 ? checked[0] : checked, null, 2) + '\n');
    return failed ? 1 : 0;
  },
};

/** "FILE: checked 12 statements (5 variables, 1 network, 3 queries): no problems" — or what was found. */
export function checkSummary(file: string, ast: BayesFile, diagnostics: readonly Diagnostic[]): string {
  const top = ast.statements;
  const inside = (s: Statement): Statement[] => (s.kind === 'network' ? [s, ...s.statements] : [s]);
  const all = top.flatMap(inside);
  const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
  const parts = [
    count(all.filter((s) => s.kind === 'variable' || s.kind === 'hypotheses').length, 'variable'),
    count(top.filter((s) => s.kind === 'network' || s.kind === 'import').length, 'network'),
    count(all.filter((s) => s.kind === 'queryStatement').length, 'query', 'queries'),
    count(all.filter((s) => s.kind === 'expectStatement').length, 'expect'),
  ].filter((p) => !p.startsWith('0 '));
  const found = (['error', 'warning', 'information', 'hint'] as const)
    .map((sev) => [sev, diagnostics.filter((d) => d.severity === sev).length] as const)
    .filter(([, n]) => n > 0)
    .map(([sev, n]) => (sev === 'information' ? `${n} information` : count(n, sev)));
  const what = `${count(top.length, 'statement')}${parts.length ? ` (${parts.join(', ')})` : ''}`;
  return `${file}: checked ${what}: ${found.length ? found.join(', ') : 'no problems'}`;
}

/** A model named on the command line; over a few times the parser's limit it is not read at all. */
export function readModel(file: string, io: CliIO, maxFileMb?: string): string | undefined {
  return readCommandLineText(file, io, maxFileMb, 4 * MAX_MODEL_CHARS);
}
