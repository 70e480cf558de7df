/** Random linear Gaussian networks over time and sequences drawn from them, for the Kalman tests. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRng, type Rng } from '../../server/src/engine/random.js';
import { tempFile } from './cli.js';
import {
  sliceModel,
  type GaussianTwoSliceNetwork,
  type LinearGaussianTable,
} from '../../server/src/engine/dynamic/gaussianSlice.js';
import type { GaussianObservations } from '../../server/src/engine/dynamic/kalman.js';

const uniform = (rng: Rng, lo: number, hi: number) => lo + (hi - lo) * rng.next();

/**
 * n real variables per slice; each has up to 2 parents among the earlier variables of its slice
 * (intra-slice arcs, in a shuffled order so the topological order is not the index order), itself
 * at t−1, and maybe another variable at t−1. The arcs from t−1 are scaled so that the transition
 * matrix's spectral radius is at most 0.95 (A is linear in them), so 10^4 steps stay finite.
 */
export function randomGaussianTwoSlice(seed: number, n: number): GaussianTwoSliceNetwork {
  const rng = createRng(seed);
  const order = rng.shuffle(Array.from({ length: n }, (_, i) => i));
  const earlier = (i: number) => order.slice(0, order.indexOf(i));
  const within = (i: number) => rng.shuffle(earlier(i)).slice(0, rng.int(3));
  const table = (child: number, parents: number[], coefficients: number[]): LinearGaussianTable => ({
    child,
    parents,
    coefficients,
    mean: uniform(rng, -2, 2),
    variance: uniform(rng, 0.1, 2),
  });
  const initial = order
    .map((i) => {
      const ps = within(i);
      return table(
        i,
        ps,
        ps.map(() => uniform(rng, -1, 1)),
      );
    })
    .sort((a, b) => a.child - b.child);
  const transition = order
    .map((i) => {
      const ps = within(i);
      const previous = [n + i, ...(n > 1 && rng.next() < 0.5 ? [n + ((i + 1 + rng.int(n - 1)) % n)] : [])];
      return table(
        i,
        [...ps, ...previous],
        [...ps.map(() => uniform(rng, -1, 1)), ...previous.map(() => uniform(rng, -1, 1))],
      );
    })
    .sort((a, b) => a.child - b.child);
  const net: GaussianTwoSliceNetwork = {
    name: `G${seed}`,
    variables: Array.from({ length: n }, (_, i) => `X${i}`),
    initial,
    transition,
  };
  const radius = spectralRadius(sliceModel(net).transition, n);
  if (radius > 0.95)
    for (const t of net.transition)
      t.parents.forEach((p, j) => {
        if (p >= n) t.coefficients[j] = t.coefficients[j]! * (0.95 / radius);
      });
  return net;
}

/** ‖A^64‖^(1/64) (Frobenius): an estimate of the spectral radius from above for these sizes. */
function spectralRadius(A: Float64Array, n: number): number {
  let M = Float64Array.from(A);
  let logScale = 0;
  for (let s = 0; s < 6; s++) {
    const next = new Float64Array(n * n);
    for (let i = 0; i < n; i++)
      for (let k = 0; k < n; k++) for (let j = 0; j < n; j++) next[i * n + j]! += M[i * n + k]! * M[k * n + j]!;
    const norm = Math.sqrt(next.reduce((a, x) => a + x * x, 0)) || 1e-300;
    logScale = 2 * logScale + Math.log(norm);
    M = next.map((x) => x / norm);
  }
  return Math.exp(logScale / 64);
}

/** T steps drawn from the template, each variable observed with probability `p` (slice 0 unobserved). */
export function sampleGaussianSequence(
  seed: number,
  net: GaussianTwoSliceNetwork,
  T: number,
  p: number,
): GaussianObservations[] {
  const rng = createRng(seed + 1000);
  const n = net.variables.length;
  const draw = (tables: LinearGaussianTable[], previous: Float64Array) => {
    const x = new Float64Array(n);
    const done = new Uint8Array(n);
    const value = (i: number): number => {
      if (done[i]) return x[i]!;
      const t = tables[i]!;
      let m = t.mean;
      t.parents.forEach((q, j) => (m += t.coefficients[j]! * (q < n ? value(q) : previous[q - n]!)));
      done[i] = 1;
      return (x[i] = m + Math.sqrt(t.variance) * rng.normal());
    };
    for (let i = 0; i < n; i++) value(i);
    return x;
  };
  let state = draw(net.initial, new Float64Array(n));
  const out: GaussianObservations[] = [];
  for (let t = 0; t < T; t++) {
    state = draw(net.transition, state);
    const seen = new Map<number, number>();
    for (let i = 0; i < n; i++) if (rng.next() < p) seen.set(i, state[i]!);
    out.push(seen);
  }
  return out;
}

/** The network and observations as the numpy oracle reads them. */
export function oracleInput(
  net: GaussianTwoSliceNetwork,
  observations: readonly GaussianObservations[],
  extra: object,
) {
  return {
    n: net.variables.length,
    initial: net.initial,
    transition: net.transition,
    observations: observations.map((o) => [...o]),
    ...extra,
  };
}

/** The template as a `.bayes` network over time (coefficients keyed by the parent with its slice). */
export function gaussianTwoSliceText(net: GaussianTwoSliceNetwork): string {
  const n = net.variables.length;
  const parent = (p: number, slice: '0' | 't') =>
    p < n ? `${net.variables[p]}[${slice}]` : `${net.variables[p - n]}[t-1]`;
  const table = (t: LinearGaussianTable, slice: '0' | 't') => {
    const given = t.parents.map((p) => parent(p, slice));
    const coefficients = t.parents.map((p, j) => `${parent(p, slice)}: ${t.coefficients[j]}`);
    const args = [`mean: ${t.mean}`, ...coefficients, `variance: ${t.variance}`].join(', ');
    return `  P(${net.variables[t.child]}[${slice}]${given.length ? ` | ${given.join(', ')}` : ''}) ~ Normal(${args})`;
  };
  return [
    `network ${net.name} {`,
    `  variable ${net.variables.join(', ')} : real`,
    ...net.initial.map((t) => table(t, '0')),
    ...net.transition.map((t) => table(t, 't')),
    '}',
    '',
  ].join('\n');
}

/** Observations as the CSV `bayes filter` reads: a column per variable, `?` where missing. */
export function observationsCsv(net: GaussianTwoSliceNetwork, observations: readonly GaussianObservations[]): string {
  const rows = observations.map((o) => net.variables.map((_, i) => (o.has(i) ? String(o.get(i)) : '?')).join(','));
  return [net.variables.join(','), ...rows, ''].join('\n');
}

/**
 * The Drift template of test/unit/run/gaussianDynamicQueries.test.ts's model, written by hand:
 * Level 0, Meter 1; slice t−1's Level is 2.
 */
export const driftTemplate: GaussianTwoSliceNetwork = {
  name: 'Drift',
  variables: ['Level', 'Meter'],
  initial: [
    { child: 0, parents: [], coefficients: [], mean: 10, variance: 2 },
    { child: 1, parents: [0], coefficients: [1.1], mean: -0.5, variance: 0.3 },
  ],
  transition: [
    { child: 0, parents: [2], coefficients: [0.9], mean: 1, variance: 0.5 },
    { child: 1, parents: [0], coefficients: [1.1], mean: -0.5, variance: 0.3 },
  ],
};

/** The model file of `net` and its readings' CSV (obs.csv) in a fresh folder, for `bayes filter`. */
export function gaussianModelFiles(
  net: GaussianTwoSliceNetwork,
  observations: readonly GaussianObservations[],
): { dir: string; file: string; csv: string } {
  const { dir, file } = tempFile('model.bayes', gaussianTwoSliceText(net));
  const csv = join(dir, 'obs.csv');
  writeFileSync(csv, observationsCsv(net, observations));
  return { dir, file, csv };
}
