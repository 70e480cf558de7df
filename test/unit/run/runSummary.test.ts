/** What the status bar and code lens count: each failed statement once, in correct English. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { summary, summaryText } from '../../../server/src/run/runSummary.js';
import { run } from './helpers.js';

const MODEL = `variable Test { pos, neg }
hypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) {
  cancer:  { pos: 0.98, neg: 0.02 }
  healthy: { pos: 0.03, neg: 0.97 }
}
query posterior Diagnosis given Test = pos
expect P(Diagnosis = cancer | Test = pos) ≈ 0.2085 ± 0.0001
`;

async function record(text: string) {
  const result = await run(text);
  return { uri: 'file:///inline.bayes', text, state: 'done' as const, result, cached: false };
}

test('two failing expects are two failures (each is a result and an error diagnostic)', async () => {
  const r = await record(
    MODEL + 'expect P(Diagnosis = cancer | Test = pos) ≈ 0.5 ± 0.01\nexpect P(Test = pos) ≈ 0.9 ± 0.01\n',
  );
  assert.equal(r.result.diagnostics.filter((d) => d.severity === 'error').length, 2, 'one error per failed expect');
  assert.equal(r.result.results.filter((x) => x.kind === 'expect' && !x.passed).length, 2);
  const s = summary(r);
  assert.equal(s.failures, 2);
  assert.equal(s.queries, 4);
  assert.equal(summaryText({ ...s, elapsedMs: undefined }), '4 results · 2 failures');
});

test('one failure and one result are singular', async () => {
  const s = summary(await record(MODEL + 'expect P(Test = pos) ≈ 0.9 ± 0.01\n'));
  assert.equal(s.failures, 1);
  assert.equal(summaryText({ ...s, elapsedMs: 12.4 }), '3 results · 1 failure · 12 ms');
  assert.equal(summaryText({ queries: 1, failures: 0 }), '1 result');
  assert.equal(summaryText({ queries: 2, failures: 0, elapsedMs: 3 }, ', '), '2 results, 3 ms');
});

test('a passing model has no failures', async () => {
  assert.equal(summary(await record(MODEL)).failures, 0);
});
