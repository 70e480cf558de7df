/**
 * The panel's check of a `sequence` result before drawing it (protocol/sequenceCheck.ts): the
 * results the run gives — discrete (umbrella), Gaussian (tracking, with a forecast), bucketed — pass;
 * each kind of malformed one is refused, saying which variable and field is wrong.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sequenceProblem } from '../../../server/src/protocol/sequenceCheck.js';
import type { GaussianSequenceResult, RunResult, SequenceResult } from '../../../server/src/protocol/runResult.js';
import { runExample } from '../run/helpers.js';

const sequence = <T>(r: RunResult) => structuredClone(r.results.find((x) => x.kind === 'sequence')) as T;

/** Each case changes a fresh copy of `good` and expects the message to match. */
function refuses<T>(good: T, cases: Array<[string, (e: T) => void, RegExp]>): void {
  for (const [what, change, message] of cases) {
    const bad = structuredClone(good);
    change(bad);
    const problem = sequenceProblem(bad);
    assert.ok(problem !== undefined, `${what}: accepted`);
    assert.match(problem, message, what);
  }
}

test('Gaussian sequence results: tracking.bayes passes; wrong lengths, non-numbers, negative variances, a bad forecast are refused', async () => {
  const good = sequence<GaussianSequenceResult>(await runExample('tracking.bayes'));
  assert.equal(sequenceProblem(good), undefined);
  // Through JSON (the webview's postMessage drops nothing a result holds): still well formed.
  assert.equal(sequenceProblem(JSON.parse(JSON.stringify(good))), undefined);
  refuses<GaussianSequenceResult>(good, [
    ['a short mean', (e) => e.variables[0]!.filtered.mean.pop(), /^variable 1: filtered\.mean must be 10 numbers$/],
    [
      'no filtered series',
      (e) => delete (e.variables[1] as Partial<(typeof e.variables)[1]>).filtered,
      /^variable 2: filtered must be an object$/,
    ],
    [
      'a NaN band',
      (e) => (e.variables[2]!.smoothed!.upper[3] = NaN),
      /^variable 3: smoothed\.upper must be 10 numbers$/,
    ],
    ['a negative variance', (e) => (e.variables[0]!.smoothed!.variance[0] = -1), /smoothed\.variance must be ≥ 0/],
    [
      'a forecast longer than said',
      (e) => e.variables[0]!.forecast!.mean.push(1),
      /^variable 1: forecast\.mean must be 2 numbers$/,
    ],
    ['forecast not a count', (e) => ((e as { forecast: unknown }).forecast = -2), /forecast must be a whole number/],
    [
      'a reading as text',
      (e) => ((e.variables[2]!.observed as unknown[])[0] = '1.3'),
      /observed must be 10 numbers or nulls/,
    ],
    ['bucketed without envelopes', (e) => (e.bucket = 2), /filtered\.mean must be 5 numbers/],
    ['an unknown method', (e) => ((e as { method: string }).method = 'ukf'), /unknown method "ukf"/],
    ['no variables list', (e) => ((e as { variables: unknown }).variables = {}), /variables must be a list/],
    ['steps not a count', (e) => ((e as { steps: unknown }).steps = '10'), /steps and bucket must be whole numbers/],
    [
      'a nameless variable',
      (e) => ((e.variables[0] as { name: unknown }).name = 3),
      /^variable 1: name must be a string$/,
    ],
  ]);
  // A bucketed result needs each series' least and greatest mean and the readings' counts and range.
  const bucketed = structuredClone(good);
  bucketed.bucket = 2;
  bucketed.forecast = 2;
  for (const v of bucketed.variables) {
    for (const s of [v.filtered, v.smoothed!, v.forecast!]) {
      const n = s === v.forecast ? 1 : 5;
      for (const k of ['mean', 'variance', 'lower', 'upper'] as const) s[k] = s[k].slice(0, n);
      s.min = s.mean.slice();
      s.max = s.mean.slice();
    }
    v.observed = v.observed.slice(0, 5);
    v.observedSteps = [1, 1, 1, 1, 1];
    v.observedMin = v.observed.slice();
    v.observedMax = v.observed.slice();
  }
  assert.equal(sequenceProblem(bucketed), undefined);
  refuses<GaussianSequenceResult>(bucketed, [
    ['no min', (e) => delete e.variables[0]!.smoothed!.min, /^variable 1: smoothed\.min and max must be 5 numbers$/],
    ['no counts', (e) => delete e.variables[1]!.observedSteps, /observedSteps must be 5 numbers/],
    [
      'a short range',
      (e) => e.variables[2]!.observedMax!.pop(),
      /observedMin and observedMax must be 5 numbers or nulls/,
    ],
  ]);
});

test('discrete sequence results: umbrella.bayes passes; states, per-state series and state names are checked', async () => {
  const good = sequence<SequenceResult>(await runExample('umbrella.bayes'));
  assert.equal(sequenceProblem(good), undefined);
  refuses<SequenceResult>(good, [
    ['no states', (e) => (e.variables[0]!.states = []), /^variable 1: states must be a list of names$/],
    [
      'a series per state missing',
      (e) => e.variables[0]!.filtered.mean.pop(),
      /filtered\.mean must be 2 numbers per state/,
    ],
    [
      'a probability as text',
      (e) => ((e.variables[0]!.smoothed!.mean[0] as unknown[])[1] = '0.8'),
      /smoothed\.mean must be 2 numbers per state/,
    ],
    ['an unknown observed state', (e) => (e.variables[1]!.observed[0] = 'maybe'), /observed must be 2 states or nulls/],
    ['an unknown most likely state', (e) => (e.variables[0]!.mostLikely![1] = 'hail'), /mostLikely must be 2 states/],
    ['bucketed without envelopes', (e) => (e.bucket = 2), /^variable 1: filtered\.mean must be 1 numbers per state$/],
  ]);
  assert.equal(sequenceProblem({ kind: 'posterior' }), 'not a sequence result');
  assert.equal(sequenceProblem(null), 'not a sequence result');
});
