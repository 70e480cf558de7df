/** One `bayes` sub-command. Each lives in its own file and is listed in `commands.ts`. */
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  /**
   * Standard error written at once, past the stream (fs.writeSync on fd 2): Ctrl+C's summary.
   * Stopping a synchronous loop (cli/progress.ts) can land inside a progress line's write and
   * leave the stream's queue stuck, so that `err` would never print the summary.
   */
  errNow?(text: string): void;
  cwd: string;
  /** Standard output / error are terminals (cli/progress.ts: progress lines and colour only then). */
  outIsTTY?: boolean;
  errIsTTY?: boolean;
  /** `--quiet`: no progress line, whatever the terminal. */
  quiet?: boolean;
  /** The environment (NO_COLOR); process.env when absent. */
  env?: Record<string, string | undefined>;
}

export interface CliCommand {
  name: string;
  /** One line for `bayes --help`. */
  summary: string;
  /** Full usage text for `bayes NAME --help`. */
  usage: string;
  /** Returns the process exit code: 0 success, 1 errors in the input, 2 usage errors. */
  run(args: string[], io: CliIO): Promise<number>;
}

/** Thrown for bad command-line usage; printed with the command's usage, exit code 2. */
export class UsageError extends Error {}
