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

test("logistic(…, method: gradient): Mitchell's eq. 6.15 reaches Newton's optimum, seeded; the gradient vanishes there", async () => {
  const rows = Array.from({ length: 40 }, (_, i) => {
    const x1 = ((i * 7) % 11) / 5 - 1,
      x2 = ((i * 5) % 13) / 6 - 1;
    return [x1, x2, (i * 37) % 10 < 10 / (1 + Math.exp(-(0.3 + 1.2 * x1 - 0.8 * x2))) ? 1 : 0];
  });
  const data = `data Obs {\n  x1, x2, d\n${rows.map((r) => `  ${r.join(', ')}`).join('\n')}\n}\n`;
  const model = `${data}hypotheses Newton = logistic(d ~ x1 + x2)
hypotheses Climb = logistic(d ~ x1 + x2, method: gradient, seed: 4)
hypotheses Again = logistic(d ~ x1 + x2, method: gradient, seed: 4)
hypotheses Other = logistic(d ~ x1 + x2, method: gradient, seed: 5, rate: 0.05, tolerance: 1e-11)
query ml Newton given Obs
query ml Climb given Obs
query ml Again given Obs
query ml Other given Obs
`;
  const result = await run(model);
  assert.deepEqual(errors(result), []);
  const [newton, climb, again, other] = result.results.filter((r) => r.kind === 'logistic') as Array<
    ReturnType<typeof first<'logistic'>>
  >;
  assert.deepEqual([newton!.method, climb!.method, other!.method], ['newton', 'gradient', 'gradient']);
  assert.ok(newton!.converged && climb!.converged && other!.converged);
  assert.ok(climb!.iterations > newton!.iterations);
  assert.match(climb!.headline, new RegExp(`gradient, ${climb!.iterations} iterations$`));
  // The closed check: ∂G/∂w_j = Σ (d − σ(w·x)) x_j (eq. 6.14) is ~0 at each answer, computed here.
  for (const fit of [newton!, climb!, other!]) {
    const g = [0, 0, 0];
    for (const [x1, x2, d] of rows) {
      const h = 1 / (1 + Math.exp(-(fit.weights[0]! + fit.weights[1]! * x1! + fit.weights[2]! * x2!)));
      [1, x1!, x2!].forEach((xj, j) => {
        g[j]! += (d! - h) * xj;
      });
    }
    for (const gj of g) assert.ok(Math.abs(gj) / rows.length < 1e-8, `${fit.method}: gradient ${g}`);
  }
  climb!.weights.forEach((w, j) => close(w, newton!.weights[j]!, 1e-6));
  other!.weights.forEach((w, j) => close(w, newton!.weights[j]!, 1e-6));
  close(climb!.crossEntropy, newton!.crossEntropy, 1e-9);
  assert.deepEqual(again!.weights, climb!.weights);
  assert.notDeepEqual(other!.weights, climb!.weights);
  // Bad options: a diagnostic on the value; Newton takes no seed.
  const bad = await run(`${data}hypotheses A = logistic(d ~ x1, method: newtn)
hypotheses B = logistic(d ~ x1, seed: 2)
query ml B given Obs
`);
  const line = data.split('\n').length - 1;
  assert.deepEqual(
    errors(bad).map((e) => [e.code, e.line]),
    [
      ['unknown-option', line],
      ['compile-error', line + 1],
    ],
  );
  assert.match(errors(bad)[0]!.message, /did you mean 'newton'/);
  assert.match(errors(bad)[1]!.message, /Newton's method starts from w = 0 and takes no seed/);
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
