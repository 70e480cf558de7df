/**
 * The parser as built: its grammar passes Chevrotain's validations (the shipped parser and lexer
 * skip them for start-up time), and its output on the examples, intact and damaged, is exactly
 * the output recorded before the parser was last restructured (digests in fixtures/): a change to
 * the grammar's structure or to the parser's speed-ups that alters one AST node, range or
 * diagnostic fails here. After an intended change of output, UPDATE_PARSE_DIGESTS=1 rewrites them.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BayesParser } from '../../../server/src/language/parser.js';
import { buildLexer } from '../../../server/src/language/tokens.js';
import { parseDocument } from '../../../server/src/language/index.js';
import { repoRoot } from '../../support/shared.js';

test('the grammar and the token definitions pass Chevrotain validations', () => {
  assert.doesNotThrow(() => new BayesParser(true));
  const lexer = buildLexer(true);
  assert.deepEqual(lexer.lexerDefinitionErrors, []);
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
