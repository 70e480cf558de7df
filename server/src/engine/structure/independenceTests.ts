/**
 * Conditional-independence tests of X ⊥ Y | Z on categorical data, as the constraint-based
 * searches (PC) use them; the statistics are bnlearn's `mi-adf` and `x2-adf`:
 *  - G² = 2 Σ n_xyz ln(n_xyz n_z / (n_xz n_yz))   (the likelihood ratio; 2N × conditional mutual information)
 *  - χ² = Σ (n_xyz − e_xyz)² / e_xyz with e_xyz = n_xz n_yz / n_z   (Pearson; cells with e = 0 left out)
 * Both are asymptotically χ² with, per stratum z, (r_x(z) − 1)(r_y(z) − 1) degrees of freedom, where
 * r_x(z) counts the values of X seen in stratum z (empty rows and columns of a stratum's table
 * carry no information, so they are not counted; a stratum never seen adds nothing). With no
 * degree of freedom left the data cannot show dependence: the p-value is 1.
 * Rows with a missing value in X, Y or Z are left out of the test.
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { logGamma } from '../estimators/betaDistribution.js';
import { EngineError } from '../engineError.js';

export type IndependenceTestName = 'g2' | 'x2';

export interface IndependenceTestResult {
  statistic: number;
  df: number;
  pValue: number;
}

/** Dense strata tables stay below this many cells; beyond it only the strata seen are stored. */
const DENSE_LIMIT = 1 << 22;

export function independenceTest(
  data: CategoricalDataset,
  x: number,
  y: number,
  z: readonly number[],
  test: IndependenceTestName,
): IndependenceTestResult {
  const rx = data.attributes[x]!.values.length,
    ry = data.attributes[y]!.values.length;
  const { strata, count } = stratumIndex(data, [x, y, ...z], z);
  const cell = rx * ry;
  const table = new Float64Array(count * cell);
  const xs = data.columns[x]!,
    ys = data.columns[y]!;
  for (let r = 0; r < data.rowCount; r++) {
    const s = strata[r]!;
    if (s >= 0) table[s * cell + xs[r]! * ry + ys[r]!]!++;
  }
  return testTable(table, count, rx, ry, test);
}

/**
 * The statistic, adjusted degrees of freedom and p-value of `count` strata of rx × ry counts
 * (table[s·rx·ry + x·ry + y]).
 */
export function testTable(
  table: Float64Array,
  count: number,
  rx: number,
  ry: number,
  test: IndependenceTestName,
): IndependenceTestResult {
  const cell = rx * ry;
  const nx = new Float64Array(rx),
    ny = new Float64Array(ry);
  let statistic = 0,
    df = 0;
  for (let s = 0; s < count; s++) {
    const base = s * cell;
    nx.fill(0);
    ny.fill(0);
    let n = 0;
    for (let i = 0; i < rx; i++) {
      for (let j = 0; j < ry; j++) {
        const c = table[base + i * ry + j]!;
        nx[i]! += c;
        ny[j]! += c;
        n += c;
      }
    }
    if (n === 0) continue;
    let seenX = 0,
      seenY = 0;
    for (let i = 0; i < rx; i++) if (nx[i]! > 0) seenX++;
    for (let j = 0; j < ry; j++) if (ny[j]! > 0) seenY++;
    df += Math.max(seenX - 1, 0) * Math.max(seenY - 1, 0);
    for (let i = 0; i < rx; i++) {
      if (nx[i] === 0) continue;
      for (let j = 0; j < ry; j++) {
        if (ny[j] === 0) continue;
        const c = table[base + i * ry + j]!,
          e = (nx[i]! * ny[j]!) / n;
        if (test === 'x2') statistic += ((c - e) * (c - e)) / e;
        else if (c > 0) statistic += 2 * c * Math.log(c / e);
      }
    }
  }
  statistic = Math.max(statistic, 0); // rounding can leave G² a hair below zero
  return { statistic, df, pValue: df > 0 ? chiSquareSurvival(statistic, df) : 1 };
}

/**
 * Per row, the index of its Z configuration among the strata (−1 when a value of `family` is
 * missing), and how many strata there are: dense over every configuration when that is small,
 * otherwise numbered in order of first appearance.
 */
function stratumIndex(
  data: CategoricalDataset,
  family: readonly number[],
  z: readonly number[],
): { strata: Int32Array; count: number } {
  const n = data.rowCount;
  const strata = new Int32Array(n);
  const cols = family.map((f) => data.columns[f]!);
  let size = 1;
  for (const v of z) size *= data.attributes[v]!.values.length;
  const cells = size * data.attributes[family[0]!]!.values.length * data.attributes[family[1]!]!.values.length;
  const zc = z.map((v) => data.columns[v]!),
    zcard = z.map((v) => data.attributes[v]!.values.length);
  const seen = cells <= DENSE_LIMIT ? undefined : new Map<number, number>();
  rows: for (let r = 0; r < n; r++) {
    for (const c of cols)
      if (c[r]! < 0) {
        strata[r] = -1;
        continue rows;
      }
    let at = 0;
    for (let i = 0; i < zc.length; i++) at = at * zcard[i]! + zc[i]![r]!;
    if (seen) {
      let k = seen.get(at);
      if (k === undefined) {
        k = seen.size;
        seen.set(at, k);
      }
      at = k;
    }
    strata[r] = at;
  }
  return { strata, count: seen ? seen.size : size };
}

/** P(χ²_df > x): the regularized upper incomplete gamma function Q(df/2, x/2). */
export function chiSquareSurvival(x: number, df: number): number {
  if (!(df > 0)) throw new EngineError(`a χ² distribution needs positive degrees of freedom, got ${df}`);
  if (!(x > 0)) return 1;
  return upperGammaRegularized(df / 2, x / 2);
}

/**
 * Q(a, x) = Γ(a, x) / Γ(a). Below x = a + 1 from the series of the lower function,
 * P(a, x) = x^a e^−x / Γ(a + 1) · Σ_k x^k / ((a + 1)⋯(a + k)); above it from the continued
 * fraction of Γ(a, x) (modified Lentz), which converges fast there and keeps tiny tails exact.
 */
export function upperGammaRegularized(a: number, x: number): number {
  if (x <= 0) return 1;
  const logFront = a * Math.log(x) - x - logGamma(a);
  if (x < a + 1) {
    let term = 1 / a,
      sum = term;
    for (let k = 1; k < 10_000; k++) {
      term *= x / (a + k);
      sum += term;
      if (term < sum * 1e-16) break;
    }
    return Math.max(0, 1 - sum * Math.exp(logFront));
  }
  const tiny = 1e-300;
  let b = x + 1 - a,
    c = 1 / tiny,
    d = 1 / b,
    h = d;
  for (let i = 1; i < 10_000; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(logFront) * h;
}
