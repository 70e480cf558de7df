import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { argmax, logSumExp, normalizeLog, normalizeLogInPlace } from '../../../../server/src/engine/math/logMath.js';

test('logSumExp over a range equals the sum of exps of that range only', () => {
  const xs = [5, Math.log(1), Math.log(2), Math.log(3), 7];
  close(logSumExp(xs, 1, 4), Math.log(6), 1e-15);
  close(logSumExp(xs), Math.log(Math.exp(5) + 6 + Math.exp(7)), 1e-12);
  assert.equal(logSumExp([0, -Infinity, -Infinity, 0], 1, 3), -Infinity);
});

test('normalizeLogInPlace normalises one row of many and leaves the others alone', () => {
  const xs = Float64Array.of(1, Math.log(1), Math.log(3), -Infinity, -Infinity, 2);
  assert.equal(normalizeLogInPlace(xs, 1, 3), true);
  assert.deepEqual(Array.from(xs), [1, 0.25, 0.75, -Infinity, -Infinity, 2]);
  // Every class impossible: no posterior, scores untouched.
  assert.equal(normalizeLogInPlace(xs, 3, 5), false);
  assert.deepEqual(Array.from(xs.subarray(3, 5)), [-Infinity, -Infinity]);
  assert.deepEqual(Array.from(normalizeLog([Math.log(1), Math.log(3)])!), [0.25, 0.75]);
  assert.equal(normalizeLog([-Infinity, -Infinity]), undefined);
});

test('argmax over a range counts from its start; ties go to the first', () => {
  assert.equal(argmax([9, 1, 3, 3, 9]), 0);
  assert.equal(argmax([9, 1, 3, 3, 9], 1, 4), 1);
  assert.equal(argmax([9, 1, 3, 3, 9], 2, 5), 2);
});
