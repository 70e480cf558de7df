import { test } from 'node:test';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { main } from '../../server/src/cli.js';
import { capture } from '../support/cli.js';

test('bayes --help lists the commands and exits 0', async () => {
  const io = capture();
  assert.equal(await main(['--help'], io), 0);
  assert.match(io.stdout, /check/);
  assert.match(io.stdout, /run/);
});

test('an unknown command is a usage error (exit 2)', async () => {
  const io = capture();
  assert.equal(await main(['frobnicate'], io), 2);
  assert.match(io.stderr, /unknown command 'frobnicate'/);
});

test('check without files is a usage error', async () => {
  const io = capture();
  assert.equal(await main(['check'], io), 2);
  assert.match(io.stderr, /give at least one \.bayes file/);
});

test('a missing model file is reported and fails', async () => {
  const io = capture();
  assert.equal(await main(['check', 'no/such/file.bayes'], io), 1);
  assert.match(io.stderr, /cannot read no\/such\/file\.bayes/);
});

test('check --json prints { file, diagnostics } with each code, as its --help says', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-check-json-'));
  const file = join(dir, 'm.bayes');
  writeFileSync(file, 'variable A : bool\nP(A) = 1.2\n');
  const io = capture();
  assert.equal(await main(['check', file, '--json'], io), 1);
  const out = JSON.parse(io.stdout) as { file: string; diagnostics: { code: string; severity: string }[] };
  assert.equal(out.file.endsWith('m.bayes'), true);
  assert.deepEqual(
    out.diagnostics.map((d) => [d.severity, d.code]),
    [['error', 'probability-range']],
  );
  const two = capture();
  assert.equal(await main(['check', '--json', file, file], two), 1);
  assert.equal((JSON.parse(two.stdout) as unknown[]).length, 2);
});

test('--max-memory: its --help gives the least it takes, and less is a usage error', async () => {
  const help = capture();
  assert.equal(await main(['--help'], help), 0);
  assert.match(
    help.stdout,
    /--max-memory MB {5}stop the command when the process uses more memory \(exit 3; at least\n\s+100\)/,
  );
  const io = capture();
  assert.equal(await main(['check', 'x.bayes', '--max-memory', '10'], io), 2);
  assert.match(io.stderr, /--max-memory takes at least 100 MB/);
});
