/** An in-memory CliIO for running `main` in-process and reading what it printed. */
import type { CliIO } from '../../server/src/cli/command.js';

export function capture(cwd = process.cwd()): CliIO & { stdout: string; stderr: string } {
  const io = {
    stdout: '',
    stderr: '',
    cwd,
    out(t: string) {
      io.stdout += t;
    },
    err(t: string) {
      io.stderr += t;
    },
  };
  return io;
}
