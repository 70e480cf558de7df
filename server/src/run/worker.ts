/**
 * The run worker: one model run per thread, so a runaway or crashing run can be stopped
 * (terminated) without touching the language server. Messages: RunRequest in; progress and
 * one final `done` or `failed` out.
 */
import { parentPort } from 'node:worker_threads';
import { runText } from './pipeline.js';
import { nodeEnvironment, type NodeEnvironmentOptions } from '../workspace/files.js';
import type { RunResult } from '../protocol/runResult.js';
import { testHook } from './testHooks.js';
import type { Budgets } from '../engine/budget.js';

export interface RunRequest {
  text: string;
  /** The document URI: the RunResult's `file`. */
  file: string;
  env: NodeEnvironmentOptions;
  /** The sizes tables are checked against before allocation (from the memory setting). */
  budgets: Budgets;
}

export type WorkerMessage =
  | { type: 'progress'; fraction: number; message: string }
  | { type: 'done'; result: RunResult }
  | { type: 'failed'; message: string };

/** Engines may report progress every iteration; the editor needs a few updates a second. */
const PROGRESS_INTERVAL_MS = 100;

async function handle(request: RunRequest): Promise<WorkerMessage> {
  await testHook(request.text);
  const env = nodeEnvironment(request.env, request.budgets);
  let last = 0;
  const onProgress = (fraction: number, message: string) => {
    const now = Date.now();
    if (now - last < PROGRESS_INTERVAL_MS) return;
    last = now;
    post({ type: 'progress', fraction, message });
  };
  const result = await runText(request.text, request.file, env, { onProgress });
  return { type: 'done', result };
}

function post(message: WorkerMessage): void {
  parentPort!.postMessage(message);
}

parentPort?.once('message', (request: RunRequest) => {
  handle(request).then(post, (e: unknown) =>
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e) }),
  );
});
