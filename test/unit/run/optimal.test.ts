import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close, errors, resultAt, run, runExample } from './helpers.js';

test("§6.7: the Bayes optimal classification (−, 0.6) differs from h_MAP's own (+)", async () => {
  const result = await runExample('bayes_optimal.bayes');
  const optimal = resultAt(result, 20, 'optimal');
  assert.deepEqual(
    optimal.values.map((v) => v.value),
    ['pos', 'neg'],
  );
  close(optimal.values[0]!.probability, 0.4);
  close(optimal.values[1]!.probability, 0.6);
  assert.deepEqual([optimal.optimal, optimal.map, optimal.mapPrediction], ['neg', 'h1', 'pos']);
  const gibbs = resultAt(result, 21, 'gibbs');
  assert.equal(gibbs.seed, 1);
  assert.equal(gibbs.draws.length, 1);
});

const space = `variable Label { pos, neg }
variable Test { up, down }
hypotheses H { h1: 0.5, h2: 0.25, h3: 0.25 }
P(Label | H) { h1: [1, 0], h2: [0, 1], h3: [0, 1] }
P(Test | H) { h1: [0.2, 0.8], h2: [0.6, 0.4], h3: [0.6, 0.4] }
`;

test('observations update P(h|D) before classifying; the Gibbs algorithm is seeded and tends to P(v|D)', async () => {
  const result = await run(`${space}observe Test = up
query optimal Label over H
query gibbs Label over H { seed: 7, samples: 20000 }
query gibbs Label over H { seed: 7, samples: 20000 }
`);
  // P(h1|up) = .5·.2 / (.5·.2 + .25·.6 + .25·.6) = 0.25, so P(pos|D) = 0.25.
  const optimal = resultAt(result, 6, 'optimal');
  close(optimal.values[0]!.probability, 0.25);
  assert.equal(optimal.optimal, 'neg');
  const a = resultAt(result, 7, 'gibbs'),
    b = resultAt(result, 8, 'gibbs');
  assert.deepEqual(a.frequencies, b.frequencies);
  close(a.frequencies[0]!.fraction, 0.25, 0.015);
});

test('a class variable without a table P(V | H) is a compile error', async () => {
  const result = await run(`${space}variable Other { x, y }
query optimal Other over H
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [['compile-error', 6]],
  );
  assert.match(errors(result)[0]!.message, /P\(Other \| H\)/);
});
