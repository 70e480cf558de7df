/**
 * What every `bayes filter` answer shares, discrete or Gaussian: the passes over the steps run
 * under a progress line (never with --json) and Ctrl+C, which stops them saying how far they got;
 * an engine error is one line on stderr and exit 1.
 */
import { CancelledError, type CancelSignal } from '../engine/cancellation.js';
import { EngineError } from '../engine/engineError.js';
import type { StepReport } from '../engine/stepwise.js';
import type { CliIO } from './command.js';
import { interrupted, interruptible, startProgress } from './progress.js';

/**
 * Runs `work` (reporting each of its `total` steps), then `print`s its answer to the output (all at
 * once, or in pieces as it is made: a long sequence's JSON). Returns the exit code.
 */
export async function filterSteps<T>(
  io: CliIO,
  json: boolean,
  total: number,
  work: (signal: CancelSignal, report: (r: StepReport) => void) => Promise<T>,
  print: (answer: T, out: (text: string) => void) => void,
): Promise<number> {
  const progress = startProgress(json ? { ...io, quiet: true } : io, 'filter', { total, unit: 'steps' });
  const interrupt = interruptible();
  let done = 0;
  let phase = 'forward';
  const report = (r: StepReport) => {
    phase = r.phase;
    progress.update(++done, r.phase);
  };
  try {
    const answer = await work(interrupt.signal, report);
    progress.finish();
    print(answer, (text) => io.out(text));
    return 0;
  } catch (e) {
    progress.finish();
    if (e instanceof CancelledError)
      return interrupted(io, 'filter', `${done} of ${total} steps (${phase}); nothing printed`);
    if (!(e instanceof EngineError)) throw e;
    io.err(`bayes filter: ${e.message}\n`);
    return 1;
  } finally {
    interrupt.dispose();
  }
}

/** An exact pass's beliefs per step, whatever a belief is (a slice's distributions or its moments). */
interface ExactPasses<M> {
  filtered: readonly M[];
  smoothed?: readonly M[];
  predicted?: readonly M[];
  logLikelihood: number;
}

/**
 * The exact answer's fields, in the order both outputs print them (discrete and Gaussian slices):
 * steps numbered from 1, the forecast numbered on from the last step.
 */
export function exactFilterAnswer<M, N extends object, L>(
  network: string,
  r: ExactPasses<M>,
  named: (m: M) => N,
  mostLikely: L[] | undefined,
  note: string | undefined,
) {
  return {
    network,
    method: 'exact' as const,
    steps: r.filtered.map((f, i) => ({
      t: i + 1,
      filtered: named(f),
      ...(r.smoothed ? { smoothed: named(r.smoothed[i]!) } : {}),
    })),
    ...(mostLikely ? { mostLikely } : {}),
    logLikelihood: r.logLikelihood,
    ...(r.predicted ? { predicted: r.predicted.map((p, k) => ({ t: r.filtered.length + k + 1, ...named(p) })) } : {}),
    ...(note ? { note } : {}),
  };
}
