import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close, errors, first, run } from './helpers.js';

const points = `data Points {
  x, d
  0, 1.0
  1, 2.9
  2, 5.2
  3, 6.8
  4, 9.1
}
`;

test('linear(d ~ x) noise normal: h_ML is the least-squares line (§6.4), slope = cov(x, d) / var(x)', async () => {
  const result = await run(`${points}hypotheses Lines = linear(d ~ x) noise normal
query ml Lines given Points
`);
  const fit = first(result, 'leastSquares');
  const x = [0, 1, 2, 3, 4],
    d = [1.0, 2.9, 5.2, 6.8, 9.1];
  const mx = 2,
    md = d.reduce((s, v) => s + v, 0) / 5;
  const slope = x.reduce((s, xi, i) => s + (xi - mx) * (d[i]! - md), 0) / x.reduce((s, xi) => s + (xi - mx) ** 2, 0);
  assert.deepEqual(fit.names, ['intercept', 'x']);
  close(fit.coefficients[1]!, slope, 1e-12);
  close(fit.coefficients[0]!, md - slope * mx, 1e-12);
  const sse = x.reduce((s, xi, i) => s + (d[i]! - (md - slope * mx) - slope * xi) ** 2, 0);
  close(fit.sse, sse, 1e-12);
});

test("logistic(d ~ x) with one 0/1 input: the weights are the logits of the two groups' frequencies (§6.5)", async () => {
  const result = await run(`data Trials {
  x, d
  0, 1
  0, 0
  0, 0
  0, 0
  1, 1
  1, 1
  1, 0
}
hypotheses Sig = logistic(d ~ x)
query ml Sig given Trials
`);
  const fit = first(result, 'logistic');
  const logit = (p: number) => Math.log(p / (1 - p));
  close(fit.weights[0]!, logit(1 / 4), 1e-8);
  close(fit.weights[1]!, logit(2 / 3) - logit(1 / 4), 1e-8);
  assert.equal(fit.converged, true);
});

test('linear spaces need a data set and answer ml/map only', async () => {
  const result = await run(`${points}hypotheses Lines = linear(d ~ x) noise normal
query ml Lines
query posterior Lines given Points
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [
      ['compile-error', 9],
      ['compile-error', 10],
    ],
  );
});
