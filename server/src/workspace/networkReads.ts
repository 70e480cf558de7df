/**
 * Network files a model imports, read and parsed for the checker and the editor's requests. A
 * small file is parsed here (a few milliseconds); a larger one in a worker thread of its own with
 * the run's time and memory limits (run/networkReadWorker.ts), so a 60 MB or pathological network
 * never holds the language server's thread: hovers and completion answer while it is read, and a
 * read over the limits ends as a diagnostic on the import. The web build has no worker threads:
 * there every file is parsed in-thread, as before.
 */
import { basename } from 'node:path';
import { budgetsFor } from '../engine/budget.js';
import { networkSymbolsOf, type Files, type NetworkSymbols } from '../language/environment.js';
import { formatList, networkFormatOf, readImportedNetworkText } from '../model/networkFormats.js';
import type { NetworkReadReply, NetworkReadRequest } from '../run/networkReadWorker.js';
import { bundledWorker, runLimited, type Limits } from '../run/limitedWorker.js';
import type { NodeEnvironmentOptions } from './files.js';
import { readFailure } from './readFailure.js';

/** Files up to this size are parsed on the server's thread. */
export const IN_THREAD_BYTES = 1 << 20;

export interface NetworkReadOptions {
  options: NodeEnvironmentOptions;
  /** The run's limits; without them (or without a bundled worker) the parse stays in-thread. */
  limits?: Limits;
  workerPath?: string;
}

export async function readNetworkFile(
  files: Files,
  path: string,
  size: number,
  how: NetworkReadOptions,
): Promise<NetworkReadReply> {
  if (!networkFormatOf(path)) return { unread: `networks are read from ${formatList()} files` };
  const workerPath = how.workerPath ?? bundledWorker('networkReadWorker.cjs');
  // The budgets the run's memory setting gives, as a run reads the same import (run/worker.ts).
  const budgets = how.limits ? budgetsFor(how.limits.memoryMb) : undefined;
  if (size > IN_THREAD_BYTES && workerPath && how.limits) {
    const request: NetworkReadRequest = { path, env: how.options, budgets };
    const outcome = await runLimited<NetworkReadReply>(workerPath, request, how.limits, `reading ${basename(path)}`);
    return outcome.ok ? outcome.value : { unread: outcome.message };
  }
  try {
    return readImportedNetworkText(path, new TextDecoder().decode(await files.bytes(path)), budgets);
  } catch (e) {
    return { unread: readFailure(e) };
  }
}

/** The variables and states the checker asks for, from a read (continuous variables marked `real`). */
export function symbolsOf(reply: NetworkReadReply): NetworkSymbols {
  if ('unread' in reply) return { error: reply.unread };
  if ('error' in reply) return { error: `line ${reply.error.line}: ${reply.error.message}` };
  return networkSymbolsOf(reply);
}

/** What a read holds in memory, roughly: its tables and names. */
export function heldBytes(reply: NetworkReadReply): number {
  if (!('network' in reply)) return 0;
  let bytes = 0;
  for (const c of reply.network.cpts) bytes += c.table.byteLength + 8 * c.parents.length;
  for (const v of reply.network.variables) bytes += 2 * (v.name.length + v.states.reduce((s, x) => s + x.length, 0));
  for (const cpd of reply.hybrid?.cpds ?? [])
    if (cpd.kind === 'gaussian') bytes += 8 * (cpd.cpd.intercepts.length * 2 + cpd.cpd.coefficients.length);
  return bytes;
}
