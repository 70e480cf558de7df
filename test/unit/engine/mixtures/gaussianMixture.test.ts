import { test } from 'node:test';
import assert from 'node:assert/strict';
import { choleskyFactor } from '../../../../server/src/engine/math/linearAlgebra.js';
import {
  gaussianMixture,
  kMeansEm,
  mixtureStart,
  type MixtureFit,
} from '../../../../server/src/engine/mixtures/gaussianMixture.js';
import { createRng } from '../../../../server/src/engine/random.js';
import type { NumericData } from '../../../../server/src/engine/dataset.js';
import { readNumericFile } from '../../../../server/src/model/dataTable.js';
import { commandLineFiles } from '../../../../server/src/workspace/files.js';
import { sharedFile, NO_SHARED } from '../../../support/shared.js';
import { pythonMissing, runPython } from '../../../support/python.js';
import { mixtureData } from '../../../../server/src/run/learningResults.js';
import type { MixtureResult } from '../../../../server/src/protocol/runResult.js';

/** n points from a 2-D mixture given by weights, means and Cholesky factors. */
function sample2d(n: number, seed: number, w: number[], mu: number[][], chol: number[][]): NumericData {
  const rng = createRng(seed);
  const values = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const j = rng.categorical(w);
    const z0 = rng.normal(),
      z1 = rng.normal();
    const [l00, l10, l11] = chol[j]!;
    values[2 * i] = mu[j]![0]! + l00! * z0;
    values[2 * i + 1] = mu[j]![1]! + l10! * z0 + l11! * z1;
  }
  return { names: ['x', 'y'], values, rows: n, dims: 2 };
}

function assertMonotone(fit: MixtureFit): void {
  for (let i = 1; i < fit.trace.length; i++)
    assert.ok(
      fit.trace[i]! >= fit.trace[i - 1]! - 1e-9 * Math.abs(fit.trace[i - 1]!),
      `log-likelihood fell at iteration ${i}`,
    );
  assert.ok(fit.logLikelihood >= fit.trace.at(-1)! - 1e-9 * Math.abs(fit.logLikelihood));
}

test('Cholesky factors a positive-definite matrix and rejects an indefinite one', () => {
  const l = choleskyFactor(Float64Array.from([4, 2, 2, 3]), 2)!;
  assert.deepEqual([...l], [2, 0, 1, Math.sqrt(2)]);
  assert.equal(choleskyFactor(Float64Array.from([1, 2, 2, 1]), 2), undefined);
  // A second matrix stored after the first (one covariance per mixture component).
  assert.deepEqual([...choleskyFactor(Float64Array.from([4, 2, 2, 3, 9, 0, 0, 1]), 2, 4)!], [3, 0, 0, 1]);
});

test("Mitchell's k means with known σ recovers the two means (eqs 6.29, 6.31)", () => {
  const rng = createRng(3);
  const n = 4000;
  const values = new Float64Array(n);
  for (let i = 0; i < n; i++) values[i] = (i % 2 ? 5 : -1) + rng.normal();
  const fit = kMeansEm({ names: ['x'], values, rows: n, dims: 1 }, { k: 2, sigma: 1, seed: 1 });
  const means = [...fit.means].sort((a, b) => a - b);
  assert.ok(Math.abs(means[0]! + 1) < 0.06 && Math.abs(means[1]! - 5) < 0.06, `means ${means}`);
  assert.deepEqual([...fit.weights], [0.5, 0.5]);
  assertMonotone(fit);
  // One E/M step by hand from (0, 1) on three points: eq 6.29 then eq 6.31.
  const x = { names: ['x'], values: Float64Array.from([0, 1, 3]), rows: 3, dims: 1 };
  const one = kMeansEm(x, { k: 2, sigma: 1, initialMeans: Float64Array.from([0, 1]), maxIterations: 1 });
  const e = [0, 1, 3].map((v) => {
    const a = Math.exp(-0.5 * v * v),
      b = Math.exp(-0.5 * (v - 1) ** 2);
    return a / (a + b);
  });
  const mu0 = (e[0]! * 0 + e[1]! * 1 + e[2]! * 3) / (e[0]! + e[1]! + e[2]!);
  assert.ok(Math.abs(one.means[0]! - mu0) < 1e-12);
});

test('a full 3-component mixture in 2-D is recovered from 30,000 samples', () => {
  const w = [0.5, 0.3, 0.2];
  const mu = [
    [0, 0],
    [6, 1],
    [2, 7],
  ];
  const chol = [
    [1, 0.5, 0.8],
    [0.7, -0.3, 1.2],
    [1.5, 0, 0.5],
  ];
  const x = sample2d(30000, 11, w, mu, chol);
  const fit = gaussianMixture(x, { k: 3, seed: 5, tolerance: 1e-8, maxIterations: 500 });
  assertMonotone(fit);
  assert.ok(fit.converged);
  for (let j = 0; j < 3; j++) {
    // Match each true component to the nearest fitted mean.
    let best = 0,
      bestD = Infinity;
    for (let c = 0; c < 3; c++) {
      const d = (fit.means[2 * c]! - mu[j]![0]!) ** 2 + (fit.means[2 * c + 1]! - mu[j]![1]!) ** 2;
      if (d < bestD) {
        bestD = d;
        best = c;
      }
    }
    assert.ok(Math.sqrt(bestD) < 0.05, `component ${j} mean off by ${Math.sqrt(bestD)}`);
    assert.ok(Math.abs(fit.weights[best]! - w[j]!) < 0.01);
    const [l00, l10, l11] = chol[j]!;
    const trueCov = [l00! * l00!, l00! * l10!, l00! * l10!, l10! * l10! + l11! * l11!];
    for (let a = 0; a < 4; a++)
      assert.ok(Math.abs(fit.covariances[4 * best + a]! - trueCov[a]!) < 0.08, `cov ${j}[${a}]`);
  }
  for (let i = 0; i < 100; i++) {
    const s = fit.responsibilities[3 * i]! + fit.responsibilities[3 * i + 1]! + fit.responsibilities[3 * i + 2]!;
    assert.ok(Math.abs(s - 1) < 1e-12);
  }
  // BIC = −2 log L + (3·3 + 3·2 + 2) log n
  assert.ok(Math.abs(fit.bic - (-2 * fit.logLikelihood + 17 * Math.log(30000))) < 1e-6);
});

test('the same seed gives the same mixture; bad input is a clear error', () => {
  const x = sample2d(
    500,
    2,
    [0.5, 0.5],
    [
      [0, 0],
      [4, 4],
    ],
    [
      [1, 0, 1],
      [1, 0, 1],
    ],
  );
  assert.deepEqual(gaussianMixture(x, { k: 2, seed: 9 }).means, gaussianMixture(x, { k: 2, seed: 9 }).means);
  assert.throws(() => gaussianMixture(x, { k: 0 }), /k must be a positive integer/);
  assert.throws(
    () => gaussianMixture({ ...x, rows: 1, values: x.values.slice(0, 2) }, { k: 2 }),
    /1 points cannot fit 2/,
  );
});

const SKLEARN = `
import json, sys, numpy as np
from sklearn.mixture import GaussianMixture
a = json.load(sys.stdin)
X = np.array(a['x']).reshape(-1, a['d'])
k, d = a['k'], a['d']
cov = np.array(a['covariances']).reshape(k, d, d)
g = GaussianMixture(k, covariance_type='full', tol=a['tol'], max_iter=a['maxIter'], reg_covar=1e-6,
    weights_init=np.array(a['weights']), means_init=np.array(a['means']).reshape(k, d),
    precisions_init=np.linalg.inv(cov)).fit(X)
print(json.dumps({'score': g.score(X), 'weights': g.weights_.tolist(), 'means': g.means_.ravel().tolist(),
    'covariances': g.covariances_.ravel().tolist(), 'iterations': int(g.n_iter_), 'bic': g.bic(X)}))
`;

test("Old Faithful, 2 full components: same optimum as scikit-learn's GaussianMixture from the same start", async (t) => {
  const file = sharedFile('tables', 'old-faithful', 'faithful.csv');
  if (!file) return t.skip(NO_SHARED);
  const missing = pythonMissing(['numpy', 'sklearn']);
  if (missing) return t.skip(missing);
  const raw = await readNumericFile(commandLineFiles(), file);
  assert.equal(raw.rows, 272);
  const start = mixtureStart(raw, 2, 1);
  const fit = gaussianMixture(raw, { k: 2, init: start, tolerance: 1e-12, maxIterations: 2000 });
  const sk = runPython<{ score: number; weights: number[]; means: number[]; covariances: number[]; bic: number }>(
    SKLEARN,
    {
      x: [...raw.values],
      d: 2,
      k: 2,
      tol: 1e-12,
      maxIter: 2000,
      weights: [...start.weights],
      means: [...start.means],
      covariances: [...start.covariances],
    },
  );
  const ours = fit.logLikelihood / raw.rows;
  t.diagnostic(
    `Old Faithful k=2: mean log-likelihood ours ${ours.toFixed(10)} scikit-learn ${sk.score.toFixed(10)}; BIC ${fit.bic.toFixed(4)} vs ${sk.bic.toFixed(4)}; weights ${[...fit.weights].map((w) => w.toFixed(4))}`,
  );
  assert.ok(Math.abs(ours - sk.score) < 1e-6, `mean log-likelihood ${ours} vs scikit-learn ${sk.score}`);
  assert.ok(Math.abs(fit.bic - sk.bic) < 1e-3, `BIC ${fit.bic} vs ${sk.bic}`);
  sk.weights.forEach((w, i) => assert.ok(Math.abs(fit.weights[i]! - w) < 1e-6));
  sk.means.forEach((m, i) => assert.ok(Math.abs(fit.means[i]! - m) < 1e-5));
  sk.covariances.forEach((c, i) => assert.ok(Math.abs(fit.covariances[i]! - c) < 1e-4 * Math.max(1, Math.abs(c))));
  assertMonotone(fit);
});

test('a fit becomes a JSON-serialisable mixture result entry', () => {
  const x = sample2d(
    200,
    3,
    [0.5, 0.5],
    [
      [0, 0],
      [5, 5],
    ],
    [
      [1, 0, 1],
      [1, 0, 1],
    ],
  );
  const fit = gaussianMixture(x, { k: 2, seed: 1 });
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 5 } };
  const entry: MixtureResult = { range, source: 'mixture', headline: 'k = 2', ...mixtureData(['x', 'y'], fit) };
  const back = JSON.parse(JSON.stringify(entry));
  assert.equal(back.kind, 'mixture');
  assert.deepEqual(back.means[1], [fit.means[2], fit.means[3]]);
  assert.deepEqual(back.covariances[0][1], [fit.covariances[2], fit.covariances[3]]);
  assert.equal(back.responsibilities.length, 200);
  assert.equal(back.responsibilities[7][1], fit.responsibilities[15]);
});
