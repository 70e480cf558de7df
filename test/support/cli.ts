/** An in-memory CliIO for running `main` in-process and reading what it printed. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/** Writes `text` as `name` in a new temporary folder: the file's path, and the folder (for more files, or rmSync). */
export function tempFile(name: string, text: string): { file: string; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-test-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return { file, dir };
}
