/**
 * The worker thread behind `bayes/marginals`: keeps the compiled networks (a junction tree each,
 * cached with the network object) by key — document version and network — so a click in the
 * results panel costs one propagation, off the language server's main thread.
 */
import { parentPort } from 'node:worker_threads';
import type { BayesianNetwork } from '../engine/network.js';
import { interactiveMarginals, type EvidenceRequest } from './interactiveMarginals.js';

export interface MarginalsJob {
  id: number;
  key: string;
  net?: BayesianNetwork;
  request: EvidenceRequest;
}
export type MarginalsJobReply =
  { id: number; missing: true } | { id: number; reply: ReturnType<typeof interactiveMarginals> };

/** Networks kept warm (least recently used dropped first). */
const KEEP = 8;
const nets = new Map<string, BayesianNetwork>();

parentPort?.on('message', (job: MarginalsJob) => {
  if (job.net) nets.set(job.key, job.net);
  const net = nets.get(job.key);
  if (!net) return parentPort!.postMessage({ id: job.id, missing: true } satisfies MarginalsJobReply);
  nets.delete(job.key);
  nets.set(job.key, net);
  while (nets.size > KEEP) nets.delete(nets.keys().next().value!);
  let reply: ReturnType<typeof interactiveMarginals>;
  try {
    reply = interactiveMarginals(net, job.request);
  } catch (e) {
    reply = { error: `inference failed: ${(e as Error).message}` };
  }
  parentPort!.postMessage({ id: job.id, reply } satisfies MarginalsJobReply);
});
