import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../../../server/src/cli.js';
import { capture, tempFile } from '../../support/cli.js';
import { networkFormatOf } from '../../../server/src/model/networkFormats.js';
import { DEFAULT_BUDGETS } from '../../../server/src/engine/budget.js';
import { JunctionTree } from '../../../server/src/engine/inference/junctionTree.js';
import { partitions } from '../../../server/src/engine/classifiers/evaluation.js';
import { learnCpts } from '../../../server/src/engine/estimators/cptLearning.js';
import { rowsOf } from '../../../server/src/engine/structure/crossValidation.js';
import { readDiscreteText } from '../../../server/src/model/dataTable.js';
import { forwardSample, hideAtRandom } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../server/src/engine/categoricalData.js';
import { enumerate } from '../../support/networks.js';
import { PY_TIED_SCORES, pythonMissing, runPython } from '../../support/python.js';
import { repoRoot } from '../../support/shared.js';

const ALARM = join(repoRoot, 'examples', 'data', 'alarm.bif');
const ASIA_NET = join(repoRoot, 'examples', 'data', 'asia.net');

function network(file: string): BayesianNetwork {
  const r = networkFormatOf(file)!.read(readFileSync(file, 'utf8'), DEFAULT_BUDGETS);
  if ('error' in r) throw new Error(r.error.message);
  return r.network;
}

/** A CSV of forward samples with cells hidden (the `keep` column never), in the network's column order. */
function sampleCsv(net: BayesianNetwork, rows: number, hidden: number, seed: number, keep?: string): string {
  const rng = createRng(seed);
  const full = forwardSample(net, rows, rng);
  const data = hideAtRandom(full, hidden, rng);
  const lines = [net.variables.map((v) => v.name).join(',')];
  for (let r = 0; r < rows; r++)
    lines.push(
      net.variables
        .map((v, i) => {
          const s = v.name === keep ? full.columns[i]![r]! : data.columns[i]![r]!;
          return s < 0 ? '?' : v.states[s];
        })
        .join(','),
    );
  return lines.join('\n') + '\n';
}

interface PredictJson {
  target: string;
  states: string[];
  evidence: string[];
  ignored: string[];
  rows: {
    row: number;
    line: number;
    probabilities: Record<string, number> | null;
    predicted: string | null;
    logLikelihood: number | null;
    actual?: string;
  }[];
  rowCount: number;
  propagations: number;
}

test('bayes predict --json: every row equals brute-force enumeration (1e-12), the target column is not evidence', async () => {
  const net = network(ASIA_NET);
  const csv = [
    'smoke,note,xray,lung,dysp,asia',
    'yes,a,yes,yes,?,no',
    'no,b,,no,yes,?',
    '?,c,?,?,?,?',
    'yes,d,yes,no,?,no',
    'yes,e,yes,yes,?,no',
  ].join('\n');
  const { file } = tempFile('rows.csv', csv);
  const io = capture();
  assert.equal(await main(['predict', ASIA_NET, '--data', file, '--target', 'lung', '--json'], io), 0, io.stderr);
  const out = JSON.parse(io.stdout) as PredictJson;
  assert.equal(out.target, 'lung');
  assert.deepEqual(out.evidence, ['smoke', 'xray', 'dysp', 'asia']);
  assert.deepEqual(out.ignored, ['note']);
  assert.match(io.stderr, /ignored columns .*: note/);
  assert.equal(out.rowCount, 5);
  assert.equal(out.propagations, 3, 'rows 1, 4 and 5 share their evidence (lung is not evidence)');
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const lung = index.get('lung')!;
  const header = csv.split('\n')[0]!.split(',');
  csv
    .split('\n')
    .slice(1)
    .forEach((line, r) => {
      const cells = line.split(',');
      const evidence = new Map<number, number>();
      header.forEach((name, c) => {
        const v = index.get(name);
        if (v !== undefined && v !== lung && cells[c] !== '?' && cells[c] !== '')
          evidence.set(v, net.variables[v]!.states.indexOf(cells[c]!));
      });
      const exact = enumerate(net, evidence);
      const row = out.rows[r]!;
      assert.equal(row.row, r + 1);
      assert.equal(row.line, r + 2);
      net.variables[lung]!.states.forEach((s, i) =>
        assert.ok(Math.abs(row.probabilities![s]! - exact.marginals[lung]![i]!) < 1e-12),
      );
      assert.ok(Math.abs(row.logLikelihood! - Math.log(exact.pEvidence)) < 1e-12);
      assert.equal(row.actual, cells[header.indexOf('lung')] === '?' ? undefined : cells[header.indexOf('lung')]);
    });
  // --csv: the same numbers, one line per row.
  const csvIo = capture();
  assert.equal(await main(['predict', ASIA_NET, '--data', file, '--target', 'lung', '--csv'], csvIo), 0);
  const lines = csvIo.stdout.trim().split('\n');
  assert.equal(lines[0], 'row,predicted,P(lung=yes),P(lung=no),logLikelihood,actual');
  lines.slice(1).forEach((line, r) => {
    const [row, predicted, yes, no, ll, actual] = line.split(',');
    assert.equal(Number(row), r + 1);
    assert.equal(predicted, out.rows[r]!.predicted);
    assert.equal(Number(yes), out.rows[r]!.probabilities!.yes);
    assert.equal(Number(no), out.rows[r]!.probabilities!.no);
    assert.equal(Number(ll), out.rows[r]!.logLikelihood);
    assert.equal(actual || undefined, out.rows[r]!.actual);
  });
});

test('bayes predict: a cell outside its states and an unknown target are errors at their place (exit 1)', async () => {
  const { file } = tempFile('rows.csv', 'HYPOVOLEMIA,LVFAILURE\nTRUE,FALSE\nTRUE,maybe\n');
  const io = capture();
  assert.equal(await main(['predict', ALARM, '--data', file, '--target', 'CVP'], io), 1);
  assert.match(
    io.stderr,
    new RegExp(`${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:3:1: error: 'maybe' is not a state of LVFAILURE`),
  );
  const io2 = capture();
  assert.equal(await main(['predict', ALARM, '--data', file, '--target', 'NOPE'], io2), 1);
  assert.match(io2.stderr, /'NOPE' is not a variable of/);
  const io3 = capture();
  assert.equal(await main(['predict', ALARM, '--data', file], io3), 2);
  assert.match(io3.stderr, /--target X is required/);
});

const SKLEARN = `
import json, sys
import numpy as np
from sklearn.metrics import accuracy_score, log_loss, brier_score_loss, roc_auc_score, roc_curve, confusion_matrix
from sklearn.calibration import calibration_curve
${PY_TIED_SCORES}
d = json.load(sys.stdin)
P = np.array(d['p']); y = np.array(d['y']); pos = d['positive']; hit = (y == pos).astype(int)
fpr, tpr, th = roc_curve(hit, tied(P[:, pos]))
true, pred = calibration_curve(hit, P[:, pos], n_bins=d['bins'], strategy='uniform')
print(json.dumps({'accuracy': accuracy_score(y, P.argmax(axis=1)), 'logLoss': log_loss(y, P, labels=[0, 1]),
  'brier': brier_score_loss(hit, P[:, pos]), 'auc': roc_auc_score(hit, tied(P[:, pos])), 'fpr': fpr.tolist(), 'tpr': tpr.tolist(),
  'fractionPositive': true.tolist(), 'meanPredicted': pred.tolist(),
  'confusion': confusion_matrix(y, P.argmax(axis=1), labels=[0, 1]).tolist()}))
`;

test('bayes validate --json on ALARM rows equals scikit-learn on the predictions bayes predict prints (1e-12)', async (t) => {
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  const net = network(ALARM);
  const { file } = tempFile('alarm.csv', sampleCsv(net, 400, 0.5, 11, 'HYPOVOLEMIA'));
  const io = capture();
  const args = [ALARM, '--data', file, '--target', 'HYPOVOLEMIA', '--json'];
  assert.equal(await main(['predict', ...args], io), 0, io.stderr);
  const predicted = JSON.parse(io.stdout) as PredictJson;
  const states = predicted.states;
  const vio = capture();
  assert.equal(await main(['validate', ...args, '--bins', '8', '--positive', 'FALSE'], vio), 0, vio.stderr);
  const v = JSON.parse(vio.stdout);
  const peer = runPython<Record<string, number & number[] & number[][]>>(SKLEARN, {
    p: predicted.rows.map((r) => states.map((s) => r.probabilities![s]!)),
    y: predicted.rows.map((r) => states.indexOf(r.actual!)),
    positive: states.indexOf('FALSE'),
    bins: 8,
  });
  assert.equal(v.n, 400);
  assert.equal(v.positive, 'FALSE');
  for (const key of ['accuracy', 'logLoss', 'brier', 'auc'])
    assert.ok(Math.abs(v[key] - peer[key]!) <= 1e-12, `${key}: ${v[key]} vs ${peer[key]}`);
  const near = (a: number[], b: number[]) => a.length === b.length && a.every((x, i) => Math.abs(x - b[i]!) <= 1e-12);
  assert.ok(near(v.roc.FALSE.fpr, peer.fpr!) && near(v.roc.FALSE.tpr, peer.tpr!));
  assert.ok(near(v.calibration.FALSE.fractionPositive, peer.fractionPositive!));
  assert.ok(near(v.calibration.FALSE.meanPredicted, peer.meanPredicted!));
  assert.deepEqual(v.confusion.matrix, peer.confusion);
  assert.equal(typeof v.spherical, 'number');
});

test('bayes validate --folds re-counts the tables in each fold: equal to the folds counted by hand', async () => {
  const net = network(ASIA_NET);
  const text = sampleCsv(net, 600, 0.3, 4, 'lung');
  const { file } = tempFile('asia.csv', text);
  const io = capture();
  const args = ['validate', ASIA_NET, '--data', file, '--target', 'lung', '--folds', '5', '--seed', '3', '--json'];
  assert.equal(await main(args, io), 0, io.stderr);
  const v = JSON.parse(io.stdout);
  assert.equal(v.folds, 5);
  assert.equal(v.seed, 3);
  // By hand: the same folds, tables counted with BDeu(1), one junction tree per row.
  const declared = Object.fromEntries(net.variables.map((x) => [x.name, x.states]));
  const read = await readDiscreteText(text, { declared });
  const data: CategoricalDataset = {
    attributes: net.variables.map((x) => ({ name: x.name, values: x.states })),
    columns: net.variables.map((x) => read.columns[read.attributes.findIndex((a) => a.name === x.name)]!),
    rowCount: read.rowCount,
  };
  const lung = net.variables.findIndex((x) => x.name === 'lung');
  let loss = 0,
    right = 0,
    n = 0;
  for (const { train, test: rows } of partitions(data.rowCount, { kind: 'folds', k: 5, seed: 3 })) {
    const fold = learnCpts(net, rowsOf(data, train), { kind: 'bdeu', ess: 1 });
    const tree = JunctionTree.compile(fold);
    for (const r of rows) {
      const evidence = new Map<number, number>();
      data.columns.forEach((c, x) => x !== lung && c[r]! >= 0 && evidence.set(x, c[r]!));
      tree.setEvidence(evidence);
      tree.propagate();
      const p = tree.marginal(lung);
      const truth = data.columns[lung]![r]!;
      loss -= Math.log(p[truth]!);
      if ((p[0]! >= p[1]! ? 0 : 1) === truth) right++;
      n++;
    }
  }
  assert.equal(v.n, n);
  assert.ok(Math.abs(v.logLoss - loss / n) < 1e-12, `${v.logLoss} vs ${loss / n}`);
  assert.equal(v.accuracy, right / n);
  // Held out (no folds) the network as given scores differently.
  const held = capture();
  assert.equal(await main(['validate', ASIA_NET, '--data', file, '--target', 'lung', '--json'], held), 0);
  assert.notEqual(JSON.parse(held.stdout).logLoss, v.logLoss);
});

test('bayes validate without the target column is an error; --folds over the rows is refused', async () => {
  const { file } = tempFile('rows.csv', 'smoke,xray\nyes,no\nno,?\n');
  const io = capture();
  assert.equal(await main(['validate', ASIA_NET, '--data', file, '--target', 'lung'], io), 1);
  assert.match(io.stderr, /:1:1: error: the data has no column lung to score against/);
  const { file: two } = tempFile('rows.csv', 'smoke,lung\nyes,no\nno,yes\n');
  const io2 = capture();
  assert.equal(await main(['validate', ASIA_NET, '--data', two, '--target', 'lung', '--folds', '3'], io2), 1);
  assert.match(io2.stderr, /--folds 3: the data has 2 rows/);
});
