/**
 * The bootstrap of `bayes structure --bootstrap R` on two worker threads: replicate r draws its
 * rows from a generator seeded by (seed, r) alone, so each worker learns a contiguous share of
 * the replicates and the summed arc counts equal a single thread's exactly. The workers run the
 * bundled `bootstrapWorker.cjs` beside the CLI bundle; without it (running from source) the
 * replicates are learnt in this thread.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import { ArcCounts, bootstrapCounts, replicateSearch } from '../engine/structure/bootstrap.js';
import { BackgroundKnowledge, type BackgroundKnowledgeSpec } from '../engine/structure/backgroundKnowledge.js';
import { searchStructure, type SearchSpec } from '../engine/structure/search.js';
import { CancelledError } from '../engine/cancellation.js';
import type { Interruptible } from './progress.js';

/** What a worker needs: plain data only (the knowledge as its spec, rebuilt there). */
export interface BootstrapShare {
  data: CategoricalDataset;
  spec: Omit<SearchSpec, 'knowledge' | 'signal'>;
  knowledge?: BackgroundKnowledgeSpec;
  replicates: number;
  seed: number;
  first: number;
  count: number;
}

/** The share's search, with its background knowledge rebuilt from the spec. */
function searchOf(share: Pick<BootstrapShare, 'data' | 'spec' | 'knowledge'>): SearchSpec {
  const names = share.data.attributes.map((a) => a.name);
  const knowledge = share.knowledge ? new BackgroundKnowledge(names.length, share.knowledge, names) : undefined;
  return { ...share.spec, ...(knowledge ? { knowledge } : {}) };
}

/** Learn replicates first … first + count − 1 in this thread; `progress` hears the count done after each. */
export function runBootstrapShare(share: BootstrapShare, progress?: (done: number) => void): ArcCounts {
  const spec = searchOf(share);
  return bootstrapCounts(share.data, (sample) => searchStructure(sample, spec).cpdag, {
    replicates: share.replicates,
    seed: share.seed,
    first: share.first,
    count: share.count,
    ...(progress ? { progress } : {}),
  }).counts;
}

/** The bundled worker beside the running bundle, if there is one. */
export function bundledWorker(): string | undefined {
  const dir = typeof __dirname === 'string' ? __dirname : undefined;
  const path = dir ? join(dir, 'bootstrapWorker.cjs') : undefined;
  return path && existsSync(path) ? path : undefined;
}

export interface ParallelOptions {
  /** Worker threads (default: 2, or 1 on a single core). */
  workers?: number;
  /** The worker script (default: the bundled one; none: this thread only). */
  workerPath?: string;
  /** Hears the number of replicates learnt so far (all workers together). */
  onProgress?: (done: number) => void;
  /** Ctrl+C: the workers are terminated at once and the bootstrap throws CancelledError. */
  interrupt?: Interruptible;
}

export async function parallelBootstrap(
  data: CategoricalDataset,
  spec: Omit<SearchSpec, 'knowledge' | 'signal'>,
  knowledge: BackgroundKnowledgeSpec | undefined,
  replicates: number,
  seed: number,
  options: ParallelOptions = {},
): Promise<ArcCounts> {
  const workerPath = options.workerPath ?? bundledWorker();
  const workers = Math.min(options.workers ?? Math.min(2, availableParallelism()), replicates);
  // The network learnt on all the data, once, here: every replicate also climbs from it.
  const { alsoFrom } = replicateSearch(data, searchOf({ data, spec, knowledge }));
  const whole: BootstrapShare = {
    data,
    spec: { ...spec, ...(alsoFrom ? { alsoFrom } : {}) },
    ...(knowledge ? { knowledge } : {}),
    replicates,
    seed,
    first: 0,
    count: replicates,
  };
  if (!workerPath || workers <= 1) return runBootstrapShare(whole, options.onProgress);
  const shares = Array.from({ length: workers }, (_, w) => {
    const first = Math.floor((w * replicates) / workers),
      last = Math.floor(((w + 1) * replicates) / workers);
    return { ...whole, first, count: last - first };
  });
  type Part = { halves: Float64Array; replicates: number };
  const doneBy = shares.map(() => 0);
  const running: Worker[] = [];
  options.interrupt?.onInterrupt(() => running.forEach((w) => void w.terminate()));
  const parts = await Promise.all(
    shares.map(
      (share, w) =>
        new Promise<Part>((resolve, reject) => {
          const worker = new Worker(workerPath, { workerData: share });
          running.push(worker);
          worker.on('message', (m: Part | { error: string } | { done: number }) => {
            if ('done' in m) {
              doneBy[w] = m.done;
              options.onProgress?.(doneBy.reduce((a, b) => a + b, 0));
              return;
            }
            void worker.terminate();
            if ('error' in m) reject(new Error(m.error));
            else resolve(m);
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (options.interrupt?.signal.aborted) reject(new CancelledError());
            else if (code !== 0) reject(new Error(`a bootstrap worker stopped with code ${code}`));
          });
        }),
    ),
  );
  const counts = new ArcCounts(data.attributes.length);
  for (const part of parts) counts.merge(part);
  return counts;
}
