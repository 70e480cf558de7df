/** Reading a network over time from a `.bayes` model for `bayes filter` and `bayes convert --unroll`. */
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import { compileDynamic } from '../model/compileDynamic.js';
import { CompileError } from '../model/compileNetwork.js';
import { checkText } from '../run/pipeline.js';
import type { CliIO } from './command.js';
import { formatDiagnostic, readModel } from './check.js';
import { environmentFor } from './workspace.js';
import { cliBudgets } from './limits.js';
import type { NetworkFileOptions } from './networkFile.js';

export function readDynamicNetwork(
  file: string,
  io: CliIO,
  options: NetworkFileOptions & { network: string },
): TwoSliceNetwork | undefined {
  if (!file.toLowerCase().endsWith('.bayes')) {
    io.err(`bayes: ${file}: networks over time are read from .bayes models\n`);
    return undefined;
  }
  const text = readModel(file, io);
  if (text === undefined) return undefined;
  const checked = checkText(text, environmentFor(file, options, io));
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  for (const d of errors) io.err(formatDiagnostic(file, d) + '\n');
  if (errors.length) return undefined;
  try {
    return compileDynamic(checked.symbols, options.network, cliBudgets);
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    const at = e.range ? `${e.range.start.line + 1}:${e.range.start.character + 1}` : '1:1';
    io.err(`${file}:${at}: error: ${e.message}\n`);
    return undefined;
  }
}
