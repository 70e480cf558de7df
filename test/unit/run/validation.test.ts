import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { repoRoot } from '../../support/shared.js';
import { errors, first, run, runExample, verdicts } from './helpers.js';
import { enumerate } from '../../support/networks.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';

test('query validate equals bayes validate on the same network and rows (held out and in folds)', async () => {
  const result = await runExample('validation.bayes');
  assert.deepEqual(errors(result), []);
  const [held, folded] = result.results.filter((r) => r.kind === 'validation');
  assert.ok(held && folded && held.kind === 'validation' && folded.kind === 'validation');
  const cli = async (extra: string[]) => {
    const io = capture();
    const args = ['validate', join(repoRoot, 'examples', 'data', 'alarm.bif'), '--data'];
    args.push(join(repoRoot, 'examples', 'data', 'alarm_holdout.csv'), '--target', 'HYPOVOLEMIA', '--json', ...extra);
    assert.equal(await main(args, io), 0, io.stderr);
    return JSON.parse(io.stdout);
  };
  const heldCli = await cli(['--positive', 'TRUE', '--bins', '5']);
  const foldCli = await cli(['--folds', '5', '--seed', '1']);
  for (const key of ['accuracy', 'logLoss', 'brier', 'spherical', 'auc', 'n'] as const) {
    assert.equal(held[key], heldCli[key], key);
    assert.equal(folded[key], foldCli[key], key);
  }
  assert.deepEqual(held.calibration, heldCli.calibration);
  assert.deepEqual(held.roc, heldCli.roc);
  assert.deepEqual(held.confusion, heldCli.confusion);
  assert.ok(verdicts(result).every(([, passed]) => passed));
});

test('query predict: each row is P(X | its other observed values) by enumeration; the data column of X is not evidence', async () => {
  const text = `network N {
  variable A { a0, a1 }
  variable B { b0, b1 }
  variable C { c0, c1, c2 }
  P(A) { a0: 0.3, a1: 0.7 }
  P(B | A) { a0: { b0: 0.9, b1: 0.1 }, a1: { b0: 0.2, b1: 0.8 } }
  P(C | B) { b0: { c0: 0.5, c1: 0.3, c2: 0.2 }, b1: { c0: 0.1, c1: 0.1, c2: 0.8 } }
}
data Rows {
  A, B, C, Note
  a0, b1, ?, x
  ?, b0, c2, y
  a1, ?, ?, z
}
query predict A in N on Rows
`;
  const result = await run(text);
  assert.deepEqual(errors(result), []);
  const p = first(result, 'prediction');
  assert.deepEqual(p.evidence, ['B', 'C']);
  assert.deepEqual(p.ignored, ['Note']);
  assert.equal(p.rowCount, 3);
  assert.ok(result.diagnostics.some((d) => d.code === 'unused-column' && /Note/.test(d.message)));
  const net: BayesianNetwork = {
    name: 'N',
    variables: [
      { name: 'A', states: ['a0', 'a1'] },
      { name: 'B', states: ['b0', 'b1'] },
      { name: 'C', states: ['c0', 'c1', 'c2'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.3, 0.7) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
      { child: 2, parents: [1], table: Float64Array.of(0.5, 0.3, 0.2, 0.1, 0.1, 0.8) },
    ],
  };
  const evidence = [
    new Map([[1, 1]]),
    new Map([
      [1, 0],
      [2, 2],
    ]),
    new Map<number, number>(),
  ];
  const actual = ['a0', undefined, 'a1'];
  p.rows.forEach((row, r) => {
    const exact = enumerate(net, evidence[r]!);
    row.probabilities!.forEach((x, s) => assert.ok(Math.abs(x - exact.marginals[0]![s]!) < 1e-12));
    assert.ok(Math.abs(row.logLikelihood! - Math.log(exact.pEvidence)) < 1e-12);
    assert.equal(row.actual, actual[r]);
    assert.equal(row.predicted, exact.marginals[0]![0]! >= exact.marginals[0]![1]! ? 'a0' : 'a1');
  });
});

test('query validate: classifiers re-learnt in folds, the score option picks the value, mistakes are diagnosed', async () => {
  const text = `data Tennis from "playtennis.csv"
classifier PlayNB = naive_bayes(Tennis, target: Play, smoothing: laplace)
query validate PlayNB on Tennis target Play
expect validate PlayNB on Tennis target Play ≈ 13/14
expect validate PlayNB on Tennis target Play folds 3 { seed: 2, score: brier } >= 0
query validate PlayNB on Tennis target Nope
query validate PlayNB on Tennis target Play { score: f1 }
query validate PlayNB on Tennis target Play { positive: Maybe }
`;
  const result = await run(text);
  const held = first(result, 'validation');
  assert.equal(held.accuracy, 13 / 14);
  assert.equal(held.positive, held.states[0]);
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [4, true],
      [5, true],
    ],
  );
  const folded = result.results.find((r) => r.kind === 'expect' && r.range.start.line === 4);
  assert.ok(folded?.kind === 'expect' && folded.result?.kind === 'validation' && folded.result.folds === 3);
  assert.equal(folded.actual, folded.result.brier);
  const problems = errors(result).map((e) => [e.line, e.message]);
  assert.ok(
    problems.some(([line, m]) => line === 5 && /'Nope' is not defined|not a variable/.test(String(m))),
    JSON.stringify(problems),
  );
  assert.ok(
    problems.some(([line, m]) => line === 6 && /not a validation score/.test(String(m))),
    JSON.stringify(problems),
  );
  assert.ok(
    problems.some(([line, m]) => line === 7 && /positive: must name a state of Play/.test(String(m))),
    JSON.stringify(problems),
  );
});

test('the calibration example: the overconfident model has the same accuracy and a worse log loss', async () => {
  const result = await runExample('calibration.bayes');
  assert.deepEqual(errors(result), []);
  const [good, bad] = result.results.filter((r) => r.kind === 'validation');
  assert.ok(good?.kind === 'validation' && bad?.kind === 'validation');
  assert.equal(good.accuracy, bad.accuracy);
  assert.ok(bad.logLoss > 2 * good.logLoss);
  // Overconfident: its top calibration bin predicts over 0.95 where far fewer are sick.
  const top = bad.calibration.yes!;
  assert.ok(top.meanPredicted.at(-1)! > 0.95 && top.fractionPositive.at(-1)! < 0.7);
  assert.ok(verdicts(result).every(([, passed]) => passed));
});
