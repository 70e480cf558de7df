import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { encodeCategorical, allRows } from '../../../../server/src/engine/categoricalData.js';
import {
  trainNaiveBayes,
  classifyNaiveBayes,
  naiveBayesPosteriors,
} from '../../../../server/src/engine/classifiers/naiveBayes.js';
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
