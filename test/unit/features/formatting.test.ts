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
