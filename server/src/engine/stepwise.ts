/**
 * Long loops as generators that yield after each step, so one algorithm serves two callers: a
 * plain call runs it to the end (`complete`), and the command line (`completeYielding`) reports
 * progress and gives the event loop a turn every few milliseconds, so Ctrl+C reaches its signal
 * while the engine works on the main thread.
 */
import { throwIfCancelled, type CancelSignal } from './cancellation.js';

/** What a step reports: the pass it belongs to and how many of its steps are done. */
export interface StepReport {
  phase: string;
  done: number;
}

export type Stepwise<T> = Generator<StepReport, T, void>;

export function complete<T>(work: Stepwise<T>): T {
  for (;;) {
    const r = work.next();
    if (r.done) return r.value;
  }
}

/** Runs `work` to the end, yielding to the event loop every `sliceMs`; CancelledError once `signal` is aborted. */
export async function completeYielding<T>(
  work: Stepwise<T>,
  onStep: (report: StepReport) => void,
  signal?: CancelSignal,
  sliceMs = 50,
): Promise<T> {
  let last = performance.now();
  for (;;) {
    const r = work.next();
    if (r.done) return r.value;
    onStep(r.value);
    if (performance.now() - last > sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      last = performance.now();
      throwIfCancelled(signal);
    }
  }
}
