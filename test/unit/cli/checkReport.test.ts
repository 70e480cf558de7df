/**
 * `bayes check` says what it checked (issue 27 item 7): a summary line per file, the checker's
 * "did you mean" in the CLI too, the undeclared columns of a data set in one line; and `run`
 * colours its expect marks only on a terminal (issue 34).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';

const MODEL = `variable Disease { yes, no }
variable Test { pos, neg }
network N {
  P(Disease) { yes: 0.01, no: 0.99 }
  P(Test | Disease) {
    yes: { pos: 0.9, neg: 0.1 }
    no: { pos: 0.2, neg: 0.8 }
  }
}
query P(Disease | Test = pos) in N
expect P(Disease = yes | Test = pos) in N ≈ 0.0435 ± 0.001
`;

async function check(text: string, extra: Partial<ReturnType<typeof capture>> = {}) {
  const { file, dir } = tempFile('m.bayes', text);
  try {
    const io = Object.assign(capture(dir), extra);
    const code = await main(['check', file], io);
    return { code, out: io.stdout, err: io.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('bayes check prints one line saying what it checked when all is well', async () => {
  const r = await check(MODEL);
  assert.equal(r.code, 0, r.err);
  assert.equal(r.out, 'm.bayes: checked 5 statements (2 variables, 1 network, 1 query, 1 expect): no problems\n');
});

test('bayes check counts what it found, and suggests the nearest name', async () => {
  const r = await check(MODEL + 'query P(Disease | Tset = pos) in N\n');
  assert.equal(r.code, 1);
  assert.match(r.out, /^m\.bayes:12:19: error: variable 'Tset' is not defined; did you mean 'Test'\?$/m);
  assert.match(r.out, /^m\.bayes: checked 6 statements \(.*\): 1 error$/m);
});

test('the undeclared columns of one data set are one information line', async () => {
  const data = 'data D {\n  Disease, Age, Region, Smoker\n  yes, 31, north, y\n  no, 45, south, n\n}\n';
  const r = await check(MODEL + data);
  assert.equal(r.code, 0, r.out);
  const infos = r.out.split('\n').filter((l) => l.includes(': information: '));
  assert.deepEqual(infos, [
    "m.bayes:13:12: information: 3 columns of data 'D' are not declared variables; they take: 'Age' numbers; " +
      "'Region' the states seen in the data: north, south; 'Smoker' the states seen in the data: y, n",
  ]);
  assert.match(r.out, /: 1 information\n$/);
});

test('run colours ✓ and severities on a terminal, not with NO_COLOR nor in a pipe', async () => {
  const { file, dir } = tempFile('m.bayes', MODEL);
  try {
    const tty = Object.assign(capture(dir), { outIsTTY: true, env: {} });
    assert.equal(await main(['run', file], tty), 0);
    assert.ok(tty.stdout.includes('\u001b[32m✓\u001b[0m'), tty.stdout);
    for (const plain of [capture(dir), Object.assign(capture(dir), { outIsTTY: true, env: { NO_COLOR: '1' } })]) {
      assert.equal(await main(['run', file], plain), 0);
      assert.match(plain.stdout, /✓/);
      assert.ok(!plain.stdout.includes('\u001b'));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
