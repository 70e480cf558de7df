/** The headless `bayes` command: the language server's pipeline without an editor. */
import { dirname } from 'node:path';
import { directWriter, isTerminal, writeStandardErrorNow } from './workspace/standardError.js';
import { useCodeCaches } from './cli/codeCache.js';
// For the tests of the built CLI: which command bundles were compiled from their code caches.
export { codeCacheStatus, useCodeCaches } from './cli/codeCache.js';
import { commands } from './cli/commands.js';
import { UsageError, type CliIO } from './cli/command.js';
import { terminalIO, visible } from './cli/terminalText.js';
import {
  LIMITS_USAGE,
  reportExitCode,
  runWatched,
  takeLimits,
  watchedArguments,
  WATCHED_WORKER,
  type WatchedTerminal,
} from './cli/limits.js';

// dist/cli-commands.cjs shares these modules with dist/cli.cjs (one UsageError class, one set of budgets).
export * from './cli/command.js';
export * from './cli/limits.js';
export * from './cli/version.js';
export * from './cli/terminalText.js';
import { BUILD, VERSION } from './cli/version.js';

/** One table, also in the README: what a script can tell from `$?`. */
export const EXIT_CODES = `Exit codes:
  0    success (for run: every expect held)
  1    errors in the input (a diagnostic says where), or an expect failed
  2    usage error (unknown command or option, bad option value)
  3    stopped by --timeout or --max-memory
  130  interrupted (Ctrl+C); the command says how far it got
  70   internal error (a bug: please report it with the output of bayes doctor)`;

const GLOBAL_USAGE = `  --quiet             no progress line on standard error (it is only drawn on a terminal)
  --version           the version and the engine's build`;

function help(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return [
    'bayes — Bayesian learning models (.bayes) from the command line',
    '',
    'Usage: bayes COMMAND [options]   (bayes COMMAND --help for details)',
    '',
    ...commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`),
    '',
    'Every command also takes:',
    LIMITS_USAGE,
    GLOBAL_USAGE,
    '',
    'Colour on a terminal; none with NO_COLOR set or when the output is not a terminal.',
    '',
    EXIT_CODES,
    '',
  ].join('\n');
}

export async function main(argv: string[], printer: CliIO, file?: string): Promise<number> {
  let io = terminalIO(printer);
  let parsed;
  try {
    parsed = takeLimits(argv);
  } catch (e) {
    io.err(`bayes: ${(e as Error).message}\n`);
    return 2;
  }
  if (file && (parsed.limits.timeoutSeconds || parsed.limits.maxMemoryMb))
    return runWatched(file, argv, parsed.limits, io.err, { outIsTTY: io.outIsTTY, errIsTTY: io.errIsTTY });
  // --quiet belongs to every command (before or after its name), like the limits.
  const quiet = parsed.rest.includes('--quiet');
  if (quiet) io = { ...io, quiet: true };
  const [name, ...rest] = parsed.rest.filter((a) => a !== '--quiet');
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(help());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V') {
    io.out(`bayes ${VERSION} (engine build ${BUILD})\n`);
    return 0;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.err(`bayes: unknown command '${name}'\n\n${help()}`);
    return 2;
  }
  const fast = rest.includes('--help') || rest.includes('-h') ? undefined : entry.fast?.(rest);
  if (fast) {
    const done = await (await fast).run(rest, io);
    if (done !== undefined) return done;
  }
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(command.usage + '\n');
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError || (e as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      io.err(`bayes ${name}: ${(e as Error).message}\n\n${command.usage}\n`);
      return 2;
    }
    throw e;
  }
}

const isEntry = typeof require !== 'undefined' && typeof module !== 'undefined' && require.main === module;
const isBinShim = typeof require !== 'undefined' && require.main?.filename.endsWith('bayes.cjs');
function startWatchedWorker(watched: { argv: string[]; tty: WatchedTerminal }): void {
  // The watched worker of `--timeout` / `--max-memory` (cli/limits.ts): the command itself.
  const io: CliIO = { out: (t) => process.stdout.write(t), err: (t) => process.stderr.write(t), cwd: process.cwd() };
  main(watched.argv, { ...io, ...watched.tty }, undefined).then(reportExitCode, (e) => {
    process.stderr.write(visible(`bayes: internal error: ${(e as Error).stack ?? e}\n`));
    return reportExitCode(70);
  });
}

/**
 * `bayes marginals big.bif | head`: a reader that stops early is not an error. process.stdout is
 * created on first use (Node's own lazy getter; see directWriter), so the handler is added then,
 * for whichever code uses it (a stream fallback, `bayes lsp`).
 */
function exitOnBrokenStdout(): void {
  const exitOnEpipe = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(0);
    else throw e;
  };
  const lazy = Object.getOwnPropertyDescriptor(process, 'stdout');
  if (!lazy?.get || !lazy.configurable) {
    process.stdout.on('error', exitOnEpipe);
    return;
  }
  Object.defineProperty(process, 'stdout', {
    configurable: true,
    enumerable: lazy.enumerable,
    get() {
      const stdout = lazy.get!.call(process) as NodeJS.WriteStream;
      Object.defineProperty(process, 'stdout', { ...lazy, get: () => stdout });
      stdout.on('error', exitOnEpipe);
      return stdout;
    },
  });
}

function startCommand(): void {
  exitOnBrokenStdout();
  const io: CliIO = {
    out: directWriter(
      1,
      () => process.stdout,
      () => process.exit(0),
    ),
    err: directWriter(2, () => process.stderr),
    errNow: writeStandardErrorNow,
    cwd: process.cwd(),
    outIsTTY: isTerminal(1, () => process.stdout),
    errIsTTY: isTerminal(2, () => process.stderr),
  };
  main(process.argv.slice(2), io, __filename).then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(visible(`bayes: internal error: ${(e as Error).stack ?? e}\n`));
      process.exitCode = 70;
    },
  );
}

// The command bundles beside this one are compiled from their V8 code caches (cli/codeCache.ts),
// in a process whose young generation is kept small (cli/youngGeneration.ts).
if (isEntry || isBinShim || process.argv.includes(WATCHED_WORKER)) useCodeCaches(dirname(__filename));
if (process.argv.includes(WATCHED_WORKER)) {
  void watchedArguments().then((watched) =>
    watched ? startWatchedWorker(watched) : isEntry || isBinShim ? startCommand() : undefined,
  );
} else if (isEntry || isBinShim) startCommand();
