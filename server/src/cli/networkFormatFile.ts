/**
 * Reading a network file in one of the interchange formats (BIF, XMLBIF, Hugin NET, UAI, GeNIe
 * XDSL, by extension: model/networkFormats.ts) for the network commands. `.bayes` models are read
 * by networkFile.ts, which adds the language front end; this module does not import it, so
 * `bayes marginals X.bif` loads a bundle without the parser (dist/cli-network.cjs, esbuild.mjs).
 */
import { basename, extname } from 'node:path';
import { formatList, networkFormatOf } from '../model/networkFormats.js';
import { readHuginHybrid } from '../model/hugin.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import type { Prior } from '../engine/estimators/cptLearning.js';
import { cliBudgets } from './limits.js';
import type { CliIO } from './command.js';
import { readCommandLineText } from './workspace.js';

export interface NetworkFileOptions {
  /** `.bayes` files: the network to read; default: see above. */
  network?: string;
  /** For learning: `.bayes` tables declared by a prior only (`~ Dirichlet(1)`) are unknown (NaN), not an error. */
  learning?: boolean;
  workspace?: string;
  'data-root'?: string[];
  'max-file-mb'?: string;
}

export const NETWORK_FILE_USAGE = `  --network NAME    in a .bayes file, the network to read (default: the top-level model, or
                    the file's only network)
  --workspace DIR   the workspace folder a .bayes file may read from
  --data-root DIR   a further folder a .bayes file may read from (repeatable)
  --max-file-mb MB  files larger than this are not read (default 64)`;

/** A network and, for `.bayes` models, the parameter priors its tables declare (for learning). */
export interface NetworkModel {
  net: BayesianNetwork;
  prior?: Prior;
}

/** A network of an interchange format's file; undefined after the error was printed. */
export function readFormatNetwork(file: string, io: CliIO, options: NetworkFileOptions = {}): NetworkModel | undefined {
  const format = networkFormatOf(file);
  if (!format) {
    io.err(`bayes: ${file}: networks are read from .bayes, ${formatList()} files\n`);
    return undefined;
  }
  const text = readCommandLineText(file, io, options['max-file-mb']);
  if (text === undefined) return undefined;
  const r = format.read(text, cliBudgets);
  if ('error' in r) {
    io.err(`${file}:${r.error.line}:1: error: ${r.error.message}\n`);
    return undefined;
  }
  // bnlearn's files all say `network unknown` (and UAI files have no name): name the network after its file.
  if (r.network.name === 'unknown') r.network.name = fileName(file);
  return { net: r.network };
}

export function fileName(file: string): string {
  return basename(file, extname(file)).replace(/[^A-Za-z0-9_]/g, '_');
}

/**
 * The hybrid network of a Hugin `.net` file that declares continuous nodes; undefined for any
 * other file (the discrete readers take it), null after an error was reported.
 */
export function readNetHybrid(
  file: string,
  io: CliIO,
  options: NetworkFileOptions = {},
): HybridNetwork | undefined | null {
  if (extname(file).toLowerCase() !== '.net') return undefined;
  // By the workspace module's rules, as every file named on the command line (cli/workspace.ts).
  const text = readCommandLineText(file, io, options['max-file-mb']);
  if (text === undefined) return null;
  if (!/\bcontinuous\b/.test(text)) return undefined;
  const read = readHuginHybrid(text, cliBudgets);
  if ('error' in read) {
    io.err(`${file}:${read.error.line}:1: error: ${read.error.message}\n`);
    return null;
  }
  return 'hybrid' in read ? read.hybrid : undefined;
}
