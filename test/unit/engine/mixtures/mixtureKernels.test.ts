import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expNonPositive } from '../../../../server/src/engine/math/fastExp.js';
import { choleskyFactor, choleskySolve } from '../../../../server/src/engine/math/linearAlgebra.js';
import {
  componentTerms,
  packedSize,
  scanFor,
  scanGeneric,
  type ComponentTerms,
  type Scan,
} from '../../../../server/src/engine/mixtures/mixtureKernels.js';
import { gaussianMixture, mixtureStart } from '../../../../server/src/engine/mixtures/gaussianMixture.js';
import { createRng, type Rng } from '../../../../server/src/engine/random.js';
import type { NumericData } from '../../../../server/src/engine/dataset.js';

test('expNonPositive is within 3 ulp of Math.exp on [−745, 0] and exact at the ends', () => {
  const rng = createRng(4);
  let worst = 0;
  for (let i = 0; i < 200000; i++) {
    // Half the arguments near 0 (where EM's differences mostly lie), half over the whole range.
    const x = i % 2 ? -rng.next() * 708 : -rng.next() * 4;
    const want = Math.exp(x);
    worst = Math.max(worst, Math.abs(expNonPositive(x) - want) / want);
  }
  assert.ok(worst <= 3 * Number.EPSILON, `worst relative error ${worst / Number.EPSILON} eps`);
  assert.equal(expNonPositive(0), 1);
  assert.equal(expNonPositive(-0), 1);
  assert.equal(expNonPositive(-800), 0);
  assert.equal(expNonPositive(-Infinity), 0);
  assert.ok(Number.isNaN(expNonPositive(NaN)));
  // Gradual underflow: subnormal results stay within a few of the smallest subnormals.
  for (const x of [-709, -720, -740, -745])
    assert.ok(
      Math.abs(expNonPositive(x) - Math.exp(x)) <= 4 * Number.MIN_VALUE + 3 * Number.EPSILON * Math.exp(x),
      `x = ${x}`,
    );
});

/** A random mixture in d dimensions: weights, means, covariances A Aᵀ + ½ I. */
function randomMixture(
  rng: Rng,
  k: number,
  d: number,
): { weights: Float64Array; means: Float64Array; covariances: Float64Array } {
  const weights = Float64Array.from({ length: k }, () => 0.2 + rng.next());
  const total = weights.reduce((s, w) => s + w, 0);
  weights.forEach((w, j) => {
    weights[j] = w / total;
  });
  const means = Float64Array.from({ length: k * d }, () => 4 * rng.normal());
  const covariances = new Float64Array(k * d * d);
  for (let j = 0; j < k; j++) {
    const a = Float64Array.from({ length: d * d }, () => rng.normal());
    for (let r = 0; r < d; r++) {
      for (let c = 0; c < d; c++) {
        let s = r === c ? 0.5 : 0;
        for (let m = 0; m < d; m++) s += a[r * d + m]! * a[c * d + m]!;
        covariances[j * d * d + r * d + c] = s;
      }
    }
  }
  return { weights, means, covariances };
}

function randomData(rng: Rng, n: number, d: number): NumericData {
  return {
    names: Array.from({ length: d }, (_, a) => `x${a}`),
    values: Float64Array.from({ length: n * d }, () => 5 * rng.normal()),
    rows: n,
    dims: d,
  };
}

/** The E-step spelled out: log N(x; μ, Σ) by a Cholesky solve, Math.exp and Math.log, two passes. */
function referenceEStep(
  x: NumericData,
  w: Float64Array,
  mu: Float64Array,
  cov: Float64Array,
  k: number,
): { ll: number; resp: Float64Array } {
  const d = x.dims;
  const resp = new Float64Array(x.rows * k);
  let ll = 0;
  for (let i = 0; i < x.rows; i++) {
    const lps = Array.from({ length: k }, (_, j) => {
      const sigma = cov.subarray(j * d * d, (j + 1) * d * d);
      const diff = Array.from({ length: d }, (_, a) => x.values[i * d + a]! - mu[j * d + a]!);
      const solved = choleskySolve(sigma, d, diff);
      const l = choleskyFactor(sigma, d)!;
      let logDet = 0;
      for (let a = 0; a < d; a++) logDet += 2 * Math.log(l[a * d + a]!);
      const maha = diff.reduce((s, v, a) => s + v * solved[a]!, 0);
      return Math.log(w[j]!) - 0.5 * (d * Math.log(2 * Math.PI) + logDet + maha);
    });
    const max = Math.max(...lps);
    const sum = lps.reduce((s, lp) => s + Math.exp(lp - max), 0);
    lps.forEach((lp, j) => {
      resp[i * k + j] = Math.exp(lp - max) / sum;
    });
    ll += max + Math.log(sum);
  }
  return { ll, resp };
}

function close(a: ArrayLike<number>, b: ArrayLike<number>, tol: number, what: string): void {
  assert.equal(a.length, b.length, what);
  for (let i = 0; i < a.length; i++)
    assert.ok(Math.abs(a[i]! - b[i]!) <= tol * Math.max(1, Math.abs(b[i]!)), `${what}[${i}]: ${a[i]} vs ${b[i]}`);
}

function runScan(
  scan: Scan,
  x: NumericData,
  terms: ComponentTerms,
): { ll: number; resp: Float64Array; stats: ReturnType<Scan>['stats'] } {
  const resp = new Float64Array(x.rows * terms.k);
  const { logLikelihood: ll, stats } = scan(x, terms, resp);
  return { ll, resp, stats };
}

test('the d = 1, 2, 3 kernels agree with the generic one to 1e-12, and with a spelled-out E-step', () => {
  const rng = createRng(17);
  for (const d of [1, 2, 3]) {
    for (const k of [1, 3, 4]) {
      const x = randomData(rng, 3000, d);
      const { weights, means, covariances } = randomMixture(rng, k, d);
      const terms = componentTerms(weights, means, covariances, k, d);
      const fast = runScan(scanFor(d), x, terms),
        generic = runScan(scanGeneric, x, terms);
      const tag = `d=${d} k=${k}`;
      assert.ok(
        Math.abs(fast.ll - generic.ll) <= 1e-12 * Math.abs(generic.ll),
        `${tag} log-likelihood ${fast.ll} vs ${generic.ll}`,
      );
      close(fast.resp, generic.resp, 1e-12, `${tag} responsibilities`);
      close(fast.stats.weight, generic.stats.weight, 1e-12, `${tag} Σr`);
      close(fast.stats.first, generic.stats.first, 1e-12, `${tag} Σr(x−μ)`);
      close(fast.stats.second, generic.stats.second, 1e-12, `${tag} Σr(x−μ)(x−μ)ᵀ`);
      assert.equal(fast.stats.second.length, k * packedSize(d));
      const ref = referenceEStep(x, weights, means, covariances, k);
      assert.ok(
        Math.abs(generic.ll - ref.ll) <= 1e-11 * Math.abs(ref.ll),
        `${tag} log-likelihood ${generic.ll} vs reference ${ref.ll}`,
      );
      close(generic.resp, ref.resp, 1e-11, `${tag} responsibilities vs reference`);
      // The statistics are the sums they claim to be, about the E-step's means.
      for (let j = 0; j < k; j++) {
        let w = 0,
          f = 0,
          s = 0;
        for (let i = 0; i < x.rows; i++) {
          const r = ref.resp[i * k + j]!,
            dx = x.values[i * d + d - 1]! - means[j * d + d - 1]!;
          w += r;
          f += r * dx;
          s += r * dx * dx;
        }
        const last = j * packedSize(d) + packedSize(d) - 1;
        close(
          [generic.stats.weight[j]!, generic.stats.first[j * d + d - 1]!, generic.stats.second[last]!],
          [w, f, s],
          1e-10,
          `${tag} statistics of component ${j}`,
        );
      }
    }
  }
});

/** Σ_k = Σ r (x − μ_k)(x − μ_k)ᵀ / N_k + reg·I with μ_k from the same responsibilities: the textbook two passes. */
function twoPassCovariances(x: NumericData, resp: Float64Array, k: number, regCovar: number): Float64Array {
  const d = x.dims,
    cov = new Float64Array(k * d * d);
  for (let j = 0; j < k; j++) {
    let nk = 10 * Number.EPSILON;
    const mu = new Float64Array(d);
    for (let i = 0; i < x.rows; i++) {
      nk += resp[i * k + j]!;
      for (let a = 0; a < d; a++) mu[a]! += resp[i * k + j]! * x.values[i * d + a]!;
    }
    mu.forEach((m, a) => {
      mu[a] = m / nk;
    });
    for (let i = 0; i < x.rows; i++) {
      for (let a = 0; a < d; a++)
        for (let b = 0; b < d; b++)
          cov[j * d * d + a * d + b]! +=
            resp[i * k + j]! * (x.values[i * d + a]! - mu[a]!) * (x.values[i * d + b]! - mu[b]!);
    }
    for (let a = 0; a < d * d; a++) cov[j * d * d + a] = cov[j * d * d + a]! / nk + (a % (d + 1) === 0 ? regCovar : 0);
  }
  return cov;
}

test('the one-pass covariance about the E-step means stays accurate on data offset by 1e6', () => {
  const rng = createRng(8);
  const n = 20000;
  const x = randomData(rng, n, 2);
  // Three clusters, then everything moved to around (1e6, 1e6): E[x²] ≈ 1e12, so the raw one-pass
  // formula E[x²] − E[x]² would lose about 12 of its 16 digits.
  for (let i = 0; i < n; i++) {
    x.values[2 * i]! += 1e6 + 8 * (i % 3);
    x.values[2 * i + 1]! += 1e6 - 5 * (i % 3);
  }
  const start = mixtureStart(x, 3, 2);
  const before = gaussianMixture(x, { k: 3, init: start, maxIterations: 0 });
  const after = gaussianMixture(x, { k: 3, init: start, maxIterations: 1, tolerance: 0 });
  close(after.covariances, twoPassCovariances(x, before.responsibilities, 3, 1e-6), 1e-9, 'covariances after one step');
  // The whole fit is translation invariant: same covariances and log-likelihood as at the origin.
  const centred = { ...x, values: x.values.map((v) => v - 1e6) };
  const init = { ...start, means: start.means.map((m) => m - 1e6) };
  const far = gaussianMixture(x, { k: 3, init: start, maxIterations: 30, tolerance: 0 });
  const near = gaussianMixture(centred, { k: 3, init, maxIterations: 30, tolerance: 0 });
  far.means.forEach((m, i) => {
    far.means[i] = m - 1e6;
  });
  close(far.covariances, near.covariances, 1e-8, 'covariances far vs near');
  close(far.means, near.means, 1e-8, 'means far vs near');
  assert.ok(Math.abs(far.logLikelihood - near.logLikelihood) < 1e-8 * Math.abs(near.logLikelihood));
});
