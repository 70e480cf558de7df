import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { close, errors, resultAt, run, verdicts } from './helpers.js';
import { NO_SHARED, repoRoot, sharedFile } from '../../support/shared.js';

const tennis = readFileSync(`${repoRoot}/examples/playtennis.bayes`, 'utf8');
const days = [...tennis.matchAll(/^\s+(\w+),\s+(\w+),\s+(\w+),\s+(\w+),\s+(Yes|No)\s+\/\/ D\d+$/gm)].map((m) =>
  m.slice(1, 6),
);

/** Eq. 6.20 with plain frequencies, written out independently of the engine: v_NB of x, or undefined when every product is 0. */
function naiveBayes(train: string[][], x: string[]): string | undefined {
  let best: string | undefined,
    bestScore = 0;
  for (const v of ['Yes', 'No']) {
    const ofClass = train.filter((d) => d[4] === v);
    let score = ofClass.length / train.length;
    x.forEach((value, i) => {
      score *= ofClass.filter((d) => d[i] === value).length / ofClass.length;
    });
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}

test('leave-one-out (folds 14) and training accuracy on PlayTennis agree with eq. 6.20 done by hand', async () => {
  assert.equal(days.length, 14);
  const result = await run(`${tennis}
query evaluate PlayNB folds 14 { seed: 3 }
query accuracy PlayNB
`);
  const line = tennis.split('\n').length;
  const loo = days.filter(
    (d, i) =>
      naiveBayes(
        days.filter((_, j) => j !== i),
        d.slice(0, 4),
      ) === d[4],
  ).length;
  const resubstitution = days.filter((d) => naiveBayes(days, d.slice(0, 4)) === d[4]).length;
  const folds = resultAt(result, line, 'evaluation');
  assert.deepEqual([folds.correct, folds.tested, folds.trained], [loo, 14, 13]);
  assert.equal(folds.foldAccuracies?.length, 14);
  const training = resultAt(result, line + 1, 'evaluation');
  assert.deepEqual([training.correct, training.tested], [resubstitution, 14]);
  close(training.accuracy, resubstitution / 14);
});

test('evaluate … on D tests the classifier trained on all its data on another data set', async () => {
  const result = await run(`${tennis}
data NewDays {
  Outlook, Temperature, Humidity, Wind, Play
  Sunny,   Cool,        High,     Strong, No
  Overcast, Hot,        Normal,   Weak,   No
}
expect evaluate PlayNB on NewDays = 0.5
data Other {
  Outlook, Play
  Sunny,   No
}
query evaluate PlayNB on Other
`);
  const line = tennis.split('\n').length;
  // The first day is the book's new instance (v_NB = No); the second has P(Overcast | No) = 0, so Yes.
  assert.deepEqual(verdicts(result).at(-1), [line + 6, true, 0.5]);
  const evaluation = resultAt(result, line + 5, 'evaluation');
  assert.deepEqual(evaluation.confusion, [
    [0, 0],
    [1, 1],
  ]);
  // Other lacks Temperature, Humidity and Wind: they are left out of the product, so
  // P(Yes) P(Sunny|Yes) = 9/14 · 2/9 against P(No) P(Sunny|No) = 5/14 · 3/5: No, right.
  assert.deepEqual(
    errors(result).filter((e) => e.line === line + 10),
    [],
  );
  const other = resultAt(result, line + 10, 'evaluation');
  assert.deepEqual(other.confusion, [
    [0, 0],
    [0, 1],
  ]);
  const missing = result.diagnostics.find((d) => d.code === 'missing-column' && d.range.start.line === line + 10)!;
  assert.equal(missing.severity, 'information');
  assert.match(missing.message, /no column Temperature, Humidity, Wind/);
});

test('learning_curve: nested seeded training sets, sizes checked against the examples left for training', async () => {
  const result = await run(`${tennis}
query learning_curve PlayNB { sizes: [3, 9], seed: 2 }
query learning_curve PlayNB { sizes: [3, 9], seed: 2 }
query learning_curve PlayNB { sizes: [30], seed: 2 }
`);
  const line = tennis.split('\n').length;
  const a = resultAt(result, line, 'learningCurve'),
    b = resultAt(result, line + 1, 'learningCurve');
  assert.deepEqual(
    a.points.map((p) => p.trainingSize),
    [3, 9],
  );
  assert.deepEqual(a.points, b.points);
  // 14 examples, a third (5) held out: each accuracy is a count of 5.
  for (const p of a.points) close(p.accuracy * 5, Math.round(p.accuracy * 5), 1e-9);
  const refused = errors(result).find((e) => e.line === line + 2)!;
  assert.equal(refused.code, 'engine-error');
  assert.match(refused.message, /outside 1\.\.9/);
});

test('learning_curve at the full training size answers what evaluate split 2/3 answers with the same seed', async () => {
  const seeds = [1, 2, 3, 4, 5, 6];
  const result = await run(
    `${tennis}\n${seeds.map((s) => `query learning_curve PlayNB { sizes: [9], seed: ${s} }\nquery evaluate PlayNB split 2/3 { seed: ${s} }`).join('\n')}\n`,
  );
  const line = tennis.split('\n').length;
  seeds.forEach((_, i) => {
    const curve = resultAt(result, line + 2 * i, 'learningCurve'),
      split = resultAt(result, line + 2 * i + 1, 'evaluation');
    assert.equal(split.trained, 9);
    assert.equal(curve.points[0]!.accuracy, split.accuracy);
  });
});

test("20 Newsgroups (§6.10): text naive Bayes on a 2/3 split reaches Mitchell's 89%", async (t) => {
  if (!sharedFile('20news-bydate.tar.gz')) {
    t.skip(NO_SHARED);
    return;
  }
  const text = readFileSync(`${repoRoot}/examples/newsgroups.bayes`, 'utf8');
  const result = await run(
    `${text}query classify NewsNB { text: "The goalie stopped every puck: the Penguins won the playoff game on the ice zzqx" }\n`,
    'newsgroups.bayes',
  );
  const lineOf = (start: string) => text.split('\n').findIndex((l) => l.startsWith(start));
  const evaluation = resultAt(result, lineOf('query evaluate'), 'evaluation');
  assert.equal(evaluation.tested + evaluation.trained, 18846);
  assert.equal(evaluation.tested, Math.round(18846 / 3));
  assert.ok(evaluation.accuracy > 0.87 && evaluation.accuracy < 0.91, `accuracy ${evaluation.accuracy}`);
  const curve = resultAt(result, lineOf('query learning_curve'), 'learningCurve');
  assert.deepEqual(
    curve.points.map((p) => p.trainingSize),
    [100, 1000, 5000],
  );
  assert.ok(
    curve.points[0]!.accuracy < curve.points[1]!.accuracy && curve.points[1]!.accuracy < curve.points[2]!.accuracy,
  );
  assert.deepEqual(verdicts(result), [[lineOf('expect evaluate') + 1, true, evaluation.accuracy]]);
  assert.deepEqual(errors(result), []);
  // Trained on every document. Outside the vocabulary: the made-up word and the 100 most frequent ('the').
  const classify = resultAt(result, text.split('\n').length - 1, 'classify');
  assert.equal(classify.predicted, 'rec.sport.hockey');
  assert.ok(classify.words!.ignored >= 3 && classify.words!.used >= 5, JSON.stringify(classify.words));
  assert.ok(result.diagnostics.some((d) => d.code === 'unseen-value' && /not in the vocabulary/.test(d.message)));
});
