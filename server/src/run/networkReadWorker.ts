/**
 * The worker that reads and parses a network file a model imports, so a 60 MB or slow network
 * never holds the language server's thread (workspace/networkReads.ts starts one per read, with
 * the run's time and memory limits). The read goes through the same confined Files.
 */
import { parentPort } from 'node:worker_threads';
import { nodeFiles, type NodeEnvironmentOptions } from '../workspace/files.js';
import { readImportedNetworkText, type ImportedNetworkRead } from '../model/networkFormats.js';
import type { Budgets } from '../engine/budget.js';
import { testHook } from './testHooks.js';
import { readFailure } from '../workspace/readFailure.js';

export interface NetworkReadRequest {
  path: string;
  env: NodeEnvironmentOptions;
  budgets?: Budgets;
}

/** The parse, or why the file could not be read (refused, missing: the reason, never its content). */
export type NetworkReadReply = ImportedNetworkRead | { unread: string };

parentPort?.once('message', (request: NetworkReadRequest) => {
  read(request).then(
    (reply) => parentPort!.postMessage(reply),
    (e: unknown) => parentPort!.postMessage({ unread: readFailure(e) } satisfies NetworkReadReply),
  );
});

async function read(request: NetworkReadRequest): Promise<NetworkReadReply> {
  const text = new TextDecoder().decode(await nodeFiles(request.env).bytes(request.path));
  await testHook(text);
  return readImportedNetworkText(request.path, text, request.budgets);
}
