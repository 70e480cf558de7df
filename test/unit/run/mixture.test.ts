import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRng } from '../../../server/src/engine/random.js';
import { PLOTTED_POINTS } from '../../../server/src/run/mixtures.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';
import { entries, problems, run, runExample } from './learningHelpers.js';

/** Mitchell eq. 6.27–6.28 (k = 2, σ = 1, equal weights) iterated to its fixed point, from the extremes. */
function mitchellMeans(xs: number[]): [number, number] {
  let mu = [Math.min(...xs), Math.max(...xs)];
  for (let it = 0; it < 10000; it++) {
    const e = xs.map((x) => {
      const p = mu.map((m) => Math.exp(-0.5 * (x - m) ** 2));
      return p.map((v) => v / (p[0]! + p[1]!));
    });
    const next = [0, 1].map((j) => e.reduce((s, r, i) => s + r[j]! * xs[i]!, 0) / e.reduce((s, r) => s + r[j]!, 0));
    const moved = Math.abs(next[0]! - mu[0]!) + Math.abs(next[1]! - mu[1]!);
    mu = next;
    if (moved < 1e-14) break;
  }
  return [mu[0]!, mu[1]!];
}

test('two_gaussians.bayes: the means of Mitchell §6.12.1, the data points and responsibilities for the plot', async () => {
  const result = await runExample('two_gaussians.bayes');
  assert.deepEqual(problems(result), []);
  const [fit] = entries(result, 'mixture');
  const xs = readFileSync(join(repoRoot, 'examples', 'two_gaussians.bayes'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^-?\d/.test(l))
    .map(Number);
  assert.equal(xs.length, 40);
  const [m1, m2] = mitchellMeans(xs);
  assert.ok(
    Math.abs(fit!.means[0]![0]! - m1) < 1e-6 && Math.abs(fit!.means[1]![0]! - m2) < 1e-6,
    `${fit!.means} vs ${m1}, ${m2}`,
  );
  assert.deepEqual(fit!.weights, [0.5, 0.5]);
  assert.deepEqual(fit!.covariances, [[[1]], [[1]]]);
  assert.deepEqual(
    fit!.points,
    xs.map((x) => [x]),
  );
  assert.equal(fit!.pointCount, 40);
  for (const r of fit!.responsibilities) assert.ok(Math.abs(r[0]! + r[1]! - 1) < 1e-12);
  // The first point (−0.26) belongs to the low component, the last (5.22) to the high one.
  assert.ok(fit!.responsibilities[0]![0]! > 0.99 && fit!.responsibilities[39]![1]! > 0.99);
  const estimates = entries(result, 'expect').map((e) => [
    e.passed,
    e.result?.kind === 'estimate' ? e.result.value : undefined,
  ]);
  assert.deepEqual(estimates, [
    [true, fit!.means[0]![0]],
    [true, fit!.means[1]![0]],
    [true, fit!.means[0]![0]],
    [true, fit!.means[1]![0]],
  ]);
  assert.match(fit!.headline, /^Two · means -0\.1298, 4\.0925 · \d+ iterations · log L = -\d+\.\d{4}$/);
});

test("faithful.bayes: a full 2-component mixture at scikit-learn's optimum; the components in order of their means", async (t) => {
  if (!sharedFile('tables', 'old-faithful', 'faithful.csv')) return t.skip(NO_SHARED);
  const result = await runExample('faithful.bayes');
  assert.deepEqual(problems(result), []);
  const expects = entries(result, 'expect');
  assert.equal(expects.length, 8);
  assert.ok(
    expects.every((e) => e.passed),
    JSON.stringify(expects.map((e) => e.headline)),
  );
  const [fit] = entries(result, 'mixture');
  assert.deepEqual(fit!.dimensions, ['x1', 'x2']);
  assert.equal(fit!.points!.length, 272);
  assert.deepEqual(fit!.points![0], [3.6, 79]);
  // Mean log-likelihood per point, as scikit-learn's score(X) = −4.1553822 at this optimum.
  assert.ok(Math.abs(fit!.logLikelihood / 272 + 4.1553822) < 1e-6, String(fit!.logLikelihood / 272));
  assert.ok(fit!.means[0]![0]! < fit!.means[1]![0]!);
});

test('many points: the result carries a seeded sample of them, the same on every run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-mixture-'));
  const rng = createRng(11);
  const n = PLOTTED_POINTS + 1000;
  const lines = Array.from({ length: n }, (_, i) => (i % 2 ? 5 : 0) + rng.normal());
  writeFileSync(join(dir, 'many.csv'), 'x\n' + lines.map((x) => x.toFixed(6)).join('\n') + '\n');
  const text =
    'variable x : real\ndata Many from "many.csv"\nmixture M = gaussians(Many.x, k: 2)\nlearn M by em { seed: 4 }\nexpect estimate M.weight1 ≈ 0.5 ± 0.02\n';
  const [a, b] = [await run(text, { dir }), await run(text, { dir })];
  assert.deepEqual(problems(a), []);
  const [fa] = entries(a, 'mixture'),
    [fb] = entries(b, 'mixture');
  assert.equal(fa!.pointCount, n);
  assert.equal(fa!.points!.length, PLOTTED_POINTS);
  assert.equal(fa!.responsibilities.length, PLOTTED_POINTS);
  assert.deepEqual(fa!.points, fb!.points);
  const data = new Set(lines.map((x) => Number(x.toFixed(6))));
  assert.ok(fa!.points!.every(([x]) => data.has(x!)));
  assert.ok(Math.abs(fa!.means[0]![0]!) < 0.1 && Math.abs(fa!.means[1]![0]! - 5) < 0.1, JSON.stringify(fa!.means));
  // sigma of a learnt full mixture: the square root of the component's variance (≈ 1 here).
  const sigma = await run(text.replace('M.weight1 ≈ 0.5 ± 0.02', 'M.sigma2 ≈ 1 ± 0.05'), { dir });
  assert.deepEqual(
    entries(sigma, 'expect').map((e) => e.passed),
    [true],
  );
});

test('bad mixtures and estimates: clear diagnostics on the right line', async () => {
  const text = `variable x, y : real
data P {
  x, y
  0, 1
  1, 2
  5, 7
  6, 5
}
mixture One = gaussians(P.x, k: 2, sigma: 1, weights: learned)
mixture Flat = gaussians(P.x, k: 2, weights: uniform)
mixture Both = gaussians(P[x, y], k: 2)
query estimate Both.mean1
learn One by em
learn Flat by em
learn Both by gradient
learn Both from P
learn Both by em { seed: 2, rate: 0.5 }
query estimate Both.mean1
query estimate Both.mean2_z
query estimate Both.weight1_x
expect estimate Both.mean2_y ≈ 6 ± 1
`;
  const result = await run(text);
  // The weights' problems are reported on the declarations' `weights:` (lines 9, 10) when learnt.
  assert.deepEqual(
    problems(result).map(([code, line]) => [code, line]),
    [
      ['compile-error', 9],
      ['compile-error', 10],
      ['compile-error', 12],
      ['compile-error', 15],
      ['compile-error', 16],
      ['compile-error', 18],
      ['compile-error', 19],
      ['compile-error', 20],
    ],
  );
  const m = problems(result).map(([, , message]) => message);
  assert.match(m[0]!, /with a known sigma the components have equal weights/);
  assert.match(m[1]!, /a full mixture learns its weights/);
  assert.match(m[2]!, /'Both' has not been learnt yet: put 'learn Both by em' before this line/);
  assert.match(m[3]!, /a mixture is learnt by em, not gradient/);
  assert.match(m[4]!, /learns from the data it is declared on/);
  assert.match(m[5]!, /this mixture has 2 columns: name one, mean1_x or mean1_y/);
  assert.match(m[6]!, /no column 'z' in this mixture/);
  assert.match(m[7]!, /a weight belongs to a whole component: write weight1/);
  assert.deepEqual(
    problems(result, 'warning').map(([code, line]) => [code, line]),
    [['unknown-option', 17]],
  );
  assert.deepEqual(
    entries(result, 'expect').map((e) => e.passed),
    [true],
  );
});

test('a cancelled mixture fit is not learnt', async () => {
  const controller = new AbortController();
  const text = readFileSync(join(repoRoot, 'examples', 'two_gaussians.bayes'), 'utf8').replace(
    'tolerance: 1e-9',
    'tolerance: 0',
  );
  const result = await run(text, {
    signal: controller.signal,
    onProgress: (_, message) => {
      if (/iteration 2,/.test(message)) controller.abort();
    },
  });
  assert.deepEqual(entries(result, 'mixture'), []);
  assert.ok(
    problems(result, 'warning').some(([code, , message]) => code === 'cancelled' && /did not run/.test(message)),
  );
});

test("a mixture's iterations, written in the call or the learn line, are held to one budget", async () => {
  const model = (call: string, options = '') =>
    `variable x : real\ndata P {\n  x\n  0\n  1\n  5\n  6\n}\nmixture M = gaussians(P.x, k: 2${call})\nlearn M by em${options}\n`;
  const inCall = await run(model(', iterations: 1e9'));
  assert.deepEqual(problems(inCall), [['compile-error', 9, 'iterations: must be a positive integer, at most 1000000']]);
  const inOptions = await run(model('', ' { iterations: 1e9 }'));
  assert.equal(problems(inOptions).length, 1);
  assert.equal(problems(inOptions)[0]![1], 10);
  const fine = await run(model(', iterations: 50'));
  assert.deepEqual(problems(fine), []);
});
