import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { grammarEbnf } from '../../../server/src/language/grammar.js';

const root = resolve(import.meta.dirname, '../../..');
const reference = readFileSync(join(root, 'docs/language.md'), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sources(p) : p.endsWith('.ts') ? [readFileSync(p, 'utf8')] : [];
  });
}

test('docs/language.md holds the grammar as the parser has it (npm run docs:grammar)', () => {
  assert.ok(
    reference.includes('```ebnf\n' + grammarEbnf() + '\n```'),
    'the grammar in docs/language.md is stale: run npm run docs:grammar',
  );
});

test('every diagnostic code the front end and the runner emit is documented', () => {
  const text = [...sources(join(root, 'server/src/language')), ...sources(join(root, 'server/src/run'))].join('\n');
  const codes = new Set<string>();
  for (const m of text.matchAll(/(?:\.(?:error|warning|info)\(|code: |syntaxError\([^;]*?, )'([a-z]+(?:-[a-z]+)*)'/g))
    codes.add(m[1]);
  assert.ok(codes.size > 25, `found only ${codes.size} codes`);
  for (const code of codes)
    assert.ok(reference.includes(`| \`${code}\` |`), `diagnostic code '${code}' is not in docs/language.md`);
});
