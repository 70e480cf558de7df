import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import {
  regularizedIncompleteBeta,
  betaPosterior,
  betaInterval,
  betaProbabilityBetween,
  betaSummary,
  betaDensity,
  expertPseudoCounts,
  logGamma,
} from '../../../../server/src/engine/estimators/betaDistribution.js';
import {
  dirichletPosterior,
  dirichletInterval,
  dirichletProbabilityBetween,
  dirichletSummary,
} from '../../../../server/src/engine/estimators/dirichlet.js';
import {
  mEstimate,
  laplaceEstimate,
  smoothedEstimate,
  mEstimatePseudoCounts,
} from '../../../../server/src/engine/estimators/mEstimate.js';
import { parameterPosterior } from '../../../../server/src/engine/estimators/parameterLearning.js';

/** Adaptive Simpson quadrature, an integration independent of the continued fraction. */
function integrate(f: (x: number) => number, a: number, b: number, tol = 1e-13): number {
  const simpson = (l: number, r: number, fl: number, fm: number, fr: number) => ((r - l) / 6) * (fl + 4 * fm + fr);
  const rec = (
    l: number,
    r: number,
    fl: number,
    fm: number,
    fr: number,
    whole: number,
    eps: number,
    depth: number,
  ): number => {
    const m = (l + r) / 2,
      lm = (l + m) / 2,
      rm = (m + r) / 2;
    const flm = f(lm),
      frm = f(rm);
    const left = simpson(l, m, fl, flm, fm),
      right = simpson(m, r, fm, frm, fr);
    if (depth <= 0 || Math.abs(left + right - whole) <= 15 * eps) return left + right + (left + right - whole) / 15;
    return rec(l, m, fl, flm, fm, left, eps / 2, depth - 1) + rec(m, r, fm, frm, fr, right, eps / 2, depth - 1);
  };
  const fa = f(a),
    fb = f(b),
    fm = f((a + b) / 2);
  return rec(a, b, fa, fm, fb, simpson(a, b, fa, fm, fb), tol, 50);
}

test('thumbtack posteriors from a uniform prior (Poole ex. 10.2)', () => {
  const uniform = { alpha: 1, beta: 1 };
  const one = betaPosterior(uniform, 1, 0);
  assert.equal(one.mode, 1);
  close(one.mean, 2 / 3, 1e-15);
  const three = betaPosterior(uniform, 2, 1);
  close(three.mode, 2 / 3, 1e-15);
  close(three.mean, 3 / 5, 1e-15);
  const twelve = betaPosterior(uniform, 8, 4);
  close(twelve.mode, 2 / 3, 1e-15);
  close(twelve.mean, 9 / 14, 1e-15);
  assert.equal(betaPosterior(uniform, 0, 0).mode, undefined);
});

test('regularized incomplete beta equals closed forms to 1e-10', () => {
  const binomialTail = (x: number, a: number, b: number) => {
    // For integer a, b: I_x(a, b) = P(Binomial(a+b−1, x) ≥ a).
    const n = a + b - 1;
    let s = 0;
    for (let j = a; j <= n; j++)
      s += Math.exp(
        logGamma(n + 1) - logGamma(j + 1) - logGamma(n - j + 1) + j * Math.log(x) + (n - j) * Math.log1p(-x),
      );
    return s;
  };
  for (const x of [1e-6, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.999]) {
    close(regularizedIncompleteBeta(x, 3.5, 1), x ** 3.5, 1e-10, 'I(a,1)');
    close(regularizedIncompleteBeta(x, 1, 4.2), 1 - (1 - x) ** 4.2, 1e-10, 'I(1,b)');
    close(regularizedIncompleteBeta(x, 2, 2), 3 * x * x - 2 * x ** 3, 1e-10, 'I(2,2)');
    close(regularizedIncompleteBeta(x, 0.5, 0.5), (2 / Math.PI) * Math.asin(Math.sqrt(x)), 1e-10, 'arcsine');
    for (const [a, b] of [
      [9, 3],
      [5, 13],
      [40, 60],
      [200, 150],
    ] as const)
      close(regularizedIncompleteBeta(x, a, b), binomialTail(x, a, b), 1e-10, `I(${a},${b})`);
  }
});

test('regularized incomplete beta equals numerical integration of the density to 1e-10', () => {
  for (const [a, b] of [
    [2.5, 3.7],
    [9, 5],
    [1.5, 1.5],
    [30.2, 12.7],
  ] as const) {
    for (const x of [0.05, 0.25, 0.5, 0.62, 0.9]) {
      close(
        regularizedIncompleteBeta(x, a, b),
        integrate((t) => betaDensity(t, a, b), 0, x),
        1e-10,
        `I_${x}(${a},${b})`,
      );
    }
  }
});

test('credible intervals invert the CDF; P(a ≤ θ ≤ b) integrates the density', () => {
  const [lo, hi] = betaInterval(9, 5, 0.95);
  close(regularizedIncompleteBeta(lo, 9, 5), 0.025, 1e-12);
  close(regularizedIncompleteBeta(hi, 9, 5), 0.975, 1e-12);
  close(
    betaProbabilityBetween(9, 5, 0.6, 0.8),
    integrate((t) => betaDensity(t, 9, 5), 0.6, 0.8),
    1e-10,
  );
  assert.throws(() => betaProbabilityBetween(9, 5, 0.8, 0.6), /empty/);
  assert.throws(() => betaPosterior({ alpha: 0, beta: 0 }, 0, 3), /positive/);
});

test('expert pseudo-counts add: 2 of 3 plus 20 of 30', () => {
  assert.deepEqual(expertPseudoCounts([{ name: 'alice', successes: 2, trials: 3 }]), { alpha: 2, beta: 1 });
  assert.deepEqual(
    expertPseudoCounts([
      { name: 'alice', successes: 2, trials: 3 },
      { name: 'bob', successes: 20, trials: 30 },
    ]),
    { alpha: 22, beta: 11 },
  );
  assert.throws(() => expertPseudoCounts([{ name: 'carol', successes: 4, trials: 3 }]), /carol/);
});

test('Dirichlet: posterior mean, mode and marginal intervals', () => {
  const d = dirichletPosterior([1, 1, 1], [3, 0, 1]);
  assert.deepEqual(d.alphas, [4, 1, 2]);
  d.mean.forEach((m, i) => close(m, [4, 1, 2][i]! / 7, 1e-15));
  d.mode!.forEach((m, i) => close(m, [3, 0, 1][i]! / 4, 1e-15));
  const [lo, hi] = dirichletInterval(d.alphas, 0, 0.9);
  close(regularizedIncompleteBeta(lo, 4, 3), 0.05, 1e-12);
  close(regularizedIncompleteBeta(hi, 4, 3), 0.95, 1e-12);
  close(dirichletProbabilityBetween([1, 1], 0, 0.2, 0.5), 0.3, 1e-12); // Dirichlet(1,1) = uniform
  assert.equal(dirichletPosterior([0.5, 0.5, 0.5], [0, 0, 0]).mode, undefined);
});

test('m-estimate (eq. 6.22) and Laplace', () => {
  close(mEstimate(0, 5, 1 / 3, 3), 1 / 8, 1e-15);
  close(laplaceEstimate(2, 9, 3), 3 / 12, 1e-15);
  close(smoothedEstimate({ kind: 'mEstimate', m: 2 }, 3, 9, 2), 4 / 11, 1e-15);
  close(smoothedEstimate({ kind: 'none' }, 3, 9, 2), 1 / 3, 1e-15);
  assert.throws(() => mEstimate(0, 0, 0.5, 0), /0\/0/);
});

test('parameter summary: thumbtack 8 heads 4 tails with interval and P(0.6 ≤ θ ≤ 0.8)', () => {
  const s = parameterPosterior(['heads', 'tails'], [1, 1], [8, 4], {
    level: 0.95,
    between: { value: 'heads', lower: 0.6, upper: 0.8 },
  });
  close(s.mean[0], 9 / 14, 1e-15);
  close(s.mode![0], 2 / 3, 1e-15);
  const [lo, hi] = betaInterval(9, 5, 0.95);
  assert.deepEqual(s.interval!.bounds[0], [lo, hi]);
  close(s.probability!.p, betaProbabilityBetween(9, 5, 0.6, 0.8), 1e-15);
  assert.deepEqual(mEstimatePseudoCounts(4, 2), [0.5, 0.5, 0.5, 0.5]);
  assert.throws(
    () => parameterPosterior(['a', 'b'], [1, 1], [1, 1], { between: { value: 'c', lower: 0, upper: 1 } }),
    /not one of/,
  );
});

test('extreme counts: an error naming them, never a wrong mean, interval or NaN', () => {
  // α + β overflowed: the mean of Beta(1e308, 1e308) was 0.
  assert.throws(() => betaSummary(1e308, 1e308), { message: 'Beta(1e+308, 1e+308): the counts sum past 1.8e308' });
  assert.throws(() => dirichletSummary([1e308, 1e308]), {
    message: 'Dirichlet(1e+308, 1e+308): the counts sum past 1.8e308',
  });
  // Every digit lost: the interval of Beta(1e200, 1e200) was [3.5e-18, 3.5e-18], P(0.2 ≤ θ ≤ 0.8) NaN.
  assert.throws(() => betaInterval(1e200, 1e200, 0.95), {
    message: 'P(θ ≤ 0.5) under Beta(1e+200, 1e+200) cannot be computed: its counts are too extreme',
  });
  assert.throws(
    () => betaProbabilityBetween(1e-320, 1e-320, 0.2, 0.8),
    /cannot be computed: its counts are too extreme/,
  );
  // The continued fraction does not converge for 1e15 (it returned its last, wrong, iterate).
  assert.throws(() => betaInterval(1e15, 1e15, 0.95), /cannot be computed/);
  // Still computed: large and small counts within reach.
  close(betaProbabilityBetween(1e6, 1e6, 0, 0.5), 0.5, 1e-8);
  close(regularizedIncompleteBeta(0.5, 0.01, 0.01), 0.5, 1e-9);
  // θ_2 of Dirichlet(1e-300, 1) is Beta(1, 1e-300): the others' sum is 1e-300, not (1 + 1e-300) − 1 = 0.
  assert.doesNotThrow(() => dirichletInterval([1e-300, 1], 1, 0.95));
});
