import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { r } from './helpers.js';

/** Syntax diagnostics as [range, message] pairs, and the kinds of the statements that survived. */
function recover(text: string) {
  const { ast, diagnostics } = parseDocument(text);
  return {
    diagnostics: diagnostics.map((d) => [d.range, d.message, d.code]),
    kinds: ast.statements.map((s) => s.kind),
  };
}

test('a broken line between statements: one diagnostic there, everything else parses', () => {
  const { diagnostics, kinds } = recover('variable A { a, b }\nvariable B { b c\nvariable C : bool\nP(C) = 0.5');
  assert.deepEqual(diagnostics, [
    [r(1, 15, 1, 16), "expected '}' after 'c' but found the end of the statement", 'syntax-error'],
  ]);
  assert.deepEqual(kinds, ['variable', 'error', 'variable', 'table']);
});

test('a table row whose brace is not closed costs that row only', () => {
  const text =
    'P(Test | Diagnosis) {\n  cancer:  { pos: 0.98, neg: 0.02\n  healthy: { pos: 0.03, neg: 0.97 }\n}\nquery map Diagnosis';
  const { ast, diagnostics } = parseDocument(text);
  assert.deepEqual(
    diagnostics.map((d) => [d.range, d.message]),
    [[r(1, 11, 1, 12), "'{' is not closed on this line"]],
  );
  const table = ast.statements[0];
  assert.equal(table.kind, 'table');
  if (table.kind === 'table') {
    assert.deepEqual(
      table.rows.map((row) => row.keys[0].text),
      ['healthy'],
    );
    assert.equal(table.recovered, true);
  }
  assert.equal(ast.statements[1].kind, 'queryStatement');
});

test('a row that stops early is blamed on its own line, not the next one', () => {
  const { diagnostics, kinds } = recover('P(X | Y) {\n  a: 0.5 0.3 :\n  b: 0.2\n}');
  assert.deepEqual(diagnostics, [
    [r(1, 13, 1, 14), "this line is incomplete: expected '{', '[', '-', a number or a name after ':'", 'syntax-error'],
  ]);
  assert.deepEqual(kinds, ['table']);
});

test('garbage inside a row is reported on that row; the other rows stay', () => {
  const text = 'P(X | Y) {\n  a: 0.5\n  b: 0.2 ) 0.1\n  c: 0.3\n}';
  const { ast, diagnostics } = parseDocument(text);
  assert.deepEqual(
    diagnostics.map((d) => [d.range, d.message]),
    [[r(2, 9, 2, 10), "expected '}' after '0.2' but found ')'"]],
  );
  const table = ast.statements[0];
  assert.deepEqual(table.kind === 'table' && table.rows.map((row) => row.keys[0].text), ['a', 'c']);
});

test('a statement missing its end reports at its last token', () => {
  const { diagnostics, kinds } = recover('query posterior\nquery map Diagnosis\nP(A) = \nobserve A = a');
  assert.deepEqual(diagnostics, [
    [r(0, 6, 0, 15), "expected a name after 'posterior' but found the end of the statement", 'syntax-error'],
    [
      r(2, 5, 2, 6),
      "unexpected end of the statement in a probability table after '='; " +
        "expected '-', a number, 'noisy_or' or 'noisy_max'",
      'syntax-error',
    ],
  ]);
  assert.deepEqual(kinds, ['error', 'queryStatement', 'error', 'observe']);
});

test('lexical errors are diagnostics on the exact characters', () => {
  const { diagnostics, kinds } = recover('variable A @@ { a, b }\nvariable B { "open }\nvariable C : bool');
  assert.deepEqual(diagnostics, [
    [r(0, 11, 0, 13), "unexpected characters '@@'", 'lexical-error'],
    [r(1, 13, 1, 14), 'this string is not closed: a string must end with " on the same line', 'lexical-error'],
  ]);
  // Without the stray quote the second line is a valid declaration again.
  assert.deepEqual(kinds, ['variable', 'variable', 'variable']);
});

test('a forgotten closing brace does not swallow the statements that follow', () => {
  const { diagnostics, kinds } = recover('data D {\n  A, B\n  a, b\nvariable C : bool\nquery map C');
  assert.deepEqual(diagnostics, [
    [r(2, 5, 2, 6), "expected '}' after 'b' but found the end of the statement", 'syntax-error'],
  ]);
  assert.deepEqual(kinds, ['error', 'variable', 'queryStatement']);
});

test('an unclosed network is reported on its name; a stray } on itself', () => {
  const open = recover('network N {\n  variable A : bool\n');
  assert.deepEqual(open.diagnostics, [[r(0, 8, 0, 9), "network 'N' is missing its closing '}'", 'unclosed-network']]);
  const stray = recover('variable A : bool\n}\nvariable B : bool');
  assert.deepEqual(stray.diagnostics, [
    [r(1, 0, 1, 1), "unexpected '}': there is no open network or block to close", 'syntax-error'],
  ]);
  assert.deepEqual(stray.kinds, ['variable', 'variable']);
});

test('a network whose header does not parse still matches its }', () => {
  const { diagnostics, kinds } = recover('network {\n  variable A : bool\n}\nvariable B : bool');
  assert.deepEqual(diagnostics, [[r(0, 8, 0, 9), "expected a name after 'network' but found '{'", 'syntax-error']]);
  assert.deepEqual(kinds, ['error', 'variable', 'variable']);
});

test('a broken statement inside a network leaves the network and its other statements', () => {
  const { ast, diagnostics } = parseDocument(
    'network N {\n  variable A : bool\n  P(A) = oops\n  P(B) = 0.1\n}\nquery P(A) in N',
  );
  assert.deepEqual(
    diagnostics.map((d) => d.range),
    [r(2, 9, 2, 13)],
  );
  const network = ast.statements[0];
  assert.deepEqual(network.kind === 'network' && network.statements.map((s) => s.kind), ['variable', 'error', 'table']);
  assert.equal(ast.statements[1].kind, 'queryStatement');
});

test('an expect without a comparison says what is missing', () => {
  const { diagnostics } = recover('expect map H');
  assert.deepEqual(diagnostics, [
    [r(0, 11, 0, 12), "an expectation needs a comparison after 'H': = value, ≈ x ± t, <, <=, > or >=", 'syntax-error'],
  ]);
});

test('a broken declaration keeps its name, so later uses are not all undefined', () => {
  const { ast } = parseDocument('hypotheses H { a: 0.5: }\nquery map H');
  const broken = ast.statements[0];
  assert.equal(broken.kind, 'error');
  assert.equal(broken.kind === 'error' && broken.name?.text, 'H');
});
