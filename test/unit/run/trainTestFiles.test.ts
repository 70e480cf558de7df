/**
 * Naive Bayes trained on one CSV and tested `on` another (issue 15, "one domain per variable"),
 * through `bayes run` on a model written beside the two files, against scikit-learn's
 * CategoricalNB: the same prediction for every test row, posteriors within 1e-9, the same
 * confusion matrix; rows with a value the training rows never show are answered with that value
 * left out (the peer fitted without the column), and a class the training rows never show is
 * never predicted and counts as an error.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NO_SHARED, repoRoot } from '../../support/shared.js';
import { pythonMissing } from '../../support/python.js';
import { UCI_CATEGORICAL } from '../../support/uciTables.js';
import { UNSEEN, peerAnswers, writeTrainTest } from '../../support/trainTestFiles.js';
import type { PeerAnswer, TrainTestFiles } from '../../support/trainTestFiles.js';
import type { ClassifyResult, EvaluationResult, RunResult } from '../../../server/src/protocol/runResult.js';

const bin = join(repoRoot, 'bin', 'bayes.cjs');
const quote = (v: string) => JSON.stringify(v);

function runModel(files: TrainTestFiles): RunResult {
  const lines = [
    'data Train from "train.csv"',
    'data Test from "test.csv"',
    `classifier NB = naive_bayes(Train, target: ${files.target}, smoothing: laplace)`,
    'query evaluate NB on Test',
    ...files.test.map((row) => {
      const instance = files.testHeader.filter((c) => c !== files.target).map((c) => `${c}: ${quote(row[c]!)}`);
      return `query classify NB { ${instance.join(', ')} }`;
    }),
  ];
  const model = join(files.dir, 'model.bayes');
  writeFileSync(model, lines.join('\n') + '\n');
  const options = { encoding: 'utf8', maxBuffer: 1 << 30, cwd: files.dir } as const;
  const r = spawnSync(process.execPath, [bin, 'run', '--json', model], options);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as RunResult;
}

function compare(files: TrainTestFiles, result: RunResult, peer: PeerAnswer[]): number {
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(errors, []);
  const classified = result.results.filter((r): r is ClassifyResult => r.kind === 'classify');
  assert.equal(classified.length, files.test.length);
  let maxDiff = 0;
  classified.forEach((ours, i) => {
    const theirs = peer[i]!;
    for (const c of ours.classes) {
      // A class without training rows is no class of the peer's: ours gives it 0.
      maxDiff = Math.max(maxDiff, Math.abs((theirs.posterior[c.value] ?? 0) - c.posterior!));
    }
    if (ours.predicted !== theirs.predicted) {
      // Only a tie to rounding may pick another class.
      const best = Math.max(...Object.values(theirs.posterior));
      const why = `row ${i}: ${ours.predicted} vs ${theirs.predicted}`;
      assert.ok(Math.abs(theirs.posterior[ours.predicted!]! - best) < 1e-12, why);
    }
    const column = files.unseenAt.get(i);
    assert.deepEqual(ours.ignored, column ? [{ attribute: column, value: UNSEEN, reason: 'unseen' }] : []);
  });
  assert.ok(maxDiff < 1e-9, `max |Δp| = ${maxDiff}`);

  // evaluate … on Test: the confusion matrix of the peer's predictions, classes by name.
  const evaluation = result.results.find((r): r is EvaluationResult => r.kind === 'evaluation')!;
  const names = evaluation.classes.map((c) => c.value);
  const confusion = names.map(() => names.map(() => 0));
  files.test.forEach((row, i) => {
    confusion[names.indexOf(row[files.target]!)]![names.indexOf(classified[i]!.predicted!)]!++;
  });
  assert.deepEqual(evaluation.confusion, confusion);
  const peerCorrect = files.test.filter((row, i) => peer[i]!.predicted === row[files.target]).length;
  assert.equal(evaluation.correct, peerCorrect);
  assert.equal(evaluation.tested, files.test.length);
  return maxDiff;
}

for (const [name, seed] of [
  ['car', 3],
  ['nursery', 5],
  ['house-votes-84', 7],
] as const) {
  test(`${name} as train.csv and test.csv: bayes run agrees with scikit-learn CategoricalNB row by row`, (t) => {
    const table = UCI_CATEGORICAL.find((u) => u.name === name)!;
    const why = pythonMissing(['sklearn', 'numpy']);
    if (why) return t.skip(why);
    if (!existsSync(join(repoRoot, 'dist'))) return t.skip('run npm run build first');
    // nursery: both 'recommend' rows go to the test file, a class the training rows never show.
    const toTest = name === 'nursery' ? (row: Record<string, string>) => row['class'] === 'recommend' : undefined;
    const files = writeTrainTest(table, seed, { unseen: 6, ...(toTest ? { toTest } : {}) });
    if (!files) return t.skip(NO_SHARED);
    const result = runModel(files);
    const maxDiff = compare(files, result, peerAnswers(files));
    const sizes = `${files.train.length} training rows, ${files.test.length} test rows`;
    t.diagnostic(`${sizes}, max |Δp| = ${maxDiff.toExponential(2)}`);

    // One information on `Test` counts the rows with unseen values and lists them.
    const notes = result.diagnostics.filter((d) => d.code === 'unseen-value' && d.range.start.line === 3);
    const values = notes.find((d) => d.message.includes('left out of the product'));
    assert.ok(values, JSON.stringify(notes));
    assert.match(values.message, /^6 rows of 'Test' have values never seen in NB's training data/);
    for (const column of new Set(files.unseenAt.values())) {
      const n = [...files.unseenAt.values()].filter((c) => c === column).length;
      assert.ok(values.message.includes(`${column} = ${UNSEEN} (${n} row${n === 1 ? '' : 's'})`), values.message);
    }
    const classes = notes.filter((d) => d.message.startsWith('class '));
    if (name === 'nursery') {
      // The 2 rows of the table, and the copies of them given an unseen value.
      const n = files.test.filter((r) => r['class'] === 'recommend').length;
      assert.ok(n >= 2 && files.train.every((r) => r['class'] !== 'recommend'));
      assert.deepEqual(
        classes.map((d) => d.message),
        [
          `class recommend (${n} rows of 'Test') never occurs in NB's ` +
            'training data: it cannot be predicted, so those rows count as errors',
        ],
      );
      const evaluation = result.results.find((r): r is EvaluationResult => r.kind === 'evaluation')!;
      assert.equal(evaluation.classes.at(-1)!.value, 'recommend');
      assert.equal(evaluation.classes.at(-1)!.support, n);
      assert.equal(
        evaluation.confusion.reduce((s, row) => s + row.at(-1)!, 0),
        0,
      );
    } else {
      assert.deepEqual(classes, []);
    }
  });
}
