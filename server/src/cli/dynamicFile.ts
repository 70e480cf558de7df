/** Reading a network over time from a `.bayes` model for `bayes filter` and `bayes convert --unroll`. */
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import { compileDynamic } from '../model/compileDynamic.js';
import { compileGaussianDynamic, isGaussianOverTime } from '../model/compileGaussianDynamic.js';
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import { CompileError } from '../model/compileNetwork.js';
import { checkText } from '../run/pipeline.js';
import type { CliIO } from './command.js';
import { formatDiagnostic, readModel } from './check.js';
import { environmentFor } from './workspace.js';
import { cliBudgets } from './limits.js';
import type { NetworkFileOptions } from './networkFile.js';

/** A discrete network over time, or (every variable real) a Gaussian one. */
export type NetworkOverTime =
  { kind: 'discrete'; dbn: TwoSliceNetwork } | { kind: 'gaussian'; net: GaussianTwoSliceNetwork };

/** The discrete network over time `options.network` (a Gaussian one is refused with a message). */
export function readDynamicNetwork(
  file: string,
  io: CliIO,
  options: NetworkFileOptions & { network: string },
): TwoSliceNetwork | undefined {
  const read = readNetworkOverTime(file, io, options);
  if (read?.kind !== 'gaussian') return read?.dbn;
  io.err(
    `bayes: ${file}: '${options.network}' is a network over time of real variables (a Gaussian slice): bayes filter and bayes convert --unroll read it\n`,
  );
  return undefined;
}

export function readNetworkOverTime(
  file: string,
  io: CliIO,
  options: NetworkFileOptions & { network: string },
): NetworkOverTime | undefined {
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
    const global = checked.symbols.globals.get(options.network);
    if (global?.node.kind === 'network' && isGaussianOverTime(global.node))
      return { kind: 'gaussian', net: compileGaussianDynamic(checked.symbols, options.network) };
    return { kind: 'discrete', dbn: compileDynamic(checked.symbols, options.network, cliBudgets) };
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    const at = e.range ? `${e.range.start.line + 1}:${e.range.start.character + 1}` : '1:1';
    io.err(`${file}:${at}: error: ${e.message}\n`);
    return undefined;
  }
}
