/** A worker thread of `bayes structure --bootstrap`: learns its share of the replicates, posts the arc counts. */
import { parentPort, workerData } from 'node:worker_threads';
import { runBootstrapShare, type BootstrapShare } from './parallelBootstrap.js';

try {
  // The count done goes to the CLI's progress line (cli/progress.ts) after every replicate.
  const counts = runBootstrapShare(workerData as BootstrapShare, (done) => parentPort!.postMessage({ done }));
  parentPort!.postMessage({ halves: counts.halves, replicates: counts.replicates });
} catch (e) {
  parentPort!.postMessage({ error: (e as Error).message });
}
