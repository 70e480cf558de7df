/**
 * The `sequence` result of a Gaussian network over time (run/gaussianSequenceResults.ts, the panel's
 * chart over t of real variables): every step's filtered and smoothed mean and variance equal the
 * Kalman filter and RTS smoother run on the same template written by hand, and the tracking
 * example's expect lines (numpy's conditioning of the unrolled joint Gaussian); the band is
 * mean ± 2√variance; the forecast reaches the furthest step asked; a long sequence arrives in at
 * most SEQUENCE_POINTS buckets whose numbers are those of the steps they hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { kalmanSmoother, type GaussianMarginals } from '../../../server/src/engine/dynamic/kalman.js';
import type { GaussianTwoSliceNetwork } from '../../../server/src/engine/dynamic/gaussianSlice.js';
import { gaussianSequenceResult } from '../../../server/src/run/gaussianSequenceResults.js';
import { DEFAULT_BUDGETS } from '../../../server/src/engine/budget.js';
import { createRng } from '../../../server/src/engine/random.js';
import { sequenceProblem } from '../../../server/src/protocol/sequenceCheck.js';
import {
  SEQUENCE_POINTS,
  type ExpectResult,
  type GaussianSequenceBands,
  type GaussianSequenceResult,
  type RunResult,
} from '../../../server/src/protocol/runResult.js';
import { repoRoot } from '../../support/shared.js';
import { run, runExample } from './helpers.js';
import { driftTemplate } from '../../support/gaussianTwoSlice.js';

const close = (a: number | undefined, b: number, what: string, tol = 1e-12) =>
  assert.ok(a !== undefined && Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

const sequenceOf = (r: RunResult) =>
  r.results.filter((x): x is GaussianSequenceResult => x.kind === 'sequence' && x.method === 'kalman');

/** tracking.bayes as the engine's template: Position 0, Velocity 1, Reading 2; slice t−1's are 3, 4, 5. */
const tracking: GaussianTwoSliceNetwork = {
  name: 'Tracking',
  variables: ['Position', 'Velocity', 'Reading'],
  initial: [
    { child: 0, parents: [], coefficients: [], mean: 0, variance: 1 },
    { child: 1, parents: [], coefficients: [], mean: 1, variance: 0.25 },
    { child: 2, parents: [0], coefficients: [1], mean: 0, variance: 4 },
  ],
  transition: [
    { child: 0, parents: [3, 4], coefficients: [1, 1], mean: 0, variance: 0.01 },
    { child: 1, parents: [4], coefficients: [1], mean: 0, variance: 0.01 },
    { child: 2, parents: [0], coefficients: [1], mean: 0, variance: 4 },
  ],
};

/** Each step's marginals against the series at one step per point, band = mean ± 2√variance. */
function sameSeries(s: GaussianSequenceBands, steps: readonly GaussianMarginals[], v: number, what: string): void {
  assert.equal(s.mean.length, steps.length, what);
  assert.equal(s.min, undefined, `${what}: no envelope at one step a point`);
  steps.forEach((m, t) => {
    close(s.mean[t], m.means[v]!, `${what} mean ${t + 1}`);
    close(s.variance[t], m.variances[v]!, `${what} variance ${t + 1}`);
    close(s.lower[t], s.mean[t]! - 2 * Math.sqrt(s.variance[t]!), `${what} lower ${t + 1}`);
    close(s.upper[t], s.mean[t]! + 2 * Math.sqrt(s.variance[t]!), `${what} upper ${t + 1}`);
  });
}

test('tracking.bayes: one sequence entry = the Kalman smoother on the template, the expect lines, the readings, a 2-step forecast', async () => {
  const result = await runExample('tracking.bayes');
  const entries = sequenceOf(result);
  // Seven statements read (Tracking, Readings): one chart.
  assert.equal(entries.length, 1);
  const e = entries[0]!;
  assert.equal(sequenceProblem(e), undefined);
  assert.deepEqual([e.network, e.data, e.steps, e.forecast, e.bucket], ['Tracking', 'Readings', 10, 2, 1]);
  assert.equal(e.range.start.line, 15, 'the first statement that asked');
  const cells = readFileSync(join(repoRoot, 'examples', 'data', 'tracking.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1);
  const readings = cells.map((c) => new Map(c === '?' ? [] : [[2, Number(c)]]));
  const k = kalmanSmoother(tracking, readings, { predict: 2 });
  close(e.logLikelihood, k.logLikelihood, 'log-likelihood');
  e.variables.forEach((variable, v) => {
    assert.equal(variable.name, tracking.variables[v]);
    sameSeries(variable.filtered, k.filtered, v, `${variable.name} filtered`);
    sameSeries(variable.smoothed!, k.smoothed!, v, `${variable.name} smoothed`);
    sameSeries(variable.forecast!, k.predicted!, v, `${variable.name} forecast`);
    // The smoothed means are the most likely sequence.
    k.mostLikely!.forEach((x, t) => close(variable.smoothed!.mean[t], x[v]!, `${variable.name} most likely ${t + 1}`));
  });
  const reading = e.variables[2]!;
  assert.deepEqual(
    reading.observed,
    cells.map((c) => (c === '?' ? null : Number(c))),
  );
  assert.deepEqual(e.variables[0]!.observed, new Array(10).fill(null));
  // The example's expect lines (numpy to 1e-9) read the same numbers.
  const actual = (line: number) =>
    result.results.find((r): r is ExpectResult => r.kind === 'expect' && r.range.start.line === line)!.actual as number;
  const position = e.variables[0]!;
  close(position.filtered.mean[3], actual(15), 'filtered mean Position[4]');
  close(position.filtered.variance[3], actual(16), 'filtered variance Position[4]');
  close(position.smoothed!.mean[4], actual(17), 'smoothed mean Position[5]');
  close(position.smoothed!.variance[4], actual(18), 'smoothed variance Position[5]');
  close(e.variables[1]!.smoothed!.mean[9], actual(19), 'smoothed mean Velocity[10]');
  close(position.forecast!.mean[1], actual(20), 'forecast mean Position[12]');
  close(position.forecast!.variance[1], actual(21), 'forecast variance Position[12]');
  // An observed variable's filtered mean is its reading, with no spread.
  close(reading.filtered.mean[0], 1.3, 'Reading[1]');
  assert.equal(reading.filtered.variance[0], 0);
});

const drift = driftTemplate;
const driftText = `network Drift {
  variable Level, Meter : real
  P(Level[0]) ~ Normal(mean: 10, variance: 2)
  P(Level[t] | Level[t-1]) ~ Normal(mean: 1, Level[t-1]: 0.9, variance: 0.5)
  P(Meter[t] | Level[t]) ~ Normal(mean: -0.5, Level[t]: 1.1, variance: 0.3)
}
`;

test('2400 steps and a 30-step forecast: 486 points of 5 steps, each the mean, envelope and band envelope of its steps', async () => {
  const T = 2400;
  const rng = createRng(11);
  const cells = Array.from({ length: T }, (_, t) =>
    rng.next() < 0.2 ? '?' : (10 + 3 * Math.sin(t / 40) + rng.normal()).toFixed(3),
  );
  const text = `${driftText}data Meters {\n  Meter\n${cells.map((c) => '  ' + c).join('\n')}\n}\nquery mean Level[${T + 30}] in Drift given Meters\nquery P(Level[3]) in Drift given Meters\n`;
  const result = await run(text);
  const e = sequenceOf(result)[0]!;
  assert.ok(e, JSON.stringify(result.diagnostics));
  assert.equal(sequenceProblem(e), undefined);
  assert.deepEqual([e.steps, e.forecast, e.bucket], [T, 30, 5]);
  assert.ok(Math.ceil((T + 30) / e.bucket) <= SEQUENCE_POINTS);
  const readings = cells.map((c) => new Map(c === '?' ? [] : [[1, Number(c)]]));
  const k = kalmanSmoother(drift, readings, { predict: 30 });
  const check = (s: GaussianSequenceBands, steps: readonly GaussianMarginals[], v: number, what: string) => {
    assert.equal(s.mean.length, Math.ceil(steps.length / 5), what);
    for (let b = 0; b < s.mean.length; b++) {
      const held = steps.slice(b * 5, b * 5 + 5);
      const means = held.map((m) => m.means[v]!);
      const sds = held.map((m) => Math.sqrt(m.variances[v]!));
      const avg = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length;
      close(s.mean[b], avg(means), `${what} ${b} mean`);
      close(s.variance[b], avg(held.map((m) => m.variances[v]!)), `${what} ${b} variance`);
      close(s.min![b], Math.min(...means), `${what} ${b} min`);
      close(s.max![b], Math.max(...means), `${what} ${b} max`);
      close(s.lower[b], Math.min(...means.map((m, i) => m - 2 * sds[i]!)), `${what} ${b} lower`);
      close(s.upper[b], Math.max(...means.map((m, i) => m + 2 * sds[i]!)), `${what} ${b} upper`);
    }
  };
  e.variables.forEach((variable, v) => {
    check(variable.filtered, k.filtered, v, `${variable.name} filtered`);
    check(variable.smoothed!, k.smoothed!, v, `${variable.name} smoothed`);
    check(variable.forecast!, k.predicted!, v, `${variable.name} forecast`);
  });
  const meter = e.variables[1]!;
  for (let b = 0; b < T / 5; b++) {
    const seen = cells
      .slice(b * 5, b * 5 + 5)
      .filter((c) => c !== '?')
      .map(Number);
    assert.equal(meter.observedSteps![b], seen.length);
    if (!seen.length) assert.equal(meter.observed[b], null);
    else {
      close(meter.observed[b]!, seen.reduce((a, x) => a + x, 0) / seen.length, `reading ${b}`);
      assert.equal(meter.observedMin![b], Math.min(...seen));
      assert.equal(meter.observedMax![b], Math.max(...seen));
    }
  }
});

test('smoothing over the budget: filtering only, said in a note; the chart itself over the budget is left out', () => {
  const steps = Array.from({ length: 2000 }, (_, t) => new Map([[1, 10 + t / 100]]));
  const statement = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
  const asked = { kind: 'gaussian' as const, net: drift, data: 'D', steps, forecast: 0, statement };
  // Smoothing stores (T + 1)(n + n²) = 12006 numbers besides the 8000 of the marginals; the chart
  // sends 500 points of 2 variables, at most 16 numbers each.
  const e = gaussianSequenceResult(asked, { ...DEFAULT_BUDGETS, maxTotalEntries: 18000 });
  assert.equal(e.variables[0]!.smoothed, undefined);
  assert.match(e.note!, /smoothing 2000 steps stores 12006 numbers, over the budget of 18000: filtering only/);
  assert.equal(sequenceProblem(e), undefined);
  assert.throws(
    () => gaussianSequenceResult(asked, { ...DEFAULT_BUDGETS, maxTotalEntries: 10000 }),
    /the chart's 16000 numbers are over the budget of 10000/,
  );
});
