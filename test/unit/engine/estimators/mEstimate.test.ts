/**
 * The m-estimate (Mitchell eq. 6.22) in its two forms — the estimate (n_c + m p) / (n + m) and
 * the pseudo-counts m p_i a Dirichlet prior adds — are one estimate.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  laplaceEstimate,
  mEstimate,
  mEstimatePseudoCounts,
} from '../../../../server/src/engine/estimators/mEstimate.js';
import { parameterPosterior } from '../../../../server/src/engine/estimators/parameterLearning.js';
import { close } from '../../../support/close.js';

test('m-estimate: closed forms, Laplace as p = 1/k with m = k, and bad arguments', () => {
  close(mEstimate(5, 8, 0.5, 4), 7 / 12, 1e-15);
  close(mEstimate(3, 10, 0.2, 0), 0.3, 1e-15);
  close(laplaceEstimate(2, 10, 3), 3 / 13, 1e-15);
  assert.throws(() => mEstimate(0, 0, 0.5, 0), /0\/0/);
  assert.throws(() => mEstimate(1, 2, 1.5, 1), /prior estimate p/);
  assert.throws(() => mEstimatePseudoCounts(2, 0), /m must be positive/);
  assert.throws(() => mEstimatePseudoCounts(3, 2, [0.5, 0.5]), /2 prior estimates for 3 values/);
});

test('the Dirichlet posterior mean over the pseudo-counts m p_i is the m-estimate of every value', () => {
  const counts = [5, 2, 1];
  const n = 8;
  for (const [m, p] of [
    [4, [0.5, 0.3, 0.2]],
    [6, undefined],
  ] as const) {
    const pseudo = mEstimatePseudoCounts(3, m, p);
    const { mean } = parameterPosterior(['a', 'b', 'c'], pseudo, counts, {});
    counts.forEach((nc, i) => close(mean[i], mEstimate(nc, n, p?.[i] ?? 1 / 3, m), 1e-12));
  }
  // By hand: m = 4, p = (.5, .3, .2): (5 + 2) / 12, (2 + 1.2) / 12, (1 + .8) / 12.
  const { mean } = parameterPosterior(['a', 'b', 'c'], mEstimatePseudoCounts(3, 4, [0.5, 0.3, 0.2]), counts, {});
  [7 / 12, 3.2 / 12, 1.8 / 12].forEach((x, i) => close(mean[i], x, 1e-12));
});
