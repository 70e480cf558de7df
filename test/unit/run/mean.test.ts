import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { close, errors, resultAt, run, runExample, verdicts } from './helpers.js';
import { repoRoot } from '../../support/shared.js';

test('thumbtack (Poole ex. 10.2): modes, means and P(0.6 ≤ φ ≤ 0.8) of Beta(n1 + 1, n0 + 1)', async () => {
  const result = await runExample('thumbtack.bayes');
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [37, true],
      [38, true],
      [39, true],
      [40, true],
      [41, true],
      [42, true],
      [46, true],
    ],
  );
  const interval = resultAt(result, 43, 'parameter');
  assert.deepEqual(interval.posterior, [9, 5]);
  // scipy.stats.beta.ppf(0.025, 9, 5), beta.ppf(0.975, 9, 5)
  close(interval.interval!.bounds[0]![0], 0.3857383382492956, 1e-9);
  close(interval.interval!.bounds[0]![1], 0.8614206611098394, 1e-9);
  assert.equal(interval.parameter, 'P(Toss = heads)');
});

const tennis = readFileSync(`${repoRoot}/examples/playtennis.bayes`, 'utf8');

test('Dirichlet, m-estimate and expert priors on a row of a table, counted from the rows that match it', async () => {
  const result = await run(`${tennis}
P(Outlook | Play) ~ Dirichlet(1)
P(Wind | Play) ~ m_estimate(m: 4)
P(Humidity) ~ experts { alice: 2 of 3, bob: 20 of 30 }
expect mean P(Outlook = Sunny | Play = Yes) given Tennis ≈ 3/12
expect mode P(Outlook = Sunny | Play = No) given Tennis ≈ 3/5
expect mean P(Wind = Strong | Play = Yes) given Tennis ≈ 5/13
expect mean P(Humidity = High) given Tennis ≈ 29/47
expect mean P(Humidity = High) ≈ 22/33
`);
  // Sunny|Yes: 2 of 9 days, +1 per value of 3. Sunny|No: 3 of 5, Dirichlet(4, 1, 3) mode (4−1)/(8−3).
  // Strong|Yes: 3 of 9, + m p = 4 · 1/2. High: 7 of 14 plus 22 of 33 from the experts; before data, their 22/33.
  const line = tennis.split('\n').length;
  assert.deepEqual(
    verdicts(result)
      .slice(-5)
      .map(([l, passed]) => [l - line, passed]),
    [
      [4, true],
      [5, true],
      [6, true],
      [7, true],
      [8, true],
    ],
  );
});

test('per-state Dirichlet(2, 1, 1): counts (5, 3, 0) give mean P(y1) = 7/12, not the symmetric 1/2', async () => {
  const rows = ['y1', 'y1', 'y1', 'y1', 'y1', 'y2', 'y2', 'y2'].join('\n');
  const model = (prior: string) => `variable Y { y1, y2, y3 }\nP(Y) ~ ${prior}\ndata D {\nY\n${rows}\n}\n`;
  const result = await run(`${model('Dirichlet(2, 1, 1)')}expect mean P(Y = y1) given D ≈ 7/12 ± 1e-12
expect mean P(Y = y3) given D ≈ 1/12 ± 1e-12
expect mode P(Y = y1) given D ≈ 6/9 ± 1e-12
`);
  assert.deepEqual(errors(result), []);
  // (5 + 2) / (8 + 4), (0 + 1) / 12; the mode (α_i + n_i − 1)/(Σ − k) = 6/9.
  assert.deepEqual(
    verdicts(result).map(([, passed]) => passed),
    [true, true, true],
  );
  const summary = resultAt(result, 13, 'parameter');
  assert.deepEqual(summary.posterior, [7, 4, 1]);
  const asList = await run(`${model('Dirichlet([2, 1, 1])')}expect mean P(Y = y1) given D ≈ 7/12 ± 1e-12\n`);
  assert.deepEqual(
    verdicts(asList).map(([, passed]) => passed),
    [true],
  );
  // A count of numbers that fits neither form: one diagnostic on the numbers, no answer.
  const wrong = await run(`${model('Dirichlet(2, 1)')}query mean P(Y = y1) given D\n`);
  assert.deepEqual(
    errors(wrong).map((e) => [e.line, e.code]),
    [[1, 'arguments']],
  );
  assert.equal(wrong.results.filter((r) => r.kind === 'parameter').length, 0);
});

test('a parameter without a prior or without its row named is a compile error; a level outside (0, 1) the checker refuses', async () => {
  const result = await run(`${tennis}
P(Outlook | Play) ~ Dirichlet(1)
query mean P(Wind = Strong) given Tennis
query mean P(Outlook = Sunny) given Tennis
query interval 1.5 P(Outlook = Sunny | Play = Yes) given Tennis
`);
  const line = tennis.split('\n').length;
  const mine = errors(result).filter((e) => e.line > line);
  assert.deepEqual(
    mine.map((e) => [e.code, e.line - line]),
    [
      ['compile-error', 1],
      ['compile-error', 2],
      ['probability-range', 3],
    ],
  );
  assert.match(mine[0]!.message, /no parameter prior/);
  assert.match(mine[1]!.message, /Play = …/);
});
