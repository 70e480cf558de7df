import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regress } from '../../../../server/src/engine/gaussian/regression.js';
import { fitGaussianFamily } from '../../../../server/src/engine/gaussian/gaussianLearning.js';
import { gaussianEm, jointGaussian, topologicalOrder } from '../../../../server/src/engine/gaussian/gaussianEm.js';
import type { HybridDataset } from '../../../../server/src/engine/gaussian/hybridData.js';
import { typeColumns } from '../../../../server/src/engine/gaussian/hybridData.js';
import { encodeCategorical } from '../../../../server/src/engine/categoricalData.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { randomHybridNetwork } from '../../../support/hybridNetworks.js';
import { matrixOf, sampleDataset, withMissing } from '../../../support/gaussianData.js';
import { pythonMissing, runPython } from '../../../support/python.js';

/** Columns y, x1..x4 with offsets and scales far apart (ill-conditioned for the normal equations). */
function offsetData(n: number, seed: number): HybridDataset {
  const rng = createRng(seed);
  const x = [1000, -5e4, 0.001, 7].map((offset, j) =>
    Float64Array.from({ length: n }, () => offset + (j === 2 ? 1e-4 : 10 ** j) * rng.normal()),
  );
  const y = Float64Array.from(
    { length: n },
    (_, i) => 3 + 0.5 * x[0]![i]! - 2e-3 * x[1]![i]! + 800 * x[2]![i]! + 2 * rng.normal(),
  );
  const names = ['y', 'x1', 'x2', 'x3', 'x4'];
  return {
    columns: [y, ...x].map((values, j) => ({ kind: 'continuous' as const, name: names[j]!, values })),
    rowCount: n,
  };
}

const LSTSQ = `
import json, sys, numpy as np
from sklearn.linear_model import LinearRegression
d = json.load(sys.stdin)
out = []
for case in d:
    X = np.array(case['X'], dtype=float).reshape(len(case['y']), -1)
    y = np.array(case['y'])
    A = np.hstack([np.ones((len(y), 1)), X])
    beta, rss, rank, sv = np.linalg.lstsq(A, y, rcond=None)
    resid = y - A @ beta
    sk = [float(y.mean())]
    if X.shape[1]:
        lr = LinearRegression().fit(X, y)
        sk = [float(lr.intercept_)] + lr.coef_.tolist()
    out.append({'beta': beta.tolist(), 'rss': float(resid @ resid), 'sk': sk})
print(json.dumps(out))
`;

test('least squares equals numpy lstsq and scikit-learn LinearRegression to 1e-9 (offset, badly scaled regressors)', (t) => {
  const missing = pythonMissing(['numpy', 'sklearn']);
  if (missing) return t.skip(missing);
  const data = offsetData(3000, 7);
  const cols = data.columns.map((c) => (c.kind === 'continuous' ? c.values : new Float64Array()));
  const all = Int32Array.from({ length: data.rowCount }, (_, i) => i);
  const half = all.filter((i) => i % 3 !== 0);
  const cases = [
    { parents: [1, 2, 3, 4], rows: all },
    { parents: [1, 3], rows: half },
    { parents: [], rows: all },
  ];
  const ours = cases.map((c) =>
    regress(
      cols[0]!,
      c.parents.map((p) => cols[p]!),
      c.rows,
    ),
  );
  const peer = runPython<Array<{ beta: number[]; rss: number; sk: number[] }>>(
    LSTSQ,
    cases.map((c) => ({
      X: Array.from(c.rows, (r) => c.parents.map((p) => cols[p]![r]!)).flat(),
      y: Array.from(c.rows, (r) => cols[0]![r]!),
    })),
  );
  ours.forEach((fit, k) => {
    const beta = [fit.intercept, ...fit.coefficients];
    peer[k]!.beta.forEach((b, j) =>
      assert.ok(Math.abs(beta[j]! - b) <= 1e-9 * Math.max(1, Math.abs(b)), `case ${k} b${j}: ${beta[j]} vs numpy ${b}`),
    );
    peer[k]!.sk.forEach((b, j) =>
      assert.ok(
        Math.abs(beta[j]! - b) <= 1e-9 * Math.max(1, Math.abs(b)),
        `case ${k} b${j}: ${beta[j]} vs sklearn ${b}`,
      ),
    );
    assert.ok(Math.abs(fit.rss - peer[k]!.rss) <= 1e-9 * peer[k]!.rss, `case ${k} rss ${fit.rss} vs ${peer[k]!.rss}`);
  });
});

test('a regressor that copies another gets coefficient 0 and the fit of the design without it', () => {
  const data = offsetData(500, 3);
  const cols = data.columns.map((c) => (c.kind === 'continuous' ? c.values : new Float64Array()));
  const copy = cols[1]!.map((x) => 2 * x - 5);
  const rows = Int32Array.from({ length: 500 }, (_, i) => i);
  const full = regress(cols[0]!, [cols[1]!, cols[2]!, copy], rows);
  const reduced = regress(cols[0]!, [cols[1]!, cols[2]!], rows);
  assert.equal(full.rank, 3);
  assert.equal(full.coefficients[2], 0);
  assert.ok(Math.abs(full.coefficients[0]! - reduced.coefficients[0]!) < 1e-9 * Math.abs(reduced.coefficients[0]!));
  assert.ok(Math.abs(full.rss - reduced.rss) < 1e-9 * reduced.rss);
});

test('a CLG family: one least-squares fit per configuration of the discrete parents, variance RSS/n', (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const net = randomHybridNetwork({ continuous: 4, discrete: 2, maxParents: 3, seed: 11 });
  const data = sampleDataset(net, 4000, 5);
  const child = 5;
  const parents = [0, 1, 2, 3, 4].filter((p) => p !== child);
  const fam = fitGaussianFamily(data, child, parents);
  const peer = runPython<Array<{ beta: number[]; variance: number; n: number }>>(
    `
import json, sys, numpy as np
d = json.load(sys.stdin)
M = np.array(d['rows'], dtype=float)
out = []
for c in range(d['configs']):
    sel = M[:, 0] == c
    A = np.hstack([np.ones((sel.sum(), 1)), M[sel][:, 2:]])
    y = M[sel][:, 1]
    beta = np.linalg.lstsq(A, y, rcond=None)[0]
    r = y - A @ beta
    out.append({'beta': beta.tolist(), 'variance': float(r @ r / len(y)), 'n': int(sel.sum())})
print(json.dumps(out))
`,
    {
      configs: fam.regressions.length,
      rows: matrixOf(data, [0, 1, child, ...fam.continuousParents]).map((r) => {
        const levels = (data.columns[1] as { levels: readonly string[] }).levels.length;
        return [r[0]! * levels + r[1]!, ...r.slice(2)];
      }),
    },
  );
  assert.deepEqual(fam.discreteParents, [0, 1]);
  fam.regressions.forEach((g, c) => {
    const p = peer[c]!;
    assert.equal(g.rows, p.n);
    [g.intercept, ...g.coefficients].forEach((b, j) =>
      assert.ok(Math.abs(b - p.beta[j]!) < 1e-9 * Math.max(1, Math.abs(b))),
    );
    assert.ok(Math.abs(g.variance - p.variance) < 1e-9 * p.variance);
  });
});

test('the normal-inverse-gamma posterior means equal their closed form (ridge on centred data, b_n/(a_n − 1))', (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const data = offsetData(60, 9);
  const prior = { lambda: 4, a: 2, b: 3 };
  const fam = fitGaussianFamily(data, 0, [1, 3], { prior });
  const peer = runPython<{ beta: number[]; variance: number }>(
    `
import json, sys, numpy as np
d = json.load(sys.stdin)
M = np.array(d['rows']); y = M[:, 0]; X = M[:, 1:]
Xc = X - X.mean(0); yc = y - y.mean()
A = Xc.T @ Xc + d['lambda'] * np.eye(X.shape[1])
b = np.linalg.solve(A, Xc.T @ yc)
an = d['a'] + (len(y) - 1) / 2
bn = d['b'] + 0.5 * (yc @ yc - b @ A @ b)
print(json.dumps({'beta': [float(y.mean() - b @ X.mean(0))] + b.tolist(), 'variance': float(bn / (an - 1))}))
`,
    { rows: matrixOf(data, [0, 1, 3]), ...prior },
  );
  const g = fam.regressions[0]!;
  [g.intercept, ...g.coefficients].forEach((b, j) =>
    assert.ok(Math.abs(b - peer.beta[j]!) < 1e-9 * Math.max(1, Math.abs(b)), `b${j}`),
  );
  assert.ok(Math.abs(g.variance - peer.variance) < 1e-9 * peer.variance);
  // The prior pulls the slopes towards 0: a strong one leaves the mean alone.
  const strong = fitGaussianFamily(data, 0, [1, 3], { prior: { lambda: 1e12, a: 2, b: 3 } }).regressions[0]!;
  assert.ok(strong.coefficients.every((b) => Math.abs(b) < 1e-6));
});

test('fitting refuses a configuration with too few rows, naming it', () => {
  const data = typeColumns(
    encodeCategorical(
      ['D', 'X', 'Y'],
      [
        ['a', '1', '2'],
        ['a', '2', '3.5'],
        ['a', '3', '4.1'],
        ['b', '1', '0'],
      ],
    ),
  );
  assert.throws(() => fitGaussianFamily(data, 2, [0, 1]), /Y given D=b: 1 complete rows leave no residual variance/);
});

test('EM on a Gaussian network: the log-likelihood never decreases, and with a child missing at random it converges to the factorised ML', () => {
  // X0 → X1: the likelihood factorises into p(x0) over every row and p(x1 | x0) over the rows
  // observing x1, so the ML estimates are the all-rows moments of X0 and the complete-pair regression.
  const net = {
    name: 'pair',
    variables: [
      { kind: 'continuous' as const, name: 'X0' },
      { kind: 'continuous' as const, name: 'X1' },
    ],
    cpds: [
      {
        kind: 'gaussian' as const,
        cpd: {
          child: 0,
          discreteParents: [],
          continuousParents: [],
          intercepts: Float64Array.of(2),
          coefficients: new Float64Array(0),
          variances: Float64Array.of(1.5),
        },
      },
      {
        kind: 'gaussian' as const,
        cpd: {
          child: 1,
          discreteParents: [],
          continuousParents: [0],
          intercepts: Float64Array.of(-1),
          coefficients: Float64Array.of(0.7),
          variances: Float64Array.of(0.5),
        },
      },
    ],
  };
  const data = withMissing(sampleDataset(net, 2000, 3), [1], 0.3, 17);
  const em = gaussianEm(data, [[], [0]], { seed: 4, tolerance: 1e-12 });
  for (let i = 1; i < em.trace.length; i++)
    assert.ok(em.trace[i]! >= em.trace[i - 1]! - 1e-9 * Math.abs(em.trace[i - 1]!), `fell at ${i}`);
  assert.ok(em.converged);
  const x0 = (data.columns[0] as { values: Float64Array }).values;
  const x1 = (data.columns[1] as { values: Float64Array }).values;
  const mean = x0.reduce((s, x) => s + x, 0) / x0.length;
  const variance = x0.reduce((s, x) => s + (x - mean) ** 2, 0) / x0.length;
  const pairs = Int32Array.from(x1.keys()).filter((i) => !Number.isNaN(x1[i]!));
  const fit = regress(x1, [x0], pairs);
  const p = em.parameters;
  assert.ok(Math.abs(p.intercept[0]! - mean) < 1e-6);
  assert.ok(Math.abs(p.variance[0]! - variance) < 1e-6);
  assert.ok(Math.abs(p.intercept[1]! - fit.intercept) < 1e-6);
  assert.ok(Math.abs(p.coefficients[1]![0]! - fit.coefficients[0]!) < 1e-6);
  assert.ok(Math.abs(p.variance[1]! - fit.rss / pairs.length) < 1e-6);
});

test('EM with values missing in parents: monotone, seeded, and the observed-data log-likelihood equals numpy at its answer', (t) => {
  const missing = pythonMissing(['numpy', 'scipy']);
  if (missing) return t.skip(missing);
  const net = randomHybridNetwork({ continuous: 6, maxParents: 2, seed: 21 });
  const full = sampleDataset(net, 1500, 8);
  const data = withMissing(full, [0, 1, 2, 3, 4, 5], 0.2, 5);
  const parents = net.cpds.map((c) => (c.kind === 'gaussian' ? [...c.cpd.continuousParents] : []));
  const a = gaussianEm(data, parents, { seed: 2, maxIterations: 200 });
  const b = gaussianEm(data, parents, { seed: 2, maxIterations: 200 });
  assert.deepEqual(a.trace, b.trace);
  for (let i = 1; i < a.trace.length; i++)
    assert.ok(a.trace[i]! >= a.trace[i - 1]! - 1e-9 * Math.abs(a.trace[i - 1]!), `fell at ${i}`);
  const { mean, cov } = jointGaussian(
    a.parameters,
    topologicalOrder(
      parents,
      data.columns.map((c) => c.name),
    ),
  );
  const peer = runPython<{ ll: number }>(
    `
import json, sys, numpy as np
from scipy.stats import multivariate_normal
d = json.load(sys.stdin)
mu = np.array(d['mean']); S = np.array(d['cov']).reshape(len(mu), len(mu))
ll = 0.0
for row in d['rows']:
    x = np.array([np.nan if v is None else v for v in row])
    o = ~np.isnan(x)
    if o.any(): ll += multivariate_normal(mu[o], S[np.ix_(o, o)]).logpdf(x[o])
print(json.dumps({'ll': ll}))
`,
    {
      mean: [...mean],
      cov: [...cov],
      rows: matrixOf(data, [0, 1, 2, 3, 4, 5]).map((r) => r.map((x) => (Number.isNaN(x) ? null : x))),
    },
  );
  assert.ok(Math.abs(a.logLikelihood - peer.ll) < 1e-8 * Math.abs(peer.ll), `${a.logLikelihood} vs ${peer.ll}`);
  // EM climbs: its answer is more likely than its (seeded) start.
  const one = gaussianEm(data, parents, { seed: 2, maxIterations: 0 });
  assert.equal(one.trace.length, 1);
  assert.ok(a.logLikelihood > one.logLikelihood);
});
