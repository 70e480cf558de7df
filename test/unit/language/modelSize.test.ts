import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_MODEL_CHARS } from '../../../server/src/language/parse.js';
import { fullParse, parseDocument, reparse } from '../../../server/src/language/index.js';

test('a model over 8 MB is not parsed: one diagnostic on its first line, in milliseconds', () => {
  const entries = Math.ceil(MAX_MODEL_CHARS / 15) + 1;
  const text = `hypotheses H {\n${'  h: 0.0000001\n'.repeat(entries)}}\nquery map H\n`;
  assert.ok(text.length > MAX_MODEL_CHARS);
  const started = performance.now();
  const parsed = parseDocument(text);
  assert.ok(performance.now() - started < 1000);
  assert.equal(parsed.ast.statements.length, 0);
  assert.deepEqual(
    parsed.diagnostics.map((d) => [d.code, d.range.start.line, d.range.end.character]),
    [['model-too-large', 0, 14]],
  );
  assert.match(parsed.diagnostics[0]!.message, /^this model is \d+\.\d MB, over the 8\.0 MB a model may have/);
  // Editing it down under the limit parses it again; editing a small model over the limit stops.
  const small = fullParse('hypotheses H { a: 0.5, b: 0.5 }\nquery map H\n');
  assert.equal(reparse(small, text).output.diagnostics[0]?.code, 'model-too-large');
  assert.equal(reparse(fullParse(text), small.text).output.ast.statements.length, 2);
});
