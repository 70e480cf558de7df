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

/** Learn replicates first … first + count − 1 in this thread. */
export function runBootstrapShare(share: BootstrapShare): ArcCounts {
  const spec = searchOf(share);
  return bootstrapCounts(share.data, (sample) => searchStructure(sample, spec).cpdag, {
    replicates: share.replicates,
    seed: share.seed,
    first: share.first,
    count: share.count,
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
  if (!workerPath || workers <= 1) return runBootstrapShare(whole);
  const shares = Array.from({ length: workers }, (_, w) => {
    const first = Math.floor((w * replicates) / workers),
      last = Math.floor(((w + 1) * replicates) / workers);
    return { ...whole, first, count: last - first };
  });
  type Part = { halves: Float64Array; replicates: number };
  const parts = await Promise.all(
    shares.map(
      (share) =>
        new Promise<Part>((resolve, reject) => {
          const worker = new Worker(workerPath, { workerData: share });
          worker.once('message', (m: Part | { error: string }) => {
            void worker.terminate();
            if ('error' in m) reject(new Error(m.error));
            else resolve(m);
          });
          worker.once('error', reject);
          worker.once('exit', (code) => {
            if (code !== 0) reject(new Error(`a bootstrap worker stopped with code ${code}`));
          });
        }),
    ),
  );
  const counts = new ArcCounts(data.attributes.length);
  for (const part of parts) counts.merge(part);
  return counts;
}
