/**
 * `--timeout SECONDS` and `--max-memory MB`, accepted by every command. With either, the command
 * runs in a worker thread that this thread watches: over its time, or over its memory measured as
 * the process's resident size (typed arrays included, which a V8 heap limit does not count), the
 * worker is stopped and the command fails with a clear message (exit 3). `--max-memory` also sets
 * the budgets that tables are checked against before they are allocated.
 */
import { budgetsFor, DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import type { MessagePort } from 'node:worker_threads';
import { UsageError } from './command.js';

const MIN_MEMORY_MB = 100;
/** How long the watched command has to stop after Ctrl+C before its worker is terminated. */
const INTERRUPT_GRACE_MS = 1500;
/** progress.ts's exit codes, here without loading progress.ts at every start. */
const EXIT_LIMIT = 3;
const EXIT_INTERRUPTED = 130;
const EXIT_INTERNAL = 70;

export interface CliLimits {
  timeoutSeconds?: number;
  maxMemoryMb?: number;
}

/** The budgets of this command's models and networks (set from --max-memory). */
export let cliBudgets: Budgets = DEFAULT_BUDGETS;

export const LIMITS_USAGE = `  --timeout SECONDS   stop the command after this long (exit 3)
  --max-memory MB     stop the command when the process uses more memory (exit 3; at least
                      ${MIN_MEMORY_MB}); tables larger than this allows are refused before they are allocated`;

/** Takes --timeout and --max-memory out of the arguments, wherever they stand. */
export function takeLimits(argv: string[]): { limits: CliLimits; rest: string[] } {
  const limits: CliLimits = {};
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i]!.split('=', 2) as [string, string | undefined];
    if (flag !== '--timeout' && flag !== '--max-memory') {
      rest.push(argv[i]!);
      continue;
    }
    const text = inline ?? argv[++i];
    const value = Number(text);
    if (!(value > 0) || !Number.isFinite(value))
      throw new UsageError(`${flag} takes a positive number, not '${text ?? ''}'`);
    // Node itself takes about 50 MB before any command runs.
    if (flag === '--max-memory' && value < MIN_MEMORY_MB)
      throw new UsageError(`--max-memory takes at least ${MIN_MEMORY_MB} MB`);
    if (flag === '--timeout') limits.timeoutSeconds = value;
    else limits.maxMemoryMb = value;
  }
  cliBudgets = limits.maxMemoryMb ? budgetsFor(limits.maxMemoryMb) : DEFAULT_BUDGETS;
  return { limits, rest };
}

/** Whether the watching thread's standard output and error are terminals (a worker's never are). */
export interface WatchedTerminal {
  outIsTTY?: boolean;
  errIsTTY?: boolean;
}

/**
 * The watched worker is given this argument (Worker's `argv`), so that a command's start can tell
 * it is not one without loading node:worker_threads (a few ms of every command).
 */
export const WATCHED_WORKER = '--bayes-watched-worker';

/** In the watched worker: the arguments to run, or undefined on the main thread. */
export async function watchedArguments(): Promise<{ argv: string[]; tty: WatchedTerminal } | undefined> {
  if (!process.argv.includes(WATCHED_WORKER)) return undefined;
  const { isMainThread, workerData, parentPort } = await import('node:worker_threads');
  if (isMainThread) return undefined;
  const data = workerData as { bayesCli?: string[]; tty?: WatchedTerminal } | undefined;
  if (!data?.bayesCli) return undefined;
  takeInterrupts(parentPort!);
  return { argv: data.bayesCli, tty: data.tty ?? {} };
}

/** The watching thread's word that Ctrl+C was pressed (a worker thread sees no signals). */
const INTERRUPT = 'bayes-interrupt';

/**
 * In the watched worker: Ctrl+C relayed by the watching thread reaches the command's SIGINT
 * listener (progress.ts `interruptible`), which stops the work and prints how far it got. A
 * command that listens for none ends at once with exit 130, as the signal ends it without
 * --timeout. (Work inside `whileInterruptible` sees the signal itself, through V8's watchdog.)
 */
function takeInterrupts(parentPort: MessagePort): void {
  parentPort.on('message', (m: unknown) => {
    if (m !== INTERRUPT) return;
    if (process.listenerCount('SIGINT') > 0) process.emit('SIGINT', 'SIGINT');
    else process.exit(EXIT_INTERRUPTED);
  });
  parentPort.unref(); // the listener must not keep a finished command's worker alive
}

export async function reportExitCode(code: number): Promise<void> {
  const { parentPort } = await import('node:worker_threads');
  parentPort?.postMessage({ exitCode: code });
}

/** Runs the command line in a worker of this bundle and watches its time and memory. */
export async function runWatched(
  file: string,
  argv: string[],
  limits: CliLimits,
  err: (t: string) => void,
  tty: WatchedTerminal = {},
): Promise<number> {
  const memoryMb = limits.maxMemoryMb;
  const { Worker } = await import('node:worker_threads');
  const worker = new Worker(file, {
    argv: [WATCHED_WORKER],
    workerData: { bayesCli: argv, tty },
    ...(memoryMb ? { resourceLimits: { maxOldGenerationSizeMb: Math.max(64, Math.floor(memoryMb)) } } : {}),
  });
  return new Promise((resolve) => {
    let code: number | undefined;
    let stopped: string | undefined;
    const stop = (why: string) => {
      if (stopped) return;
      stopped = why;
      void worker.terminate();
    };
    const timer = limits.timeoutSeconds
      ? setTimeout(() => stop(`stopped after ${limits.timeoutSeconds} s (--timeout)`), limits.timeoutSeconds * 1000)
      : undefined;
    const poll = memoryMb
      ? setInterval(() => {
          const rss = process.memoryUsage.rss() / 2 ** 20;
          if (rss > memoryMb) stop(`stopped at ${Math.round(rss)} MB of memory, over --max-memory ${memoryMb}`);
        }, 50)
      : undefined;
    // Ctrl+C: relayed to the command, which stops and says how far it got (exit 130); work that
    // cannot hear it (a loop outside whileInterruptible) is stopped after a grace, as is all
    // work at a second Ctrl+C. The worker's own grace (progress.ts, 900 ms) comes first.
    let interrupts = 0;
    let grace: NodeJS.Timeout | undefined;
    const onInterrupt = () => {
      if (interrupts++ > 0) return void worker.terminate();
      worker.postMessage(INTERRUPT);
      grace = setTimeout(() => void worker.terminate(), INTERRUPT_GRACE_MS);
    };
    process.on('SIGINT', onInterrupt);
    worker.on('message', (m: { exitCode?: number }) => {
      if (typeof m.exitCode === 'number') code = m.exitCode;
    });
    worker.on('error', (e: Error & { code?: string }) => {
      stopped ??=
        e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? `ran out of memory (--max-memory ${memoryMb})` : `failed: ${e.message}`;
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      clearTimeout(grace);
      clearInterval(poll);
      process.off('SIGINT', onInterrupt);
      if (stopped) err(`bayes: ${stopped}\n`);
      resolve(stopped ? EXIT_LIMIT : (code ?? (interrupts > 0 ? EXIT_INTERRUPTED : EXIT_INTERNAL)));
    });
  });
}
