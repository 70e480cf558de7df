/**
 * EM for a full Gaussian mixture against scikit-learn's GaussianMixture on 1e5 and 1e6 points in
 * 2-D: same data, same starting parameters, same number of iterations (tol 0), timed in one run.
 * Each side fits REPEATS times in one process: the first (cold) and the median of the rest (warm)
 * are reported separately, with the warm ratio (ours / scikit-learn; below 1 is faster) and both
 * log-likelihoods.
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

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

const dir = mkdtempSync(join(tmpdir(), 'bench-em-'));
try {
  for (const n of [1e5, 1e6]) {
    const x = sample(n, 42);
    const file = join(dir, `x${n}.f64`);
    writeFileSync(file, new Uint8Array(x.values.buffer));
    const init = mixtureStart(x, K, 1);
    const times: number[] = [];
    let fit = gaussianMixture(x, { k: K, init, maxIterations: 1, tolerance: 0 });
    for (let i = 0; i < REPEATS; i++) {
      const t0 = performance.now();
      fit = gaussianMixture(x, { k: K, init, maxIterations: ITERATIONS, tolerance: 0 });
      times.push((performance.now() - t0) / 1000);
    }
    const r = spawnSync(PYTHON, ['-c', SKLEARN], {
      encoding: 'utf8',
      input: JSON.stringify({ file, k: K, iterations: ITERATIONS, repeats: REPEATS, weights: [...init.weights], means: [...init.means], covariances: [...init.covariances] }),
    });
    const ours = { cold: times[0]!, warm: median(times.slice(1)) };
    if (r.status !== 0) { console.log(`n=${n}: scikit-learn unavailable (${r.stderr.trim().split('\n').pop()}); ours cold ${ours.cold.toFixed(3)} s, warm ${ours.warm.toFixed(3)} s`); continue; }
    const sk = JSON.parse(r.stdout) as { times: number[]; score: number; iterations: number };
    const theirs = { cold: sk.times[0]!, warm: median(sk.times.slice(1)) };
    console.log(
      `n=${n.toExponential(0)} k=${K} d=2, ${ITERATIONS} iterations (scikit-learn ran ${sk.iterations}): ` +
      `ours cold ${ours.cold.toFixed(3)} s warm ${ours.warm.toFixed(3)} s; scikit-learn cold ${theirs.cold.toFixed(3)} s warm ${theirs.warm.toFixed(3)} s ` +
      `→ warm ratio ${(ours.warm / theirs.warm).toFixed(2)}, cold ratio ${(ours.cold / theirs.cold).toFixed(2)}; ` +
      `mean log-likelihood ours ${(fit.logLikelihood / n).toFixed(12)} scikit-learn ${sk.score.toFixed(12)}`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
