/**
 * Measuring a classifier on held-out examples: a seeded random split, k-fold cross-validation,
 * or a given train/test partition (a separate test set). The learner is a function from
 * training rows and test rows to predicted class codes, so the same code evaluates categorical
 * and text naive Bayes (or anything else).
 */
import { EngineError } from '../engineError.js';
import { createRng } from '../random.js';
import { DEFAULT_BUDGETS, requireWithin, SHOWN_CLASSES } from '../budget.js';

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
  /** The SHOWN_CLASSES most frequent classes (in the classes' order) when there are more. */
  classes: ClassMetrics[];
  /** confusion[actual][predicted], pooled over folds, over the classes listed in `classes`. */
  confusion: number[][];
  /** Classes not listed in `classes` nor in `confusion` (the accuracy counts every class). */
  classesLeftOut?: number;
  /** Accuracy of each fold (k-fold only). */
  foldAccuracies?: number[];
}

export function evaluate(
  labels: Int32Array,
  classNames: readonly string[],
  fitPredict: FitPredict,
  plan: EvaluationPlan,
  maxClasses = DEFAULT_BUDGETS.maxClasses,
): Evaluation {
  const C = classNames.length;
  // The confusion matrix is C × C: refused before it is allocated (50,000 classes ran out of heap).
  requireWithin(`a classifier over ${C.toLocaleString('en-US')} classes`, C, maxClasses, 'classes');
  const parts = partitions(labels.length, plan);
  const confusion = new Int32Array(C * C);
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
      if (guess >= 0) confusion[actual * C + guess]!++;
      if (guess === actual) foldCorrect++;
    });
    correct += foldCorrect;
    tested += test.length;
    trained += train.length;
    foldAccuracies.push(foldCorrect / test.length);
  }
  const { support, predictedAs } = margins(confusion, C);
  const shown = mostFrequent(support, SHOWN_CLASSES);
  return {
    accuracy: correct / tested,
    correct,
    tested,
    trained: Math.round(trained / parts.length),
    classes: shown.map((c) => classMetrics(classNames[c]!, support[c]!, predictedAs[c]!, confusion[c * C + c]!)),
    confusion: shown.map((a) => shown.map((p) => confusion[a * C + p]!)),
    ...(shown.length < C ? { classesLeftOut: C - shown.length } : {}),
    ...(plan.kind === 'folds' ? { foldAccuracies } : {}),
  };
}

/** Row sums (examples of each class) and column sums (examples predicted as it). */
function margins(confusion: Int32Array, C: number): { support: Float64Array; predictedAs: Float64Array } {
  const support = new Float64Array(C),
    predictedAs = new Float64Array(C);
  for (let a = 0; a < C; a++)
    for (let p = 0; p < C; p++) {
      const n = confusion[a * C + p]!;
      support[a]! += n;
      predictedAs[p]! += n;
    }
  return { support, predictedAs };
}

/**
 * The indices of the `limit` classes of most weight (ties: the earlier class), in index order:
 * what a result lists when there are more classes than a person can read.
 */
export function mostFrequent(weight: ArrayLike<number>, limit: number): number[] {
  const all = Array.from({ length: weight.length }, (_, c) => c);
  if (all.length <= limit) return all;
  return all
    .sort((a, b) => weight[b]! - weight[a]! || a - b)
    .slice(0, limit)
    .sort((a, b) => a - b);
}

function classMetrics(value: string, support: number, predictedAs: number, hit: number): ClassMetrics {
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
 * holds out `testFraction` of the examples; each size trains on the first `size` of the (shuffled) remainder, so the
 * curves of
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
