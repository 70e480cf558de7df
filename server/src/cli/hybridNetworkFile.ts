/**
 * Networks with continuous nodes for the network commands: Hugin NET files with `continuous
 * node`s are read into the hybrid IR (engine/gaussian) by `readHuginHybrid`; every other file
 * goes to the discrete readers (networkFile.ts). `bayes convert` writes them to Hugin NET only:
 * BIF, XMLBIF, UAI and `.bayes` tables are discrete, and it says so.
 */
import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { readHuginHybrid, writeHuginHybrid } from '../model/hugin.js';
import { networkFormatOf } from '../model/networkFormats.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { cliBudgets } from './limits.js';
import type { CliIO } from './command.js';
import { readCommandLineText } from './workspace.js';

/**
 * The hybrid network of a `.net` file that declares continuous nodes; undefined for any other
 * file (the discrete readers take it), null after an error was reported.
 */
export function readHybridNetworkFile(
  file: string,
  io: CliIO,
  maxFileMb: string | undefined,
): HybridNetwork | undefined | null {
  if (extname(file).toLowerCase() !== '.net') return undefined;
  // By the workspace module's rules, as every file named on the command line (cli/workspace.ts).
  const text = readCommandLineText(file, io, maxFileMb);
  if (text === undefined) return null;
  if (!/\bcontinuous\b/.test(text)) return undefined;
  const read = readHuginHybrid(text, cliBudgets);
  if ('error' in read) {
    io.err(`${file}:${read.error.line}:1: error: ${read.error.message}\n`);
    return null;
  }
  return 'hybrid' in read ? read.hybrid : undefined;
}

/** `bayes convert` of a network with continuous nodes: to Hugin NET, or a clear refusal. */
export function convertHybrid(net: HybridNetwork, output: string, io: CliIO): number {
  const ext = output === '-' ? '.bayes' : extname(output).toLowerCase();
  if (ext !== '.net') {
    const what = ext === '.bayes' ? '.bayes tables' : (networkFormatOf(output)?.name ?? ext);
    const continuous = net.variables.filter((v) => v.kind === 'continuous').map((v) => v.name);
    const shown = continuous.slice(0, 3).join(', ') + (continuous.length > 3 ? ', …' : '');
    io.err(
      `bayes convert: ${net.name} has continuous nodes (${shown}), which ${what} cannot hold: write Hugin NET (.net)\n`,
    );
    return 1;
  }
  try {
    writeFileSync(output, writeHuginHybrid(net));
  } catch (e) {
    io.err(`bayes: cannot write ${output}: ${(e as Error).message}\n`);
    return 1;
  }
  return 0;
}
