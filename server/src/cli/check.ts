import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { checkText, sortDiagnostics } from '../run/pipeline.js';
import { hasErrors, type Diagnostic } from '../language/diagnostics.js';
import { MAX_MODEL_CHARS } from '../language/parse.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { environmentFor, readCommandLineText, WORKSPACE_OPTIONS, WORKSPACE_USAGE } from './workspace.js';

export function formatDiagnostic(file: string, d: Diagnostic): string {
  return `${file}:${d.range.start.line + 1}:${d.range.start.character + 1}: ${d.severity}: ${d.message}`;
}

export const checkCommand: CliCommand = {
  name: 'check',
  summary: 'parse and check model files, printing file:line:col: severity: message',
  usage:
    'bayes check FILE… [options]\n\nPrints every diagnostic; exits 1 when any is an error. With --json: ' +
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
      const { diagnostics } = checkText(text, environmentFor(file, values, io));
      const shown = relative(io.cwd, file) || file;
      const sorted = sortDiagnostics(diagnostics);
      if (values.json) checked.push({ file: shown, diagnostics: sorted });
      else for (const d of sorted) io.out(formatDiagnostic(shown, d) + '\n');
      failed ||= hasErrors(diagnostics);
    }
    if (values.json) io.out(JSON.stringify(checked.length === 1 ? checked[0] : checked, null, 2) + '\n');
    return failed ? 1 : 0;
  },
};

/** A model named on the command line; over a few times the parser's limit it is not read at all. */
export function readModel(file: string, io: CliIO, maxFileMb?: string): string | undefined {
  return readCommandLineText(file, io, maxFileMb, 4 * MAX_MODEL_CHARS);
}
