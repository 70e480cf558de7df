/**
 * Names that would differ only by an invisible character (issue #28): zero-width characters and
 * text-direction controls are an `invisible-character` error on the character, named by code
 * point, so `yes` and `y\u200Bes` can never be two states, nor `B` and `B\u202E` two variables.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';

const INVISIBLE = [0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202e, 0x2066, 0x2069, 0xfeff];

test('each zero-width or direction control inside a name is an error on its own character', () => {
  for (const cp of INVISIBLE) {
    const c = String.fromCodePoint(cp);
    const text = `variable A { yes, y${c}es }\n`;
    const found = parseDocument(text).diagnostics.filter((d) => d.code === 'invisible-character');
    const hex = cp.toString(16).toUpperCase();
    assert.equal(found.length, 1, hex);
    assert.equal(found[0]!.severity, 'error');
    assert.match(
      found[0]!.message,
      new RegExp(`^invisible character U\\+${hex} \\(zero-width or text-direction control\\)`),
    );
    assert.deepEqual(found[0]!.range, { start: { line: 0, character: 19 }, end: { line: 0, character: 20 } });
    assert.ok(!found[0]!.message.includes(c), 'the character itself is not printed');
  }
});

test('a right-to-left override after a variable name is refused, and a visible stray character keeps its message', () => {
  const rtl = parseDocument('variable B\u202E { a, b }\n').diagnostics;
  assert.deepEqual(
    rtl.map((d) => [d.code, d.range.start.character]),
    [['invisible-character', 10]],
  );
  const stray = parseDocument('variable C { a, b }\n§\n').diagnostics;
  assert.ok(stray.some((d) => d.code === 'lexical-error' && /unexpected character '§'/.test(d.message)));
});

test('U+FEFF is a byte-order mark as the first character only: a leading one is skipped, one later is an error', () => {
  const bom = '\ufeffvariable A { yes, no }\nP(A) { yes: 0.5, no: 0.5 }\n';
  assert.deepEqual(parseDocument(bom).diagnostics, []);
  // Read as a space, it would split `yes` into the states `y` and `es` with nothing to see.
  const inside = parseDocument('variable A { yes, no }\nP(A) { y\ufeffes: 0.5, no: 0.5 }\n').diagnostics;
  assert.deepEqual(
    inside.map((d) => [d.code, d.range.start.line, d.range.start.character]),
    [['invisible-character', 1, 8]],
  );
});
