import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCategorical, allRows, columnOrder, MISSING } from '../../../../server/src/engine/categoricalData.js';
import {
  trainNaiveBayes,
  classifyNaiveBayes,
  naiveBayesPosteriors,
  naiveBayesPredict,
} from '../../../../server/src/engine/classifiers/naiveBayes.js';
import { shuffledRows } from '../../../../server/src/engine/classifiers/evaluation.js';
import { pythonMissing, runPython } from '../../../support/python.js';
import { repoRoot, NO_SHARED } from '../../../support/shared.js';
import { UCI_CATEGORICAL, loadUciTable, peerMatrix } from '../../../support/uciTables.js';
import { playTennis } from '../fixtures.js';
import { createRng } from '../../../../server/src/engine/random.js';

const sunnyCoolHighStrong = { Outlook: 'Sunny', Temperature: 'Cool', Humidity: 'High', Wind: 'Strong' };

test('PlayTennis (Sunny, Cool, High, Strong): Mitchell §6.9.1 products and P(no|x)', () => {
  const model = trainNaiveBayes(playTennis(), 'PlayTennis', { kind: 'none' });
  const c = classifyNaiveBayes(model, sunnyCoolHighStrong);
  const yes = c.classes.find((k) => k.value === 'Yes')!,
    no = c.classes.find((k) => k.value === 'No')!;
  close(yes.score, (9 / 14) * (2 / 9) * (3 / 9) * (3 / 9) * (3 / 9), 1e-15);
  close(no.score, (5 / 14) * (3 / 5) * (1 / 5) * (4 / 5) * (3 / 5), 1e-15);
  assert.equal(yes.score.toFixed(6), '0.005291');
  assert.equal(no.score.toFixed(6), '0.020571');
  assert.equal(no.posterior!.toFixed(4), '0.7954');
  assert.equal(c.predicted, 'No');
  assert.deepEqual(c.ignored, []);
});

test('missing and never-seen values are skipped and reported', () => {
  const model = trainNaiveBayes(playTennis(), 'PlayTennis', { kind: 'laplace' });
  const c = classifyNaiveBayes(model, { Outlook: 'Sunny', Temperature: 'Scorching', Wind: '?' });
  const onlyOutlook = classifyNaiveBayes(model, { Outlook: 'Sunny' });
  assert.deepEqual(
    c.ignored.map((i) => `${i.attribute}:${i.reason}`),
    ['Temperature:unseen', 'Humidity:missing', 'Wind:missing'],
  );
  c.classes.forEach((k, i) => close(k.posterior, onlyOutlook.classes[i]!.posterior!, 1e-15));
  // Laplace: P(Sunny|Yes) = (2+1)/(9+3), P(Sunny|No) = (3+1)/(5+3).
  close(c.classes[0]!.score, (9 / 14) * (3 / 12), 1e-15);
  assert.throws(() => classifyNaiveBayes(model, { Colour: 'red' }), /not an attribute/);
});

test('smoothing none with an impossible instance reports zero evidence, not NaN', () => {
  const data = encodeCategorical(
    ['A', 'C'],
    [
      ['x', 'p'],
      ['y', 'q'],
      ['z', 'q'],
    ],
  );
  const model = trainNaiveBayes(data, 'C', { kind: 'none' });
  const both = classifyNaiveBayes(model, { A: 'x' });
  assert.equal(both.predicted, 'p');
  const data2 = encodeCategorical(
    ['A', 'B', 'C'],
    [
      ['x', 'u', 'p'],
      ['y', 'v', 'q'],
    ],
  );
  const c = classifyNaiveBayes(trainNaiveBayes(data2, 'C', { kind: 'none' }), { A: 'x', B: 'v' });
  assert.equal(c.predicted, undefined);
  assert.ok(c.classes.every((k) => k.posterior === undefined && k.score === 0));
});

test('car evaluation: identical to scikit-learn CategoricalNB(alpha=1) within 1e-9', (t) => {
  const data = loadUciTable(UCI_CATEGORICAL.find((u) => u.name === 'car')!);
  if (!data) return t.skip(NO_SHARED);
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  // A seeded random 1/3 of the rows, so (class, value) counts are small but every value is seen
  // (sklearn smooths a value unseen in training where we ignore it; see the test above).
  const train = Int32Array.from(
    createRng(5)
      .shuffle(Array.from(allRows(data.rowCount)))
      .slice(0, 576),
  );
  const model = trainNaiveBayes(data, 'class', { kind: 'laplace' });
  const modelSplit = trainNaiveBayes(data, 'class', { kind: 'laplace' }, train);
  const { X, y, k, C } = peerMatrix(data, 'class');
  const peer = runPython<{ all: number[][]; split: number[][] }>(
    `${readFileSync(join(repoRoot, 'test', 'support', 'sklearnCategorical.py'), 'utf8')}
import json, sys
d = json.load(sys.stdin); y = np.array(d['y']); X = np.array(d['X']).reshape(len(y), -1); tr = np.array(d['train'])
out = {}
for key, rows in (('all', np.arange(len(y))), ('split', tr)):
    out[key] = posteriors(categorical_nb(X[rows], y[rows], d['k']), X, d['C']).tolist()
print(json.dumps(out))`,
    { X: Array.from(X), y: Array.from(y), train: Array.from(train), k, C },
  );
  for (const [m, expected] of [
    [model, peer.all],
    [modelSplit, peer.split],
  ] as const) {
    assert.ok(m.seen.every((s) => s.every((x) => x === 1)));
    const ours = naiveBayesPosteriors(m, data, allRows(data.rowCount));
    let maxDiff = 0;
    expected.forEach((row, r) => {
      row.forEach((p, v) => {
        maxDiff = Math.max(maxDiff, Math.abs(p - ours.posteriors[r * C + v]!));
      });
      // Same class unless the peer's top two are tied to rounding (then either is an argmax).
      const best = Math.max(...row);
      assert.ok(
        Math.abs(row[ours.predicted[r]!]! - best) < 1e-12,
        `row ${r}: ${ours.predicted[r]} vs ${row.indexOf(best)}`,
      );
    });
    assert.ok(maxDiff < 1e-9, `max |Δp| = ${maxDiff}`);
  }
});

/**
 * Random categorical data with missing values (class and attributes), so that the fast kernels
 * (column order, missing slots, unseen values) meet every case.
 */
function randomTable(rows: number, seed: number) {
  const rng = createRng(seed),
    ks = [2, 3, 5, 4, 2],
    C = 3;
  const cell = (k: number) => (rng.next() < 0.05 ? '?' : `v${Math.min(k - 1, Math.floor(rng.next() ** 2 * k))}`);
  const header = [...ks.map((_, a) => `a${a}`), 'class'];
  const table = Array.from({ length: rows }, () => [...ks.map(cell), cell(C).replace('v', 'c')]);
  return encodeCategorical(header, table);
}

/** Eq. 6.20 from scratch: counts by a plain loop, then ln P(v) + Σ ln P(a = x | v) row by row. */
function bruteForce(data: ReturnType<typeof randomTable>, train: Int32Array, laplace: boolean, test: Int32Array) {
  const t = data.attributes.length - 1,
    C = data.attributes[t]!.values.length;
  const ks = data.attributes.slice(0, t).map((a) => a.values.length);
  const classCounts = new Array<number>(C).fill(0);
  const counts = ks.map((k) => Array.from({ length: C }, () => new Array<number>(k).fill(0)));
  for (const r of train) {
    const v = data.columns[t]![r]!;
    if (v < 0) continue;
    classCounts[v]!++;
    ks.forEach((_, a) => {
      const x = data.columns[a]![r]!;
      if (x >= 0) counts[a]![v]![x]!++;
    });
  }
  const total = classCounts.reduce((s, n) => s + n, 0);
  const logScores = Array.from(test, (r) =>
    classCounts.map((nv, v) => {
      let score = Math.log(nv / total);
      ks.forEach((k, a) => {
        const x = data.columns[a]![r]!;
        if (x < 0 || counts[a]!.every((row) => row[x] === 0)) return; // missing, or never seen
        const n = counts[a]![v]!.reduce((s, c) => s + c, 0),
          nc = counts[a]![v]![x]!;
        score += Math.log(laplace ? (nc + 1) / (n + k) : n === 0 ? 0 : nc / n);
      });
      return score;
    }),
  );
  return { classCounts, counts, logScores };
}

/** A training set this small leaves unsmoothed tables with zeros enough to make some rows impossible. */
const SMALL = 12;

test('shuffled, repeated rows with missing values: counts, posteriors and classes as eq. 6.20 by brute force', () => {
  // Past CACHED_ROWS, so that training and classifying take the column-order path.
  const n = 40000;
  const data = randomTable(n, 11);
  const rng = createRng(12);
  // A bootstrap sample (repeats, no order) to train; a shuffled half to classify.
  const bootstrap = Int32Array.from({ length: 30000 }, () => rng.int(n));
  const small = Int32Array.from({ length: SMALL }, () => rng.int(n));
  const test = Int32Array.from(rng.shuffle(Array.from(allRows(n))).slice(0, n / 2));
  assert.ok(columnOrder(bootstrap, n) && columnOrder(test, n));
  let impossibleRows = 0;
  for (const [train, smoothing] of [
    [bootstrap, { kind: 'laplace' }],
    [bootstrap, { kind: 'none' }],
    [small, { kind: 'none' }],
  ] as const) {
    const model = trainNaiveBayes(data, 'class', smoothing, train);
    const expected = bruteForce(data, train, smoothing.kind === 'laplace', test);
    assert.deepEqual(Array.from(model.classCounts), expected.classCounts);
    model.counts.forEach((table, a) => assert.deepEqual(Array.from(table), expected.counts[a]!.flat()));
    const ours = naiveBayesPosteriors(model, data, test);
    assert.deepEqual(ours.predicted, naiveBayesPredict(model, data, test));
    expected.logScores.forEach((scores, i) => {
      const best = Math.max(...scores);
      if (best === -Infinity) {
        impossibleRows++;
        assert.equal(ours.predicted[i], MISSING, `row ${test[i]}: every class has probability 0`);
        assert.ok(ours.posteriors.subarray(i * 3, i * 3 + 3).every(Number.isNaN));
        return;
      }
      const posterior = scores.map((s) => Math.exp(s - best));
      const sum = posterior.reduce((s, p) => s + p, 0);
      posterior.forEach((p, v) => close(ours.posteriors[i * 3 + v], p / sum, 1e-12, `row ${test[i]} class ${v}`));
      // The same class unless the top two are tied to rounding (then either is an argmax).
      assert.ok(best - scores[ours.predicted[i]!]! < 1e-9, `row ${test[i]}: ${ours.predicted[i]} vs ${scores}`);
    });
  }
  assert.ok(impossibleRows > 0, `the unsmoothed model on ${SMALL} rows meets impossible rows`);
});

test('classifying rows in any order gives each row the class and posterior it gets on its own', () => {
  const data = randomTable(2000, 21);
  const model = trainNaiveBayes(data, 'class', { kind: 'laplace' }, shuffledRows(2000, 4).slice(0, 1200));
  const test = shuffledRows(2000, 5);
  const ours = naiveBayesPosteriors(model, data, test);
  test.forEach((r, i) => {
    const instance = Object.fromEntries(
      model.attributes.map((a, j) => [a.name, data.columns[j]![r]! < 0 ? '?' : a.values[data.columns[j]![r]!]]),
    );
    const one = classifyNaiveBayes(model, instance);
    assert.equal(one.predicted, model.target.values[ours.predicted[i]!]);
    one.classes.forEach((c, v) => assert.equal(ours.posteriors[i * 3 + v], c.posterior));
  });
});

test('m_estimate p: must be 1/k of every attribute, else P(a | v) rows would not sum to 1', () => {
  // Eq. 6.22 with p = 1/k is each attribute's own uniform prior: P(Sunny | Yes) = (2 + 3·1/3) / (9 + 3).
  const uniform = trainNaiveBayes(playTennis(), 'PlayTennis', { kind: 'mEstimate', m: 3 });
  const outlook = uniform.attributes.findIndex((a) => a.name === 'Outlook');
  const yes = uniform.target.values.indexOf('Yes');
  const sunny = uniform.attributes[outlook]!.values.indexOf('Sunny');
  close(Math.exp(uniform.logLikelihood[outlook]![yes * 3 + sunny]!), 3 / 12, 1e-15);
  // PlayTennis has attributes of 3 and 2 values: no single p is 1/k for all of them.
  assert.throws(() => trainNaiveBayes(playTennis(), 'PlayTennis', { kind: 'mEstimate', m: 3, p: 1 / 3 }), {
    name: 'EngineError',
    message:
      "m_estimate's p: 0.3333333333333333 is not 1/2 for Humidity (2 values), so P(Humidity | PlayTennis) " +
      'would not sum to 1: leave p out (it is 1/k for each attribute)',
  });
});
