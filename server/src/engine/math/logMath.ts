/**
 * Small numeric helpers shared by the Bayesian-learning engine: products of many probabilities
 * underflow, so scores are kept as natural logarithms and normalised with log-sum-exp.
 */

/** log Σ exp(xs[i]) over i in [from, to); -Infinity when every term is -Infinity (all probabilities zero). */
export function logSumExp(xs: ArrayLike<number>, from = 0, to = xs.length): number {
  let max = -Infinity;
  for (let i = from; i < to; i++) if (xs[i]! > max) max = xs[i]!;
  if (max === -Infinity) return -Infinity;
  if (max === Infinity) return Infinity;
  let sum = 0;
  for (let i = from; i < to; i++) sum += Math.exp(xs[i]! - max);
  return max + Math.log(sum);
}

/**
 * Normalises log scores into probabilities. Returns undefined when every score is -Infinity,
 * i.e. the evidence has probability 0 under every hypothesis and there is no posterior.
 */
export function normalizeLog(logScores: ArrayLike<number>): Float64Array | undefined {
  const out = Float64Array.from(logScores);
  return normalizeLogInPlace(out) ? out : undefined;
}

/**
 * normalizeLog on xs[from, to) in place, for many rows of scores in one array (no allocation per
 * row). Returns false, leaving the scores as they are, when there is no posterior.
 */
export function normalizeLogInPlace(xs: Float64Array, from = 0, to = xs.length): boolean {
  const total = logSumExp(xs, from, to);
  if (total === -Infinity || Number.isNaN(total)) return false;
  for (let i = from; i < to; i++) xs[i] = Math.exp(xs[i]! - total);
  return true;
}

/**
 * Index of the largest value (counted from `from`); ties go to the first, as the textbook's argmax
 * lists do.
 */
export function argmax(xs: ArrayLike<number>, from = 0, to = xs.length): number {
  let best = from;
  for (let i = from + 1; i < to; i++) if (xs[i]! > xs[best]!) best = i;
  return best - from;
}
