/**
 * `bayes marginals` on the terminal: a progress line while a sampler runs (likelihood weighting,
 * Gibbs, rejection; none for exact inference, which reports nothing) and Ctrl+C stopping the
 * inference at once with a summary of the samples drawn (see cli/progress.ts for how).
 */
import type { SamplesDone } from '../engine/sampling/sampledNetwork.js';
import type { CliIO } from './command.js';
import { counted, startProgress, untilInterrupted, type Progress } from './progress.js';

/** Runs `infer` with the samplers' progress; its answer, or 130 after the summary when Ctrl+C stopped it. */
export function inferOnTerminal<T>(
  io: CliIO,
  method: string | undefined,
  infer: (onSamples: SamplesDone) => T,
): T | number {
  const [label, unit] =
    method === 'gibbs' ? ['gibbs', 'sweeps'] : method === 'rejection' ? ['rejection', 'samples'] : ['lw', 'samples'];
  let line: Progress | undefined;
  let total = 0;
  const onSamples: SamplesDone = (done, of) => {
    // The line starts with the first report: exact inference draws none.
    line ??= startProgress(io, label, { total: (total = of), unit });
    line.update(done);
  };
  const done = () =>
    `${line ? `${counted(line.done)} of ${counted(total)} ${unit} (${label})` : 'exact inference had begun'}; ` +
    'no marginals printed';
  return untilInterrupted(
    io,
    'marginals',
    done,
    () => infer(onSamples),
    () => [line],
  );
}
