import { test } from 'node:test';
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
