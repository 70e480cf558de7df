import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ExpectationStep,
  ImpossibleDataError,
  dataLogLikelihood,
} from '../../../../server/src/engine/estimators/expectedCounts.js';
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

test("gradient ascent (eq 6.25) climbs monotonically to EM's optimum, seeded; at the optimum the gradient vanishes", (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = asiaData(net, 1500);
  for (const seed of [1, 4]) {
    const g = gradientAscent(net, data, { seed, maxIterations: 1000, tolerance: 1e-9, checkMonotone: true });
    for (let i = 1; i < g.trace.length; i++)
      assert.ok(g.trace[i]! >= g.trace[i - 1]! - 1e-9 * Math.abs(g.trace[i - 1]!));
    const em = networkEm(net, data, { seed, maxIterations: 1000, tolerance: 1e-9 });
    t.diagnostic(
      `seed ${seed}: gradient ${g.logLikelihood.toFixed(4)} in ${g.iterations} iterations, EM ${em.logLikelihood.toFixed(4)} in ${em.iterations}`,
    );
    assert.ok(g.converged && g.logLikelihood > g.trace[0]! + 50);
    assert.ok(
      Math.abs(g.logLikelihood - em.logLikelihood) < 1e-6 * Math.abs(em.logLikelihood),
      `gradient ${g.logLikelihood} vs EM ${em.logLikelihood}`,
    );
    // The same seed, the same climb.
    assert.deepEqual(gradientAscent(net, data, { seed, maxIterations: 1000, tolerance: 1e-9 }).trace, g.trace);
    // Closed check: at a stationary point eq 6.25's gradient c/w is the same for every state of a row
    // (its projection on Σ w = 1 vanishes), i.e. w = c/N; where a row has expected count N, the
    // projected gradient per record, N (c/(N w) − 1) / records, is ~0.
    const tables = g.network.cpts.map((c) => c.table);
    const { counts } = new ExpectationStep(net, data).run(tables);
    let worst = 0;
    tables.forEach((w, v) => {
      const k = net.variables[v]!.states.length;
      for (let r = 0; r < w.length; r += k) {
        let total = 0;
        for (let x = 0; x < k; x++) total += counts[v]![r + x]!;
        for (let x = 0; x < k; x++)
          worst = Math.max(worst, Math.abs(counts[v]![r + x]! - total * w[r + x]!) / data.rowCount);
      }
    });
    assert.ok(worst < 1e-4, `largest projected gradient per record ${worst}`);
  }
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

test("counting's log-likelihood report never throws: records of probability 0 are counted and explained", () => {
  // A → B → C. Counted tables: P(a1) = 3/5, P(b1 | a1) = 1, P(b2 | a2) = 1, P(c2 | b1) = 1, P(c1 | b2) = 1,
  // so (a1, ?, c1) needs P(c1 | b1) or P(b2 | a1), both 0; the others score 2 ln 3/5 + 2 ln 2/5.
  const bin = (name: string) => ({ name, states: [`${name.toLowerCase()}1`, `${name.toLowerCase()}2`] });
  const shape: BayesianNetwork = {
    name: 'chain',
    variables: [bin('A'), bin('B'), bin('C')],
    cpts: [
      { child: 0, parents: [], table: new Float64Array(2) },
      { child: 1, parents: [0], table: new Float64Array(4) },
      { child: 2, parents: [1], table: new Float64Array(4) },
    ],
  };
  const rows = [
    [0, 0, 1],
    [0, 0, 1],
    [1, 1, 0],
    [1, 1, 0],
    [0, -1, 0],
  ];
  const data = networkDataset(
    shape.variables,
    [0, 1, 2].map((c) => Int32Array.from(rows, (r) => r[c]!)),
    rows.length,
  );
  const counted = learnCpts(shape, data);
  assert.throws(() => new ExpectationStep(counted, data).run(counted.cpts.map((c) => c.table)), ImpossibleDataError);
  const report = dataLogLikelihood(counted, data);
  assert.equal(report.logLikelihood, -Infinity);
  assert.equal(report.impossible?.records, 1);
  assert.equal(report.impossible?.example, 'A=a1, C=c1');
  assert.match(report.impossible!.reason, /missing values/);
  assert.ok(Math.abs(report.impossible!.otherLogLikelihood - (2 * Math.log(3 / 5) + 2 * Math.log(2 / 5))) < 1e-12);
  // A complete record can only score 0 under tables that were not counted from it: the entry is named.
  const rare = networkDataset(
    shape.variables,
    [0, 1, 2].map((c) =>
      Int32Array.from(
        [
          [0, 1, 0],
          [0, 1, 0],
          [1, 1, 0],
        ],
        (r) => r[c]!,
      ),
    ),
    3,
  );
  const complete = dataLogLikelihood(counted, rare);
  assert.equal(complete.impossible?.records, 2);
  assert.equal(complete.impossible?.patterns, 1);
  assert.equal(complete.impossible?.reason, 'P(B = b2 | A = a1) = 0');
  assert.ok(Math.abs(complete.impossible!.otherLogLikelihood - (Math.log(2 / 5) + 0 + 0)) < 1e-12);
  // Without impossible records it is the E-step's log-likelihood.
  const fine = networkDataset(
    shape.variables,
    [0, 1, 2].map((c) => Int32Array.from(rows.slice(0, 4), (r) => r[c]!)),
    4,
  );
  const ok = dataLogLikelihood(counted, fine);
  assert.equal(ok.impossible, undefined);
  assert.equal(
    ok.logLikelihood,
    new ExpectationStep(counted, fine).run(counted.cpts.map((c) => c.table)).logLikelihood,
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

test("alarm-em records.dat: gradient ascent reaches EM's log-likelihood within 0.1% (it stalled at -146,287 before)", async (t) => {
  const dat = sharedFile('tables', 'alarm-em', 'records.dat');
  const net = alarmEmNetwork('alarm.bif');
  if (!dat || !net) return t.skip(NO_SHARED);
  const data = await readDiscreteFile(commandLineFiles(), dat, { delimiter: ' ', columns: net.variables });
  const em = networkEm(net, data, { seed: 1, maxIterations: 100, tolerance: 1e-7 });
  const g = gradientAscent(net, data, { seed: 1, maxIterations: 100, tolerance: 1e-7, checkMonotone: true });
  t.diagnostic(
    `records.dat: gradient ${g.logLikelihood.toFixed(2)} in ${g.iterations} iterations, EM ${em.logLikelihood.toFixed(2)} in ${em.iterations}`,
  );
  assert.ok(g.converged, `not converged after ${g.iterations} iterations`);
  assert.ok(
    Math.abs(g.logLikelihood - em.logLikelihood) < 1e-3 * Math.abs(em.logLikelihood),
    `gradient ${g.logLikelihood} vs EM ${em.logLikelihood}`,
  );
  assert.ok(g.logLikelihood > -102_100);
});
