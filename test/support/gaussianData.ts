/** Data sets drawn from hybrid networks for the learning tests, as the learners read them. */
import type { HybridNetwork } from '../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridColumn, HybridDataset } from '../../server/src/engine/gaussian/hybridData.js';
import { forwardSample } from './hybridNetworks.js';

/** n rows forward-sampled from `net` (row i from seed·100003 + i), columns in the network's order. */
export function sampleDataset(net: HybridNetwork, n: number, seed: number): HybridDataset {
  const rows = Array.from({ length: n }, (_, i) => forwardSample(net, seed * 100003 + i));
  const columns = net.variables.map((v, j): HybridColumn => {
    if (v.kind === 'continuous')
      return { kind: 'continuous', name: v.name, values: Float64Array.from(rows, (r) => r[j]!) };
    return { kind: 'discrete', name: v.name, levels: v.states, codes: Int32Array.from(rows, (r) => r[j]!) };
  });
  return { columns, rowCount: n };
}

/** A copy of the data with each continuous value of the columns `which` missing (NaN) with probability p. */
export function withMissing(data: HybridDataset, which: readonly number[], p: number, seed: number): HybridDataset {
  let s = seed >>> 0;
  const next = () => (s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32;
  const columns = data.columns.map((c, j): HybridColumn => {
    if (c.kind !== 'continuous' || !which.includes(j)) return c;
    return { ...c, values: c.values.map((x) => (next() < p ? NaN : x)) };
  });
  return { columns, rowCount: data.rowCount };
}

/** Row-major matrix of the continuous columns `cols`, for the Python peers. */
export function matrixOf(data: HybridDataset, cols: readonly number[]): number[][] {
  return Array.from({ length: data.rowCount }, (_, r) =>
    cols.map((c) => {
      const col = data.columns[c]!;
      return col.kind === 'continuous' ? col.values[r]! : col.codes[r]!;
    }),
  );
}
