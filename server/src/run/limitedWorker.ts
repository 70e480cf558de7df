/**
 * One request in a worker thread of its own, held to a time and a memory limit (the run's:
 * bayes.run.timeoutSeconds, bayes.run.memoryMb): past either the thread is terminated, which
 * stops it even inside a loop that never yields. The heap limit does not count typed arrays or
 * the texts' external strings, so the process's resident size is watched as well (as runJob.ts).
 */
import { Worker } from 'node:worker_threads';
import { join } from 'node:path';

export interface Limits {
  timeoutMs: number;
  memoryMb: number;
}

export type LimitedOutcome<T> =
  { ok: true; value: T } | { ok: false; reason: 'timeout' | 'memory' | 'crash'; message: string };

/** `what` names the work in the messages: "reading x.bif". */
export function runLimited<T>(
  workerPath: string,
  request: unknown,
  limits: Limits,
  what: string,
): Promise<LimitedOutcome<T>> {
  const worker = new Worker(workerPath, {
    resourceLimits: { maxOldGenerationSizeMb: limits.memoryMb },
    stdout: true, // the server's stdout may be the LSP channel
  });
  worker.stdout.pipe(process.stderr);
  worker.unref();
  return new Promise((resolve) => {
    let settled = false;
    const finish = (o: LimitedOutcome<T>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      void worker.terminate();
      resolve(o);
    };
    const memory = () =>
      finish({
        ok: false,
        reason: 'memory',
        message: `${what} needed more than ${limits.memoryMb} MB (setting bayes.run.memoryMb) and was stopped`,
      });
    const baseline = process.memoryUsage.rss();
    const watch = setInterval(() => {
      if ((process.memoryUsage.rss() - baseline) / 2 ** 20 > limits.memoryMb) memory();
    }, 100);
    const timer = setTimeout(
      () =>
        finish({
          ok: false,
          reason: 'timeout',
          message: `${what} took longer than ${limits.timeoutMs / 1000} s (setting bayes.run.timeoutSeconds) and was stopped`,
        }),
      limits.timeoutMs,
    );
    worker.on('message', (value: T) => finish({ ok: true, value }));
    worker.on('error', (e: Error & { code?: string }) =>
      e.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? memory()
        : finish({ ok: false, reason: 'crash', message: `${what} failed: ${e.message}` }),
    );
    worker.on('exit', (code) => finish({ ok: false, reason: 'crash', message: `${what} failed (exit code ${code})` }));
    worker.postMessage(request);
  });
}

/** A bundled worker beside the running bundle; none from source or in the web build (the work stays in-thread). */
export function bundledWorker(name: string): string | undefined {
  return typeof __filename === 'string' && __filename.endsWith('.cjs') ? join(__dirname, name) : undefined;
}
