/**
 * The worker thread behind the panel's requests for one document — `bayes/marginals`,
 * `bayes/diagnosis` and `bayes/decisions` (run/panelQueries.ts answers them) — features/marginalsRequest.ts starts
 * one per document, so a slow network never delays another document's clicks, and terminates it
 * when a request outlasts the run's time limit). It keeps the compiled networks (a junction tree
 * each, cached with the network object) of the document's current version only, held to a byte
 * cap, so a click costs one propagation and an idle worker holds at most one version's trees.
 */
import { parentPort } from 'node:worker_threads';
import type { BayesianNetwork } from '../engine/network.js';
import { keptTreeBytes } from '../engine/inference/marginals.js';
import { panelAnswer, type PanelReply, type PanelRequest } from './panelQueries.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { networkTestHook } from './testHooks.js';

export interface MarginalsJob {
  id: number;
  /** The network's name within the document version. */
  key: string;
  /** The document version the network was compiled from: networks of other versions are dropped. */
  version: number;
  /** A discrete network, or one with continuous variables (the hybrid IR: answered by the exact hybrid engine). */
  net?: BayesianNetwork | HybridNetwork;
  request: PanelRequest;
  /** The run's memory setting in bytes: exact inference's budget. */
  memoryBytes: number;
  /** What the worker may keep between requests, in bytes (the network just used is kept whatever its size). */
  keepBytes: number;
}

/** What the worker holds after a request: networks kept and their bytes (tables and compiled trees). */
export interface KeptNetworks {
  networks: number;
  bytes: number;
}

export type MarginalsJobReply =
  { id: number; missing: true; kept: KeptNetworks } | { id: number; reply: PanelReply; kept?: KeptNetworks };

/** Networks by key, least recently used first; all of one document version. */
const nets = new Map<string, BayesianNetwork | HybridNetwork>();
let version: number | undefined;

parentPort?.on('message', (job: MarginalsJob) => {
  void answer(job).then((reply) => parentPort!.postMessage(reply));
});

async function answer(job: MarginalsJob): Promise<MarginalsJobReply> {
  if (job.version !== version) {
    nets.clear(); // an edit: the older version's networks are never asked for again
    version = job.version;
  }
  if (job.net) nets.set(job.key, job.net);
  const net = nets.get(job.key);
  if (!net) return { id: job.id, missing: true, kept: kept() };
  nets.delete(job.key);
  nets.set(job.key, net);
  await networkTestHook(net.name);
  let reply: PanelReply;
  try {
    reply = panelAnswer(net, job.request, job.memoryBytes);
  } catch (e) {
    reply = { error: `inference failed: ${(e as Error).message}` };
  }
  // Over the cap, the least recently used go first.
  while (nets.size > 1 && kept().bytes > job.keepBytes) nets.delete(nets.keys().next().value!);
  return { id: job.id, reply, kept: kept() };
}

function kept(): KeptNetworks {
  let bytes = 0;
  for (const net of nets.values()) bytes += networkBytes(net);
  return { networks: nets.size, bytes };
}

/** A network's tables and, once compiled, its junction tree (exactPlan is cached with the network). */
function networkBytes(net: BayesianNetwork | HybridNetwork): number {
  let bytes = 0;
  if ('cpds' in net) {
    for (const c of net.cpds)
      bytes +=
        c.kind === 'discrete'
          ? c.cpt.table.byteLength
          : c.cpd.intercepts.byteLength + c.cpd.coefficients.byteLength + c.cpd.variances.byteLength;
    return bytes;
  }
  for (const c of net.cpts) bytes += c.table.byteLength;
  return bytes + keptTreeBytes(net);
}
