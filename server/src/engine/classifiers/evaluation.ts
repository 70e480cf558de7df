/**
 * Measuring a classifier on held-out examples: a seeded random split, k-fold cross-validation,
 * or a given train/test partition (a separate test set). The learner is a function from
 * training rows and test rows to predicted class codes, so the same code evaluates categorical
 * and text naive Bayes (or anything else).
 */
import { EngineError } from '../engineError.js';
import { createRng } from '../random.js';

/** Trains on `train` and returns the predicted class code of each row of `test` (-1 = none). */
export type FitPredict = (train: Int32Array, test: Int32Array) => Int32Array;

export type EvaluationPlan =
  | { kind: 'split'; trainFraction: number; seed: number }
  | { kind: 'folds'; k: number; seed: number }
  | { kind: 'holdout'; train: Int32Array; test: Int32Array };

export interface ClassMetrics {
  value: string;
  /** Of the examples predicted as this class, the fraction that are; absent if none predicted. */
  precision?: number;
  /** Of the examples of this class, the fraction predicted as it; absent if none exist. */
  recall?: number;
  support: number;
}

export interface Evaluation {
  accuracy: number;
  correct: number;
  tested: number;
  /** Training examples (per fold, on average, for k-fold). */
  trained: number;
  classes: ClassMetrics[];
  /** confusion[actual][predicted], pooled over folds. */
  confusion: number[][];
  /** Accuracy of each fold (k-fold only). */
  foldAccuracies?: number[];
}

export function evaluate(
  labels: Int32Array,
  classNames: readonly string[],
  fitPredict: FitPredict,
  plan: EvaluationPlan,
): Evaluation {
  const parts = partitions(labels.length, plan);
  const C = classNames.length;
  const confusion = Array.from({ length: C }, () => new Array<number>(C).fill(0));
  const foldAccuracies: number[] = [];
  let correct = 0,
    tested = 0,
    trained = 0;
  for (const { train, test } of parts) {
    const predicted = fitPredict(train, test);
    let foldCorrect = 0;
    test.forEach((r, i) => {
      const actual = labels[r]!,
        guess = predicted[i]!;
      if (guess >= 0) confusion[actual]![guess]!++;
      if (guess === actual) foldCorrect++;
    });
    correct += foldCorrect;
    tested += test.length;
    trained += train.length;
    foldAccuracies.push(foldCorrect / test.length);
  }
  return {
    accuracy: correct / tested,
    correct,
    tested,
    trained: Math.round(trained / parts.length),
    classes: classNames.map((value, c) => classMetrics(value, c, confusion)),
    confusion,
    ...(plan.kind === 'folds' ? { foldAccuracies } : {}),
  };
}

function classMetrics(value: string, c: number, confusion: number[][]): ClassMetrics {
  const support = confusion[c]!.reduce((s, n) => s + n, 0);
  const predictedAs = confusion.reduce((s, row) => s + row[c]!, 0);
  const hit = confusion[c]![c]!;
  return {
    value,
    ...(predictedAs > 0 ? { precision: hit / predictedAs } : {}),
    ...(support > 0 ? { recall: hit / support } : {}),
    support,
  };
}

/** Row indices 0..n−1 in a seeded random order. */
export function shuffledRows(n: number, seed: number): Int32Array {
  return Int32Array.from(createRng(seed).shuffle(Array.from({ length: n }, (_, i) => i)));
}

/**
 * The one seeded train/test split (`evaluate … split f`, `learning_curve`): the first
 * round(n·f) rows of the seeded shuffle train, the rest test — the same seed holds out the same rows.
 */
export function seededSplit(n: number, trainFraction: number, seed: number): { train: Int32Array; test: Int32Array } {
  if (!(trainFraction > 0 && trainFraction < 1))
    throw new EngineError(`the training fraction must be in (0, 1), got ${trainFraction}`);
  const order = shuffledRows(n, seed);
  const cut = Math.round(n * trainFraction);
  if (cut === 0 || cut === n) throw new EngineError(`${n} examples are too few to split ${trainFraction}`);
  return { train: order.slice(0, cut), test: order.slice(cut) };
}

/** The train/test row sets of a plan (bench/nb.ts hands the same folds to its peers). */
export function partitions(n: number, plan: EvaluationPlan): { train: Int32Array; test: Int32Array }[] {
  switch (plan.kind) {
    case 'holdout':
      if (plan.test.length === 0) throw new EngineError('the test set is empty');
      return [{ train: plan.train, test: plan.test }];
    case 'split':
      return [seededSplit(n, plan.trainFraction, plan.seed)];
    case 'folds': {
      if (!(Number.isInteger(plan.k) && plan.k >= 2 && plan.k <= n))
        throw new EngineError(`k-fold needs 2 ≤ k ≤ ${n} examples, got k = ${plan.k}`);
      const order = shuffledRows(n, plan.seed);
      return Array.from({ length: plan.k }, (_, f) => {
        const lo = Math.floor((f * n) / plan.k),
          hi = Math.floor(((f + 1) * n) / plan.k);
        return { train: Int32Array.from([...order.subarray(0, lo), ...order.subarray(hi)]), test: order.slice(lo, hi) };
      });
    }
  }
}

export interface LearningCurvePoint {
  trainingSize: number;
  accuracy: number;
}

/**
 * Accuracy against training-set size: one seeded split (seededSplit, as `evaluate … split`)
 * holds out `testFraction` of the examples; each size trains on the first `size` of the (shuffled) remainder, so the curves of
 * different sizes are nested and comparable.
 */
export function learningCurve(
  labels: Int32Array,
  fitPredict: FitPredict,
  sizes: readonly number[],
  seed: number,
  testFraction = 1 / 3,
): LearningCurvePoint[] {
  // The split of `evaluate … split 1 − testFraction` with the same seed: its training rows are the pool.
  const { train: pool, test } = seededSplit(labels.length, 1 - testFraction, seed);
  return sizes.map((size) => {
    if (!(Number.isInteger(size) && size >= 1 && size <= pool.length)) {
      throw new EngineError(
        `training size ${size} is outside 1..${pool.length} (the examples not held out for testing)`,
      );
    }
    const predicted = fitPredict(pool.slice(0, size), test);
    let correct = 0;
    test.forEach((r, i) => {
      if (predicted[i] === labels[r]) correct++;
    });
    return { trainingSize: size, accuracy: correct / test.length };
  });
}
