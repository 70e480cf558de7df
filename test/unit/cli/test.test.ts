import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import { pythonMissing, runPython } from '../../support/python.js';

const PASSING = `variable Rain { yes, no }
P(Rain) { yes: 0.2, no: 0.8 }
expect P(Rain = yes) ≈ 0.2
expect P(Rain = no) ≈ 0.8 ± 1e-9
`;
const FAILING = `variable Coin { heads, tails }
P(Coin) { heads: 0.5, tails: 0.5 }
expect P(Coin = heads) ≈ 0.3 ± 0.01
expect P(Coin = tails) ≈ 0.5
`;

/** A folder: a.bayes (2 passing), sub/b.bayes (1 failing, 1 passing), .hidden/c.bayes (skipped), notes.txt. */
function workspace(): string {
  const { dir } = tempFile('a.bayes', PASSING);
  mkdirSync(join(dir, 'sub'));
  writeFileSync(join(dir, 'sub', 'b.bayes'), FAILING);
  mkdirSync(join(dir, '.hidden'));
  writeFileSync(join(dir, '.hidden', 'c.bayes'), FAILING);
  writeFileSync(join(dir, 'notes.txt'), 'not a model');
  return dir;
}

test('bayes test recurses folders, reports each expect, exits 1 on a failure', async () => {
  const dir = workspace();
  const io = capture(dir);
  assert.equal(await main(['test'], io), 1, io.stderr);
  assert.match(io.stdout, /a\.bayes\n +3 {2}✓ expect P\(Rain = yes\) ≈ 0\.2\n/);
  assert.match(io.stdout, /3 {2}✗ expect P\(Coin = heads\) ≈ 0\.3 ± 0\.01 {2}— {2}expected ≈ 0\.3 ± 0\.01, got 0\.5/);
  assert.match(io.stdout, /4 tests: 3 passed, 1 failed, 0 errors\n$/);
  const ok = capture(dir);
  assert.equal(await main(['test', 'a.bayes'], ok), 0);
  const json = capture(dir);
  assert.equal(await main(['test', '--reporter', 'json'], json), 1);
  const out = JSON.parse(json.stdout);
  assert.deepEqual([out.tests, out.passed, out.failed, out.errors], [4, 3, 1, 0]);
  assert.deepEqual(
    out.files.map((f: { file: string }) => f.file),
    ['a.bayes', join('sub', 'b.bayes')],
  );
  const failed = out.files[1].cases[0];
  assert.deepEqual([failed.status, failed.expected, failed.actual, failed.line], ['failed', '≈ 0.3 ± 0.01', 0.5, 3]);
  assert.ok(failed.timeMs >= 0);
});

test('bayes test --reporter junit is JUnit XML: testsuites/testsuite/testcase/failure with their counts', async (t) => {
  const dir = workspace();
  writeFileSync(join(dir, 'broken.bayes'), 'variable X { a, b }\nexpect P(Y = a) ≈ 0.5 <tag & "quote">\n');
  const io = capture(dir);
  assert.equal(await main(['test', '--reporter', 'junit'], io), 1);
  assert.match(io.stdout, /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites /);
  const why = pythonMissing(['xml.etree.ElementTree']);
  if (why) return t.skip(why);
  // No JUnit XSD ships with Debian's xmllint: the structure is checked element by element instead.
  const shape = runPython<{
    root: string;
    counts: Record<string, string>;
    suites: {
      name: string;
      tests: number;
      failures: number;
      errors: number;
      cases: { name: string; kids: string[] }[];
    }[];
  }>(
    `
import json, sys, xml.etree.ElementTree as ET
root = ET.fromstring(json.load(sys.stdin))
suites = []
for s in root.findall('testsuite'):
    cases = [{'name': c.get('name'), 'kids': [k.tag for k in c]} for c in s.findall('testcase')]
    suites.append({'name': s.get('name'), 'tests': int(s.get('tests')), 'failures': int(s.get('failures')),
                   'errors': int(s.get('errors')), 'cases': cases})
    assert all(float(c.get('time')) >= 0 for c in s.findall('testcase'))
print(json.dumps({'root': root.tag, 'counts': {k: root.get(k) for k in ('tests', 'failures', 'errors')}, 'suites': suites}))
`,
    io.stdout,
  );
  assert.equal(shape.root, 'testsuites');
  assert.deepEqual(shape.counts, { tests: '5', failures: '1', errors: '1' });
  assert.deepEqual(
    shape.suites.map((s) => [s.name, s.tests, s.failures, s.errors]),
    [
      ['a.bayes', 2, 0, 0],
      ['broken.bayes', 1, 0, 1],
      [join('sub', 'b.bayes'), 2, 1, 0],
    ],
  );
  for (const s of shape.suites) {
    assert.equal(s.cases.length, s.tests);
    assert.equal(s.cases.filter((c) => c.kids.includes('failure')).length, s.failures);
    assert.equal(s.cases.filter((c) => c.kids.includes('error')).length, s.errors);
  }
  assert.equal(shape.suites[2]!.cases[0]!.name, 'line 3: expect P(Coin = heads) ≈ 0.3 ± 0.01');
});

test('bayes test --reporter tap: a plan, ok / not ok per expect, a YAML block under a failure', async () => {
  const dir = workspace();
  const io = capture(dir);
  assert.equal(await main(['test', '--reporter', 'tap', 'sub'], io), 1);
  const lines = io.stdout.trim().split('\n');
  assert.deepEqual(lines.slice(0, 3), [
    'TAP version 13',
    '1..2',
    `not ok 1 - ${join('sub', 'b.bayes')}:3 expect P(Coin = heads) ≈ 0.3 ± 0.01`,
  ]);
  assert.ok(lines.includes('  actual: 0.5'));
  assert.equal(lines.at(-1), `ok 2 - ${join('sub', 'b.bayes')}:4 expect P(Coin = tails) ≈ 0.5`);
});

test('bayes test: no model found, a missing path and a bad reporter are errors', async () => {
  const { dir } = tempFile('notes.txt', 'x');
  const io = capture(dir);
  assert.equal(await main(['test'], io), 1);
  assert.match(io.stderr, /no \.bayes file in \./);
  const missing = capture(dir);
  assert.equal(await main(['test', 'nope'], missing), 1);
  assert.match(missing.stderr, /cannot read nope/);
  const bad = capture(dir);
  assert.equal(await main(['test', '--reporter', 'xml'], bad), 2);
});
