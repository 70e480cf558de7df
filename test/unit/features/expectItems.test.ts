import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { expectItems } from '../../../server/src/features/expectItems.js';
import { expectCases } from '../../../server/src/protocol/expectCases.js';
import { run } from '../run/helpers.js';

const TEXT = `variable Rain { yes, no }
P(Rain) { yes: 0.2, no: 0.8 }
/* expect P(Rain = yes) ≈ 1 — a comment, not a test */
expect P(Rain = yes) ≈ 0.2
network N {
  variable X { a, b }
  P(X) { a: 0.5, b: 0.5 }
}
  expect P(X = a) in N ≈ 0.4 ± 0.01
expect P(Nope = a) ≈ 0.5
`;

test('bayes/expects lists each expect statement with its range, comments left out', () => {
  const items = expectItems(parseDocument(TEXT).ast, TEXT);
  assert.deepEqual(
    items.map((i) => [i.range.start.line, i.range.start.character, i.source]),
    [
      [3, 0, 'expect P(Rain = yes) ≈ 0.2'],
      [8, 2, 'expect P(X = a) in N ≈ 0.4 ± 0.01'],
      [9, 0, 'expect P(Nope = a) ≈ 0.5'],
    ],
  );
});

test("a run's expect cases line up with those items: passed, failed with expected and actual, error", async () => {
  const result = await run(TEXT);
  const cases = expectCases(result, (f, d) => `${f}: ${d.message}`);
  assert.deepEqual(
    cases.map((c) => [c.line, c.status, c.expected, c.actual]),
    [
      [4, 'passed', '≈ 0.2', 0.2],
      [9, 'failed', '≈ 0.4 ± 0.01', 0.5],
      [10, 'error', '', undefined],
    ],
  );
  assert.match(cases[2]!.message!, /not evaluated: .*Nope/);
  assert.ok(cases[0]!.timeMs! >= 0);
});
