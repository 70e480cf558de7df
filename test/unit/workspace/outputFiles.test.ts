/**
 * Files the CLI writes go through the workspace module (writeOutputFileSync): not through a link
 * to outside the target's folder, not over a folder or a FIFO, and atomically (a temporary file
 * renamed over the target), so a write that fails midway leaves the old file whole.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
  chmodSync,
} from 'node:fs';
import { join, resolve } from 'node:path';
import { tempFile } from '../../support/cli.js';
import { sharedFile, NO_SHARED } from '../../support/shared.js';
import { WriteRefusedError, writeOutputFileSync } from '../../../server/src/workspace/files.js';

const repoRoot = resolve(import.meta.dirname, '../../..');

test('writeOutputFileSync writes a new file and replaces an old one, keeping its permissions and leaving no temporary file', () => {
  const { dir, file } = tempFile('old.bif', 'old content\n');
  chmodSync(file, 0o640);
  writeOutputFileSync(file, 'new content\n');
  assert.equal(readFileSync(file, 'utf8'), 'new content\n');
  assert.equal(statSync(file).mode & 0o777, 0o640);
  writeOutputFileSync(join(dir, 'fresh.net'), new TextEncoder().encode('net {}\n'));
  assert.equal(readFileSync(join(dir, 'fresh.net'), 'utf8'), 'net {}\n');
  assert.deepEqual(readdirSync(dir).sort(), ['fresh.net', 'old.bif']);
});

test('writeOutputFileSync refuses a link to outside its folder, and writes through a link that stays inside', () => {
  const { dir: outside, file: secret } = tempFile('secret.txt', 'keep me\n');
  const { dir } = tempFile('inside.bif', 'inside\n');
  const escape = join(dir, 'escape.bif');
  symlinkSync(secret, escape);
  assert.throws(
    () => writeOutputFileSync(escape, 'overwritten'),
    (e: unknown) => e instanceof WriteRefusedError && /symbolic link to outside its folder/.test(e.message),
  );
  assert.equal(readFileSync(secret, 'utf8'), 'keep me\n');
  assert.deepEqual(readdirSync(outside), ['secret.txt']);
  const alias = join(dir, 'alias.bif');
  symlinkSync(join(dir, 'inside.bif'), alias);
  writeOutputFileSync(alias, 'through the link\n');
  assert.ok(lstatSync(alias).isSymbolicLink(), 'the link is still a link');
  assert.equal(readFileSync(join(dir, 'inside.bif'), 'utf8'), 'through the link\n');
  const dangling = join(dir, 'dangling.bif');
  symlinkSync(join(outside, 'nothing.bif'), dangling);
  assert.throws(() => writeOutputFileSync(dangling, 'x'), /symbolic link to a file that does not exist/);
  assert.throws(() => readFileSync(join(outside, 'nothing.bif')), /ENOENT/);
});

test('writeOutputFileSync refuses a folder, a FIFO and a missing folder, changing nothing', (t) => {
  const { dir } = tempFile('readme.txt', '');
  const folder = join(dir, 'out.bif');
  mkdirSync(folder);
  writeFileSync(join(folder, 'inside.txt'), 'x');
  assert.throws(() => writeOutputFileSync(folder, 'x'), /it is a folder, not a regular file; it is not overwritten/);
  assert.deepEqual(readdirSync(folder), ['inside.txt']);
  assert.throws(() => writeOutputFileSync(join(dir, 'no', 'such', 'x.bif'), 'x'), /there is no folder/);
  const fifo = join(dir, 'pipe.bif');
  if (spawnSync('mkfifo', [fifo]).status !== 0) return t.skip('mkfifo is not available');
  assert.throws(() => writeOutputFileSync(fifo, 'x'), /it is a FIFO \(named pipe\), not a regular file/);
  assert.ok(lstatSync(fifo).isFIFO());
  assert.deepEqual(readdirSync(dir).sort(), ['out.bif', 'pipe.bif', 'readme.txt']);
});

test('bayes convert that fails midway (a file size limit) leaves the old file intact and no half file', (t) => {
  const alarm = sharedFile('bif', 'alarm.bif');
  if (!alarm) return t.skip(NO_SHARED);
  const { dir, file: out } = tempFile('alarm.bayes', 'the old network\n');
  // ulimit -f 4: no file past 4 KB; Node ignores SIGXFSZ, so the write fails with EFBIG after 4 KB.
  const bayes = join(repoRoot, 'bin/bayes.cjs');
  const r = spawnSync('bash', ['-c', 'ulimit -f 4 && exec "$0" "$@"', process.execPath, bayes, 'convert', alarm, out], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.error) return t.skip(`bash is not available: ${r.error.message}`);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stderr, /cannot write .*alarm\.bayes: EFBIG/);
  assert.equal(readFileSync(out, 'utf8'), 'the old network\n');
  assert.deepEqual(readdirSync(dir), ['alarm.bayes'], 'no temporary file is left');
  // The same command without the limit writes the whole network (far past 4 KB).
  const whole = spawnSync(process.execPath, [bayes, 'convert', alarm, out], { encoding: 'utf8', timeout: 30_000 });
  assert.equal(whole.status, 0, whole.stderr);
  assert.ok(statSync(out).size > 4096, `${statSync(out).size} bytes`);
  assert.match(readFileSync(out, 'utf8'), /variable HISTORY/);
});

test('bayes convert and bayes learn --out: a refused output is a clear error, exit 1, the target untouched', (t) => {
  const asia = sharedFile('bif', 'asia.bif');
  if (!asia) return t.skip(NO_SHARED);
  const { dir: outside, file: secret } = tempFile('secret.bif', 'keep me\n');
  const { dir } = tempFile('data.csv', 'asia,smoke\nyes,no\nno,yes\n');
  symlinkSync(secret, join(dir, 'link.bif'));
  mkdirSync(join(dir, 'folder.bif'));
  const bayes = (args: string[]) =>
    spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), ...args], { encoding: 'utf8', timeout: 30_000 });
  const convert = bayes(['convert', asia, join(dir, 'link.bif')]);
  assert.equal(convert.status, 1, convert.stderr);
  assert.match(convert.stderr, /cannot write .*link\.bif: it is a symbolic link to outside its folder/);
  const learn = bayes(['learn', asia, '--data', join(dir, 'data.csv'), '--out', join(dir, 'folder.bif')]);
  assert.equal(learn.status, 1, learn.stderr);
  assert.match(learn.stderr, /cannot write .*folder\.bif: it is a folder, not a regular file/);
  assert.equal(readFileSync(secret, 'utf8'), 'keep me\n');
  assert.deepEqual(readdirSync(outside), ['secret.bif']);
});
