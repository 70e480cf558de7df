/** Completion in soft and virtual evidence: `likelihood` after `X ~`, X's states as keys inside `{ … }`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { completion } from '../../../server/src/features/completion.js';

const lab = `network Lab {
  variable Test { pos, neg }
  P(Test) { pos: 0.5, neg: 0.5 }
}
variable Other { a, b }
`;

function labels(line: string, rest = ''): string[] {
  const text = lab + line + rest;
  return completion(parseDocument(text).ast, text, { line: 5, character: line.length }).map((i) => i.label);
}

test('after `X ~` the keyword likelihood; inside the braces the states of X (in the line’s network)', () => {
  assert.deepEqual(labels('observe Test ~ ', ' in Lab'), ['likelihood']);
  assert.deepEqual(labels('observe Test ~ { ', ' } in Lab'), ['pos', 'neg']);
  assert.deepEqual(labels('observe Test ~ likelihood { pos: 0.8, ', ' } in Lab'), ['pos', 'neg']);
  assert.deepEqual(labels('query P(Other | Test ~ { ', ' }) in Lab'), ['pos', 'neg']);
  assert.deepEqual(labels('observe Other ~ { '), ['a', 'b']);
  // A number goes after a key's colon: no state names there.
  assert.ok(!labels('observe Test ~ { pos: ', ' } in Lab').includes('neg'));
});
