/** The verdict of an `expect` line: the query's value against the comparison as written. */
import type { Comparison } from '../language/index.js';
import { valueText } from '../language/index.js';

/** Tolerance of `≈ x` written without `± t`. */
export const DEFAULT_TOLERANCE = 1e-6;

export function comparisonHolds(actual: number | string, c: Comparison): boolean {
  const expected = c.value.kind === 'number' ? c.value.value : valueText(c.value);
  if (c.op === '=')
    return typeof actual === 'number' && typeof expected === 'number'
      ? Math.abs(actual - expected) <= 1e-12
      : String(actual) === String(expected);
  if (typeof actual !== 'number' || typeof expected !== 'number') return false;
  switch (c.op) {
    case '≈':
      return Math.abs(actual - expected) <= (c.tolerance?.value ?? DEFAULT_TOLERANCE);
    case '<':
      return actual < expected;
    case '<=':
      return actual <= expected;
    case '>':
      return actual > expected;
    case '>=':
      return actual >= expected;
  }
}
