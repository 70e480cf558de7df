/** An in-memory CliIO for running `main` in-process and reading what it printed. */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
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

/**
 * Starts the CLI bundle `cli` with `args` on a pseudo-terminal (util-linux's `script`), sends
 * SIGINT to it once `ready` shows on the terminal, and resolves with the exit code, everything
 * the terminal showed and the milliseconds from the signal to the summary line.
 */
export async function interruptOnTerminal(
  cli: string,
  args: string[],
  ready: RegExp,
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; ms: number }> {
  const command = `exec node ${cli} ${args.join(' ')}`;
  const child = spawn('script', ['-qfec', command, '/dev/null'], { env: { ...process.env, NO_COLOR: '', ...env } });
  let out = '';
  let sent = 0,
    stopped = 0;
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
    if (!sent && ready.test(out)) {
      const node = spawnSync('pgrep', ['-P', String(child.pid)], { encoding: 'utf8' }).stdout.trim();
      sent = performance.now();
      process.kill(Number(node), 'SIGINT');
    }
    if (sent && !stopped && /interrupted after/.test(out)) stopped = performance.now();
  });
  // Never ready, or never stopping: end both processes so the test fails instead of hanging.
  const hung = setTimeout(() => {
    spawnSync('pkill', ['-KILL', '-P', String(child.pid)]);
    child.kill('SIGKILL');
  }, 120_000);
  const code = await new Promise<number | null>((r) => child.on('exit', (c) => r(c)));
  clearTimeout(hung);
  assert.ok(sent > 0, `never ready: ${JSON.stringify(out.slice(0, 400))}`);
  return { code, out, ms: stopped - sent };
}
