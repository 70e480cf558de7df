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
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BayesParser, bayesParser } from '../../../server/src/language/parser.js';
import { buildLexer, Identifier, keywordByImage } from '../../../server/src/language/tokens.js';
import { tokenize, type Lexed } from '../../../server/src/language/lexer.js';
import { createRng } from '../../../server/src/engine/random.js';
import { parseDocument } from '../../../server/src/language/index.js';
import { repoRoot } from '../../support/shared.js';

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
  for (const [name, text] of inputs()) same(name, text);
  const rng = createRng(18);
  for (let i = 0; i < 2000; i++)
    same(
      `random text ${i}`,
      randomText(() => rng.next(), 1 + (i % 60)),
    );
});

/** Every example, and each with every fifth line cut in half (syntax errors, recovery). */
function inputs(): [string, string][] {
  const folder = join(repoRoot, 'examples');
  const out: [string, string][] = [];
  for (const name of readdirSync(folder)
    .filter((f) => f.endsWith('.bayes'))
    .sort()) {
    const text = readFileSync(join(folder, name), 'utf8');
    out.push([name, text]);
    const cut = text
      .split('\n')
      .map((line, i) => (i % 5 === 2 ? line.slice(0, line.length >> 1) : line))
      .join('\n');
    out.push([`${name} (every fifth line cut)`, cut]);
  }
  return out;
}

const digestFile = join(repoRoot, 'test/unit/language/fixtures/parse-digests.json');
const digest = (text: string) =>
  createHash('sha256')
    .update(JSON.stringify(parseDocument(text)))
    .digest('hex')
    .slice(0, 16);

test('ASTs and syntax diagnostics of the examples, intact and damaged, are the recorded ones', () => {
  const actual = Object.fromEntries(inputs().map(([name, text]) => [name, digest(text)]));
  if (process.env.UPDATE_PARSE_DIGESTS) writeFileSync(digestFile, JSON.stringify(actual, null, 2) + '\n');
  const recorded = JSON.parse(readFileSync(digestFile, 'utf8')) as Record<string, string>;
  assert.deepEqual(actual, recorded);
});

/** Pieces that make or break names, states and numbers: signs, fractions, percents, strings, brackets. */
const damage = [
  '-',
  '/',
  '%',
  '/7',
  '5%',
  '"s"',
  '"',
  '3',
  '.5',
  ',',
  ':',
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  'x',
  'do',
  ' ',
  '\n',
];

/** `text` with a few random spans deleted, doubled or replaced by one of `damage`. */
function damaged(text: string, rng: () => number): string {
  let out = text;
  for (let k = 0; k < 3; k++) {
    const at = Math.floor(rng() * out.length);
    const length = 1 + Math.floor(rng() * 6);
    const choice = rng();
    const insert =
      choice < 0.3 ? '' : choice < 0.5 ? out.slice(at, at + length) : damage[Math.floor(rng() * damage.length)];
    out = out.slice(0, at) + insert + out.slice(choice < 0.5 && choice >= 0.3 ? at : at + length);
  }
  return out;
}

test('names, states and numbers read inline give what their rules give, on intact and damaged texts', () => {
  const parser = bayesParser();
  const both = (name: string, text: string) => {
    parser.inlineLeaves = false;
    const byRules = parseDocument(text);
    parser.inlineLeaves = true;
    assert.deepEqual(parseDocument(text), byRules, name);
  };
  const rng = createRng(7);
  try {
    for (const [name, text] of inputs()) {
      both(name, text);
      for (let i = 0; i < 25; i++)
        both(
          `${name}, damaged ${i}`,
          damaged(text, () => rng.next()),
        );
    }
  } finally {
    parser.inlineLeaves = true;
  }
});
