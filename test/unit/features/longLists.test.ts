/**
 * Lists as long as a model of a few megabytes allows: a million comment runs, 200,000 data rows,
 * 200,000 hypotheses. `Math.max(...xs)` and `push(...xs)` put every element on the stack and
 * threw RangeError past about 125,000 (folding and formatting failed, `query mdl` was an error).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fullParse, type DataDecl } from '../../../server/src/language/index.js';
import { foldingRanges } from '../../../server/src/features/folding.js';
import { formatting } from '../../../server/src/features/formatting.js';
import { mdlChoice } from '../../../server/src/engine/hypotheses/mdl.js';
import { maxOf, minOf } from '../../../server/src/engine/math/extremes.js';

test('folding: 700,000 runs of three comment lines are 700,000 ranges', () => {
  const text = '//\n//\n//\n\n'.repeat(700_000);
  const ranges = foldingRanges(fullParse(text).output.ast, text);
  assert.equal(ranges.length, 700_000);
  assert.deepEqual(ranges[699_999], { startLine: 2_799_996, endLine: 2_799_998, kind: 'comment' });
});

test('formatting: a data block of 200,000 rows is aligned', () => {
  const text = `variable A : bool\ndata D {\n  A\n${'    true\n'.repeat(100_000)}${'  false\n'.repeat(100_000)}}\n`;
  const edits = formatting(fullParse(text).output, text);
  assert.equal(edits?.length, 1);
  const lines = edits![0]!.newText.split('\n');
  assert.equal(lines.length, 200_005);
  assert.equal(lines[3], '  true');
  assert.equal(lines[200_002], '  false');
});

test('MDL over 200,000 hypotheses picks the shortest', () => {
  const lengths = Array.from({ length: 200_000 }, (_, i) => ({
    hypothesis: `h${i}`,
    hypothesisBits: 20,
    dataBits: i === 123_456 ? 1 : 2,
  }));
  assert.deepEqual(mdlChoice(lengths).best, ['h123456']);
});

test('maxOf and minOf: any length, NaN and empty as Math.max and Math.min', () => {
  const xs = Float64Array.from({ length: 300_000 }, (_, i) => Math.sin(i));
  let max = -Infinity,
    min = Infinity;
  for (const x of xs) {
    max = Math.max(max, x);
    min = Math.min(min, x);
  }
  assert.equal(maxOf(xs), max);
  assert.equal(minOf(xs), min);
  assert.equal(maxOf([]), -Infinity);
  assert.equal(minOf([]), Infinity);
  assert.ok(Number.isNaN(maxOf([1, NaN, 3])));
  assert.ok(Number.isNaN(minOf([NaN, 1])));
  assert.equal(maxOf([-0, -1]), -0);
});

test('formatting reads the cells of a scanned data row once a row (each read builds every cell node)', () => {
  const width = 2000;
  const header = Array.from({ length: width }, (_, i) => `c${i}`).join(', ');
  const text = `data D {\n${header}\n${'1, '.repeat(width - 1)}1\n${'2,'.repeat(width - 1)}2\n}\n`;
  const parsed = fullParse(text).output;
  const data = parsed.ast.statements[0] as DataDecl;
  let reads = 0;
  for (const row of data.rows) {
    const read = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(row), 'cells')?.get;
    assert.ok(read, 'a scanned row');
    Object.defineProperty(row, 'cells', {
      get() {
        reads++;
        return read.call(row);
      },
    });
  }
  const edits = formatting(parsed, text);
  assert.equal(edits?.length, 1);
  // Aligned under the header: `c0,` is three characters wide, `c1998,` six.
  assert.match(edits![0]!.newText.split('\n')[3]!, /^ {2}2, {2}2, .*2, {5}2$/);
  assert.equal(reads, 2);
});
