import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExpectationStep, ImpossibleDataError } from '../../../../server/src/engine/estimators/expectedCounts.js';
import {
  networkEm,
  climbWithRestarts,
  randomTables,
  MonotonicityError,
} from '../../../../server/src/engine/estimators/networkEm.js';
import { gradientAscent } from '../../../../server/src/engine/estimators/gradientAscent.js';
import { learnCpts, familyStrides, countConfigurations } from '../../../../server/src/engine/estimators/cptLearning.js';
import { forwardSample, hideAtRandom } from '../../../../server/src/engine/sampling/forwardSampling.js';
import {
  meanTotalVariation,
  alignHiddenStates,
  relabel,
} from '../../../../server/src/engine/estimators/cptDistance.js';
import { createRng } from '../../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../../server/src/engine/categoricalData.js';
import { networkDataset } from '../../../../server/src/engine/dataset.js';
import { NO_SHARED, sharedFile } from '../../../support/shared.js';
import { readDiscreteFile } from '../../../../server/src/model/dataTable.js';
import { loadBif, jointTable } from '../../../support/networks.js';
import { alarmEmNetwork } from '../../../support/learning.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import { commandLineFiles } from '../../../../server/src/workspace/files.js';

function assertClose(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(a.length, b.length);
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) <= tol, `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

/** asia with 30% of cells missing and `either` hidden. */
function asiaData(net: BayesianNetwork, rows: number): CategoricalDataset {
  const d = hideAtRandom(forwardSample(net, rows, createRng(5)), 0.3, createRng(6));
  d.columns[net.variables.findIndex((v) => v.name === 'either')]!.fill(-1);
  return d;
}

test('E-step expected counts and log-likelihood equal brute-force enumeration of the joint (asia)', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 300);
  const tables = net.cpts.map((c) => c.table);
  const got = new ExpectationStep(net, data).run(tables);
  const expected = net.cpts.map((c) => new Float64Array(c.table.length));
  let ll = 0;
  const layouts = net.cpts.map((_, v) => familyStrides(net, v));
  const { cards, values } = jointTable(net);
  const assignments = Array.from(values, (_, i) => {
    const s = new Array<number>(cards.length);
    for (let v = cards.length - 1; v >= 0; v--) {
      s[v] = i % cards[v]!;
      i = Math.floor(i / cards[v]!);
    }
    return s;
  });
  for (let r = 0; r < data.rowCount; r++) {
    const consistent = assignments.map((s, i) =>
      data.columns.every((c, v) => c[r]! < 0 || c[r] === s[v]) ? values[i]! : 0,
    );
    const pe = consistent.reduce((a, b) => a + b, 0);
    ll += Math.log(pe);
    assignments.forEach((s, i) => {
      if (consistent[i] === 0) return;
      layouts.forEach(({ family, strides }, v) => {
        expected[v]![family.reduce((a, f, j) => a + s[f]! * strides[j]!, 0)]! += consistent[i]! / pe;
      });
    });
  }
  assert.ok(Math.abs(got.logLikelihood - ll) < 1e-9 * Math.abs(ll), `${got.logLikelihood} vs ${ll}`);
  expected.forEach((e, v) => assertClose(got.counts[v]!, e, 1e-9, net.variables[v]!.name));
});

test('EM on complete data is counting: one M-step gives the maximum-likelihood CPTs', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 2000, createRng(9));
  const em = networkEm(net, data, { seed: 1, maxIterations: 5 });
  const ml = learnCpts(net, data);
  em.network.cpts.forEach((c, v) => assertClose(c.table, ml.cpts[v]!.table, 1e-12, net.variables[v]!.name));
  assert.ok(em.converged && em.iterations <= 2);
});

test('EM with a hidden variable and missing values: seeded, never decreasing, restarts keep the best', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 1500);
  const progress: number[] = [];
  const run = () =>
    networkEm(net, data, {
      seed: 4,
      restarts: 3,
      maxIterations: 60,
      tolerance: 1e-7,
      checkMonotone: true,
      onProgress: (p) => progress.push(p.logLikelihood),
    });
  const a = run();
  assert.ok(progress.length > 3);
  for (let i = 1; i < a.trace.length; i++) assert.ok(a.trace[i]! >= a.trace[i - 1]! - 1e-9 * Math.abs(a.trace[i - 1]!));
  assert.equal(a.runs.length, 3);
  assert.equal(a.logLikelihood, Math.max(...a.runs.map((r) => r.logLikelihood)));
  assert.deepEqual(run().network.cpts[3]!.table, a.network.cpts[3]!.table);
  // The generating CPTs, scored on the same data, are not better than the optimum EM reaches (minus sampling slack).
  const truth = new ExpectationStep(net, data).run(net.cpts.map((c) => c.table)).logLikelihood;
  assert.ok(a.logLikelihood > truth - 5, `EM ${a.logLikelihood} vs generating ${truth}`);
});

test('gradient ascent (eq 6.25) climbs monotonically and reaches the EM optimum region', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 1500);
  const g = gradientAscent(net, data, {
    seed: 4,
    maxIterations: 250,
    tolerance: 1e-9,
    learningRate: 0.05,
    checkMonotone: true,
  });
  for (let i = 1; i < g.trace.length; i++) assert.ok(g.trace[i]! >= g.trace[i - 1]! - 1e-9 * Math.abs(g.trace[i - 1]!));
  const em = networkEm(net, data, { seed: 4, maxIterations: 100, tolerance: 1e-9 });
  assert.ok(g.logLikelihood > g.trace[0]! + 50);
  // Gradient ascent is slower than EM: after 250 steps it is within 0.05 nats per record.
  assert.ok(
    Math.abs(g.logLikelihood - em.logLikelihood) / data.rowCount < 0.05,
    `gradient ${g.logLikelihood} vs EM ${em.logLikelihood}`,
  );
});

test('cancellation stops EM with CancelledError; impossible data is a clear error', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 500);
  const signal = { aborted: false };
  let last = 0;
  const onProgress = (p: { iteration: number }) => {
    last = p.iteration;
    if (p.iteration === 3) signal.aborted = true;
  };
  assert.throws(
    () => networkEm(net, data, { seed: 1, maxIterations: 100, tolerance: 0, signal, onProgress }),
    CancelledError,
  );
  assert.equal(last, 3);
  // asia's `either` is a deterministic OR: a record with either=no but lung=yes cannot happen.
  const e = net.variables.findIndex((v) => v.name === 'either'),
    l = net.variables.findIndex((v) => v.name === 'lung');
  const bad = networkDataset(
    net.variables,
    net.variables.map((_, v) => Int32Array.from([v === e ? 1 : v === l ? 0 : -1])),
    1,
  );
  assert.throws(
    () => networkEm(net, bad, { start: 'given' }),
    (err: Error) => err instanceof ImpossibleDataError && /lung=yes/.test(err.message),
  );
});

test('the monotone invariant: MAP-EM with an m-estimate prior never lowers its objective, and a climb that falls is caught', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 1000);
  const map = networkEm(net, data, {
    seed: 2,
    prior: { kind: 'mEstimate', m: 2 },
    maxIterations: 50,
    checkMonotone: true,
  });
  assert.ok(map.iterations > 3);
  // A stepper that jumps to fresh random tables must trip the check.
  const rng = createRng(1);
  const falling = () => ({ next: (n: BayesianNetwork) => randomTables(n, rng) });
  assert.throws(
    () => climbWithRestarts(net, data, { seed: 1, maxIterations: 20, tolerance: 0, checkMonotone: true }, falling),
    MonotonicityError,
  );
});

test('relabelling a hidden variable is undone by alignHiddenStates', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const h = net.variables.findIndex((v) => v.name === 'either');
  const swapped = relabel(net, h, [1, 0]);
  assert.ok(meanTotalVariation(swapped, net).mean > 0.05);
  assert.ok(meanTotalVariation(alignHiddenStates(swapped, net, h), net).mean < 1e-15);
});

test('recovery on ALARM (small): 1,000 records, 20% missing, LVFAILURE hidden — EM beats the generating CPTs and recovers the rest', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const full = forwardSample(net, 1000, createRng(1));
  const data = hideAtRandom(full, 0.2, createRng(2));
  const h = net.variables.findIndex((v) => v.name === 'LVFAILURE');
  data.columns[h]!.fill(-1);
  const em = networkEm(net, data, { seed: 3, maxIterations: 20, tolerance: 1e-6, checkMonotone: true });
  const truth = new ExpectationStep(net, data).run(net.cpts.map((c) => c.table)).logLikelihood;
  t.diagnostic(
    `EM log-likelihood ${em.logLikelihood.toFixed(1)} after ${em.iterations} iterations; generating CPTs ${truth.toFixed(1)}`,
  );
  assert.ok(em.logLikelihood > truth - 0.001 * Math.abs(truth));
  const observed = net.variables.map((_, v) => v).filter((v) => v !== h);
  // Weight rows by how often their parent configuration occurs (rare rows are noise at 1,000 records).
  const weights = (v: number) => countConfigurations(full, net.cpts[v]!.parents);
  const tv = meanTotalVariation(alignHiddenStates(em.network, net, h), net, {
    variables: observed,
    rowWeights: weights,
  }).mean;
  t.diagnostic(`mean total variation over the 36 observed variables: ${tv.toFixed(4)}`);
  assert.ok(tv < 0.06, `${tv}`);
});

test('alarm-em records.dat (11,100 records, ? missing): EM from unknown CPTs lands near gold_alarm.bif', async (t) => {
  const dat = sharedFile('tables', 'alarm-em', 'records.dat');
  const net = alarmEmNetwork('alarm.bif');
  const gold = alarmEmNetwork('gold_alarm.bif');
  if (!dat || !net || !gold) return t.skip(NO_SHARED);
  assert.ok(
    net.cpts.every((c) => c.table.every((p) => Number.isNaN(p))),
    'the course network has unknown (-1) CPTs',
  );
  const data = await readDiscreteFile(commandLineFiles(), dat, { delimiter: ' ', columns: net.variables });
  const em = networkEm(net, data, { seed: 1, maxIterations: 100, tolerance: 1e-7, checkMonotone: true });
  const goldLl = new ExpectationStep(net, data).run(gold.cpts.map((c) => c.table)).logLikelihood;
  const tv = meanTotalVariation(em.network, gold);
  t.diagnostic(
    `records.dat: EM log-likelihood ${em.logLikelihood.toFixed(2)} (${em.iterations} iterations), gold CPTs ${goldLl.toFixed(2)}; mean TV to gold ${tv.mean.toFixed(4)}`,
  );
  assert.ok(em.converged);
  assert.ok(
    em.logLikelihood >= goldLl,
    'the maximum-likelihood CPTs fit the data at least as well as the generating ones',
  );
  assert.ok(tv.mean < 0.03, `mean TV ${tv.mean}`);
});
