import assert from 'node:assert/strict';

/** Asserts |actual − expected| ≤ tolerance; an absent actual value fails. */
export function close(actual: number | undefined, expected: number, tolerance: number, message = ''): void {
  assert.ok(
    actual !== undefined && Math.abs(actual - expected) <= tolerance,
    `${message} ${actual} vs ${expected}`.trim(),
  );
}
