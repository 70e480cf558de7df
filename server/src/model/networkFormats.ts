/**
 * The network file formats beside `.bayes`, chosen by file extension: BIF, XMLBIF, Hugin NET,
 * UAI and (read only) GeNIe XDSL. `import network N from "…"`, the language server's symbol
 * look-up and the CLI's network commands all read through here.
 */
import type { BayesianNetwork } from '../engine/network.js';
import type { Budgets } from '../engine/budget.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { discretePart } from '../engine/gaussian/clgInference.js';
import { readBif, writeBif } from './bif.js';
import { readHuginHybrid, readHuginNet, writeHuginNet } from './hugin.js';
import type { NetworkReadError, NetworkReadResult } from './networkText.js';
import { readUai, writeUai } from './uai.js';
import { readXdsl } from './xdsl.js';
import { readXmlBif, writeXmlBif } from './xmlbif.js';

export interface NetworkFormat {
  /** What users call it: 'BIF', 'XMLBIF', … */
  name: string;
  /** Lower-case extensions with the dot; the first is the one written. */
  extensions: string[];
  /** Tables over the budgets (engine/budget.ts) are refused before they are allocated. */
  read(text: string, budgets?: Budgets): NetworkReadResult;
  /** Absent for formats only read. Throws UnwritableNetworkError for what the format cannot hold. */
  write?(net: BayesianNetwork): string;
}

export const NETWORK_FORMATS: readonly NetworkFormat[] = [
  { name: 'BIF', extensions: ['.bif'], read: readBif, write: writeBif },
  { name: 'XMLBIF', extensions: ['.xml', '.xmlbif'], read: readXmlBif, write: writeXmlBif },
  { name: 'Hugin NET', extensions: ['.net'], read: readHuginNet, write: writeHuginNet },
  { name: 'UAI', extensions: ['.uai'], read: readUai, write: writeUai },
  { name: 'GeNIe XDSL', extensions: ['.xdsl'], read: readXdsl },
];

/** The extension of a path or file name, lower case with the dot ('' when none). */
export function extensionOf(path: string): string {
  const base = path.slice(Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

export function networkFormatOf(path: string): NetworkFormat | undefined {
  const ext = extensionOf(path);
  return NETWORK_FORMATS.find((f) => f.extensions.includes(ext));
}

/** "BIF (.bif), XMLBIF (.xml, .xmlbif), …" for messages; `writable` lists only formats written. */
export function formatList(writable = false): string {
  const formats = NETWORK_FORMATS.filter((f) => !writable || f.write);
  return formats.map((f) => `${f.name} (${f.extensions.join(', ')})`).join(', ');
}

/** Reads a network file's text by its path's extension; an unknown extension is an error on line 1. */
export function readNetworkText(path: string, text: string, budgets?: Budgets): NetworkReadResult {
  const format = networkFormatOf(path);
  if (!format) return { error: { message: `networks are read from ${formatList()} files`, line: 1 } };
  return format.read(text, budgets);
}

/**
 * What `import network` reads: the discrete network, and for a Hugin NET file with `continuous
 * node`s also the whole hybrid (CLG) network, `network` then being its discrete part (discrete
 * nodes have discrete parents only, so that part is a network of its own and answers every
 * discrete query without continuous evidence). The other formats are discrete.
 */
export type ImportedNetworkRead = { network: BayesianNetwork; hybrid?: HybridNetwork } | { error: NetworkReadError };

export function readImportedNetworkText(path: string, text: string, budgets?: Budgets): ImportedNetworkRead {
  if (networkFormatOf(path)?.name !== 'Hugin NET' || !/\bcontinuous\b/.test(text))
    return readNetworkText(path, text, budgets);
  const read = readHuginHybrid(text, budgets);
  if (!('hybrid' in read)) return read;
  return { network: discretePart(read.hybrid).bn, hybrid: read.hybrid };
}
