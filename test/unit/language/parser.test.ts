/**
 * The parser as built: its grammar passes Chevrotain's validations (the shipped parser skips
 * them for start-up time); the hand-written lexer gives exactly what Chevrotain's lexer gives for
 * the token definitions; and the parser's output on the examples, intact and damaged, is exactly
 * the output recorded before the parser was last restructured (digests in fixtures/): a change to
 * the grammar's structure or to the parser's speed-ups that alters one AST node, range or
 * diagnostic fails here. After an intended change of output, UPDATE_PARSE_DIGESTS=1 rewrites them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BayesParser, bayesParser } from '../../../server/src/language/parser.js';
import { buildLexer, Identifier, keywordByImage } from '../../../server/src/language/tokens.js';
import { tokenize, type Lexed } from '../../../server/src/language/lexer.js';
import { createRng } from '../../../server/src/engine/random.js';
import { parseDocument } from '../../../server/src/language/index.js';
import { damagedCopies, damagedExamples, exampleTexts } from './helpers.js';

test('the grammar passes Chevrotain validations', () => {
  assert.doesNotThrow(() => new BayesParser(true));
});

/** Chevrotain's lexer with the keywords retyped, as the hand-written lexer does it. */
function referenceLexer(): (text: string) => Lexed {
  const lexer = buildLexer();
  assert.deepEqual(lexer.lexerDefinitionErrors, []);
  return (text) => {
    const lexed = lexer.tokenize(text);
    for (const token of lexed.tokens) {
      const keyword = token.tokenType === Identifier ? keywordByImage.get(token.image) : undefined;
      if (keyword) Object.assign(token, { tokenTypeIdx: keyword.tokenTypeIdx, tokenType: keyword });
    }
    return { tokens: lexed.tokens, groups: { doc: lexed.groups.doc ?? [] }, errors: lexed.errors };
  };
}

/** Text drawn from pieces of the language, odd characters and line breaks of every kind. */
function randomText(rng: () => number, length: number): string {
  const pieces = [
    ' ',
    '\t',
    '\n',
    '\r\n',
    '\r',
    '\u00a0',
    '\ufeff',
    '\u2028',
    'x',
    'P',
    'query',
    'in',
    'data',
    '_a1',
    '0',
    '12',
    '.5',
    '1.',
    '3e-2',
    '1e',
    '.',
    '"s"',
    '"a\\"b"',
    '"open',
    '//',
    '///',
    '/*',
    '*/',
    '/',
    '*',
    '{',
    '}',
    '(',
    ')',
    '[',
    ']',
    ',',
    ':',
    '|',
    '?',
    '%',
    '≈',
    '~=',
    '~',
    '±',
    '+-',
    '+',
    '->',
    '→',
    '-',
    '<=',
    '≤',
    '>=',
    '≥',
    '<',
    '>',
    '=',
    '#',
    '@',
    '!',
    ';',
    "'",
    '\\',
    'é',
    '😀',
    '\u0000',
  ];
  let out = '';
  while (out.length < length) out += pieces[Math.floor(rng() * pieces.length)];
  return out;
}

test('the hand-written lexer gives what Chevrotain lexes from the token definitions', () => {
  const reference = referenceLexer();
  const same = (name: string, text: string) => assert.deepEqual(tokenize(text), reference(text), name);
  for (const [name, text] of exampleTexts()) same(name, text);
  const rng = createRng(18);
  for (let i = 0; i < 2000; i++)
    same(
      `random text ${i}`,
      randomText(() => rng.next(), 1 + (i % 60)),
    );
});

const digestFile = resolve(import.meta.dirname, 'fixtures/parse-digests.json');
const digest = (text: string) =>
  createHash('sha256')
    .update(JSON.stringify(parseDocument(text)))
    .digest('hex')
    .slice(0, 16);

test('ASTs and syntax diagnostics of the examples, intact and damaged, are the recorded ones', () => {
  const actual = Object.fromEntries(exampleTexts().map(([name, text]) => [name, digest(text)]));
  if (process.env.UPDATE_PARSE_DIGESTS) writeFileSync(digestFile, JSON.stringify(actual, null, 2) + '\n');
  const recorded = JSON.parse(readFileSync(digestFile, 'utf8')) as Record<string, string>;
  assert.deepEqual(actual, recorded);
});

/** Where the shortcuts end: do(…), do as a name, signs, fractions, percents, findings, quoted and numeric states. */
const SHORTCUT_EDGES = `variable do, A, B : bool
variable Size { "0-3 days", 1, large }
P(do) = 0.5
P(A | do) { true: 98 %, false: 2% }
P(B | A, do) {
  true, true: [9/14, 5/14]
  true, false: { true: .5, false: 1e-1 * 5 }
  false, "x": -0.5
  false, false: 0.25
}
query P(B | do(A = true))
query P(do(A = true), B | do = false)
query P(A = [true, false] | B ~ { true: 0.7, false: 0.3 })
query P(A | B ~ likelihood { true: 0.8, false: 0.2 }, do(B))
query effect of do(A = true) on B
query mpe default given do(A = true), B = -1
expect P(A = true | do(B = true)) ≈ 0.5 ± 0.1
observe do(A = true)
learn structure of [A -> B, do] from Faithful[eruptions, waiting] using hill_climb(score: bic, restarts: 8)
`;

test('the shortcuts past rule invocations give what the rules give, on intact and damaged texts', () => {
  const parser = bayesParser();
  const both = (name: string, text: string) => {
    parser.shortcuts = false;
    const byRules = parseDocument(text);
    parser.shortcuts = true;
    assert.deepEqual(parseDocument(text), byRules, name);
  };
  try {
    for (const [name, text] of [...exampleTexts(), ...damagedExamples(7, 25), ...damagedCopies(SHORTCUT_EDGES, 7, 300)])
      both(name, text);
  } finally {
    parser.shortcuts = true;
  }
});
