import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HybridNetwork } from '../../../../server/src/engine/gaussian/hybridNetwork.js';
import { GaussianScoreCache, gaussianFamilyScore } from '../../../../server/src/engine/gaussian/gaussianScore.js';
import { FisherZ } from '../../../../server/src/engine/gaussian/fisherZ.js';
import { searchGaussianStructure } from '../../../../server/src/engine/gaussian/gaussianSearch.js';
import { randomHybridNetwork } from '../../../support/hybridNetworks.js';
import { matrixOf, sampleDataset } from '../../../support/gaussianData.js';
import { pythonMissing, runPython } from '../../../support/python.js';

/** A Gaussian network of gaussian.test's shape (bnlearn): A, B, E, G roots; C | A, B; D | B; F | A, D, E, G. */
function sevenNodes(): HybridNetwork {
  const names = ['A', 'B', 'C', 'D', 'E', 'F', 'G'];
  const spec: Record<string, [number, Array<[string, number]>, number]> = {
    A: [1, [], 1],
    B: [2, [], 9],
    C: [
      2,
      [
        ['A', 2],
        ['B', 2],
      ],
      0.25,
    ],
    D: [6, [['B', 1.5]], 1],
    E: [3.5, [], 4],
    F: [
      0,
      [
        ['A', 2],
        ['D', 1],
        ['E', 1],
        ['G', 1.5],
      ],
      4,
    ],
    G: [5, [], 4],
  };
  return {
    name: 'seven',
    variables: names.map((name) => ({ kind: 'continuous' as const, name })),
    cpds: names.map((name, child) => {
      const [b0, ps, v] = spec[name]!;
      return {
        kind: 'gaussian' as const,
        cpd: {
          child,
          discreteParents: [],
          continuousParents: ps.map(([p]) => names.indexOf(p)),
          intercepts: Float64Array.of(b0),
          coefficients: Float64Array.from(ps.map(([, b]) => b)),
          variances: Float64Array.of(v),
        },
      };
    }),
  };
}

function skeleton(parents: readonly (readonly number[])[]): string[] {
  return parents.flatMap((ps, v) => ps.map((p) => [Math.min(p, v), Math.max(p, v)].join('-'))).sort();
}

function trueParents(net: HybridNetwork): number[][] {
  return net.cpds.map((c) =>
    c.kind === 'gaussian' ? [...c.cpd.discreteParents, ...c.cpd.continuousParents] : [...c.cpt.parents],
  );
}

const SCORE = `
import json, sys, numpy as np
from scipy.stats import norm
d = json.load(sys.stdin)
M = np.array(d['rows'], dtype=float); N = len(M); kinds = d['kinds']; levels = d['levels']
total = 0.0
for child, parents in enumerate(d['parents']):
    dp = [p for p in parents if kinds[p] == 'd']; cp = [p for p in parents if kinds[p] == 'c']
    cfg = np.zeros(N, dtype=int); q = 1
    for p in dp:
        cfg = cfg * levels[p] + M[:, p].astype(int); q *= levels[p]
    if kinds[child] == 'd':
        r = levels[child]; ll = 0.0
        for c in range(q):
            ys = M[cfg == c, child].astype(int)
            for k in range(r):
                nk = (ys == k).sum()
                if nk: ll += nk * np.log(nk / len(ys))
        total += ll - 0.5 * np.log(N) * q * (r - 1)
    else:
        ll = 0.0
        for c in range(q):
            sel = cfg == c
            A = np.hstack([np.ones((sel.sum(), 1)), M[sel][:, cp]]); y = M[sel, child]
            beta = np.linalg.lstsq(A, y, rcond=None)[0]
            sd = np.sqrt(((y - A @ beta) ** 2).sum() / (len(y) - A.shape[1]))
            ll += norm.logpdf(y, A @ beta, sd).sum()
        total += ll - 0.5 * np.log(N) * q * (len(cp) + 2)
print(json.dumps({'score': total}))
`;

test("bic-g and bic-cg equal an independent numpy/scipy computation of bnlearn's formula", (t) => {
  const missing = pythonMissing(['numpy', 'scipy']);
  if (missing) return t.skip(missing);
  for (const net of [sevenNodes(), randomHybridNetwork({ continuous: 5, discrete: 3, maxParents: 3, seed: 4 })]) {
    const data = sampleDataset(net, 3000, 2);
    const parents = trueParents(net);
    const ours = new GaussianScoreCache(data).total(parents);
    const peer = runPython<{ score: number }>(SCORE, {
      rows: matrixOf(
        data,
        data.columns.map((_, i) => i),
      ),
      kinds: data.columns.map((c) => (c.kind === 'continuous' ? 'c' : 'd')),
      levels: data.columns.map((c) => (c.kind === 'discrete' ? c.levels.length : 0)),
      parents,
    });
    assert.ok(Math.abs(ours - peer.score) < 1e-9 * Math.abs(peer.score), `${net.name}: ${ours} vs ${peer.score}`);
  }
});

test('the search cache (scatter matrices per configuration) scores every family as the direct fit does, in any parent order', () => {
  const net = randomHybridNetwork({ continuous: 4, discrete: 3, maxParents: 3, seed: 8 });
  const data = sampleDataset(net, 1500, 3);
  const cache = new GaussianScoreCache(data);
  // Families with the same discrete parents listed in another order share scatter matrices.
  const orders = [
    [0, 1, 4],
    [1, 0, 5],
    [1, 0],
    [0, 2, 4, 5],
    [2, 0, 5],
    [5, 4],
    [4, 5, 1],
  ];
  for (const parents of orders) {
    const cached = cache.family(6, parents);
    const direct = gaussianFamilyScore(data, 6, parents);
    assert.ok(Math.abs(cached - direct) < 1e-9 * Math.abs(direct), `${parents}: ${cached} vs ${direct}`);
  }
});

test('bic-cg: a discrete child with a continuous parent scores −∞; a configuration with too few rows is singular', () => {
  const net = randomHybridNetwork({ continuous: 2, discrete: 2, maxParents: 2, seed: 6 });
  const data = sampleDataset(net, 200, 1);
  assert.equal(gaussianFamilyScore(data, 0, [2]), -Infinity);
  const tiny = sampleDataset(net, 3, 1);
  assert.equal(gaussianFamilyScore(tiny, 2, [0, 1, 3]), -Infinity);
});

test("Fisher's z: partial correlations, statistics and p-values equal numpy/scipy's", (t) => {
  const missing = pythonMissing(['numpy', 'scipy']);
  if (missing) return t.skip(missing);
  const data = sampleDataset(sevenNodes(), 800, 9);
  const fz = new FisherZ(data);
  const cases: Array<[number, number, number[]]> = [
    [0, 1, []],
    [2, 3, [1]],
    [0, 6, [5]],
    [0, 6, [5, 3, 4]],
    [2, 5, [0, 1, 3, 4, 6]],
  ];
  const peer = runPython<Array<{ r: number; z: number; p: number }>>(
    `
import json, sys, numpy as np
from scipy.stats import norm
d = json.load(sys.stdin)
M = np.array(d['rows']); n = len(M)
out = []
for x, y, s in d['cases']:
    idx = [x, y] + s
    P = np.linalg.inv(np.corrcoef(M[:, idx], rowvar=False))
    r = -P[0, 1] / np.sqrt(P[0, 0] * P[1, 1])
    z = np.arctanh(r) * np.sqrt(n - len(s) - 3)
    out.append({'r': float(r), 'z': float(z), 'p': float(2 * norm.sf(abs(z)))})
print(json.dumps(out))
`,
    { rows: matrixOf(data, [0, 1, 2, 3, 4, 5, 6]), cases },
  );
  cases.forEach(([x, y, s], k) => {
    const ours = fz.test(x, y, s);
    const p = peer[k]!;
    assert.ok(Math.abs(ours.partialCorrelation - p.r) < 1e-9, `r ${ours.partialCorrelation} vs ${p.r}`);
    assert.ok(Math.abs(ours.statistic - p.z) < 1e-9 * Math.max(1, Math.abs(p.z)), `z ${ours.statistic} vs ${p.z}`);
    assert.ok(Math.abs(ours.pValue - p.p) < 1e-9, `p ${ours.pValue} vs ${p.p}`);
  });
});

test('hill climbing under bic-g and PC-stable with zf recover the skeleton of a sampled Gaussian network', () => {
  const net = sevenNodes();
  const data = sampleDataset(net, 5000, 3);
  const truth = skeleton(trueParents(net));
  const hc = searchGaussianStructure(data, { method: 'hillclimb', score: 'bic-g' });
  assert.deepEqual(skeleton(hc.parents), truth);
  assert.ok(
    hc.score >= new GaussianScoreCache(data).total(trueParents(net)) - 1e-6,
    'the climb scores at least the truth',
  );
  const pc = searchGaussianStructure(data, { method: 'pc', score: 'bic-g' });
  const pcSkeleton = [...pc.cpdag.arcs(), ...pc.cpdag.edges()]
    .map(([a, b]) => [Math.min(a, b), Math.max(a, b)].join('-'))
    .sort();
  assert.deepEqual(pcSkeleton, truth);
  // The v-structures at C (A → C ← B) and F are identified: those arcs are directed.
  assert.ok(pc.cpdag.isArc(0, 2) && pc.cpdag.isArc(1, 2));
});

test('bic-cg hill climbing keeps to CG networks (no continuous → discrete arc) and recovers a CLG skeleton', () => {
  const net = randomHybridNetwork({ continuous: 4, discrete: 2, maxParents: 2, seed: 12 });
  const data = sampleDataset(net, 20000, 4);
  const found = searchGaussianStructure(data, { method: 'hillclimb', score: 'bic-cg' });
  found.parents.forEach((ps, v) => {
    if (data.columns[v]!.kind === 'discrete') assert.ok(ps.every((p) => data.columns[p]!.kind === 'discrete'));
  });
  assert.ok(found.score >= new GaussianScoreCache(data).total(trueParents(net)) - 1e-6);
});
