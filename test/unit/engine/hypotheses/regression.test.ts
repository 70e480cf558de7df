import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { readFileSync } from 'node:fs';
import { leastSquares, gaussianLogLikelihood } from '../../../../server/src/engine/hypotheses/leastSquares.js';
import { sigmoidGradientAscent, logisticNewton } from '../../../../server/src/engine/hypotheses/sigmoidUnit.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { sharedFile, NO_SHARED } from '../../../support/shared.js';

test('least squares recovers an exact linear function of several regressors', () => {
  const rng = createRng(2);
  const x = Array.from({ length: 30 }, () => [rng.normal(), rng.normal() * 10, rng.next()]);
  const d = x.map(([a, b, c]) => 1.5 - 2 * a! + 0.25 * b! + 7 * c!);
  const fit = leastSquares(['a', 'b', 'c'], x, d);
  [1.5, -2, 0.25, 7].forEach((w, i) => close(fit.coefficients[i]!, w, 1e-12));
  assert.ok(fit.sse < 1e-20);
  assert.equal(leastSquares(['a'], [[1], [2], [3]], [2, 4, 6]).logLikelihood, undefined); // σ = 0: no finite likelihood
});

test('simple regression equals the closed form cov/var on Old Faithful; h_ML maximises the Normal likelihood', (t) => {
  const file = sharedFile('tables/old-faithful/faithful.csv');
  if (!file) return t.skip(NO_SHARED);
  const rows = readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(',').map(Number));
  const waiting = rows.map((r) => r[r.length - 1]!),
    eruptions = rows.map((r) => r[r.length - 2]!);
  const fit = leastSquares(
    ['waiting'],
    waiting.map((w) => [w]),
    eruptions,
  );
  const m = waiting.length,
    mx = waiting.reduce((s, v) => s + v, 0) / m,
    my = eruptions.reduce((s, v) => s + v, 0) / m;
  const slope =
    waiting.reduce((s, v, i) => s + (v - mx) * (eruptions[i]! - my), 0) /
    waiting.reduce((s, v) => s + (v - mx) ** 2, 0);
  close(fit.coefficients[1]!, slope, 1e-12);
  close(fit.coefficients[0]!, my - slope * mx, 1e-10);
  const x = waiting.map((w) => [w]);
  close(gaussianLogLikelihood(x, eruptions, fit.coefficients, fit.sigmaMl), fit.logLikelihood!, 1e-9);
  for (const [dw0, dw1] of [
    [0.01, 0],
    [0, 1e-4],
    [-0.02, 2e-4],
  ]) {
    assert.ok(
      gaussianLogLikelihood(x, eruptions, [fit.coefficients[0]! + dw0!, fit.coefficients[1]! + dw1!], fit.sigmaMl) <
        fit.logLikelihood!,
    );
  }
  close(fit.sigmaUnbiased!, Math.sqrt(fit.sse / (m - 2)), 1e-15);
});

test('QR stays accurate where the normal equations would not (x, x² near 1000)', () => {
  const x = Array.from({ length: 40 }, (_, i) => 1000 + i * 0.25);
  const d = x.map((v) => 3 - 0.5 * v + 2e-3 * v * v);
  const fit = leastSquares(
    ['x', 'x2'],
    x.map((v) => [v, v * v]),
    d,
  );
  close(fit.coefficients[0]!, 3, 1e-4);
  close(fit.coefficients[1]!, -0.5, 1e-7);
  close(fit.coefficients[2]!, 2e-3, 1e-10);
});

test('collinear regressors and bad shapes are clear errors', () => {
  assert.throws(
    () =>
      leastSquares(
        ['a', 'b'],
        [
          [1, 2],
          [2, 4],
          [3, 6],
        ],
        [1, 2, 3],
      ),
    /b is a linear combination/,
  );
  assert.throws(() => leastSquares(['a'], [[1], [2]], [1]), /2 input rows for 1 targets/);
  assert.throws(() => leastSquares(['a', 'b', 'c'], [[1, 2, 3]], [1]), /cannot determine/);
  assert.throws(() => leastSquares(['a'], [[1], [NaN]], [1, 2]), /non-finite/);
});

function logisticData(seed: number, m: number) {
  const rng = createRng(seed);
  const x = Array.from({ length: m }, () => [rng.normal(), rng.normal()]);
  const d = x.map(([a, b]) => (rng.next() < 1 / (1 + Math.exp(-(0.5 + 1.5 * a! - b!))) ? 1 : 0));
  return { x, d };
}

test('sigmoid unit: gradient ascent (eq. 6.15) and Newton/IRLS reach the same optimum', () => {
  const { x, d } = logisticData(4, 200);
  const ga = sigmoidGradientAscent(['x1', 'x2'], x, d, { seed: 1 });
  const nt = logisticNewton(['x1', 'x2'], x, d);
  assert.ok(ga.converged && nt.converged);
  ga.weights.forEach((w, j) => close(w, nt.weights[j]!, 1e-6, `w${j}`));
  close(ga.crossEntropy, nt.crossEntropy, 1e-9);
  assert.ok(nt.gradientNorm < 1e-8);
  assert.deepEqual(sigmoidGradientAscent(['x1', 'x2'], x, d, { seed: 1 }), ga); // seeded
});

test('sigmoid unit with probabilistic targets: a constant unit learns logit(mean d)', () => {
  const d = [0.7, 0.9, 0.2, 1, 0.5];
  const fit = sigmoidGradientAscent(
    [],
    d.map(() => []),
    d,
    { seed: 3 },
  );
  const mean = d.reduce((s, v) => s + v, 0) / d.length;
  close(fit.weights[0]!, Math.log(mean / (1 - mean)), 1e-8);
});

test('separable classes are reported, not silently returned as an optimum', () => {
  const x = [[-2], [-1], [1], [2]],
    d = [0, 0, 1, 1];
  const fit = sigmoidGradientAscent(['x'], x, d, { seed: 1, maxIterations: 2000 });
  assert.equal(fit.converged, false);
  assert.match(fit.note!, /separable/);
  assert.throws(() => logisticNewton(['x'], x, [0, 2, 1, 1]), /probabilities/);
  // Newton's steps flatten the gradient below the tolerance in a few iterations, with finite
  // weights: that is no maximum either, and is said so.
  const newton = logisticNewton(['x'], x, d);
  assert.equal(newton.converged, false);
  assert.equal(newton.note, 'the classes are separable: G has no maximum and the weights grow without bound');
  assert.ok(newton.weights[1]! > 10, String(newton.weights));
});

test('quasi-separable classes (one example alone on its side) are reported too', () => {
  // The only x2 = 0 example has d = 0: the weight of x2 grows without bound to fit it, while the
  // x2 = 1 examples overlap (d = 0 at x = 0 and 3, d = 1 at x = 2, 4, 5).
  const x = [
      [0, 1],
      [1, 0],
      [2, 1],
      [3, 1],
      [4, 1],
      [5, 1],
    ],
    d = [0, 0, 1, 0, 1, 1];
  const fit = logisticNewton(['x', 'x2'], x, d);
  assert.equal(fit.converged, false);
  assert.equal(
    fit.note,
    'the classes are quasi-separable: 1 of 6 examples are fitted within 1e-8 of their targets, so G has no ' +
      'maximum and the weights grow without bound',
  );
  // Both classes on both sides of every line: a maximum, and no note.
  const overlap = logisticNewton(
    ['x', 'x2'],
    [
      [0, 1],
      [1, 0],
      [2, 1],
      [3, 0],
      [4, 1],
      [5, 1],
    ],
    [0, 0, 1, 1, 0, 1],
  );
  assert.equal(overlap.converged, true);
  assert.equal(overlap.note, undefined);
});

test('values near 1e308 overflow least squares: an error that says so, not NaN coefficients', () => {
  assert.throws(() => leastSquares(['x'], [[1e308], [-1e308], [1]], [1e308, 1, -1e308]), {
    message:
      'the least-squares fit overflows (values too large to square in doubles, about 1e154 and over): rescale the data',
  });
  // Large but squarable values still fit: d = 2x exactly.
  const fit = leastSquares(['x'], [[1e100], [2e100], [3e100]], [2e100, 4e100, 6e100]);
  close(fit.coefficients[1]!, 2, 1e-9);
});
