/**
 * EM for a full Gaussian mixture against scikit-learn's GaussianMixture on 1e5 and 1e6 points in
 * 2-D: same data, same starting parameters, same number of iterations (tol 0), timed in one run.
 * Prints the time ratio (ours / scikit-learn; below 1 is faster) and both log-likelihoods.
 *   npm run bench:em
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gaussianMixture, mixtureStart } from '../server/src/engine/gaussianMixture.js';
import { createRng } from '../server/src/engine/random.js';
import type { NumericData } from '../server/src/engine/dataset.js';

const PYTHON = '/usr/bin/python3';
const ITERATIONS = 20;
const K = 3;

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
t = time.perf_counter(); g.fit(X); t = time.perf_counter() - t
print(json.dumps({'seconds': t, 'score': g.score(X), 'iterations': int(g.n_iter_)}))
`;

function sample(n: number, seed: number): NumericData {
  const rng = createRng(seed);
  const mu = [[0, 0], [6, 1], [2, 7]];
  const values = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const j = rng.categorical([0.5, 0.3, 0.2]);
    const z0 = rng.normal(), z1 = rng.normal();
    values[2 * i] = mu[j]![0]! + z0;
    values[2 * i + 1] = mu[j]![1]! + 0.5 * z0 + 0.8 * z1;
  }
  return { names: ['x', 'y'], values, rows: n, dims: 2 };
}

const dir = mkdtempSync(join(tmpdir(), 'bench-em-'));
try {
  for (const n of [1e5, 1e6]) {
    const x = sample(n, 42);
    const file = join(dir, `x${n}.f64`);
    writeFileSync(file, new Uint8Array(x.values.buffer));
    const init = mixtureStart(x, K, 1);
    gaussianMixture(x, { k: K, init, maxIterations: 2, tolerance: 0 }); // warm up the JIT
    const t0 = performance.now();
    const fit = gaussianMixture(x, { k: K, init, maxIterations: ITERATIONS, tolerance: 0 });
    const ours = (performance.now() - t0) / 1000;
    const r = spawnSync(PYTHON, ['-c', SKLEARN], {
      encoding: 'utf8',
      input: JSON.stringify({ file, k: K, iterations: ITERATIONS, weights: [...init.weights], means: [...init.means], covariances: [...init.covariances] }),
    });
    if (r.status !== 0) { console.log(`n=${n}: scikit-learn unavailable (${r.stderr.trim().split('\n').pop()}); ours ${ours.toFixed(3)} s`); continue; }
    const sk = JSON.parse(r.stdout) as { seconds: number; score: number; iterations: number };
    console.log(
      `n=${n.toExponential(0)} k=${K} d=2, ${ITERATIONS} iterations: ours ${ours.toFixed(3)} s, scikit-learn ${sk.seconds.toFixed(3)} s ` +
      `(${sk.iterations} it) → ratio ${(ours / sk.seconds).toFixed(2)}; mean log-likelihood ours ${(fit.logLikelihood / n).toFixed(9)} ` +
      `scikit-learn ${sk.score.toFixed(9)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
