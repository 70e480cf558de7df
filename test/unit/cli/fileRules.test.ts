/**
 * The CLI reads every file it is named through the workspace module's rules (workspace/files.ts):
 * a FIFO named x.bif is refused, not waited on; a link to /dev/zero is refused, not read until
 * memory runs out; a network over --max-file-mb is not read. Each ends in a clear error, exit 1.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempFile } from '../../support/cli.js';
import { sharedFile } from '../../support/shared.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const bayes = (args: string[]) =>
  spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), ...args], { encoding: 'utf8', timeout: 30_000 });

function mkfifo(path: string): boolean {
  return spawnSync('mkfifo', [path]).status === 0;
}

test('bayes marginals / convert / check: a FIFO is refused at once (not waited on), exit 1', (t) => {
  const { dir } = tempFile('readme.txt', '');
  const fifo = join(dir, 'x.bif');
  const model = join(dir, 'm.bayes');
  if (!mkfifo(fifo) || !mkfifo(model)) return t.skip('mkfifo is not available');
  for (const args of [
    ['marginals', fifo],
    ['convert', fifo, join(dir, 'y.net')],
    ['check', model],
    ['run', model],
  ]) {
    const r = bayes(args);
    assert.equal(r.status, 1, `${args[0]}: ${r.stderr}`);
    assert.match(r.stderr, /is a FIFO \(named pipe\), not a regular file; only regular files are read/);
  }
});

test('bayes marginals: a link to /dev/zero is a device, refused before reading; evidence files too', () => {
  const { dir } = tempFile('readme.txt', '');
  const zero = join(dir, 'zero.bif');
  symlinkSync('/dev/zero', zero);
  const r = bayes(['marginals', zero]);
  assert.equal(r.status, 1, r.stderr);
  assert.equal(r.stderr.trim(), `bayes: "${zero}" is a device, not a regular file; only regular files are read`);
  const uai = join(dir, 'one.uai');
  writeFileSync(uai, 'BAYES\n1\n2\n1\n1 0\n2 0.5 0.5\n');
  symlinkSync('/dev/zero', join(dir, 'zero.evid'));
  const e = bayes(['marginals', uai, '--evidence-file', join(dir, 'zero.evid')]);
  assert.equal(e.status, 1, e.stderr);
  assert.match(e.stderr, /zero\.evid" is a device, not a regular file/);
});

test('bayes marginals: --max-file-mb holds for a network named on the command line', () => {
  const { dir } = tempFile('readme.txt', '');
  const big = join(dir, 'big.bif');
  writeFileSync(
    big,
    ' '.repeat(3 * 2 ** 20) +
      'network x {}\nvariable A { type discrete [ 2 ] { a, b }; }\nprobability ( A ) { table 0.5, 0.5; }\n',
  );
  const refused = bayes(['marginals', big, '--max-file-mb', '1']);
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /big\.bif" is 3(\.0)? MB, over the 1 MB limit/);
  const read = bayes(['marginals', big, '--max-file-mb', '4']);
  assert.equal(read.status, 0, read.stderr);
  assert.match(read.stdout, /A: a 0\.500000 {2}b 0\.500000/);
  const asia = sharedFile('data/bif/asia.bif');
  if (asia) {
    copyFileSync(asia, join(dir, 'asia.bif'));
    assert.equal(bayes(['marginals', join(dir, 'asia.bif'), '--max-file-mb', '1']).status, 0);
  }
});
