/**
 * EM for a full Gaussian mixture against scikit-learn's GaussianMixture on 1e5 and 1e6 points in
 * 2-D: same data, same starting parameters, same number of iterations (tol 0), timed in one run.
 * Each side fits REPEATS times in one process: the first (cold) and the median of the rest (warm)
 * are reported separately, with the warm ratio (ours / peer; below 1 is faster) and the mean
 * log-likelihoods.
 * A third side is pomegranate 0.14's GeneralMixtureModel of MultivariateGaussianDistributions,
 * built with the same weights, means and covariances and run for the same number of M-steps
 * (stop_threshold −∞; its History counts them). Its EM adds nothing to the covariance diagonal
 * (scikit-learn and we add reg_covar = 1e-6), so its log-likelihood is checked against ours
 * fitted with regCovar 0.
 *   npm run bench:em
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  gaussianMixture,
  mixtureStart,
  type MixtureParameters,
} from '../server/src/engine/mixtures/gaussianMixture.js';
import { createRng } from '../server/src/engine/random.js';
import type { NumericData } from '../server/src/engine/dataset.js';
import { coldWarm } from './support/peerProcess.js';

const PYTHON = '/usr/bin/python3';
const ITERATIONS = 20;
const K = 3;
const REPEATS = 6;

const SKLEARN = `
import json, sys, time, numpy as np
from sklearn.mixture import GaussianMixture
a = json.load(sys.stdin)
X = np.fromfile(a['file'], dtype='<f8').reshape(-1, 2)
k = a['k']
cov = np.array(a['covariances']).reshape(k, 2, 2)
g = GaussianMixture(k, covariance_type='full', tol=0, max_iter=a['iterations'], reg_covar=1e-6,
    weights_init=np.array(a['weights']), means_init=np.array(a['means']).reshape(k, 2),
    precisions_init=np.linalg.inv(cov))
times = []
for _ in range(a['repeats']):
    t = time.perf_counter(); g.fit(X); times.append(time.perf_counter() - t)
print(json.dumps({'times': times, 'score': g.score(X), 'iterations': int(g.n_iter_)}))
`;

// fit() runs iteration 0 as the E-step of the start, then max_iterations (M-step, E-step) pairs;
// History logs one epoch per M-step.
const POMEGRANATE = `
import json, sys, time, numpy as np
from pomegranate import GeneralMixtureModel, MultivariateGaussianDistribution
a = json.load(sys.stdin)
X = np.fromfile(a['file'], dtype='<f8').reshape(-1, 2)
k = a['k']
means = np.array(a['means']).reshape(k, 2)
cov = np.array(a['covariances']).reshape(k, 2, 2)
times = []
for _ in range(a['repeats']):
    m = GeneralMixtureModel([MultivariateGaussianDistribution(means[j].copy(), cov[j].copy()) for j in range(k)],
        weights=np.array(a['weights']))
    t = time.perf_counter()
    _, history = m.fit(X, stop_threshold=float('-inf'), max_iterations=a['iterations'], return_history=True)
    times.append(time.perf_counter() - t)
print(json.dumps({'times': times, 'score': float(np.mean(m.log_probability(X))), 'iterations': len(history.epochs)}))
`;

interface PeerRun {
  times: number[];
  score: number;
  iterations: number;
}
/** One side of the table: a run's iteration count, timings and mean log-likelihood. */
interface Side {
  iterations: number;
  timing: ReturnType<typeof coldWarm>;
  meanLogLikelihood: number;
}

function sample(n: number, seed: number): NumericData {
  const rng = createRng(seed);
  const mu = [
    [0, 0],
    [6, 1],
    [2, 7],
  ];
  const values = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const j = rng.categorical([0.5, 0.3, 0.2]);
    const z0 = rng.normal(),
      z1 = rng.normal();
    values[2 * i] = mu[j]![0]! + z0;
    values[2 * i + 1] = mu[j]![1]! + 0.5 * z0 + 0.8 * z1;
  }
  return { names: ['x', 'y'], values, rows: n, dims: 2 };
}

/** Ours: one warm-up iteration, then REPEATS timed fits of ITERATIONS iterations. */
function ours(x: NumericData, init: MixtureParameters, regCovar: number): Side {
  const times: number[] = [];
  let fit = gaussianMixture(x, { k: K, init, maxIterations: 1, tolerance: 0, regCovar });
  for (let i = 0; i < REPEATS; i++) {
    const t0 = performance.now();
    fit = gaussianMixture(x, { k: K, init, maxIterations: ITERATIONS, tolerance: 0, regCovar });
    times.push((performance.now() - t0) / 1000);
  }
  return { iterations: fit.iterations, timing: coldWarm(times), meanLogLikelihood: fit.logLikelihood / x.rows };
}

/** A Python peer's run, or the reason it could not run. */
function peer(script: string, input: object): Side | string {
  const r = spawnSync(PYTHON, ['-c', script], {
    encoding: 'utf8',
    input: JSON.stringify({ ...input, k: K, iterations: ITERATIONS, repeats: REPEATS }),
  });
  if (r.status !== 0) return `unavailable (${r.stderr.trim().split('\n').pop()})`;
  const run = JSON.parse(r.stdout) as PeerRun;
  return { iterations: run.iterations, timing: coldWarm(run.times), meanLogLikelihood: run.score };
}

const HEADINGS = ['iterations', 'cold s', 'warm s', 'ours ÷ peer warm (cold)', 'mean log-likelihood'];
const WIDTHS = [10, 8, 8, 24, 20];
const line = (label: string, cells: string[]) =>
  console.log(`  ${label.padEnd(36)} ${cells.map((c, i) => c.padStart(WIDTHS[i]!)).join(' ')}`);

/** Our row, then the peer's with the ratio of our time to its (below 1: we are faster). */
function compare(label: string, mine: Side, peerLabel: string, theirs: Side | string): void {
  const cells = (s: Side, ratio: string) => [
    String(s.iterations),
    s.timing.cold.toFixed(3),
    s.timing.warm.toFixed(3),
    ratio,
    s.meanLogLikelihood.toFixed(12),
  ];
  line(label, cells(mine, ''));
  if (typeof theirs === 'string') {
    line(peerLabel, [theirs]);
    return;
  }
  const ratio = `${(mine.timing.warm / theirs.timing.warm).toFixed(2)} (${(mine.timing.cold / theirs.timing.cold).toFixed(2)})`;
  line(peerLabel, cells(theirs, ratio));
}

const dir = mkdtempSync(join(tmpdir(), 'bench-em-'));
try {
  for (const n of [1e5, 1e6]) {
    const x = sample(n, 42);
    const file = join(dir, `x${n}.f64`);
    writeFileSync(file, new Uint8Array(x.values.buffer));
    const init = mixtureStart(x, K, 1);
    const start = { file, weights: [...init.weights], means: [...init.means], covariances: [...init.covariances] };
    console.log(
      `\nn=${n.toExponential(0)} k=${K} d=2, ${ITERATIONS} iterations from the same start, ${REPEATS} fits per side (warm: median after the first)`,
    );
    line('side', HEADINGS);
    compare('ours, reg_covar 1e-6', ours(x, init, 1e-6), 'scikit-learn, reg_covar 1e-6', peer(SKLEARN, start));
    compare('ours, regCovar 0', ours(x, init, 0), 'pomegranate (has no reg_covar)', peer(POMEGRANATE, start));
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
