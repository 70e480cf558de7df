/** Reading a network file for the network commands: BIF, or a network declared in a .bayes model. */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { readBif } from '../model/bif.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { Prior } from '../engine/cptLearning.js';
import { compileNetwork } from '../model/compileNetwork.js';
import { CompileError } from '../model/compileError.js';
import { checkText } from '../run/pipeline.js';
import { nodeEnvironment } from '../run/nodeEnvironment.js';
import { declaredPrior } from '../run/tablePriors.js';
import type { CliIO } from './command.js';
import { formatDiagnostic } from './check.js';

export interface NetworkFileOptions {
  /** Which network of a .bayes file (default: its only `network`; with none, its default model). */
  name?: string;
  /** For learning: .bayes tables declared by a prior only (`~ Dirichlet(1)`) are unknown, not an error. */
  learning?: boolean;
}

export interface NetworkFile {
  net: BayesianNetwork;
  /** The per-table priors a .bayes file declares (none for BIF). */
  prior?: Prior;
}

export function readNetworkFile(file: string, io: CliIO): BayesianNetwork | undefined {
  return readNetwork(file, io)?.net;
}

export function readNetwork(file: string, io: CliIO, options: NetworkFileOptions = {}): NetworkFile | undefined {
  const ext = extname(file).toLowerCase();
  if (ext !== '.bif' && ext !== '.bayes') {
    io.err(`bayes: ${file}: give a BIF network (.bif) or a .bayes model\n`);
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`bayes: cannot read ${file}: ${(e as Error).message}\n`);
    return undefined;
  }
  return ext === '.bayes' ? bayesNetwork(file, text, io, options) : bifNetwork(file, text, io);
}

function bifNetwork(file: string, text: string, io: CliIO): NetworkFile | undefined {
  const r = readBif(text);
  if ('error' in r) {
    io.err(`${file}:${r.error.line}:1: error: ${r.error.message}\n`);
    return undefined;
  }
  // bnlearn's files all say `network unknown`: name the network after its file instead.
  if (r.network.name === 'unknown') r.network.name = basename(file, extname(file)).replace(/[^A-Za-z0-9_]/g, '_');
  return { net: r.network };
}

function bayesNetwork(file: string, text: string, io: CliIO, options: NetworkFileOptions): NetworkFile | undefined {
  const env = nodeEnvironment({ documentPath: file });
  const checked = checkText(text, env);
  const errors = checked.diagnostics.filter((d) => d.severity === 'error');
  for (const d of errors) io.err(formatDiagnostic(file, d) + '\n');
  if (errors.length) return undefined;
  const networks = [...checked.symbols.globals.values()].filter((g) => g.kind === 'network' && g.node.kind === 'network');
  if (!options.name && networks.length > 1) {
    io.err(`bayes: ${file} declares ${networks.map((n) => n.name.text).join(', ')}: pick one with --network\n`);
    return undefined;
  }
  const name = options.name ?? networks[0]?.name.text;
  try {
    const net = compileNetwork(checked.parse.ast, checked.symbols, env, name, { unknownTables: options.learning });
    return { net, prior: declaredPrior(checked.parse.ast, checked.symbols, name, net) };
  } catch (e) {
    if (!(e instanceof CompileError)) throw e;
    const line = e.range ? `${e.range.start.line + 1}:${e.range.start.character + 1}` : '1:1';
    io.err(`${file}:${line}: error: ${e.message}\n`);
    return undefined;
  }
}
