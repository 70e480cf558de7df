/**
 * The built CLI writes standard output with writeSync (workspace/standardError.ts directWriter:
 * process.stdout is not created on a pipe): a large answer arrives whole through a pipe, the same
 * bytes as in-process; a reader that stops early ends the command with exit 0 and no error, as
 * before; and on a terminal the progress line is still drawn.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';

const cli = join(repoRoot, 'dist', 'cli.cjs');
const alarm = join(repoRoot, 'examples', 'data', 'alarm.bif');

test('a large answer arrives whole through a pipe: the same bytes as in-process', async () => {
  const args = ['marginals', alarm, '--method', 'lw', '--samples', '3000', '--seed', '7'];
  const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8', maxBuffer: 2 ** 26, timeout: 60_000 });
  assert.equal(r.status, 0, r.stderr);
  const io = capture();
  assert.equal(await main(args, io), 0, io.stderr);
  assert.ok(r.stdout.length > 2000);
  assert.equal(r.stdout, io.stdout);
});

test('a reader that stops early: exit 0, nothing on standard error', () => {
  const script = `node ${JSON.stringify(cli)} marginals ${JSON.stringify(alarm)} --json | head -c 10 > /dev/null; echo "exit \${PIPESTATUS[0]}"`;
  const r = spawnSync('bash', ['-c', script], { encoding: 'utf8', timeout: 60_000 });
  assert.equal(r.stdout.trim(), 'exit 0');
  assert.equal(r.stderr, '');
});

test('on a terminal (script(1)) the progress line is still drawn', (t) => {
  if (spawnSync('script', ['--version'], { encoding: 'utf8' }).status !== 0)
    return t.skip('script(1) is not installed');
  const command = `node ${JSON.stringify(cli)} marginals ${JSON.stringify(alarm)} --method lw --samples 3000000`;
  const r = spawnSync('script', ['-qc', command, '/dev/null'], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.includes('\r\u001b[2Klw '), 'the progress line with its carriage return and erase');
  assert.match(r.stdout, /HYPOVOLEMIA/);
});
