/**
 * Networks with continuous nodes for the network commands: Hugin NET files with `continuous
 * node`s are read into the hybrid IR (engine/gaussian) by `readHuginHybrid`; every other file
 * goes to the discrete readers (networkFile.ts), except `.bayes` models with `Normal(…)` tables,
 * compiled to the hybrid IR by model/compileHybridNetwork.ts. `bayes convert` writes them to Hugin
 * NET or to `.bayes` (model/gaussianBayesWriter.ts): BIF, XMLBIF and UAI are discrete, and it says so.
 */
import { extname } from 'node:path';
import { writeHuginHybrid } from '../model/hugin.js';
import { writeBayesHybrid } from '../model/gaussianBayesWriter.js';
import { UnwritableNetworkError } from '../model/networkText.js';
import { networkFormatOf } from '../model/networkFormats.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import type { CliIO } from './command.js';
import { readCommandLineText } from './workspace.js';
import { readBayesHybrid, type NetworkFileOptions } from './networkFile.js';
import { writeOutputFileSync } from '../workspace/files.js';
import { readNetHybrid } from './networkFormatFile.js';

/**
 * The hybrid network of a `.net` file that declares continuous nodes; undefined for any other
 * file (the discrete readers take it), null after an error was reported.
 */
export function readHybridNetworkFile(
  file: string,
  io: CliIO,
  options: NetworkFileOptions = {},
): HybridNetwork | undefined | null {
  const ext = extname(file).toLowerCase();
  if (ext === '.net') return readNetHybrid(file, io, options);
  if (ext !== '.bayes') return undefined;
  const text = readCommandLineText(file, io, options['max-file-mb']);
  if (text === undefined) return null;
  // A `.bayes` model with a `~ Normal(…)` table or `Normal(…)` rows (else the discrete reader takes it, and reports).
  return /\bNormal\s*\(/.test(text) ? readBayesHybrid(file, io, options) : undefined;
}

/** `bayes convert` of a network with continuous nodes: to Hugin NET, or a clear refusal. */
export function convertHybrid(net: HybridNetwork, output: string, io: CliIO): number {
  const ext = output === '-' ? '.bayes' : extname(output).toLowerCase();
  if (ext !== '.net' && ext !== '.bayes') {
    const what = networkFormatOf(output)?.name ?? ext;
    const continuous = net.variables.filter((v) => v.kind === 'continuous').map((v) => v.name);
    const shown = continuous.slice(0, 3).join(', ') + (continuous.length > 3 ? ', …' : '');
    io.err(
      `bayes convert: ${net.name} has continuous nodes (${shown}), which ${what} cannot hold: write Hugin NET (.net) or .bayes\n`,
    );
    return 1;
  }
  let text: string;
  try {
    text = ext === '.net' ? writeHuginHybrid(net) : writeBayesHybrid(net);
  } catch (e) {
    if (!(e instanceof UnwritableNetworkError)) throw e;
    io.err(`bayes convert: ${e.message}\n`);
    return 1;
  }
  if (output === '-') {
    io.out(text);
    return 0;
  }
  try {
    writeOutputFileSync(output, text);
  } catch (e) {
    io.err(`bayes: cannot write ${output}: ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
