import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  argmax,
  probabilisticScores,
  rocCurve,
  SCORE_TIE,
  type ScoredPredictions,
} from '../../../../server/src/engine/classifiers/probabilisticScores.js';
import { heldOutPredictions } from '../../../../server/src/engine/classifiers/validation.js';
import { forwardSample, hideAtRandom } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { readBif } from '../../../../server/src/model/bif.js';
import { PY_TIED_SCORES, pythonMissing, runPython } from '../../../support/python.js';
import { repoRoot } from '../../../support/shared.js';

const SKLEARN = `
import json, sys
import numpy as np
from sklearn.metrics import accuracy_score, log_loss, brier_score_loss, roc_auc_score, roc_curve, confusion_matrix
from sklearn.calibration import calibration_curve
${PY_TIED_SCORES}
d = json.load(sys.stdin)
P = np.array(d['p']).reshape(-1, d['k']); y = np.array(d['y']); k = d['k']; pos = d['positive']
T = np.column_stack([tied(P[:, s]) for s in range(k)])  # round-off ties as ties, for ROC and AUC
out = {
  'accuracy': accuracy_score(y, P.argmax(axis=1)),
  'logLoss': log_loss(y, P, labels=list(range(k))),
  'confusion': confusion_matrix(y, P.argmax(axis=1), labels=list(range(k))).tolist(),
  'roc': {}, 'calibration': {},
}
states = [pos] if k == 2 else list(range(k))
for s in states:
  hit = (y == s).astype(int)
  if 0 < hit.sum() < len(hit):
    fpr, tpr, th = roc_curve(hit, T[:, s])
    out['roc'][str(s)] = {'fpr': fpr.tolist(), 'tpr': tpr.tolist(), 'thresholds': th.tolist(), 'auc': roc_auc_score(hit, T[:, s])}
  out['calibration'][str(s)] = {}
  for b in d['bins']:
    true, pred = calibration_curve(hit, P[:, s], n_bins=b, strategy='uniform')
    out['calibration'][str(s)][str(b)] = {'fractionPositive': true.tolist(), 'meanPredicted': pred.tolist()}
if k == 2:
  out['brier'] = brier_score_loss((y == pos).astype(int), P[:, pos])
  out['auc'] = roc_auc_score((y == pos).astype(int), T[:, pos])
else:
  out['brier'] = float(np.mean(np.sum((np.eye(k)[y] - P) ** 2, axis=1)))
  out['auc'] = float(np.mean([roc_auc_score((y == s).astype(int), T[:, s]) for s in range(k) if 0 < (y == s).sum() < len(y)]))
print(json.dumps(out))
`;

interface Peer {
  accuracy: number;
  logLoss: number;
  brier: number;
  auc: number;
  confusion: number[][];
  roc: Record<string, { fpr: number[]; tpr: number[]; thresholds: number[]; auc: number }>;
  calibration: Record<string, Record<string, { fractionPositive: number[]; meanPredicted: number[] }>>;
}

function close(a: readonly number[], b: readonly number[], what: string): void {
  assert.equal(a.length, b.length, `${what}: lengths ${a.length} and ${b.length}`);
  a.forEach((x, i) => assert.ok(Math.abs(x - b[i]!) <= 1e-12, `${what}[${i}]: ${x} vs ${b[i]}`));
}

function compare(p: ScoredPredictions, positive: number, bins: number[]): void {
  const peer = runPython<Peer>(SKLEARN, {
    p: Array.from(p.probabilities),
    y: Array.from(p.truth),
    k: p.states.length,
    positive,
    bins,
  });
  for (const b of bins) {
    const ours = probabilisticScores(p, b, positive);
    for (const key of ['accuracy', 'logLoss', 'brier', 'auc'] as const)
      assert.ok(Math.abs(ours[key]! - peer[key]) <= 1e-12, `${key}: ${ours[key]} vs ${peer[key]}`);
    assert.deepEqual(ours.confusion.matrix, peer.confusion);
    for (const [s, theirs] of Object.entries(peer.roc)) {
      const mine = ours.roc[p.states[Number(s)]!]!;
      close(mine.fpr, theirs.fpr, 'fpr');
      close(mine.tpr, theirs.tpr, 'tpr');
      close(mine.thresholds, theirs.thresholds, 'thresholds');
      assert.ok(Math.abs(mine.auc - theirs.auc) <= 1e-12);
    }
    for (const [s, byBins] of Object.entries(peer.calibration)) {
      const mine = ours.calibration[p.states[Number(s)]!]!;
      close(mine.meanPredicted, byBins[String(b)]!.meanPredicted, `meanPredicted (${b} bins)`);
      close(mine.fractionPositive, byBins[String(b)]!.fractionPositive, `fractionPositive (${b} bins)`);
    }
  }
}

function alarmPredictions(targetName: string, hidden: number, seed: number): ScoredPredictions {
  const r = readBif(readFileSync(join(repoRoot, 'examples', 'data', 'alarm.bif'), 'utf8'));
  if ('error' in r) throw new Error(r.error.message);
  const net = r.network;
  const target = net.variables.findIndex((v) => v.name === targetName);
  const rng = createRng(seed);
  const full = forwardSample(net, 800, rng);
  const data = hideAtRandom(full, hidden, rng);
  // The truth stays observed: only the evidence is hidden.
  const columns = data.columns.map((c, v) => (v === target ? full.columns[v]! : c));
  const p = heldOutPredictions(net, target, { columns, rowCount: data.rowCount });
  return { states: net.variables[target]!.states, probabilities: p.probabilities, truth: p.truth };
}

test('two states: every score equals scikit-learn on ALARM predictions (1e-12)', (t) => {
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  const p = alarmPredictions('HYPOVOLEMIA', 0.6, 3);
  compare(p, 0, [10, 7, 3]);
  compare(p, 1, [10]);
});

test('three states: one-vs-rest ROC, macro AUC, Brier sum and calibration equal scikit-learn (1e-12)', (t) => {
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  const p = alarmPredictions('HR', 0.5, 5);
  assert.equal(p.states.length, 3);
  compare(p, 0, [10, 4]);
});

test('probabilities on the bin edges and ties fall as scikit-learn bins them', (t) => {
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  const edge = [0, 0.1, 0.2, 0.3, 0.30000000000000004, 0.5, 0.7, 0.7, 0.9, 1, 0.1, 0.6, 0.6, 0.6];
  const truth = Int32Array.from(edge, (_, i) => (i % 3 === 0 ? 0 : 1));
  const p: ScoredPredictions = {
    states: ['yes', 'no'],
    probabilities: Float64Array.from(edge.flatMap((x) => [x, 1 - x])),
    truth,
  };
  compare(p, 0, [10, 5, 3, 1]);
});

/** Mann–Whitney by every pair: P(score of a positive > a negative's), a tie counting 1/2. */
function pairwiseAuc(score: number[], hit: number[], same: (a: number, b: number) => boolean): number {
  let wins = 0,
    pairs = 0;
  score.forEach((a, i) =>
    score.forEach((b, j) => {
      if (hit[i] !== 1 || hit[j] !== 0) return;
      pairs++;
      wins += same(a, b) ? 0.5 : a > b ? 1 : 0;
    }),
  );
  return wins / pairs;
}

test('AUC: scores equal up to round-off are ties (1/2 a pair), exactly as equal scores are', () => {
  const exact = [0.9, 0.8, 0.8, 0.8, 0.3, 0.3, 0.1];
  const hit = [1, 1, 0, 1, 0, 1, 0];
  const auc = (score: number[]) => rocCurve(Float64Array.from(score), Int32Array.from(hit))!.auc;
  const expected = pairwiseAuc(exact, hit, (a, b) => a === b);
  assert.equal(auc(exact), expected);
  // The same scores a few ulps apart, in either direction: products taken in another order.
  const ulp = (x: number, k: number) => x + k * Number.EPSILON * x;
  for (const k of [1, -1, 3, -7]) {
    const near = exact.map((x, i) => (i % 2 ? ulp(x, k) : x));
    assert.notDeepEqual(near, exact);
    assert.equal(auc(near), expected, `ties ${k} ulps apart`);
  }
  // A run of ties is measured from its first (largest) score: no chain drifts past the tolerance.
  const chain = [1, 1 - 0.6 * SCORE_TIE, 1 - 1.2 * SCORE_TIE, 1 - 1.8 * SCORE_TIE];
  const curve = rocCurve(Float64Array.from(chain), Int32Array.from([1, 0, 1, 0]))!;
  assert.deepEqual(curve.thresholds.slice(1), [1, chain[2]], 'two thresholds: the run breaks after 1.2e-12');
});

test('AUC equals the pairwise Mann–Whitney count on random scores with exact and round-off ties', () => {
  const rng = createRng(33);
  for (let trial = 0; trial < 200; trial++) {
    const n = 2 + Math.floor(rng.next() * 30);
    const levels = 1 + Math.floor(rng.next() * 6); // few distinct values: many ties
    const base = Array.from({ length: n }, () => Math.floor(rng.next() * levels) / levels);
    const score = base.map((x) => (rng.next() < 0.5 ? x * (1 + (rng.next() - 0.5) * 1e-15) : x));
    const hit = Array.from({ length: n }, () => (rng.next() < 0.4 ? 1 : 0));
    const curve = rocCurve(Float64Array.from(score), Int32Array.from(hit));
    if (!hit.includes(1) || !hit.includes(0)) {
      assert.equal(curve, undefined);
      continue;
    }
    const expected = pairwiseAuc(base, hit, (a, b) => a === b);
    assert.ok(Math.abs(curve!.auc - expected) < 1e-12, `trial ${trial}: ${curve!.auc} vs ${expected}`);
  }
});

test('AUC equals scikit-learn roc_auc_score on the scores rounded to 12 significant digits', (t) => {
  const why = pythonMissing(['sklearn', 'numpy']);
  if (why) return t.skip(why);
  // Posterior-like levels far apart (≥ 1e-3 relative), each copy a few ulps off its level, as
  // inference leaves mathematically equal posteriors: rounding to 12 digits gives scikit-learn
  // the exact ties that rocCurve must find by itself.
  const rng = createRng(2033);
  const cases = Array.from({ length: 40 }, () => {
    const levels = Array.from({ length: 1 + Math.floor(rng.next() * 8) }, () => 10 ** (-6 * rng.next()));
    const n = 5 + Math.floor(rng.next() * 60);
    const score = Array.from({ length: n }, () => {
      const x = levels[Math.floor(rng.next() * levels.length)]!;
      return x * (1 + Math.round((rng.next() - 0.5) * 16) * Number.EPSILON);
    });
    const hit = score.map((_, i) => (i === 0 ? 1 : i === 1 ? 0 : rng.next() < 0.5 ? 1 : 0));
    return { score, hit };
  });
  const peer = runPython<number[]>(
    `import json, sys
from sklearn.metrics import roc_auc_score
d = json.load(sys.stdin)
print(json.dumps([roc_auc_score(c['hit'], [float('%.12g' % x) for x in c['score']]) for c in d]))`,
    cases,
  );
  cases.forEach((c, i) => {
    const ours = rocCurve(Float64Array.from(c.score), Int32Array.from(c.hit))!.auc;
    assert.ok(Math.abs(ours - peer[i]!) < 1e-12, `case ${i}: ${ours} vs scikit-learn ${peer[i]}`);
  });
});

test('spherical payoff and the closed forms of a tiny case', () => {
  // Two rows: P = (0.8, 0.2) truth 0; P = (0.4, 0.6) truth 0.
  const p: ScoredPredictions = {
    states: ['a', 'b'],
    probabilities: Float64Array.of(0.8, 0.2, 0.4, 0.6),
    truth: Int32Array.of(0, 0),
  };
  const s = probabilisticScores(p, 2);
  assert.equal(s.accuracy, 0.5);
  assert.ok(Math.abs(s.logLoss - -(Math.log(0.8) + Math.log(0.4)) / 2) < 1e-15);
  assert.ok(Math.abs(s.brier - (0.2 ** 2 + 0.6 ** 2) / 2) < 1e-15);
  const spherical = (0.8 / Math.hypot(0.8, 0.2) + 0.4 / Math.hypot(0.4, 0.6)) / 2;
  assert.ok(Math.abs(s.spherical - spherical) < 1e-15);
  assert.equal(s.auc, null, 'only one state occurs: no ROC curve');
  assert.deepEqual(s.aucSkipped, ['a']);
  assert.equal(argmax([0.5, 0.5]), 0);
});
