/**
 * One model run in its own worker thread. The job ends exactly once: with the RunResult, or
 * with a reason (cancelled by a newer run or the user, over its time budget, out of memory,
 * crashed). Terminating the thread is the cancellation: it works even when engine code never
 * yields.
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import type { RunRequest, WorkerMessage } from './worker.js';
import type { RunResult } from '../protocol/runResult.js';

export type RunOutcome =
  | { status: 'done'; result: RunResult }
  | { status: 'cancelled' }
  | { status: 'failed'; reason: 'timeout' | 'memory' | 'crash' | 'error'; message: string };

export interface RunJobOptions {
  timeoutMs: number;
  memoryMb: number;
  onProgress?: (fraction: number, message: string) => void;
  /** The bundled worker; defaults to `worker.cjs` beside the running bundle. */
  workerPath?: string;
}

export interface RunJob {
  outcome: Promise<RunOutcome>;
  cancel(): void;
}

function memoryMessage(memoryMb: number): string {
  return `the run ran out of memory (limit ${memoryMb} MB, setting bayes.run.memoryMb) and was stopped`;
}

export function defaultWorkerPath(): string {
  return join(__dirname, 'worker.cjs');
}

export function startRunJob(request: RunRequest, options: RunJobOptions): RunJob {
  const worker = new Worker(options.workerPath ?? defaultWorkerPath(), {
    resourceLimits: { maxOldGenerationSizeMb: options.memoryMb },
    stdout: true, // the server's stdout may be the LSP channel: a run must never write to it
  });
  worker.stdout.pipe(process.stderr);
  let settle!: (o: RunOutcome) => void;
  let settled = false;
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  const finish = (o: RunOutcome) => {
    if (settled) return;
    settled = true;
    clearTimeout(timer);
    clearInterval(watch);
    void worker.terminate();
    settle(o);
  };
  // The heap limit does not count typed arrays (CPTs, clique tables): watch the process as a whole.
  const baseline = process.memoryUsage.rss();
  const watch = setInterval(() => {
    const grown = (process.memoryUsage.rss() - baseline) / 2 ** 20;
    if (grown > options.memoryMb)
      finish({ status: 'failed', reason: 'memory', message: memoryMessage(options.memoryMb) });
  }, 100);
  const timer = setTimeout(
    () =>
      finish({
        status: 'failed',
        reason: 'timeout',
        message: `the run took longer than ${options.timeoutMs / 1000} s and was stopped (setting bayes.run.timeoutSeconds)`,
      }),
    options.timeoutMs,
  );

  worker.on('message', (m: WorkerMessage) => {
    if (m.type === 'progress') options.onProgress?.(m.fraction, m.message);
    else if (m.type === 'done') finish({ status: 'done', result: m.result });
    else finish({ status: 'failed', reason: 'error', message: `the run failed: ${m.message}` });
  });
  worker.on('error', (e: Error & { code?: string }) => {
    const memory = e.code === 'ERR_WORKER_OUT_OF_MEMORY';
    finish({
      status: 'failed',
      reason: memory ? 'memory' : 'crash',
      message: memory ? memoryMessage(options.memoryMb) : `the run crashed: ${e.message}`,
    });
  });
  worker.on('exit', (code) =>
    finish({ status: 'failed', reason: 'crash', message: `the run crashed (worker exited with code ${code})` }),
  );
  worker.postMessage(request);
  return { outcome, cancel: () => finish({ status: 'cancelled' }) };
}
