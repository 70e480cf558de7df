import { readFileSync, statSync } from 'node:fs';
import { relative } from 'node:path';
import { parseArgs } from 'node:util';
import { checkText, sortDiagnostics } from '../run/pipeline.js';
import { hasErrors, type Diagnostic } from '../language/diagnostics.js';
import { MAX_MODEL_CHARS } from '../language/parse.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { environmentFor, WORKSPACE_OPTIONS, WORKSPACE_USAGE } from './workspace.js';

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
      const text = readModel(file, io);
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

export function readModel(file: string, io: CliIO): string | undefined {
  try {
    // A model over the parser's limit is reported by the parser; past a few times that, not read at all.
    const size = statSync(file).size;
    if (size > 4 * MAX_MODEL_CHARS) {
      io.err(
        `bayes: ${file} is ${(size / 2 ** 20).toFixed(0)} MB, over the ${MAX_MODEL_CHARS / 2 ** 20} MB a model may have\n`,
      );
      return undefined;
    }
    return readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`bayes: cannot read ${file}: ${(e as Error).message}\n`);
    return undefined;
  }
}
