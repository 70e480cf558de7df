/**
 * The formatter keeps the lines inside block comments as the author wrote them (only trailing
 * spaces go), wherever the comments are, however many: each comment's lines are found from
 * one running line count.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { formatText } from '../../../server/src/features/formatting.js';

test('lines inside every block comment are kept; code around them is indented by depth', () => {
  const parts = ['variable Rain {yes, no}'];
  for (let i = 0; i < 300; i++) {
    parts.push(`/* comment ${i}`, `      kept   ${i}   `, ` */ variable V${i} {a, b}`);
    if (i % 3 === 0) parts.push(`network N${i} {`, '/* inside', '   as is', '*/', `variable W${i} {a, b}`, '}');
  }
  parts.push('// "/* not a comment start', 'variable Last {a, b}', '// the end');
  const text = parts.join('\n') + '\n';
  const parse = parseDocument(text);
  assert.deepEqual(
    parse.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const out = formatText(parse.ast, text).split('\n');
  const lines = text.split('\n');
  assert.equal(out.length, lines.length);
  for (let i = 0; i < 300; i++) {
    const at = lines.indexOf(`      kept   ${i}   `);
    assert.equal(out[at], `      kept   ${i}`, `comment ${i}`);
  }
  lines.forEach((line, i) => {
    if (line === '   as is') assert.equal(out[i], '   as is', `line ${i + 1}`);
    if (line === '/* inside') assert.equal(out[i], '  /* inside', `line ${i + 1}: a comment's first line is indented`);
    if (line.startsWith('variable W')) assert.equal(out[i], `  ${line}`, `line ${i + 1}`);
  });
  assert.equal(out[lines.indexOf('variable Last {a, b}')], 'variable Last {a, b}');
});

test('spacing inside lines is normalised, idempotently, with comments and strings kept', () => {
  const messy =
    [
      'variable   Test{pos,neg}   // the   lab   test',
      'hypotheses Diagnosis { cancer:  0.008, healthy: 0.992 }',
      'P( Test|Diagnosis ) {',
      '  cancer:  { pos: 0.98, neg: 0.02 }',
      '  healthy: { pos: 0.03, neg: 0.97 }',
      '}',
      'query   posterior Diagnosis   given Test=pos   //   keep  this',
      'expect P(Diagnosis=cancer|Test = pos)≈0.2085±0.0001',
      'data Days from "a  b.csv"',
    ].join('\n') + '\n';
  const parse = parseDocument(messy);
  assert.deepEqual(
    parse.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  const out = formatText(parse.ast, messy);
  assert.deepEqual(out.split('\n'), [
    'variable Test{pos, neg}   // the   lab   test',
    'hypotheses Diagnosis { cancer:  0.008, healthy: 0.992 }',
    'P(Test | Diagnosis) {',
    '  cancer:  { pos: 0.98, neg: 0.02 }',
    '  healthy: { pos: 0.03, neg: 0.97 }',
    '}',
    'query posterior Diagnosis given Test = pos   //   keep  this',
    'expect P(Diagnosis = cancer | Test = pos) ≈ 0.2085 ± 0.0001',
    'data Days from "a  b.csv"',
    '',
  ]);
  assert.equal(formatText(parseDocument(out).ast, out), out, 'idempotent');
});

test('every example model formats idempotently and keeps its comments', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { repoRoot } = await import('../../support/shared.js');
  for (const name of readdirSync(join(repoRoot, 'examples')).filter((f) => f.endsWith('.bayes'))) {
    const text = readFileSync(join(repoRoot, 'examples', name), 'utf8');
    const once = formatText(parseDocument(text).ast, text);
    assert.equal(formatText(parseDocument(once).ast, once), once, `${name}: idempotent`);
    const comments = (s: string) => (s.match(/\/\/.*$/gm) ?? []).map((c) => c.trim());
    assert.deepEqual(comments(once), comments(text), `${name}: comments kept`);
  }
});

test('a Gaussian slice: coefficients keyed by a parent with its slice keep their slice, and formatting is idempotent', () => {
  const text = `network Walk {
  variable X, Y : real
  P(X[0]) ~ Normal(mean: 0, variance: 1)
  P(X[t] | X[t-1]) ~ Normal(mean: 0,X [ t - 1 ] :  0.9, variance: 0.5)
  P(Y[t] | X[t]) ~ Normal(mean: 0, X[t]: 1, variance: 2)
}
`;
  const out = formatText(parseDocument(text).ast, text);
  // As for a table head's index: the author's gaps around the name and colon stay, none inside the brackets.
  assert.equal(out.split('\n')[3], '  P(X[t] | X[t-1]) ~ Normal(mean: 0, X [t - 1] :  0.9, variance: 0.5)');
  assert.equal(formatText(parseDocument(out).ast, out), out);
  assert.deepEqual(
    parseDocument(out).diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
});
