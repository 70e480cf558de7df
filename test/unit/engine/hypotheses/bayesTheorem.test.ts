import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import {
  posterior,
  logLikelihoodOfObservations,
  logLikelihoodOfDataset,
  type ObservationModel,
} from '../../../../server/src/engine/hypotheses/bayesTheorem.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';
import { createRng } from '../../../../server/src/engine/random.js';

// Mitchell §6.2.1: P(cancer) = .008, P(+|cancer) = .98, P(+|¬cancer) = .03.
const hypotheses = [
  { name: 'cancer', prior: 0.008 },
  { name: 'healthy', prior: 0.992 },
];
const test_: ObservationModel = {
  variable: 'Test',
  values: ['pos', 'neg'],
  probabilities: [
    [0.98, 0.02],
    [0.03, 0.97],
  ],
};

test('cancer, one positive test: products, h_MAP and the posterior (Mitchell §6.2.1)', () => {
  const ll = logLikelihoodOfObservations([test_], [{ variable: 'Test', value: 'pos' }], 2);
  const t = posterior(hypotheses, ll);
  close(t.rows[0]!.product, 0.00784, 1e-12);
  close(t.rows[1]!.product, 0.02976, 1e-12);
  close(t.evidence, 0.0376, 1e-12);
  assert.deepEqual(t.map, ['healthy']);
  assert.deepEqual(t.ml, ['cancer']);
  close(t.rows[0]!.posterior, 0.00784 / 0.0376, 1e-12);
  assert.equal(t.rows[0]!.posterior!.toFixed(4), '0.2085');
});

test('two independent positive tests multiply the likelihoods (exercise 6.1)', () => {
  const ll = logLikelihoodOfObservations(
    [test_],
    [
      { variable: 'Test', value: 'pos' },
      { variable: 'Test', value: 'pos' },
    ],
    2,
  );
  const t = posterior(hypotheses, ll);
  const num = 0.008 * 0.98 ** 2,
    den = num + 0.992 * 0.03 ** 2;
  close(t.rows[0]!.posterior, num / den, 1e-12);
  assert.equal(t.rows[0]!.posterior!.toFixed(4), '0.8959');
  assert.deepEqual(t.map, ['cancer']);
});

test('a data set as evidence: rows independent given h, missing values skipped', () => {
  const other: ObservationModel = {
    variable: 'Cough',
    values: ['yes', 'no'],
    probabilities: [
      [0.6, 0.4],
      [0.1, 0.9],
    ],
  };
  const ll = logLikelihoodOfDataset(
    [test_, other],
    ['Test', 'Cough'],
    [
      ['pos', 'yes'],
      ['neg', '?'],
      [undefined, 'no'],
    ],
    2,
  );
  close(ll[0], Math.log(0.98 * 0.6 * 0.02 * 0.4), 1e-12);
  close(ll[1], Math.log(0.03 * 0.1 * 0.97 * 0.9), 1e-12);
  assert.throws(() => logLikelihoodOfDataset([test_], ['Test', 'Age'], [], 2), /no likelihood table for column Age/);
});

test('evidence of probability 0 is reported, never NaN', () => {
  const never: ObservationModel = {
    variable: 'X',
    values: ['a', 'b'],
    probabilities: [
      [1, 0],
      [1, 0],
    ],
  };
  const t = posterior(hypotheses, logLikelihoodOfObservations([never], [{ variable: 'X', value: 'b' }], 2));
  assert.equal(t.evidencePossible, false);
  assert.equal(t.evidence, 0);
  assert.deepEqual(t.map, []);
  assert.ok(t.rows.every((r) => r.posterior === undefined));
});

test('long observation sequences do not underflow', () => {
  const obs = Array.from({ length: 2000 }, () => ({ variable: 'Test', value: 'pos' }));
  const t = posterior(hypotheses, logLikelihoodOfObservations([test_], obs, 2));
  assert.equal(t.evidencePossible, true);
  close(t.rows[0]!.posterior, 1, 1e-12);
  assert.ok(Number.isFinite(t.rows[1]!.logLikelihood));
});

test('bad input is a clear EngineError', () => {
  assert.throws(
    () =>
      posterior(
        [
          { name: 'a', prior: 0.5 },
          { name: 'b', prior: 0.4 },
        ],
        [0, 0],
      ),
    /prior must sum to 1, got 0.9/,
  );
  assert.throws(() => logLikelihoodOfObservations([test_], [{ variable: 'Test', value: 'maybe' }], 2), EngineError);
  assert.throws(
    () => logLikelihoodOfObservations([test_], [{ variable: 'Other', value: 'pos' }], 2),
    /no likelihood table/,
  );
});

test('posteriors equal exhaustive enumeration on random small spaces (seeded)', () => {
  const rng = createRng(42);
  for (let trial = 0; trial < 200; trial++) {
    const nh = 1 + rng.int(6),
      nv = 2 + rng.int(3),
      nObs = rng.int(5);
    const raw = Array.from({ length: nh }, () => rng.next() + 0.01);
    const z = raw.reduce((a, b) => a + b, 0);
    const hs = raw.map((r, i) => ({ name: `h${i}`, prior: r / z }));
    const probs = hs.map(() => {
      const r = Array.from({ length: nv }, () => rng.next());
      const s = r.reduce((a, b) => a + b, 0);
      return r.map((x) => x / s);
    });
    const model: ObservationModel = { variable: 'X', values: probs[0]!.map((_, v) => `v${v}`), probabilities: probs };
    const obs = Array.from({ length: nObs }, () => rng.int(nv));
    const t = posterior(
      hs,
      logLikelihoodOfObservations(
        [model],
        obs.map((v) => ({ variable: 'X', value: `v${v}` })),
        nh,
      ),
    );
    // Direct: joint P(h, D) as a plain product, then divide by the sum over h.
    const joint = hs.map((h, i) => obs.reduce((p, v) => p * probs[i]![v]!, h.prior));
    const pd = joint.reduce((a, b) => a + b, 0);
    close(t.evidence, pd, 1e-12);
    joint.forEach((j, i) => close(t.rows[i]!.posterior, j / pd, 1e-12));
    const best = Math.max(...joint);
    assert.ok(
      joint[hs.findIndex((h) => h.name === t.map[0])]! === best ||
        Math.abs(joint[hs.findIndex((h) => h.name === t.map[0])]! - best) < 1e-15,
    );
  }
});
