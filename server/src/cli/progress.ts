/**
 * The CLI on a terminal: one progress line on standard error, colour, and Ctrl+C.
 *
 * - `startProgress(io, label, total?)` draws a single updating line (count, rate, time left) on
 *   standard error, only when standard error is a terminal and `--quiet` was not given: pipes,
 *   files and `--json` output never see it. Calls are cheap (the line is redrawn at most every
 *   100 ms), so a loop may report every step.
 * - `paint(io, 'out' | 'err')` colours severities and `expect` results on a terminal, never when
 *   `NO_COLOR` is set (https://no-color.org) or the stream is not a terminal.
 * - `interruptible()` turns Ctrl+C (SIGINT) into a cancel signal (engine/cancellation.ts); the
 *   command then reports what was done with `interrupted(io, command, what)` and returns
 *   `EXIT_INTERRUPTED`.
 *
 * How Ctrl+C reaches a loop. Node runs a SIGINT listener on the event loop, so a listener alone
 * sees the signal only in work that leaves the loop free: worker threads (the bootstrap) and
 * streamed reads (`bayes predict`: the file comes in 64 KB slices with a turn of the event loop
 * between them, cli/caseInputs.ts, and the row handler checks the signal). A synchronous loop
 * (a structure search, a sampler, validation's predictions) runs inside
 * `whileInterruptible(interrupt, work)`: a vm script with `breakOnSigint`, whose watchdog thread
 * stops the running JavaScript as soon as SIGINT arrives (V8 terminates execution; the REPL
 * stops a runaway line the same way) and throws, which becomes CancelledError. The loops report
 * their counts through the progress callbacks as they go, so the command still knows how far
 * the work got and prints it. No engine loop has to yield or become async, and the stop takes
 * milliseconds, not a polling interval.
 *
 * Commands get the terminal facts from their CliIO (`errIsTTY`, `outIsTTY`, `quiet`), which
 * the dispatcher (cli.ts) fills from the process; tests pass plain objects and so see nothing.
 */
import { Script } from 'node:vm';
import type { CliIO } from './command.js';
import { control } from './terminalText.js';
import { CancelledError, type CancelSignal } from '../engine/cancellation.js';

/** The exit codes of every command (documented in `bayes --help` and the README). */
export const EXIT_OK = 0;
export const EXIT_INPUT = 1;
export const EXIT_USAGE = 2;
export const EXIT_LIMIT = 3;
export const EXIT_INTERRUPTED = 130;
export const EXIT_INTERNAL = 70;

const REDRAW_MS = 100;

export interface Progress {
  /** `done` steps so far (of the total, if known); `note` is shown after the counts (e.g. "log-likelihood −1234.5"). */
  update(done: number, note?: string): void;
  /** Clears the line (the command prints its own answer after). */
  finish(): void;
  /** The last count reported, for "interrupted after N of M". */
  readonly done: number;
}

export interface ProgressOptions {
  /** The number of steps, when known: the line then shows "done/total" and the time left. */
  total?: number;
  /** The word for the steps ("replicates", "iterations"). */
  unit?: string;
  /** Injected clock, for tests. */
  now?: () => number;
}

/** Whether this command may draw a progress line: standard error is a terminal and no --quiet. */
/** Back to the start of the line and clear it: where the progress line is redrawn. */
/** A function, so that a command that draws no progress line draws no terminal nonce either. */
const eraseLine = () => control('\r\x1b[2K');

export function showsProgress(io: CliIO): boolean {
  return Boolean(io.errIsTTY) && !io.quiet;
}

/** Counts as the summaries print them: 41,200. */
export const counted = (n: number): string => n.toLocaleString('en-US');

/** Seconds as "42s", "3m05s" or "1h02m". */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '?';
  const s = Math.round(seconds);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/** The text of one progress line (no escape codes): "label 37/200 replicates · 12.3/s · 13s left · note". */
export function progressLine(
  label: string,
  done: number,
  elapsedSeconds: number,
  options: Pick<ProgressOptions, 'total' | 'unit'> = {},
  note?: string,
): string {
  const { total, unit } = options;
  const count = total === undefined ? `${done}` : `${done}/${total}`;
  const parts = [`${label} ${count}${unit ? ' ' + unit : ''}`];
  const rate = elapsedSeconds > 0 ? done / elapsedSeconds : 0;
  if (rate > 0) parts.push(`${rate >= 10 ? rate.toFixed(0) : rate.toPrecision(2)}/s`);
  if (total !== undefined && rate > 0 && done < total) parts.push(`${formatDuration((total - done) / rate)} left`);
  if (note) parts.push(note);
  return parts.join(' · ');
}

/** A progress line on standard error, or one that draws nothing (not a terminal, or --quiet). */
export function startProgress(io: CliIO, label: string, options: ProgressOptions = {}): Progress {
  const draws = showsProgress(io);
  const now = options.now ?? (() => performance.now());
  const start = now();
  let last = start; // the first draw waits REDRAW_MS, so that its rate means something
  let drawn = false;
  const state = {
    done: 0,
    update(done: number, note?: string) {
      state.done = done;
      if (!draws) return; // still counted, for the interruption's report
      const t = now();
      if (t - last < REDRAW_MS && !(options.total !== undefined && done >= options.total)) return;
      last = t;
      drawn = true;
      io.err(`${eraseLine()}${progressLine(label, done, (t - start) / 1000, options, note)}`);
    },
    finish() {
      if (drawn) io.err(eraseLine());
      drawn = false;
    },
  };
  return state;
}

export interface Painter {
  error(text: string): string;
  warning(text: string): string;
  info(text: string): string;
  pass(text: string): string;
  fail(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

const plain = (text: string) => text;
const sgr = (code: string) => (text: string) => `${control(`\x1b[${code}m`)}${text}${control('\x1b[0m')}`;

/** Colours for the stream: ANSI on a terminal, none with NO_COLOR or when it is not a terminal. */
export function paint(io: CliIO, stream: 'out' | 'err'): Painter {
  const tty = stream === 'out' ? io.outIsTTY : io.errIsTTY;
  const noColor = (io.env ?? process.env).NO_COLOR;
  if (!tty || (noColor !== undefined && noColor !== '')) {
    return { error: plain, warning: plain, info: plain, pass: plain, fail: plain, bold: plain, dim: plain };
  }
  return {
    error: sgr('1;31'),
    warning: sgr('33'),
    info: sgr('36'),
    pass: sgr('32'),
    fail: sgr('1;31'),
    bold: sgr('1'),
    dim: sgr('2'),
  };
}

/** Colours the severity word of a "file:line:col: severity: message" diagnostic line. */
export function paintDiagnostic(line: string, painter: Painter): string {
  return line.replace(
    /^([^\n]*?: )(error|warning|information|hint)(:)/,
    (_m, head: string, sev: string, colon: string) => {
      const colour = sev === 'error' ? painter.error : sev === 'warning' ? painter.warning : painter.info;
      return head + colour(sev) + colon;
    },
  );
}

export interface Interruptible {
  /** Aborted once Ctrl+C was pressed; pass it to the engine's loops. */
  readonly signal: CancelSignal;
  /** Called (once) on Ctrl+C, e.g. to terminate worker threads. */
  onInterrupt(stop: () => void): void;
  /** Marks the signal aborted as Ctrl+C would (whileInterruptible, whose watchdog saw it). */
  abort(): void;
  /** Removes the SIGINT handler (always call, in a finally). */
  dispose(): void;
}

/**
 * Ctrl+C as a cancel signal while the command works. A second Ctrl+C, or work that has not
 * stopped within `graceMs`, ends the process at once with exit 130.
 */
export function interruptible(graceMs = 900): Interruptible {
  const signal = { aborted: false };
  const stops: (() => void)[] = [];
  let timer: NodeJS.Timeout | undefined;
  const handler = () => {
    if (signal.aborted) process.exit(EXIT_INTERRUPTED);
    signal.aborted = true;
    for (const stop of stops) stop();
    timer = setTimeout(() => process.exit(EXIT_INTERRUPTED), graceMs);
    timer.unref();
  };
  process.on('SIGINT', handler);
  return {
    signal,
    onInterrupt: (stop) => void stops.push(stop),
    abort() {
      signal.aborted = true;
    },
    dispose() {
      process.off('SIGINT', handler);
      clearTimeout(timer);
    },
  };
}

/** The one-line script that calls the work; its context holds nothing but that function. */
const CALL_WORK = new Script('work()', { filename: 'bayes-interruptible-work' });

/**
 * Runs synchronous `work` so that Ctrl+C stops it at once: the signal is marked aborted and
 * CancelledError is thrown (see the head comment). Must be called with an `interruptible()`
 * listener installed (Node applies breakOnSigint only when SIGINT has a listener); its handler
 * is set aside while the work runs and back after.
 */
export function whileInterruptible<T>(interrupt: Interruptible, work: () => T): T {
  try {
    return CALL_WORK.runInNewContext({ work }, { breakOnSigint: true }) as T;
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_SCRIPT_EXECUTION_INTERRUPTED') throw e;
    interrupt.abort();
    throw new CancelledError();
  }
}

/**
 * Synchronous `work` that Ctrl+C stops: its answer, or EXIT_INTERRUPTED after printing
 * `bayes COMMAND: interrupted after ${done()}` (done says how far the work got, from the counts
 * its progress callbacks kept). `lines` are cleared before the summary either way.
 */
export function untilInterrupted<T>(
  io: CliIO,
  command: string,
  done: () => string,
  work: () => T,
  lines: () => (Progress | undefined)[] = () => [],
): T | number {
  const interrupt = interruptible();
  try {
    return whileInterruptible(interrupt, work);
  } catch (e) {
    if (!(e instanceof CancelledError)) throw e;
    for (const line of lines()) line?.finish();
    return interrupted(io, command, done());
  } finally {
    for (const line of lines()) line?.finish();
    interrupt.dispose();
  }
}

/** The line a command prints when Ctrl+C stopped it: "bayes NAME: interrupted after WHAT". Returns 130. */
export function interrupted(io: CliIO, command: string, what: string): number {
  (io.errNow ?? io.err)(`${io.errIsTTY ? eraseLine() : ''}bayes ${command}: interrupted after ${what}\n`);
  return EXIT_INTERRUPTED;
}
