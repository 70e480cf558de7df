/**
 * Cooperative cancellation, one way for the whole engine: every long loop checks its signal and
 * throws CancelledError, so a caller never has to tell a partial answer from a finished one.
 * (A run's worker thread can also be terminated; the signal is for the CLI's `--timeout`, for
 * work the server runs in-thread, and for stopping cleanly.)
 */
export interface CancelSignal {
  readonly aborted: boolean;
}

export class CancelledError extends Error {
  constructor() {
    super('cancelled');
    this.name = 'CancelledError';
  }
}

export function throwIfCancelled(signal: CancelSignal | undefined): void {
  if (signal?.aborted) throw new CancelledError();
}
