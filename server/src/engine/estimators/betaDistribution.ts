/**
 * The Beta distribution as the conjugate prior of a Boolean parameter θ = P(heads) (Poole
 * §10.2.1): Beta(α, β) prior + h heads, t tails → Beta(α + h, β + t) posterior. Probabilities of
 * intervals use the regularized incomplete beta function I_x(a, b) (continued fraction, Lentz).
 */
import { EngineError } from '../engineError.js';

const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059,
  12.507343278686905, -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos, g = 7; relative error ~1e-15). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new EngineError(`logGamma needs x > 0, got ${x}`);
  if (x < 0.5) return Math.log(Math.PI / Math.sin(Math.PI * x)) - logGamma(1 - x); // reflection
  const z = x - 1;
  let sum = LANCZOS[0]!;
  for (let i = 1; i < LANCZOS.length; i++) sum += LANCZOS[i]! / (z + i);
  const t = z + 7.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** ln B(a, b) = ln Γ(a) + ln Γ(b) − ln Γ(a + b). */
export function logBeta(a: number, b: number): number {
  return logGamma(a) + logGamma(b) - logGamma(a + b);
}

/** I_x(a, b) = P(θ ≤ x) for θ ~ Beta(a, b). */
export function regularizedIncompleteBeta(x: number, a: number, b: number): number {
  if (!(a > 0 && b > 0)) throw new EngineError(`Beta parameters must be positive, got (${a}, ${b})`);
  if (Number.isNaN(x)) throw new EngineError('incomplete beta of NaN');
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const front = Math.exp(a * Math.log(x) + b * Math.log1p(-x) - logBeta(a, b));
  // The continued fraction converges fast for x < (a+1)/(a+b+2); use the symmetry otherwise.
  const p =
    x < (a + 1) / (a + b + 2)
      ? (front * betaContinuedFraction(x, a, b)) / a
      : 1 - (front * betaContinuedFraction(1 - x, b, a)) / b;
  // Counts like 1e200 or 1e-320 lose every digit (NaN), and past about 1e10 the fraction does not
  // converge: an error, where Beta(1e200, 1e200) gave the interval [3.5e-18, 3.5e-18] and NaN.
  if (Number.isNaN(p))
    throw new EngineError(`P(θ ≤ ${x}) under Beta(${a}, ${b}) cannot be computed: its counts are too extreme`);
  return Math.min(1, Math.max(0, p));
}

/** Modified Lentz evaluation of the continued fraction for I_x(a, b) (Numerical Recipes §6.4). */
function betaContinuedFraction(x: number, a: number, b: number): number {
  const TINY = 1e-300,
    EPS = 1e-16,
    MAX_ITERATIONS = 100_000;
  let c = 1,
    d = 1 - ((a + b) * x) / (a + 1);
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    for (const coefficient of [
      (m * (b - m) * x) / ((a + m2 - 1) * (a + m2)),
      (-(a + m) * (a + b + m) * x) / ((a + m2) * (a + m2 + 1)),
    ]) {
      d = 1 + coefficient * d;
      if (Math.abs(d) < TINY) d = TINY;
      c = 1 + coefficient / c;
      if (Math.abs(c) < TINY) c = TINY;
      d = 1 / d;
      h *= d * c;
      if (coefficient !== 0 && Math.abs(d * c - 1) < EPS) return h;
    }
  }
  return NaN; // not converged: the caller reports it
}

/** The x with I_x(a, b) = p, by bisection (monotone, so always converges to full precision). */
export function inverseRegularizedIncompleteBeta(p: number, a: number, b: number): number {
  if (!(p >= 0 && p <= 1)) throw new EngineError(`a probability in [0, 1] is needed, got ${p}`);
  let lo = 0,
    hi = 1;
  for (let i = 0; i < 200 && hi - lo > 1e-17; i++) {
    const mid = (lo + hi) / 2;
    if (regularizedIncompleteBeta(mid, a, b) < p) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

export interface BetaSummary {
  alpha: number;
  beta: number;
  mean: number;
  /** Posterior mode (the MAP estimate); undefined when the density has no unique maximum. */
  mode: number | undefined;
  variance: number;
}

export function betaSummary(alpha: number, beta: number): BetaSummary {
  if (!(alpha > 0 && beta > 0)) {
    throw new EngineError(
      `Beta(${alpha}, ${beta}) is not a distribution: both counts must be positive (add data or pseudo-counts)`,
    );
  }
  const n = alpha + beta;
  // Beta(1e308, 1e308) has mean 1/2, but α + β overflows: the mean came out 0.
  if (!Number.isFinite(n)) throw new EngineError(`Beta(${alpha}, ${beta}): the counts sum past 1.8e308`);
  return { alpha, beta, mean: alpha / n, mode: betaMode(alpha, beta), variance: (alpha * beta) / (n * n * (n + 1)) };
}

function betaMode(alpha: number, beta: number): number | undefined {
  if (alpha > 1 && beta > 1) return (alpha - 1) / (alpha + beta - 2);
  if (alpha >= 1 && beta < 1) return 1;
  if (alpha < 1 && beta >= 1) return 0;
  if (alpha > 1 && beta === 1) return 1; // density ∝ θ^(α−1): largest at θ = 1 (thumbtack, 1 head)
  if (alpha === 1 && beta > 1) return 0;
  return undefined; // uniform (α = β = 1) or U-shaped (both < 1)
}

/** Beta(α, β) prior updated with observed successes and failures. */
export function betaPosterior(
  prior: { alpha: number; beta: number },
  successes: number,
  failures: number,
): BetaSummary {
  if (!(successes >= 0 && failures >= 0)) throw new EngineError('counts must be non-negative');
  return betaSummary(prior.alpha + successes, prior.beta + failures);
}

/** Central credible interval holding `level` of the probability mass. */
export function betaInterval(alpha: number, beta: number, level: number): [number, number] {
  if (!(level > 0 && level < 1)) throw new EngineError(`credible level must be in (0, 1), got ${level}`);
  const tail = (1 - level) / 2;
  return [inverseRegularizedIncompleteBeta(tail, alpha, beta), inverseRegularizedIncompleteBeta(1 - tail, alpha, beta)];
}

/** P(lower ≤ θ ≤ upper) for θ ~ Beta(α, β). */
export function betaProbabilityBetween(alpha: number, beta: number, lower: number, upper: number): number {
  if (!(lower <= upper)) throw new EngineError(`interval [${lower}, ${upper}] is empty`);
  return regularizedIncompleteBeta(upper, alpha, beta) - regularizedIncompleteBeta(lower, alpha, beta);
}

/** Density of Beta(α, β) at x. */
export function betaDensity(x: number, alpha: number, beta: number): number {
  if (x < 0 || x > 1) return 0;
  return Math.exp((alpha - 1) * Math.log(x) + (beta - 1) * Math.log1p(-x) - logBeta(alpha, beta));
}

/**
 * Experts' opinions as pseudo-counts (Poole §10.2.1): "2 of 3" reads as 2 successes in 3 trials,
 * i.e. 2 pseudo-successes and 1 pseudo-failure; several experts' counts add.
 */
export function expertPseudoCounts(experts: readonly { name: string; successes: number; trials: number }[]): {
  alpha: number;
  beta: number;
} {
  let alpha = 0,
    beta = 0;
  for (const e of experts) {
    if (!(e.successes >= 0 && e.trials >= e.successes)) {
      throw new EngineError(`expert ${e.name}: '${e.successes} of ${e.trials}' needs 0 ≤ successes ≤ trials`);
    }
    alpha += e.successes;
    beta += e.trials - e.successes;
  }
  return { alpha, beta };
}
