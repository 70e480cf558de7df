/**
 * ln Γ(x) for x > 0 by the Lanczos approximation (g = 7, 9 coefficients; relative error below
 * 1e-15 over the range structure scores use). JavaScript has no Math.lgamma.
 */
const G = 7;
const C = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];
const HALF_LOG_2PI = 0.5 * Math.log(2 * Math.PI);

export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x); // reflection
  x -= 1;
  let a = C[0]!;
  const t = x + G + 0.5;
  for (let i = 1; i < G + 2; i++) a += C[i]! / (x + i);
  return HALF_LOG_2PI + (x + 0.5) * Math.log(t) - t + Math.log(a);
}
