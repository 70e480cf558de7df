/**
 * The largest and smallest of a list, by a loop. `Math.max(...xs)` passes every element as an
 * argument on the stack, and throws RangeError past about 125,000 of them: a hypothesis space,
 * a variable's states or a data block of that size is a few hundred kilobytes of model text.
 */

/** The largest element (-Infinity when empty, as Math.max()). NaN when any element is NaN. */
export function maxOf(xs: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isNaN(x)) return NaN;
    if (x > max) max = x;
  }
  return max;
}

/** The smallest element (Infinity when empty, as Math.min()). NaN when any element is NaN. */
export function minOf(xs: ArrayLike<number>): number {
  let min = Infinity;
  for (let i = 0; i < xs.length; i++) {
    const x = xs[i]!;
    if (Number.isNaN(x)) return NaN;
    if (x < min) min = x;
  }
  return min;
}
