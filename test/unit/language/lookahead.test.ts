/**
 * The parser's lookahead table (server/src/language/lookaheadPaths.ts) is the one Chevrotain
 * computes from the grammar today, and a parser deciding from it parses exactly as one that
 * computes its lookahead itself, on the examples intact, cut and damaged.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LLkLookaheadStrategy } from 'chevrotain';
import { lookaheadTable } from '../../../server/src/language/grammar.js';
import { LOOKAHEAD_PATHS } from '../../../server/src/language/lookaheadPaths.js';
import { BayesParser, MAX_LOOKAHEAD, useParser } from '../../../server/src/language/parser.js';
import { parseDocument } from '../../../server/src/language/index.js';
import { damagedExamples, exampleTexts } from './helpers.js';

test('lookaheadPaths.ts holds the lookahead of the grammar as it is (npm run grammar:lookahead)', () => {
  assert.deepEqual(LOOKAHEAD_PATHS, lookaheadTable(), 'lookaheadPaths.ts is stale: run npm run grammar:lookahead');
});

test("the table's lookahead parses as Chevrotain's own analysis does", () => {
  const texts = [...exampleTexts(), ...damagedExamples(11, 25)];
  const computed = new BayesParser(false, new LLkLookaheadStrategy({ maxLookahead: MAX_LOOKAHEAD }));
  const restore = useParser(computed);
  let expected;
  try {
    expected = texts.map(([, text]) => parseDocument(text));
  } finally {
    restore();
  }
  texts.forEach(([name, text], i) => assert.deepEqual(parseDocument(text), expected[i], name));
});
