import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allRows, CACHED_ROWS, columnOrder } from '../../../server/src/engine/categoricalData.js';
import { shuffledRows } from '../../../server/src/engine/classifiers/evaluation.js';
import { createRng } from '../../../server/src/engine/random.js';

/** The order a stable comparison sort of the positions by row gives (the brute force). */
const sortedPositions = (rows: Int32Array) => Array.from(rows.keys()).sort((i, j) => rows[i]! - rows[j]! || i - j);

test('columnOrder: a shuffled fold comes back as the stable ascending permutation', () => {
  const rows = shuffledRows(1000, 3).slice(0, 700);
  const order = columnOrder(rows, 1000, 0);
  assert.ok(order);
  assert.deepEqual(Array.from(order), sortedPositions(rows));
});

test('columnOrder: repeated rows (a bootstrap sample) are all kept, in their given order', () => {
  const rng = createRng(7);
  const rows = Int32Array.from({ length: 500 }, () => rng.int(200));
  const order = columnOrder(rows, 200, 0)!;
  assert.deepEqual(Array.from(order), sortedPositions(rows));
  assert.deepEqual(
    Array.from(order, (i) => rows[i]!),
    Array.from(rows).sort((a, b) => a - b),
  );
});

test('columnOrder: none needed for ascending rows, a few rows of a long table, or a table that fits in cache', () => {
  assert.equal(columnOrder(allRows(100), 100, 0), undefined);
  assert.equal(columnOrder(Int32Array.of(2, 2, 5, 9), 10, 0), undefined);
  assert.equal(columnOrder(Int32Array.of(900, 3), 1000, 0), undefined);
  assert.deepEqual(Array.from(columnOrder(Int32Array.of(9, 3), 10, 0)!), [1, 0]);
  assert.equal(columnOrder(Int32Array.of(9, 3), 10), undefined);
  const fold = shuffledRows(CACHED_ROWS, 1);
  assert.equal(columnOrder(fold.subarray(1), CACHED_ROWS - 1), undefined);
  assert.deepEqual(Array.from(columnOrder(fold, CACHED_ROWS)!), sortedPositions(fold));
});
