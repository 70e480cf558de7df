/** Number options of the commands, refused with a usage error naming the option (exit 2). */
import { UsageError } from './command.js';

/** An integer option in [min, max]; `fallback` (a number, or undefined to leave it unset) when absent. */
export function integerOption<F extends number | undefined>(
  name: string,
  value: string | undefined,
  fallback: F,
  min = 0,
  max = Number.MAX_SAFE_INTEGER,
): number | F {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} must be an integer ≥ ${min}, not '${value}'`);
  if (n > max) throw new UsageError(`--${name} ${value} is over the budget of ${max.toLocaleString('en-US')}`);
  return n;
}

/** A number option > 0 (≥ 0 with allowZero); `fallback` when absent. */
export function positiveOption(name: string, text: string | undefined, fallback: number, allowZero = false): number {
  if (text === undefined) return fallback;
  const x = Number(text);
  if (!(allowZero ? x >= 0 : x > 0))
    throw new UsageError(`--${name} must be a ${allowZero ? 'non-negative' : 'positive'} number, not '${text}'`);
  return x;
}
