/** Reading a network file for the network commands (BIF now; .bayes networks come with the parser). */
import { readFileSync } from 'node:fs';
import { basename, extname } from 'node:path';
import { readBif } from '../model/bif.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { CliIO } from './command.js';

export function readNetworkFile(file: string, io: CliIO): BayesianNetwork | undefined {
  const ext = extname(file).toLowerCase();
  if (ext !== '.bif') {
    io.err(`bayes: ${file}: only BIF networks (.bif) can be read here yet; .bayes networks are read once the .bayes parser is in\n`);
    return undefined;
  }
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`bayes: cannot read ${file}: ${(e as Error).message}\n`);
    return undefined;
  }
  const r = readBif(text);
  if ('error' in r) {
    io.err(`${file}:${r.error.line}:1: error: ${r.error.message}\n`);
    return undefined;
  }
  // bnlearn's files all say `network unknown`: name the network after its file instead.
  if (r.network.name === 'unknown') r.network.name = basename(file, extname(file)).replace(/[^A-Za-z0-9_]/g, '_');
  return r.network;
}
