/**
 * Queries over a Gaussian network over time (run/gaussianDynamicQueries.ts): the tracking example's
 * expect lines (numbers from numpy's conditioning of the unrolled joint Gaussian), and each query form
 * against the engine run on the template written by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kalmanSmoother } from '../../../server/src/engine/dynamic/kalman.js';
import type { ContinuousResult, MpeResultEntry } from '../../../server/src/protocol/runResult.js';
import { close, errors, resultAt, run, runExample, verdicts } from './helpers.js';
import { driftTemplate } from '../../support/gaussianTwoSlice.js';

test('examples/tracking.bayes: every expect holds', async () => {
  const result = await runExample('tracking.bayes');
  const v = verdicts(result);
  assert.equal(v.length, 7);
  assert.deepEqual(
    v.filter(([, passed]) => !passed),
    [],
  );
});

const model = `network Drift {
  variable Level, Meter : real
  P(Level[0]) ~ Normal(mean: 10, variance: 2)
  P(Level[t] | Level[t-1]) ~ Normal(mean: 1, Level[t-1]: 0.9, variance: 0.5)
  P(Meter[t] | Level[t]) ~ Normal(mean: -0.5, Level[t]: 1.1, variance: 0.3)
}
data Meters {
  Meter
  11.2
  ?
  12.5
  13.1
}
query P(Level[2]) in Drift given Meters
query P(Level[3]) in Drift using filtering given Meters
query mean Level[6] in Drift given Meters
query variance Meter[2] in Drift given Meters
query mpe Drift given Meters
`;

const drift = driftTemplate;
const readings = [11.2, undefined, 12.5, 13.1].map((x) => new Map(x === undefined ? [] : [[1, x]]));

test('P(X[k]), using filtering, a forecast, mean/variance X[k] and mpe equal the Kalman smoother on the same template', async () => {
  const result = await run(model);
  assert.deepEqual(errors(result), []);
  const all = kalmanSmoother(drift, readings, { predict: 2 });
  const firstThree = kalmanSmoother(drift, readings.slice(0, 3));
  const smoothed = resultAt(result, 13, 'continuous') as ContinuousResult;
  close(smoothed.mean, all.smoothed![1]!.means[0]!);
  close(smoothed.variance, all.smoothed![1]!.variances[0]!);
  close(smoothed.logEvidence!, all.logLikelihood);
  const filtered = resultAt(result, 14, 'continuous') as ContinuousResult;
  close(filtered.mean, firstThree.filtered[2]!.means[0]!);
  close(filtered.variance, firstThree.filtered[2]!.variances[0]!);
  assert.match(filtered.headline, /filtered: steps 1…3/);
  const forecast = resultAt(result, 15, 'continuous') as ContinuousResult;
  close(forecast.value!, all.predicted![1]!.means[0]!);
  assert.match(forecast.headline, /^mean Level\[6\] = .* \(forecast from 4 steps/);
  const missing = resultAt(result, 16, 'continuous') as ContinuousResult;
  close(missing.value!, all.smoothed![1]!.variances[1]!);
  const mpe = resultAt(result, 17, 'mpe') as MpeResultEntry;
  // Steps 1, 3, 4 read the meter: their Meter is not part of the answer; step 2's is.
  assert.deepEqual(Object.keys(mpe.assignment), ['Level[1]', 'Level[2]', 'Meter[2]', 'Level[3]', 'Level[4]']);
  close(Number(mpe.assignment['Level[3]']), all.mostLikely![2]![0]!);
  close(Number(mpe.assignment['Meter[2]']), all.mostLikely![1]![1]!);
  close(mpe.logProbability, all.mostLikelyLogDensity!);
});

test('queries over a Gaussian network over time: a value of a real variable, a missing step, a state query and a non-number cell are errors', async () => {
  const bad = await run(
    model
      .replace('query P(Level[2]) in', 'query P(Level[2] = 3) in')
      .replace('query mean Level[6]', 'query mean Level'),
  );
  assert.deepEqual(
    errors(bad).map((e) => [e.code, e.line, e.message]),
    [
      [
        'time-query',
        13,
        "'Level' is continuous: ask P(Level[k]) for its mean and variance (any one value has probability 0)",
      ],
      ['time-query', 15, 'name the step: Level[1] is the first row of the data'],
    ],
  );
  const text = await run(model.replace('  12.5\n', '  high\n'));
  assert.ok(
    errors(text).some((e) => e.message === "'high' in column Meter is not a number (Meter is real)"),
    JSON.stringify(errors(text)),
  );
});
