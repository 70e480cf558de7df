import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeCategorical } from '../../../../server/src/engine/categoricalData.js';
import { trainNaiveBayes } from '../../../../server/src/engine/classifiers/naiveBayes.js';
import { predictAligned } from '../../../../server/src/engine/classifiers/alignData.js';

const train = encodeCategorical(
  ['Color', 'Size', 'Fruit'],
  [
    ['red', 'small', 'cherry'],
    ['red', 'big', 'apple'],
    ['green', 'big', 'apple'],
    ['red', 'small', 'cherry'],
    ['green', 'small', 'grape'],
    ['green', 'small', 'grape'],
    ['red', 'big', 'apple'],
  ],
);
const model = trainNaiveBayes(train, 'Fruit', { kind: 'laplace' });

/** P(v) Π P(a|v) by hand from the counts (Laplace, k = 2), normalised; an undefined value is left out. */
function byHand(color: string | undefined, size: string | undefined): Record<string, number> {
  const classes = {
    cherry: { n: 2, red: 2, green: 0, small: 2, big: 0 },
    apple: { n: 3, red: 2, green: 1, small: 0, big: 3 },
    grape: { n: 2, red: 0, green: 2, small: 2, big: 0 },
  };
  const score = Object.fromEntries(
    Object.entries(classes).map(([v, c]) => {
      let s = c.n / 7;
      for (const x of [color, size]) if (x !== undefined) s *= (c[x as 'red'] + 1) / (c.n + 2);
      return [v, s];
    }),
  );
  const z = Object.values(score).reduce((a, b) => a + b, 0);
  return Object.fromEntries(Object.entries(score).map(([v, s]) => [v, s / z]));
}

test('columns and values match by name, whatever their order; unseen values, classes and columns are reported', () => {
  // Columns in another order, values first appearing in another order, an unseen colour, a new class.
  const data = encodeCategorical(
    ['Fruit', 'Size', 'Color', 'Weight'],
    [
      ['grape', 'small', 'green', 'light'],
      ['apple', 'big', 'white', 'heavy'],
      ['plum', 'small', 'red', 'light'],
      ['cherry', 'small', 'white', 'light'],
      [null, 'big', 'red', 'heavy'],
    ],
  );
  const a = predictAligned(model, data);
  assert.deepEqual([...a.rows], [0, 1, 2, 3]);
  assert.deepEqual(a.classNames, ['cherry', 'apple', 'grape', 'plum']);
  assert.deepEqual([...a.labels], [2, 1, 3, 0]);
  const expected = [
    byHand('green', 'small'),
    byHand(undefined, 'big'),
    byHand('red', 'small'),
    byHand(undefined, 'small'),
  ];
  expected.forEach((p, r) => {
    ['cherry', 'apple', 'grape'].forEach((v, c) => assert.ok(Math.abs(a.posteriors[r * 3 + c]! - p[v]!) < 1e-15));
    const best = Object.entries(p).sort((x, y) => y[1] - x[1])[0]![0];
    assert.equal(a.classNames[a.predicted[r]!], best);
  });
  assert.deepEqual(a.unseen, [{ attribute: 'Color', values: [{ value: 'white', rows: 2 }] }]);
  assert.equal(a.unseenRows, 2);
  assert.deepEqual(a.newClasses, [{ value: 'plum', rows: 1 }]);
  assert.deepEqual(a.missingColumns, []);
  assert.deepEqual(a.unusedColumns, ['Weight']);
});

test('a column the data lacks is left out of every row; the class column is required', () => {
  const data = encodeCategorical(
    ['Size', 'Fruit'],
    [
      ['big', 'apple'],
      ['small', 'grape'],
    ],
  );
  const a = predictAligned(model, data);
  assert.deepEqual(a.missingColumns, ['Color']);
  const p = byHand(undefined, 'small');
  assert.ok(Math.abs(a.posteriors[3 + 2]! - p['grape']!) < 1e-15);
  const classless = encodeCategorical(['Size', 'Color'], [['big', 'red']]);
  assert.throws(() => predictAligned(model, classless), /no column 'Fruit'/);
});

test('a declared value with no training row: estimated with smoothing, unseen without (issue 27 item 4)', () => {
  const colors = { Color: ['red', 'green', 'blue'] };
  const declared = encodeCategorical(
    ['Color', 'Fruit'],
    [
      ['red', 'a'],
      ['green', 'b'],
    ],
    colors,
  );
  const tested = encodeCategorical(['Fruit', 'Color'], [['a', 'blue']], { Color: ['blue', 'green', 'red'] });
  // Laplace gives blue (0 + 1) / (1 + 3) under each class: in the product, and the classes stay even.
  const smoothed = predictAligned(trainNaiveBayes(declared, 'Fruit', { kind: 'laplace' }), tested);
  assert.deepEqual(smoothed.unseen, []);
  for (const p of smoothed.posteriors) assert.ok(Math.abs(p - 0.5) < 1e-15);
  // Without smoothing blue would have probability 0 under every class: left out.
  const counted = predictAligned(trainNaiveBayes(declared, 'Fruit', { kind: 'none' }), tested);
  assert.deepEqual(counted.unseen, [{ attribute: 'Color', values: [{ value: 'blue', rows: 1 }] }]);
  assert.deepEqual([...counted.posteriors], [0.5, 0.5]);
});

test('a declared class with no training row cannot be predicted and is reported like a new one', () => {
  const declared = { Fruit: ['apple', 'plum', 'grape'] };
  const training = encodeCategorical(
    ['Size', 'Fruit'],
    [
      ['big', 'apple'],
      ['small', 'grape'],
    ],
    declared,
  );
  const m = trainNaiveBayes(training, 'Fruit', { kind: 'laplace' });
  const a = predictAligned(
    m,
    encodeCategorical(
      ['Fruit', 'Size'],
      [
        ['plum', 'small'],
        ['apple', 'big'],
      ],
      declared,
    ),
  );
  assert.deepEqual(a.classNames, ['apple', 'plum', 'grape']);
  assert.deepEqual(a.newClasses, [{ value: 'plum', rows: 1 }]);
  assert.deepEqual([...a.predicted], [2, 0]);
  assert.equal(a.posteriors[1], 0);
});
