/**
 * exp(x) for x ≤ 0, within 3 ulp of Math.exp — for the inner loops of EM, where Math.exp (a call
 * V8 cannot inline) costs about half the time of a pass over the data. log-sum-exp only ever
 * exponentiates differences from the maximum, so the argument is never positive.
 *
 * x = (32m + j)·ln2/32 + r with |r| ≤ ln2/64; exp(x) = 2^m · 2^(j/32) · e^r, e^r by its Taylor
 * series to r⁶ (truncation below 1e-17 on that interval), 2^(j/32) and 2^m from tables.
 */
const STEPS = 32;
const INV_STEP = STEPS / Math.LN2;
// ln2/32 split so that n·STEP_HI is exact for |n| < 2^21 (fdlibm's ln2_hi, ln2_lo).
const STEP_HI = 6.9314718036912381649e-1 / STEPS;
const STEP_LO = 1.90821492927058770002e-10 / STEPS;
const FRACTION = Float64Array.from({ length: STEPS }, (_, j) => 2 ** (j / STEPS));
/** 2^−i for i = 0 … 1075 (the last ones subnormal, then 0). */
const NEGATIVE_POWER = Float64Array.from({ length: 1076 }, (_, i) => 2 ** -i);
/** Below this exp(x) rounds to 0. */
const UNDERFLOW = -745.2;

export function expNonPositive(x: number): number {
  if (!(x > UNDERFLOW)) return x === x ? 0 : x;
  // Nearest integer to x/STEP: truncation toward zero of a non-positive number less ½.
  const n = (x * INV_STEP - 0.5) | 0;
  const r = x - n * STEP_HI - n * STEP_LO;
  const r2 = r * r;
  // Estrin-style grouping: shorter dependency chains than Horner.
  const p = 1 + r + r2 * (0.5 + r * (1 / 6)) + r2 * r2 * (1 / 24 + r * (1 / 120) + r2 * (1 / 720));
  return FRACTION[n & (STEPS - 1)]! * p * NEGATIVE_POWER[-(n >> 5)]!;
}
