/**
 * A model run in the web build. There are no worker threads inside the Web Worker the server
 * runs in, so the run happens on the server's own thread; it is stopped by the engine's
 * CancelSignal (every long loop checks it) on a newer run, a close, the user, or the time budget.
 * Files come through FileFacts as for a check: what the run asked and did not have yet is read
 * from the client, and the run starts again with it.
 */
import type { RunRequest } from '../run/worker.js';
import type { RunJobOptions, RunJob, RunOutcome } from '../run/runJob.js';
import { runText } from '../run/pipeline.js';
import { FileFacts } from '../workspace/fileFacts.js';
import { CancelledError } from '../engine/cancellation.js';

export type { RunOutcome, RunJob, RunJobOptions };

const facts = new FileFacts();
/** The engine runs on the server's thread: give the message loop a turn before starting. */
const yieldTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export function startRunJob(request: RunRequest, options: RunJobOptions): RunJob {
  const controller = new AbortController();
  // The engine holds this thread while it works, so no timer or message can stop it mid-loop;
  // the loops read `aborted` (engine/cancellation.ts), which also turns true past the deadline.
  const deadline = Date.now() + options.timeoutMs;
  let late = false;
  const signal = {
    get aborted() {
      if (!late && Date.now() > deadline) late = true;
      return late || controller.signal.aborted;
    },
  } as AbortSignal;
  let settle!: (o: RunOutcome) => void;
  let settled = false;
  const outcome = new Promise<RunOutcome>((resolve) => (settle = resolve));
  const finish = (o: RunOutcome) => {
    if (settled) return;
    settled = true;
    controller.abort();
    clearTimeout(timer);
    settle(o);
  };
  const timer = setTimeout(
    () =>
      finish({
        status: 'failed',
        reason: 'timeout',
        message: `the run took longer than ${options.timeoutMs / 1000} s and was stopped (setting bayes.run.timeoutSeconds)`,
      }),
    options.timeoutMs,
  );

  void (async () => {
    // Imports parsed from their text with this run's budgets (not the editor's shared parse).
    const env = { ...facts.environment(request.env), budgets: request.budgets, readNetwork: undefined };
    await yieldTurn();
    for (let pass = 0; ; pass++) {
      if (signal.aborted) return;
      const result = await runText(request.text, request.file, env, { signal, onProgress: options.onProgress });
      // The executor turns a CancelledError into a "cancelled" diagnostic and returns: past the
      // deadline that is the time budget's failure, as in the Node server.
      if (late) return finish(timedOut(options.timeoutMs));
      if (env.missed.size === 0 || pass === 3) return finish({ status: 'done', result });
      const missed = [...env.missed];
      env.missed.clear();
      await facts.fetch(env, missed);
    }
  })().catch((e: unknown) => {
    if (e instanceof CancelledError && late) return finish(timedOut(options.timeoutMs));
    if (e instanceof CancelledError) return finish({ status: 'cancelled' });
    finish({
      status: 'failed',
      reason: 'error',
      message: `the run failed: ${e instanceof Error ? e.message : String(e)}`,
    });
  });
  return { outcome, cancel: () => finish({ status: 'cancelled' }) };
}

function timedOut(timeoutMs: number): RunOutcome {
  return {
    status: 'failed',
    reason: 'timeout',
    message: `the run took longer than ${timeoutMs / 1000} s and was stopped (setting bayes.run.timeoutSeconds)`,
  };
}

export function defaultWorkerPath(): string {
  return '';
}
