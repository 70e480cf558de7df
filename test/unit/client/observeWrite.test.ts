/** The expect lines that observe lines for a network can change (client/src/observeWrite.ts). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expectLinesOn, writeWarning } from '../../../client/src/observeWrite.js';

const text = [
  'network A { variable X : bool }',
  'expect P(X = true) in A ≈ 0.5',
  '  expect P(X = true | Y = no) in B ≈ 0.2   // in A, says the comment',
  'expect P(Z = true) ≈ 0.3',
  'query P(X) in A',
  'expect mpe in A = x',
  '// expect P(X = true) in A',
].join('\n');

test('an expect line reads a network through its in clause; the default model has none', () => {
  assert.deepEqual(expectLinesOn(text, 'A'), [
    { line: 2, text: 'expect P(X = true) in A ≈ 0.5' },
    { line: 6, text: 'expect mpe in A = x' },
  ]);
  assert.deepEqual(
    expectLinesOn(text, 'B').map((e) => e.line),
    [3],
  );
  assert.deepEqual(
    expectLinesOn(text, 'default').map((e) => e.line),
    [4],
  );
  assert.deepEqual(expectLinesOn(text, 'C'), []);
});

test('the warning counts the lines and lists the first eight', () => {
  const many = Array.from({ length: 11 }, (_, i) => ({ line: i + 1, text: `expect P(X = true) in A ≈ ${i}` }));
  const w = writeWarning(1, 'm.bayes', 'A', many).split('\n');
  assert.equal(
    w[0],
    '1 observe line at the end of m.bayes becomes evidence for every query on A: 11 expect lines may no longer hold.',
  );
  assert.equal(w.length, 1 + 8 + 1);
  assert.equal(w.at(-1), '… and 3 more');
});
