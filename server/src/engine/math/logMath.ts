/**
 * Small numeric helpers shared by the Bayesian-learning engine: products of many probabilities
 * underflow, so scores are kept as natural logarithms and normalised with log-sum-exp.
 */

/** log Σ exp(xs[i]); -Infinity when every term is -Infinity (all probabilities zero). */
export function logSumExp(xs: ArrayLike<number>): number {
  let max = -Infinity;
  for (let i = 0; i < xs.length; i++) if (xs[i]! > max) max = xs[i]!;
  if (max === -Infinity) return -Infinity;
  if (max === Infinity) return Infinity;
  let sum = 0;
  for (let i = 0; i < xs.length; i++) sum += Math.exp(xs[i]! - max);
  return max + Math.log(sum);
}

/**
 * Normalises log scores into probabilities. Returns undefined when every score is -Infinity,
 * i.e. the evidence has probability 0 under every hypothesis and there is no posterior.
 */
export function normalizeLog(logScores: ArrayLike<number>): Float64Array | undefined {
  const total = logSumExp(logScores);
  if (total === -Infinity || Number.isNaN(total)) return undefined;
  const out = new Float64Array(logScores.length);
  for (let i = 0; i < logScores.length; i++) out[i] = Math.exp(logScores[i]! - total);
  return out;
}

/** Index of the largest value; ties go to the first, as the textbook's argmax lists do. */
export function argmax(xs: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}
