import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  kalmanFilter,
  kalmanSmoother,
  kalmanSteps,
  type KalmanResult,
} from '../../../../server/src/engine/dynamic/kalman.js';
import type { GaussianTwoSliceNetwork } from '../../../../server/src/engine/dynamic/gaussianSlice.js';
import { BudgetError } from '../../../../server/src/engine/budget.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';
import { complete } from '../../../../server/src/engine/stepwise.js';
import { pythonMissing, runPython } from '../../../support/python.js';
import { oracleInput, randomGaussianTwoSlice, sampleGaussianSequence } from '../../../support/gaussianTwoSlice.js';
import { repoRoot } from '../../../support/shared.js';

const SCRIPT = readFileSync(join(repoRoot, 'test', 'support', 'numpyKalman.py'), 'utf8');

interface Moments {
  filteredMeans: number[][];
  filteredVariances: number[][];
  smoothedMeans: number[][];
  smoothedVariances: number[][];
  predictedMeans: number[][];
  predictedVariances: number[][];
  logLikelihood: number;
  mostLikely?: number[][];
  modeLogDensity?: number;
}

type Series = 'filtered' | 'smoothed' | 'predicted';
type Moment = 'means' | 'variances';

/** Each named series of `r` equals the oracle's to 1e-9 (relative), and so does the log-likelihood. */
function assertEqualsOracle(r: KalmanResult, peer: Moments, at: string, series: [Series, Moment][]): void {
  for (const [which, moment] of series) {
    const key = `${which}${moment === 'means' ? 'Means' : 'Variances'}` as keyof Moments;
    const ours = r[which]!.map((m) => m[moment]);
    assert.ok(relative(ours, peer[key] as number[][]) < 1e-9, `${which} ${moment}, ${at}`);
  }
  assert.ok(
    relative([[r.logLikelihood]], [[peer.logLikelihood]]) < 1e-9,
    `log-likelihood ${r.logLikelihood} vs ${peer.logLikelihood}, ${at}`,
  );
}

/** The largest |ours − theirs| / max(1, |theirs|) over every step and variable. */
function relative(ours: ArrayLike<number>[], theirs: number[][]): number {
  assert.equal(ours.length, theirs.length);
  let worst = 0;
  ours.forEach((row, t) => {
    for (let i = 0; i < row.length; i++) {
      const y = theirs[t]![i]!;
      worst = Math.max(worst, Math.abs(row[i]! - y) / Math.max(1, Math.abs(y)));
    }
  });
  return worst;
}

test('Kalman filter, RTS smoother, prediction, most likely sequence and log-likelihood equal the unrolled joint Gaussian (numpy, small T, 1–8 variables per slice, random missing readings)', (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  for (let seed = 1; seed <= 16; seed++) {
    const n = 1 + ((seed - 1) % 8);
    const T = 2 + (seed % 6);
    const net = randomGaussianTwoSlice(seed, n);
    const observations = sampleGaussianSequence(seed, net, T, seed % 3 === 0 ? 0.25 : 0.6);
    const peer = runPython<{ brute: Moments }>(
      SCRIPT,
      oracleInput(net, observations, { predict: 3, brute: true }),
    ).brute;
    const r = kalmanSmoother(net, observations, { predict: 3 });
    const at = `seed ${seed}, ${n} variables, T = ${T}`;
    assertEqualsOracle(r, peer, at, [
      ['filtered', 'means'],
      ['filtered', 'variances'],
      ['smoothed', 'means'],
      ['smoothed', 'variances'],
      ['predicted', 'means'],
      ['predicted', 'variances'],
    ]);
    assert.ok(relative(r.mostLikely!, peer.mostLikely!) < 1e-9, `most likely sequence, ${at}`);
    assert.ok(
      relative([[r.mostLikelyLogDensity!]], [[peer.modeLogDensity!]]) < 1e-9,
      `ln p(x*, y) ${r.mostLikelyLogDensity} vs ${peer.modeLogDensity}, ${at}`,
    );
  }
});

test('long sequences (T up to 10^4) equal an independent numpy Kalman filter and RTS smoother', (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const cases: [number, number, number][] = [
    [21, 1, 10_000],
    [22, 3, 10_000],
    [23, 8, 2_000],
  ];
  for (const [seed, n, T] of cases) {
    const net = randomGaussianTwoSlice(seed, n);
    const observations = sampleGaussianSequence(seed, net, T, 0.5);
    const peer = runPython<{ kf: Moments }>(SCRIPT, oracleInput(net, observations, { predict: 5 })).kf;
    const r = kalmanSmoother(net, observations, { predict: 5 });
    const at = `seed ${seed}, ${n} variables, T = ${T}`;
    assertEqualsOracle(r, peer, at, [
      ['filtered', 'means'],
      ['filtered', 'variances'],
      ['smoothed', 'means'],
      ['smoothed', 'variances'],
      ['predicted', 'means'],
    ]);
  }
});

test('a random walk read with noise reaches the closed-form steady state: P = (q + √(q² + 4qr)) / 2 before the reading, gain K = P / (P + r)', () => {
  // x_t = x_{t−1} + w (variance q), y_t = x_t + v (variance r): the Riccati fixed point of the prior
  // variance solves P² − qP − qr = 0 (P = P r / (P + r) + q); the filtered variance is then P r / (P + r).
  const q = 0.3;
  const r = 2;
  const net: GaussianTwoSliceNetwork = {
    name: 'Walk',
    variables: ['X', 'Y'],
    initial: [
      { child: 0, parents: [], coefficients: [], mean: 0, variance: 5 },
      { child: 1, parents: [0], coefficients: [1], mean: 0, variance: r },
    ],
    transition: [
      { child: 0, parents: [2], coefficients: [1], mean: 0, variance: q },
      { child: 1, parents: [0], coefficients: [1], mean: 0, variance: r },
    ],
  };
  const readings = Array.from({ length: 200 }, (_, t) => new Map([[1, Math.sin(t / 7) * 3]]));
  const res = kalmanFilter(net, readings);
  const prior = (q + Math.sqrt(q * q + 4 * q * r)) / 2;
  const gain = prior / (prior + r);
  const last = res.filtered[199]!;
  assert.ok(Math.abs(last.variances[0]! - (1 - gain) * prior) < 1e-12, `${last.variances[0]} vs ${(1 - gain) * prior}`);
  // In the steady state the mean moves by the gain times the innovation.
  const before = res.filtered[198]!.means[0]!;
  const expected = before + gain * (readings[199]!.get(1)! - before);
  assert.ok(Math.abs(last.means[0]! - expected) < 1e-12, `${last.means[0]} vs ${expected}`);
  assert.equal(last.means[1], readings[199]!.get(1));
  assert.equal(last.variances[1], 0);
});

test('smoothing stores (T + 1)(n + n²) numbers: over the budget it filters only and says why; the marginals themselves are checked first', () => {
  const net = randomGaussianTwoSlice(5, 3);
  const observations = sampleGaussianSequence(5, net, 50, 0.5);
  const r = kalmanSmoother(net, observations, { maxEntries: 800 });
  assert.equal(r.smoothed, undefined);
  assert.match(r.note!, /smoothing 50 steps stores 612 numbers, over the budget of 800/);
  assert.equal(r.filtered.length, 50);
  assert.throws(() => kalmanFilter(net, observations, { maxEntries: 100 }), BudgetError);
});

test('the passes stop with CancelledError when the signal is aborted, and report forward and backward steps', () => {
  const net = randomGaussianTwoSlice(6, 2);
  const observations = sampleGaussianSequence(6, net, 20, 0.5);
  const signal = { aborted: false };
  const work = kalmanSteps(net, observations, { smooth: true, signal });
  const phases: string[] = [];
  for (let i = 0; i < 25; i++) phases.push((work.next().value as { phase: string }).phase);
  assert.deepEqual([phases[0], phases[19], phases[20]], ['forward', 'forward', 'backward']);
  signal.aborted = true;
  assert.throws(() => complete(work), CancelledError);
});

test('bad templates are refused in words: a cycle inside the slice, a variance ≤ 0, a non-finite observation', () => {
  const base = randomGaussianTwoSlice(7, 2);
  const cyclic: GaussianTwoSliceNetwork = {
    ...base,
    transition: [
      { child: 0, parents: [1], coefficients: [1], mean: 0, variance: 1 },
      { child: 1, parents: [0], coefficients: [1], mean: 0, variance: 1 },
    ],
  };
  assert.throws(() => kalmanFilter(cyclic, []), /the transition slice has a cycle: X\d → X\d/);
  const flat = { ...base, initial: base.initial.map((t) => ({ ...t, variance: 0 })) };
  assert.throws(() => kalmanFilter(flat, []), /variance must be a finite number > 0/);
  assert.throws(() => kalmanFilter(base, [new Map([[0, NaN]])]), EngineError);
});
