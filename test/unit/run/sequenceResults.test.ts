/**
 * The `sequence` result the run gives for each (network over time, observations) pair (issue 30's
 * panel): the umbrella world against its closed form and the run's own expect lines; random small
 * 2-TBNs against brute-force enumeration of the unrolled network; a long sequence sent in bounded
 * buckets whose mean, least and greatest values are those of the steps they hold.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sequenceResult } from '../../../server/src/run/sequenceResults.js';
import { forwardBackward } from '../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../server/src/engine/dynamic/viterbi.js';
import { DEFAULT_BUDGETS } from '../../../server/src/engine/budget.js';
import { createRng } from '../../../server/src/engine/random.js';
import { SEQUENCE_POINTS, type ExpectResult, type SequenceResult } from '../../../server/src/protocol/runResult.js';
import { bruteForce, randomFindings, randomTwoSlice } from '../../support/dynamicNetworks.js';
import { run, runExample } from './helpers.js';

const at = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } } };
const close = (a: number, b: number, what: string, tol = 1e-12) =>
  assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b}`);

test('umbrella: one sequence entry; filtered 0.818, 0.883, smoothed day 1 0.883, most likely yes, yes', async () => {
  const result = await runExample('umbrella.bayes');
  const entries = result.results.filter((r): r is SequenceResult => r.kind === 'sequence');
  // Five statements read (Umbrella, Days): computed once.
  assert.equal(entries.length, 1);
  const e = entries[0]!;
  assert.deepEqual([e.network, e.data, e.steps, e.bucket, e.method], ['Umbrella', 'Days', 2, 1, 'exact']);
  // AIMA's closed form: f1 = .9·.5 / (.9·.5 + .2·.5) = 9/11; predicted R2 = .7·9/11 + .3·2/11 = 6.9/11;
  // f2 = .9·6.9 / (.9·6.9 + .2·4.1); smoothed R1 ∝ f1 · P(u2 | R1) = (9/11 · .69, 2/11 · .41), the same number.
  const f2 = (0.9 * 6.9) / (0.9 * 6.9 + 0.2 * 4.1);
  const rain = e.variables.find((v) => v.name === 'Rain')!;
  close(rain.filtered.mean[0]![0]!, 9 / 11, 'filtered R1');
  close(rain.filtered.mean[0]![1]!, f2, 'filtered R2');
  close(rain.smoothed!.mean[0]![0]!, (9 * 0.69) / (9 * 0.69 + 2 * 0.41), 'smoothed R1');
  close(rain.smoothed!.mean[0]![1]!, f2, 'smoothed R2 = filtered R2');
  close(e.logLikelihood, Math.log(0.55 * ((0.9 * 6.9 + 0.2 * 4.1) / 11)), 'log P(u1, u2)');
  // The same numbers as the run's own expect lines.
  const actual = (line: number) => result.results.find((r): r is ExpectResult => r.range.start.line === line)!.actual;
  close(rain.filtered.mean[0]![0]!, actual(11) as number, 'line 12');
  close(rain.smoothed!.mean[0]![0]!, actual(13) as number, 'line 14');
  assert.deepEqual(rain.mostLikely, ['yes', 'yes']);
  assert.equal(actual(15), 'Rain[1] = yes, Rain[2] = yes');
  assert.deepEqual(rain.observed, [null, null]);
  assert.deepEqual(e.variables.find((v) => v.name === 'Umbrella')!.observed, ['yes', 'yes']);
  assert.equal(e.range.start.line, 11, 'the first statement that asked');
});

test('random 2-TBNs: every step filtered and smoothed = brute force on the unrolled network; Viterbi and what was seen', () => {
  let cases = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const n = 1 + (seed % 3);
    const T = n === 3 ? 2 : 3;
    const dbn = randomTwoSlice(seed, n);
    const findings = randomFindings(createRng(200 + seed), dbn, T, 0.4);
    const brute = bruteForce(dbn, findings);
    if (!(brute.logLikelihood > -Infinity)) continue;
    const e = sequenceResult({ dbn, data: 'D', findings, statement: at }, DEFAULT_BUDGETS);
    close(e.logLikelihood, brute.logLikelihood, `seed ${seed}: log-likelihood`, 1e-9);
    const best = mostLikelySequence(dbn, findings);
    e.variables.forEach((variable, v) => {
      for (let t = 1; t <= T; t++)
        variable.states.forEach((s, x) => {
          close(
            variable.filtered.mean[x]![t - 1]!,
            brute.filtered[t - 1]![v]![x]!,
            `seed ${seed} ${s}: filtered`,
            1e-9,
          );
          close(
            variable.smoothed!.mean[x]![t - 1]!,
            brute.smoothed[t - 1]![v]![x]!,
            `seed ${seed} ${s}: smoothed`,
            1e-9,
          );
        });
      const seen = findings.map((f) => (f.evidence.has(v) ? variable.states[f.evidence.get(v)!]! : null));
      assert.deepEqual(variable.observed, seen);
      assert.deepEqual(
        variable.mostLikely,
        best.states.slice(1).map((x) => variable.states[x[v]!]),
      );
    });
    cases++;
  }
  assert.ok(cases >= 8, `${cases} cases`);
});

test('a long sequence (2·10^4 steps, missing values) is sent in at most SEQUENCE_POINTS buckets: mean, least, greatest', async () => {
  const T = 20_000;
  const rng = createRng(7);
  const rows = Array.from({ length: T }, () => (rng.next() < 0.1 ? '?' : rng.next() < 0.6 ? 'yes' : 'no'));
  const model = `network Umbrella {
  variable Rain { yes, no }
  variable Umbrella { yes, no }
  P(Rain[0]) { yes: 0.5, no: 0.5 }
  P(Rain[t] | Rain[t-1]) { yes: { yes: 0.7, no: 0.3 }, no: { yes: 0.3, no: 0.7 } }
  P(Umbrella[t] | Rain[t]) { yes: { yes: 0.9, no: 0.1 }, no: { yes: 0.2, no: 0.8 } }
}
data Days {
  Umbrella
${rows.map((r) => '  ' + r).join('\n')}
}
query P(Rain[${T}] = yes) in Umbrella given Days
`;
  const result = await run(model);
  const e = result.results.find((r): r is SequenceResult => r.kind === 'sequence')!;
  assert.ok(e, JSON.stringify(result.diagnostics));
  const bucket = Math.ceil(T / SEQUENCE_POINTS);
  assert.equal(e.bucket, bucket);
  const points = Math.ceil(T / bucket);
  assert.ok(points <= SEQUENCE_POINTS);
  // The numbers of every step, from the engine directly, bucket by bucket.
  const findings = rows.map((r) => ({ evidence: new Map(r === '?' ? [] : [[1, r === 'yes' ? 0 : 1]]) }));
  const dbn = {
    name: 'Umbrella',
    variables: [
      { name: 'Rain', states: ['yes', 'no'] },
      { name: 'Umbrella', states: ['yes', 'no'] },
    ],
  };
  const fb = forwardBackward(
    {
      ...dbn,
      initial: [
        { child: 0, parents: [], table: Float64Array.from([0.5, 0.5]) },
        { child: 1, parents: [0], table: Float64Array.from([0.9, 0.1, 0.2, 0.8]) },
      ],
      transition: [
        { child: 0, parents: [2], table: Float64Array.from([0.7, 0.3, 0.3, 0.7]) },
        { child: 1, parents: [0], table: Float64Array.from([0.9, 0.1, 0.2, 0.8]) },
      ],
    },
    findings,
    { smooth: true },
  );
  const rain = e.variables[0]!;
  const umbrella = e.variables[1]!;
  for (const [series, bands] of [
    [fb.filtered, rain.filtered],
    [fb.smoothed!, rain.smoothed!],
  ] as const) {
    assert.equal(bands.mean[0]!.length, points);
    for (let b = 0; b < points; b++) {
      const ps = series.slice(b * bucket, (b + 1) * bucket).map((m) => m[0]![0]!);
      close(bands.mean[0]![b]!, ps.reduce((a, x) => a + x, 0) / ps.length, `mean ${b}`, 1e-9);
      close(bands.min![0]![b]!, Math.min(...ps), `min ${b}`, 1e-9);
      close(bands.max![0]![b]!, Math.max(...ps), `max ${b}`, 1e-9);
    }
  }
  for (let b = 0; b < points; b++) {
    const seen = rows.slice(b * bucket, (b + 1) * bucket).filter((r) => r !== '?');
    assert.equal(umbrella.observedSteps![b], seen.length);
    const yes = seen.filter((r) => r === 'yes').length;
    if (yes !== seen.length - yes) assert.equal(umbrella.observed[b], yes > seen.length - yes ? 'yes' : 'no');
  }
  assert.equal(rain.mostLikely!.length, points);
  assert.ok(rain.mostLikelySteps!.every((k, b) => k >= Math.ceil(Math.min(bucket, T - b * bucket) / 2)));
  assert.ok(JSON.stringify(e).length < 200_000, 'the payload stays bounded');
});

test('over the budget: the particle filter, with standard errors and a note; a chart too large is refused', () => {
  const dbn = randomTwoSlice(5, 8, 2, 3);
  const T = 4;
  const findings = randomFindings(createRng(9), dbn, T, 0.3);
  const exact = forwardBackward(dbn, findings, {});
  // Room for the chart's numbers but not for the 1.5-slice junction tree.
  const budgets = { ...DEFAULT_BUDGETS, maxTotalEntries: 1200 };
  const e = sequenceResult({ dbn, data: 'D', findings, statement: at }, budgets);
  assert.equal(e.method, 'particle');
  assert.equal(e.seed, 1);
  assert.match(e.note!, /particle filter/);
  let worst = 0;
  e.variables.forEach((variable, v) => {
    assert.equal(variable.smoothed, undefined);
    assert.equal(variable.mostLikely, undefined);
    for (let t = 0; t < T; t++)
      variable.states.forEach((_, x) => {
        const se = variable.standardErrors![x]![t]!;
        const z = Math.abs(variable.filtered.mean[x]![t]! - exact.filtered[t]![v]![x]!) / Math.max(se, 1e-3);
        worst = Math.max(worst, z);
      });
  });
  assert.ok(worst < 6, `the estimates are within 6 standard errors of the exact filter (worst ${worst})`);
  assert.throws(
    () => sequenceResult({ dbn, data: 'D', findings, statement: at }, { ...DEFAULT_BUDGETS, maxTotalEntries: 50 }),
    /the chart's \d+ numbers are over the budget of 50/,
  );
});
