import { test } from 'node:test';
import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { evaluate, learningCurve } from '../../../../server/src/engine/classifiers/evaluation.js';
import { trainNaiveBayes, naiveBayesPosteriors } from '../../../../server/src/engine/classifiers/naiveBayes.js';
import {
  trainTextNaiveBayes,
  predictTextNaiveBayes,
} from '../../../../server/src/engine/classifiers/textNaiveBayes.js';
import { tokenizeLatin1Documents, Latin1Tokenizer } from '../../../../server/src/engine/classifiers/latin1Tokenizer.js';
import { tokenizeDocuments } from '../../../../server/src/engine/classifiers/tokenizer.js';
import {
  loadNewsgroups,
  streamNewsgroups,
  documentsInPart,
  documentText,
} from '../../../../server/src/model/corpus.js';
import { sharedFile, NO_SHARED } from '../../../support/shared.js';
import { playTennis } from '../fixtures.js';

test('confusion matrix, precision and recall from known predictions', () => {
  const labels = Int32Array.from([0, 0, 0, 1, 1, 2]);
  const guesses = Int32Array.from([0, 1, 0, 1, 0, 0]);
  const e = evaluate(labels, ['a', 'b', 'c'], (_, test) => test.map((r) => guesses[r]!), {
    kind: 'holdout',
    train: Int32Array.of(),
    test: Int32Array.from([0, 1, 2, 3, 4, 5]),
  });
  assert.deepEqual(e.confusion, [
    [2, 1, 0],
    [1, 1, 0],
    [1, 0, 0],
  ]);
  assert.equal(e.accuracy, 3 / 6);
  assert.deepEqual(
    e.classes.map((c) => [c.precision, c.recall, c.support]),
    [
      [2 / 4, 2 / 3, 3],
      [1 / 2, 1 / 2, 2],
      [undefined, 0, 1],
    ],
  );
});

test('k folds partition the examples; splits and curves are seeded', () => {
  const data = playTennis();
  const labels = data.columns[4]!;
  const seen: number[] = [];
  const naiveBayes = (train: Int32Array, test: Int32Array) =>
    naiveBayesPosteriors(trainNaiveBayes(data, 'PlayTennis', { kind: 'laplace' }, train), data, test).predicted;
  const fitPredict = (train: Int32Array, test: Int32Array) => {
    seen.push(...test);
    assert.equal(train.length + test.length, 14);
    assert.ok(!test.some((r) => train.includes(r)));
    return naiveBayes(train, test);
  };
  const e = evaluate(labels, ['Yes', 'No'], fitPredict, { kind: 'folds', k: 7, seed: 3 });
  assert.deepEqual(
    [...seen].sort((a, b) => a - b),
    [...Array(14).keys()],
  );
  assert.equal(e.foldAccuracies!.length, 7);
  assert.equal(e.tested, 14);
  assert.equal(
    e.confusion.flat().reduce((s, n) => s + n, 0),
    14,
  );
  const again = evaluate(labels, ['Yes', 'No'], fitPredict, { kind: 'folds', k: 7, seed: 3 });
  assert.deepEqual(again, e);
  const curve = learningCurve(labels, naiveBayes, [2, 5, 9], 1);
  assert.deepEqual(
    curve.map((p) => p.trainingSize),
    [2, 5, 9],
  );
  assert.deepEqual(learningCurve(labels, naiveBayes, [2, 5, 9], 1), curve);
  assert.throws(() => learningCurve(labels, naiveBayes, [10], 1), /outside 1\.\.9/);
  assert.throws(() => evaluate(labels, ['Yes', 'No'], fitPredict, { kind: 'folds', k: 20, seed: 1 }), /k-fold/);
});

test('20 Newsgroups: Mitchell protocol (seed 1) near his 89%, bydate split, learning curve', async (t) => {
  const archive = sharedFile('20news-bydate.tar.gz');
  if (!archive) return t.skip(NO_SHARED);
  const corpus = loadNewsgroups(readFileSync(archive));
  assert.equal(corpus.documents.length, 18_846);
  assert.equal(corpus.classNames.length, 20);
  assert.equal(documentsInPart(corpus, 0).length, 11_314);
  const tokens = tokenizeLatin1Documents(corpus.documents);
  // The byte tokenizer gives the same words as the string one.
  const sample = [0, 5000, 18_845];
  const viaStrings = tokenizeDocuments(sample.map((d) => documentText(corpus, d)));
  sample.forEach((d, i) =>
    assert.deepEqual(
      Array.from(tokens.tokens.subarray(tokens.offsets[d]!, tokens.offsets[d + 1]!), (w) => tokens.index.words[w]),
      Array.from(
        viaStrings.tokens.subarray(viaStrings.offsets[i]!, viaStrings.offsets[i + 1]!),
        (w) => viaStrings.index.words[w],
      ),
    ),
  );
  // Tokenizing while the archive streams in (archive order) gives the same corpus, word for word.
  const tokenizer = new Latin1Tokenizer();
  const streamed = await streamNewsgroups(readFileSync(archive), 'all', (post) => tokenizer.add(post));
  const streamedTokens = tokenizer.finish(streamed.arrival);
  assert.deepEqual(streamed.paths, corpus.paths);
  assert.deepEqual(streamedTokens.offsets, tokens.offsets);
  assert.ok(
    tokens.tokens.every((w, t) => tokens.index.words[w] === streamedTokens.index.words[streamedTokens.tokens[t]!]),
    'streamed tokens differ',
  );
  const options = { dropMostFrequent: 100, minCount: 3 };
  const fitPredict = (train: Int32Array, test: Int32Array) =>
    predictTextNaiveBayes(trainTextNaiveBayes(tokens, corpus.labels, corpus.classNames, train, options), tokens, test);
  const mitchell = evaluate(corpus.labels, corpus.classNames, fitPredict, {
    kind: 'split',
    trainFraction: 2 / 3,
    seed: 1,
  });
  assert.ok(mitchell.accuracy > 0.87 && mitchell.accuracy < 0.91, `Mitchell protocol accuracy ${mitchell.accuracy}`);
  const bydate = evaluate(corpus.labels, corpus.classNames, fitPredict, {
    kind: 'holdout',
    train: documentsInPart(corpus, 0),
    test: documentsInPart(corpus, 1),
  });
  assert.ok(bydate.accuracy > 0.79, `bydate accuracy ${bydate.accuracy}`);
  const curve = learningCurve(corpus.labels, fitPredict, [200, 2000, 12_000], 1);
  assert.ok(curve[0]!.accuracy < curve[1]!.accuracy && curve[1]!.accuracy < curve[2]!.accuracy, JSON.stringify(curve));
});

test('learning_curve and split 2/3 with the same seed hold out the same rows (one seeded split)', () => {
  const labels = Int32Array.from({ length: 30 }, (_, i) => i % 3);
  for (const seed of [1, 2, 7]) {
    const split: { train: number[]; test: number[] }[] = [],
      curve: { train: number[]; test: number[] }[] = [];
    const record = (into: typeof split) => (train: Int32Array, test: Int32Array) => {
      into.push({ train: [...train], test: [...test] });
      return test.map(() => 0);
    };
    const e = evaluate(labels, ['a', 'b', 'c'], record(split), { kind: 'split', trainFraction: 2 / 3, seed });
    const points = learningCurve(labels, record(curve), [5, 20], seed);
    assert.equal(split[0]!.test.length, 10);
    // Every size is tested on the rows the split tests, and the largest trains on the split's training rows.
    for (const c of curve) assert.deepEqual(c.test, split[0]!.test);
    assert.deepEqual(curve[1]!.train, split[0]!.train);
    assert.deepEqual(curve[0]!.train, split[0]!.train.slice(0, 5));
    assert.equal(points[1]!.accuracy, e.accuracy);
  }
});
