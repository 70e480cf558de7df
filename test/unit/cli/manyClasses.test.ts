/**
 * Many classes (issue #28): a class column over the budget on classes (engine/budget.ts
 * maxClasses) is refused on its range before a classes × classes matrix is allocated; under it,
 * results list the SHOWN_CLASSES most frequent classes with a note of how many were left out, so
 * a result over thousands of classes stays a few tens of KB. Inputs are generated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { SHOWN_CLASSES } from '../../../server/src/engine/budget.js';
import { expectedShown, manyClassesModel, manyStatesNetwork, rowsOfClass } from '../../support/manyClasses.js';

const repoRoot = resolve(import.meta.dirname, '../../..');
const bayes = (args: string[], cwd?: string) =>
  spawnSync(process.execPath, [join(repoRoot, 'bin/bayes.cjs'), ...args], { encoding: 'utf8', timeout: 60_000, cwd });

test('bayes run: a class column of 5,000 values is refused on the target: range (budget 4,096), exit 1', () => {
  const { dir } = manyClassesModel(5000);
  const r = bayes(['run', 'm.bayes'], dir);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout + r.stderr, /m\.bayes:2:40: error: 'Label' has 5,000 classes, over the budget of 4,096/);
});

test('bayes run --max-memory 100: the budget on classes follows the memory (905 classes), 1,000 refused', () => {
  const { dir } = manyClassesModel(1000);
  const r = bayes(['run', 'm.bayes', '--max-memory', '100'], dir);
  assert.equal(r.status, 1, r.stderr);
  assert.match(r.stdout + r.stderr, /'Label' has 1,000 classes, over the budget of 905/);
});

test('bayes run --json: evaluate and classify over 2,000 classes list 50, with the count left out', () => {
  const classes = 2000;
  const { dir } = manyClassesModel(classes, 'query evaluate NB on D\nquery classify NB { Feature: f3 }\n');
  const r = bayes(['run', 'm.bayes', '--json'], dir);
  assert.equal(r.status, 0, r.stderr);
  assert.ok(r.stdout.length < 200_000, `${r.stdout.length} bytes`);
  const out = JSON.parse(r.stdout);
  const evaluation = out.results.find((x: { kind: string }) => x.kind === 'evaluation');
  const shown = expectedShown(classes, SHOWN_CLASSES);
  assert.deepEqual(
    evaluation.classes.map((c: { value: string }) => c.value),
    shown.map((i) => `c${i}`),
  );
  assert.equal(evaluation.classesLeftOut, classes - SHOWN_CLASSES);
  // Unsmoothed naive Bayes with a feature value per class predicts every row: accuracy 1, diagonal.
  const rows = Array.from({ length: classes }, (_, i) => rowsOfClass(i)).reduce((a, b) => a + b, 0);
  assert.equal(evaluation.tested, rows);
  assert.equal(evaluation.accuracy, 1);
  evaluation.confusion.forEach((row: number[], a: number) =>
    row.forEach((n, p) => assert.equal(n, a === p ? rowsOfClass(shown[a]!) : 0)),
  );
  const classify = out.results.find((x: { kind: string }) => x.kind === 'classify');
  assert.equal(classify.classes.length, SHOWN_CLASSES);
  assert.equal(classify.classesLeftOut, classes - SHOWN_CLASSES);
  assert.equal(classify.predicted, 'c3');
  assert.ok(classify.classes.some((c: { value: string }) => c.value === 'c3'));
  const notes = out.diagnostics.filter((d: { code: string }) => d.code === 'classes-left-out');
  assert.deepEqual(
    notes.map((d: { message: string }) => d.message),
    ['frequent', 'probable'].map((k) => `50 of 2,000 classes listed (the most ${k}); 1,950 left out of the result`),
  );
});

test('bayes validate: a target of 1,000 states is refused under --max-memory 100; 120 states list 50', () => {
  const { dir } = manyClassesModel(1);
  const big = manyStatesNetwork(dir, 1000);
  const refused = bayes(['validate', big.bif, '--data', big.csv, '--target', 'X', '--max-memory', '100']);
  assert.equal(refused.status, 1, refused.stderr);
  assert.match(refused.stderr, /X has 1,000 states, over the budget of 905 classes/);
  const small = manyStatesNetwork(dir, 120);
  const r = bayes(['validate', small.bif, '--data', small.csv, '--target', 'X', '--json']);
  assert.equal(r.status, 0, r.stderr);
  const out = JSON.parse(r.stdout);
  const shown = expectedShown(120, SHOWN_CLASSES).map((i) => `s${i}`);
  assert.deepEqual(out.confusion.states, shown);
  assert.deepEqual(Object.keys(out.roc), shown);
  assert.deepEqual(Object.keys(out.calibration), shown);
  assert.equal(out.statesLeftOut, 70);
  // A uniform network: every row predicts s0 (the first on ties), so only s0's column is filled.
  out.confusion.matrix.forEach((row: number[], a: number) =>
    row.forEach((n, p) => assert.equal(n, p === 0 && shown[p] === 's0' ? rowsOfClass(Number(shown[a]!.slice(1))) : 0)),
  );
  // Every state occurs, and the scores are all equal: each one-vs-rest AUC is 1/2, so is their mean.
  assert.equal(out.auc, 0.5);
  const text = bayes(['validate', small.bif, '--data', small.csv, '--target', 'X']);
  assert.match(text.stdout, /\(50 most frequent of 120 states listed; 70 left out\)/);
});
