import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { repoRoot } from '../../../support/shared.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tokenize, tokenizeDocuments, WordIndex } from '../../../../server/src/engine/classifiers/tokenizer.js';
import { Latin1Tokenizer, tokenizeLatin1Documents } from '../../../../server/src/engine/classifiers/latin1Tokenizer.js';
import {
  trainTextNaiveBayes,
  predictTextNaiveBayes,
  textPosteriors,
  classifyText,
} from '../../../../server/src/engine/classifiers/textNaiveBayes.js';
import { evaluate, shuffledRows } from '../../../../server/src/engine/classifiers/evaluation.js';
import { pythonMissing, runPython } from '../../../support/python.js';
import { sharedFile, NO_SHARED } from '../../../support/shared.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { argmax, normalizeLog } from '../../../../server/src/engine/math/logMath.js';

test('tokenisation: lower case, runs of ≥ 2 letters/digits/underscore, Unicode letters', () => {
  assert.deepEqual(tokenize("Don't e-mail A.I. folks at NASA's 2nd_floor: Ça coûte 10€!"), [
    'don',
    'mail',
    'folks',
    'at',
    'nasa',
    '2nd_floor',
    'ça',
    'coûte',
    '10',
  ]);
  assert.deepEqual(tokenize(''), []);
});

test('Latin-1 tokenizer: documents added in any order come out in the order asked for, same words as the string tokenizer', () => {
  const texts = ['The CAT sat', 'Ça coûte 10 FRANCS, the cat', '', 'a b c DOG_2 dog_2'];
  const bytes = texts.map((text) => Uint8Array.from(text, (c) => c.charCodeAt(0)));
  const tokenizer = new Latin1Tokenizer();
  [3, 0, 2, 1].forEach((d) => tokenizer.add(bytes[d]!)); // arrival a holds document [3, 0, 2, 1][a]
  const corpus = tokenizer.finish(Int32Array.from([1, 3, 2, 0]));
  const words = (c: typeof corpus) =>
    texts.map((_, d) => Array.from(c.tokens.subarray(c.offsets[d]!, c.offsets[d + 1]!), (w) => c.index.words[w]));
  assert.deepEqual(words(corpus), texts.map(tokenize));
  assert.deepEqual(words(corpus)[1], ['ça', 'coûte', '10', 'francs', 'the', 'cat']);
  // Into an index that already knows words: those keep their ids.
  const index = new WordIndex();
  const cat = index.id('cat');
  const again = tokenizeLatin1Documents(bytes, index);
  assert.equal(again.tokens[again.offsets[0]! + 1], cat);
  assert.deepEqual(words(again), texts.map(tokenize));
  assert.throws(() => tokenizer.finish(Int32Array.from([4])), /arrival 4 of 4/);
});

test('Table 6.2 estimates by hand on a tiny corpus', () => {
  const texts = ['good good film', 'good plot', 'bad film', 'bad bad bad acting'];
  const labels = Int32Array.from([0, 0, 1, 1]);
  const corpus = tokenizeDocuments(texts);
  const model = trainTextNaiveBayes(corpus, labels, ['pos', 'neg'], Int32Array.from([0, 1, 2, 3]));
  // Vocabulary: acting bad film good plot (|V| = 5); pos has n = 5 positions, neg n = 6.
  assert.equal(model.vocabularySize, 5);
  assert.deepEqual(Array.from(model.wordPositions), [5, 6]);
  const words = corpus.index.size;
  const c = classifyText(model, corpus, 'good acting unseenword');
  assert.equal(corpus.index.size, words);
  const pos = Math.log(0.5) + Math.log((3 + 1) / (5 + 5)) + Math.log((0 + 1) / (5 + 5));
  const neg = Math.log(0.5) + Math.log((0 + 1) / (6 + 5)) + Math.log((1 + 1) / (6 + 5));
  close(c.classes[0]!.logScore, pos, 1e-12);
  close(c.classes[1]!.logScore, neg, 1e-12);
  close(c.classes[0]!.posterior, 1 / (1 + Math.exp(neg - pos)), 1e-12);
  assert.equal(c.predicted, 'pos');
  assert.deepEqual([c.wordsUsed, c.wordsIgnored], [2, 1]);
  // Dropping the most frequent word (bad, 3) and words seen fewer than 2 times leaves film, good.
  const pruned = trainTextNaiveBayes(corpus, labels, ['pos', 'neg'], Int32Array.from([0, 1, 2, 3]), {
    dropMostFrequent: 1,
    minCount: 2,
  });
  assert.deepEqual(pruned.droppedFrequent, ['bad']);
  assert.equal(pruned.vocabularySize, 2);
});

test('dropping the most frequent words: ties alphabetical, by brute force on random corpora', () => {
  const rng = createRng(5);
  for (let trial = 0; trial < 40; trial++) {
    // Few distinct words with small counts: many ties, and sometimes fewer words than asked for.
    const words = Array.from({ length: 2 + rng.int(30) }, (_, i) => `w${String.fromCharCode(97 + rng.int(26))}${i}`);
    const texts = Array.from({ length: 1 + rng.int(8) }, () =>
      Array.from({ length: rng.int(12) }, () => words[rng.int(words.length)]).join(' '),
    );
    texts[0] += ` ${words[0]} ${words[1]}`;
    const count = new Map<string, number>();
    for (const w of texts.join(' ').split(' ').filter(Boolean)) count.set(w, (count.get(w) ?? 0) + 1);
    const n = 1 + rng.int(Math.min(12, count.size - 1)); // at least one word stays in the vocabulary
    const corpus = tokenizeDocuments(texts);
    const model = trainTextNaiveBayes(corpus, new Int32Array(texts.length), ['only'], Int32Array.from(texts.keys()), {
      dropMostFrequent: n,
    });
    const expected = [...count]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, n)
      .map(([w]) => w);
    assert.deepEqual(model.droppedFrequent, expected, `trial ${trial}`);
  }
});

test('scores four classes at a time and the rest one by one: exactly the position-by-position sums', () => {
  const rng = createRng(8);
  const words = Array.from({ length: 40 }, (_, i) => `w${i}`);
  const texts = Array.from({ length: 60 }, () =>
    Array.from({ length: rng.int(30) }, () => words[rng.int(words.length)]).join(' '),
  );
  const corpus = tokenizeDocuments(texts);
  for (const C of [1, 3, 4, 6, 9]) {
    const labels = Int32Array.from(texts, (_, d) => d % C);
    const train = Int32Array.from({ length: 40 }, (_, d) => d),
      test = Int32Array.from({ length: 20 }, (_, d) => 40 + d);
    const model = trainTextNaiveBayes(
      corpus,
      labels,
      Array.from({ length: C }, (_, j) => `c${j}`),
      train,
    );
    const posteriors = textPosteriors(model, corpus, test);
    const predicted = predictTextNaiveBayes(model, corpus, test);
    test.forEach((d, i) => {
      const scores = Array.from(model.logPrior);
      for (let t = corpus.offsets[d]!; t < corpus.offsets[d + 1]!; t++) {
        const k = model.vocabularyOf[corpus.tokens[t]!]!;
        if (k >= 0) for (let j = 0; j < C; j++) scores[j]! += model.logProb[k * C + j]!;
      }
      assert.deepEqual(
        Array.from(posteriors.subarray(i * C, (i + 1) * C)),
        Array.from(normalizeLog(Float64Array.from(scores))!),
        `C ${C}, document ${d}`,
      );
      assert.equal(predicted[i], argmax(Float64Array.from(scores)));
    });
  }
});

test('SMS spam: identical to scikit-learn CountVectorizer + MultinomialNB(alpha=1) within 1e-9', (t) => {
  const file = sharedFile('tables/sms-spam/SMSSpamCollection');
  if (!file) return t.skip(NO_SHARED);
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.includes('\t'));
  const texts = lines.map((l) => l.slice(l.indexOf('\t') + 1));
  const classNames = ['ham', 'spam'];
  const labels = Int32Array.from(lines, (l) => classNames.indexOf(l.slice(0, l.indexOf('\t'))));
  const order = shuffledRows(texts.length, 7);
  const cut = Math.round((texts.length * 2) / 3);
  const train = order.slice(0, cut),
    testDocs = order.slice(cut);
  const corpus = tokenizeDocuments(texts);
  const options = { dropMostFrequent: 20, minCount: 2 };
  const model = trainTextNaiveBayes(corpus, labels, classNames, train, options);
  const ours = textPosteriors(model, corpus, testDocs);
  const helper = readFileSync(join(repoRoot, 'test', 'support', 'sklearnText.py'), 'utf8');
  const peer = runPython<{ proba: number[][]; vocabulary: string[] }>(
    `${helper}
import json, sys
d = json.load(sys.stdin)
nb, x_test, vocabulary = fit_predict([d['texts'][i] for i in d['train']], [d['labels'][i] for i in d['train']], [d['texts'][i] for i in d['test']], d['drop'], d['min'])
print(json.dumps({'proba': nb.predict_proba(x_test).tolist(), 'vocabulary': vocabulary.tolist()}))`,
    {
      texts,
      labels: Array.from(labels),
      train: Array.from(train),
      test: Array.from(testDocs),
      drop: options.dropMostFrequent,
      min: options.minCount,
    },
  );
  assert.equal(peer.vocabulary.length, model.vocabularySize);
  const ourWords = corpus.index.words.filter((_, w) => model.vocabularyOf[w]! >= 0).sort();
  assert.deepEqual(ourWords, [...peer.vocabulary].sort());
  let maxDiff = 0;
  peer.proba.forEach((row, i) =>
    row.forEach((p, j) => {
      maxDiff = Math.max(maxDiff, Math.abs(p - ours[i * 2 + j]!));
    }),
  );
  assert.ok(maxDiff < 1e-9, `max |Δp| = ${maxDiff}`);
  const predicted = predictTextNaiveBayes(model, corpus, testDocs);
  peer.proba.forEach((row, i) => {
    if (Math.abs(row[0]! - row[1]!) > 1e-9) assert.equal(predicted[i], row[0]! > row[1]! ? 0 : 1);
  });
  const e = evaluate(
    labels,
    classNames,
    (tr, te) => predictTextNaiveBayes(trainTextNaiveBayes(corpus, labels, classNames, tr, options), corpus, te),
    { kind: 'holdout', train, test: testDocs },
  );
  assert.ok(e.accuracy > 0.95, `SMS spam accuracy ${e.accuracy}`);
});
