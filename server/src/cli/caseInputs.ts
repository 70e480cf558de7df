/** What `bayes predict` and `bayes validate` share: the target, the case file's reads and errors. */
import { resolve } from 'node:path';
import type { BayesianNetwork } from '../engine/network.js';
import { DataError } from '../model/dataTable.js';
import { readCases, type CaseHandler, type CaseLayout } from '../model/caseFile.js';
import { FileRefusedError, problemText } from '../language/environment.js';
import type { CliIO } from './command.js';
import { commandLineReads } from './workspace.js';
import { EngineError } from '../engine/engineError.js';

/** A problem with the case file, already located: `file:line:col: error: …`. */
export class CaseFileError extends Error {}

/** The target's index, or an error naming the network's variables. */
export function targetOf(net: BayesianNetwork, name: string): number | string {
  const t = net.variables.findIndex((v) => v.name === name);
  if (t >= 0) return t;
  const names = net.variables.map((v) => v.name);
  const shown = names.length > 12 ? [...names.slice(0, 12), '…'] : names;
  return `'${name}' is not a variable of ${net.name} (variables: ${shown.join(', ')})`;
}

/**
 * Streams the case file's records to `onCase` (see model/caseFile.ts); a bad file becomes a
 * CaseFileError with its location. `onLayout` runs when the header is read.
 */
export async function streamCaseFile(
  file: string,
  values: { 'max-file-mb'?: string },
  io: CliIO,
  net: BayesianNetwork,
  target: number,
  onCase: CaseHandler,
  onLayout?: (layout: CaseLayout) => void,
): Promise<{ layout: CaseLayout; rows: number }> {
  const files = commandLineReads(values);
  const path = resolve(io.cwd, file);
  try {
    return await readCases(files.chunks(path), net, target, onCase, onLayout);
  } catch (e) {
    if (e instanceof DataError) throw new CaseFileError(`${file}:${e.line}:1: error: ${withoutLine(e.message)}`);
    if (e instanceof EngineError) throw new CaseFileError(`${file}:1:1: error: ${e.message}`);
    if (e instanceof FileRefusedError) throw new CaseFileError(`bayes: cannot read ${file}: ${problemText(e.problem)}`);
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new CaseFileError(`bayes: cannot read ${file}: ${(e as Error).message}`);
    throw e;
  }
}

/** DataError's message begins `line N: `; the location goes in front instead. */
function withoutLine(message: string): string {
  return message.replace(/^line \d+: /, '');
}

/** Where a progress report would go: `bayes predict` and `validate` call it every 10,000 rows. */
export function progressHook(_command: string, _rows: number): void {
  // No progress module yet (cli/progress.ts is another change): print nothing extra.
}
