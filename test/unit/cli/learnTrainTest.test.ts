/**
 * The CLI commands that take data files, on UCI tables written as separate train and test CSVs
 * (columns in other orders, values first appearing in other orders): `bayes learn` of a naive
 * Bayes structure whose .bayes file declares every variable (states in yet another order) counts
 * by column and state name, and `bayes marginals` of the learnt network given each test row
 * gives scikit-learn CategoricalNB's posteriors (alpha = 1 on every table, so the class prior is
 * Laplace-smoothed too: the peer is given that prior).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { main } from '../../../server/src/cli.js';
import { capture } from '../../support/cli.js';
import { NO_SHARED } from '../../support/shared.js';
import { pythonMissing, runPython } from '../../support/python.js';
import { UCI_CATEGORICAL } from '../../support/uciTables.js';
import { writeTrainTest, type TrainTestFiles } from '../../support/trainTestFiles.js';

type Row = Record<string, string>;
type Cpts = Record<string, { parents: string[]; rows: { given: Row; distribution: Record<string, number> }[] }>;

/** The naive Bayes structure, every variable declared with its states in reverse name order. */
function naiveBayesModel(files: TrainTestFiles, states: Map<string, string[]>): string {
  const q = (s: string) => JSON.stringify(s);
  return (
    [
      ...[files.target, ...files.attributes].map((v) => `variable ${v} { ${states.get(v)!.map(q).join(', ')} }`),
      `P(${files.target}) ~ Dirichlet(1)`,
      ...files.attributes.map((a) => `P(${a} | ${files.target}) ~ Dirichlet(1)`),
    ].join('\n') + '\n'
  );
}

interface Peer {
  classes: string[];
  logPrior: number[];
  cpts: Record<string, number[][]>;
  posteriors: number[][];
}

/** CategoricalNB fitted on `rows`, answering `test`; values coded in the declared state order. */
function peer(files: TrainTestFiles, states: Map<string, string[]>, rows: Row[], test: Row[]): Peer {
  const encode = (r: Record<string, string>) => files.attributes.map((a) => states.get(a)!.indexOf(r[a]!));
  const classes = states.get(files.target)!;
  return runPython<Peer>(
    `
import json, sys
import numpy as np
from sklearn.naive_bayes import CategoricalNB
d = json.load(sys.stdin)
y = np.array(d['y']); C = len(d['classes'])
counts = np.array([np.sum(y == c) for c in range(C)])
prior = (counts + 1) / (len(y) + C)
nb = CategoricalNB(alpha=1.0, min_categories=d['k'], class_prior=prior[counts > 0]).fit(np.array(d['X']), y)
assert list(nb.classes_) == [c for c in range(C) if counts[c] > 0]
p = nb.predict_proba(np.array(d['test'])) if d['test'] else np.zeros((0, C))
print(json.dumps({'classes': [d['classes'][c] for c in nb.classes_], 'logPrior': nb.class_log_prior_.tolist(),
  'cpts': {a: np.exp(t).tolist() for a, t in zip(d['attributes'], nb.feature_log_prob_)}, 'posteriors': p.tolist()}))
`,
    {
      X: rows.map(encode),
      y: rows.map((r) => classes.indexOf(r[files.target]!)),
      classes,
      attributes: files.attributes,
      k: files.attributes.map((a) => states.get(a)!.length),
      test: test.map(encode),
    },
  );
}

async function learn(model: string, data: string): Promise<Cpts> {
  const io = capture();
  const out = model.replace(/\.bayes$/, '.learnt.bayes');
  assert.equal(await main(['learn', model, '--data', data, '--json', '--out', out], io), 0, io.stderr);
  const answer = JSON.parse(io.stdout) as { method: string; cpts: Cpts };
  assert.equal(answer.method, 'counting');
  return answer.cpts;
}

function assertSameTables(files: TrainTestFiles, states: Map<string, string[]>, cpts: Cpts, expected: Peer): void {
  let maxDiff = 0;
  expected.classes.forEach((v, i) => {
    const prior = cpts[files.target]!.rows[0]!.distribution[v]!;
    maxDiff = Math.max(maxDiff, Math.abs(prior - Math.exp(expected.logPrior[i]!)));
    for (const a of files.attributes) {
      const row = cpts[a]!.rows.find((r) => r.given[files.target] === v)!;
      states.get(a)!.forEach((x, j) => {
        maxDiff = Math.max(maxDiff, Math.abs(row.distribution[x]! - expected.cpts[a]![i]![j]!));
      });
    }
  });
  assert.ok(maxDiff < 1e-12, `max |Δθ| = ${maxDiff}`);
}

for (const [name, seed] of [
  ['car', 11],
  ['house-votes-84', 13],
] as const) {
  test(`${name}: bayes learn from train.csv and test.csv, bayes marginals per test row, as scikit-learn`, async (t) => {
    const why = pythonMissing(['sklearn', 'numpy']);
    if (why) return t.skip(why);
    const table = UCI_CATEGORICAL.find((u) => u.name === name)!;
    const files = writeTrainTest(table, seed);
    if (!files) return t.skip(NO_SHARED);
    const all = [...files.train, ...files.test];
    const states = new Map(table.header.map((h) => [h, [...new Set(all.map((r) => r[h]!))].sort().reverse()]));
    const model = join(files.dir, 'nb.bayes');
    writeFileSync(model, naiveBayesModel(files, states));

    const fromTrain = peer(files, states, files.train, files.test);
    assertSameTables(files, states, await learn(model, join(files.dir, 'train.csv')), fromTrain);
    // The test file, its columns shuffled, learns the tables of its own rows.
    const testModel = join(files.dir, 'nb-test.bayes');
    writeFileSync(testModel, naiveBayesModel(files, states));
    const fromTest = await learn(testModel, join(files.dir, 'test.csv'));
    assertSameTables(files, states, fromTest, peer(files, states, files.test, []));

    // P(class | row) in the network learnt from train.csv, for every test row.
    const learnt = join(files.dir, 'nb.learnt.bayes');
    let maxDiff = 0;
    for (const [r, row] of files.test.entries()) {
      const io = capture();
      const evidence: string[] = files.testHeader
        .filter((c) => c !== files.target)
        .flatMap((c) => ['--evidence', `${c}=${row[c]!}`]);
      assert.equal(await main(['marginals', learnt, ...evidence, '--json'], io), 0, io.stderr);
      const out = JSON.parse(io.stdout) as { marginals: Record<string, Record<string, number>> };
      const marginal = out.marginals[files.target]!;
      fromTrain.classes.forEach((v, i) => {
        maxDiff = Math.max(maxDiff, Math.abs(marginal[v]! - fromTrain.posteriors[r]![i]!));
      });
    }
    assert.ok(maxDiff < 1e-9, `max |Δp| = ${maxDiff}`);
    t.diagnostic(`${files.test.length} test rows, max |Δp| = ${maxDiff.toExponential(2)}`);
  });
}
