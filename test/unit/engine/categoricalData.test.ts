import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allRows, columnOrder } from '../../../server/src/engine/categoricalData.js';
import { shuffledRows } from '../../../server/src/engine/classifiers/evaluation.js';
import { createRng } from '../../../server/src/engine/random.js';

/** The order a stable comparison sort of the positions by row gives (the brute force). */
const sortedPositions = (rows: Int32Array) => Array.from(rows.keys()).sort((i, j) => rows[i]! - rows[j]! || i - j);

test('columnOrder: a shuffled fold comes back as the stable ascending permutation', () => {
  const rows = shuffledRows(1000, 3).slice(0, 700);
  const order = columnOrder(rows, 1000);
  assert.ok(order);
  assert.deepEqual(Array.from(order), sortedPositions(rows));
});

test('columnOrder: repeated rows (a bootstrap sample) are all kept, in their given order', () => {
  const rng = createRng(7);
  const rows = Int32Array.from({ length: 500 }, () => rng.int(200));
  const order = columnOrder(rows, 200)!;
  assert.deepEqual(Array.from(order), sortedPositions(rows));
  assert.deepEqual(
    Array.from(order, (i) => rows[i]!),
    Array.from(rows).sort((a, b) => a - b),
  );
});

test('columnOrder: none needed for ascending rows or a few rows of a long table', () => {
  assert.equal(columnOrder(allRows(100), 100), undefined);
  assert.equal(columnOrder(Int32Array.of(2, 2, 5, 9), 10), undefined);
  assert.equal(columnOrder(Int32Array.of(900, 3), 1000), undefined);
  assert.deepEqual(Array.from(columnOrder(Int32Array.of(9, 3), 10)!), [1, 0]);
});
