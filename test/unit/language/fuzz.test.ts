/**
 * Mutates the example models 10,000 times with a fixed seed — tokens deleted, duplicated and
 * swapped, random bytes and characters inserted — and asserts that the parser and the checker
 * never throw and that every diagnostic lies inside the document.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument, checkDocument, type Diagnostic } from '../../../server/src/language/index.js';
import { examples, fakeEnv, random } from './helpers.js';

const CASES = 10_000;
const sources = examples().map(([, text]) => text);

const pieces = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  ':',
  '|',
  '=',
  '≈',
  '±',
  '~',
  '->',
  '?',
  '%',
  '/',
  '"',
  '///',
  '/*',
  '\n',
  'P',
  'query',
  'expect',
  'network',
  'given',
  'in',
  '0.5',
  '-',
  '1e',
  '.',
  'tree',
  'if',
  'else',
  '\u0000',
  '\ud83d',
  'é',
  '\r\n',
  '\t',
];

function mutate(text: string, rnd: () => number): string {
  const tokens = text.match(/\s+|[A-Za-z_0-9.]+|"[^"\n]*"|[\s\S]/g) ?? [];
  const at = () => Math.floor(rnd() * tokens.length);
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits && tokens.length > 0; e++) {
    const i = at();
    switch (Math.floor(rnd() * 6)) {
      case 0:
        tokens.splice(i, 1);
        break;
      case 1:
        tokens.splice(i, 0, tokens[i]);
        break;
      case 2: {
        const j = at();
        [tokens[i], tokens[j]] = [tokens[j], tokens[i]];
        break;
      }
      case 3:
        tokens.splice(i, 0, pieces[Math.floor(rnd() * pieces.length)]);
        break;
      case 4:
        tokens.splice(i, 0, String.fromCharCode(Math.floor(rnd() * 256)));
        break;
      default:
        tokens.splice(i, Math.floor(rnd() * 20));
        break;
    }
  }
  return tokens.join('');
}

function assertInside(text: string, d: Diagnostic, label: string): void {
  const lines = text.split(/\r\n|\r|\n/);
  const ok = (p: { line: number; character: number }) =>
    Number.isInteger(p.line) &&
    Number.isInteger(p.character) &&
    p.line >= 0 &&
    p.line < lines.length &&
    p.character >= 0 &&
    p.character <= lines[p.line].length;
  const ordered =
    d.range.start.line < d.range.end.line ||
    (d.range.start.line === d.range.end.line && d.range.start.character <= d.range.end.character);
  assert.ok(
    ok(d.range.start) && ok(d.range.end) && ordered,
    `${label}: range outside the document: ${JSON.stringify(d)}`,
  );
  assert.ok(d.message && d.code, `${label}: diagnostic without message or code`);
}

test(`parser and checker survive ${CASES} mutations of the examples`, () => {
  const rnd = random(20240601);
  const env = fakeEnv();
  for (let n = 0; n < CASES; n++) {
    const text = mutate(sources[n % sources.length], rnd);
    const label = `case ${n}`;
    let diagnostics: Diagnostic[];
    try {
      const parsed = parseDocument(text);
      diagnostics = [...parsed.diagnostics, ...checkDocument(parsed.ast, env)];
    } catch (e) {
      assert.fail(`${label} threw ${(e as Error).stack}\n--- input ---\n${text}`);
    }
    for (const d of diagnostics) assertInside(text, d, label);
  }
});
