/**
 * Soft findings that no distribution can meet together (issue 27 item 2): on asia, `either` is
 * `lung` OR `tub`, so P(either = yes) ≥ P(lung = yes) whatever the evidence, and lung 0.9 with
 * either 0.1 cannot hold. The fitting used to run λ into NaN and crash (exit 70); now the CLI,
 * the language and the results panel's marginals all say which findings cannot hold together.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';
import { readBif } from '../../../server/src/model/bif.js';
import { interactiveMarginals } from '../../../server/src/run/interactiveMarginals.js';
import { run } from './networkHelpers.js';

const asia = sharedFile('bif', 'asia.bif');
const CANNOT = /the soft findings on 'lung', 'either' cannot all hold together/;

test('bayes marginals: exit 1 and a message naming the findings', { skip: !asia && NO_SHARED }, async () => {
  const io = capture();
  const code = await main(['marginals', asia!, '--soft', 'lung=0.9,0.1', '--soft', 'either=0.1,0.9'], io);
  assert.equal(code, 1, io.stderr);
  assert.match(io.stderr, /^bayes marginals: /);
  assert.match(io.stderr, CANNOT);
  assert.doesNotMatch(io.stderr, /internal error|TypeError/);
  // Findings that can hold together still fit (either ≥ lung).
  const fine = capture();
  assert.equal(
    await main(['marginals', asia!, '--soft', 'lung=0.3,0.7', '--soft', 'either=0.4,0.6', '--json'], fine),
    0,
  );
});

test("the panel's marginals: an error answer, not a throw", { skip: !asia && NO_SHARED }, () => {
  const read = readBif(readFileSync(asia!, 'utf8'));
  assert.ok('network' in read);
  const reply = interactiveMarginals(read.network, { evidence: {}, soft: { lung: [0.9, 0.1], either: [0.1, 0.9] } });
  assert.ok('error' in reply, JSON.stringify(reply).slice(0, 200));
  assert.match(reply.error, CANNOT);
});

test('the language: an error on the observe line, not a failed drawing', async () => {
  const text = `network Asia {
  variable tub : bool
  variable lung : bool
  variable either : bool
  P(tub) = 0.01
  P(lung) = 0.05
  P(either | tub, lung) {
    true, true: [1, 0]
    true, false: [1, 0]
    false, true: [1, 0]
    false, false: [0, 1]
  }
}
observe lung ~ { true: 0.9, false: 0.1 } in Asia
observe either ~ { true: 0.1, false: 0.9 } in Asia
query P(tub) in Asia
`;
  const result = await run(text);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.equal(errors[0]!.code, 'soft-evidence');
  assert.equal(errors[0]!.range.start.line, 13);
  assert.match(errors[0]!.message, CANNOT);
});
