/**
 * Forward (ancestral) sampling: visit variables parents-first and draw each from its CPT row
 * given the parents already drawn (sampling.ts's flattened network, as likelihood weighting
 * uses). Seeded, so recovery experiments are repeatable.
 */
import { EngineError } from '../engineError.js';
import type { BayesianNetwork } from '../network.js';
import { cardinality } from '../network.js';
import { networkDataset } from '../dataset.js';
import { MISSING, type CategoricalDataset } from '../categoricalData.js';
import { drawFromRow, flatten, rowOf } from './sampledNetwork.js';
import type { Rng } from '../random.js';

export function forwardSample(net: BayesianNetwork, rows: number, rng: Rng): CategoricalDataset {
  const flat = flatten(net); // throws on a cycle, before the rows are checked
  net.cpts.forEach((cpt, v) => {
    const k = cardinality(net, v);
    for (let r = 0; r < cpt.table.length; r += k) {
      let sum = 0;
      for (let x = 0; x < k; x++) sum += cpt.table[r + x]!;
      if (!(sum > 0))
        throw new EngineError(`${net.variables[v]!.name}: a CPT row is unknown or sums to 0; learn it before sampling`);
    }
  });
  const columns = net.variables.map(() => new Int32Array(rows));
  const x = new Int32Array(net.variables.length);
  for (let r = 0; r < rows; r++) {
    for (const v of flat.order) {
      x[v] = drawFromRow(flat, v, rowOf(flat, v, x), rng.next());
      columns[v]![r] = x[v]!;
    }
  }
  return networkDataset(net.variables, columns, rows);
}

/** Hides each cell independently with probability `fraction` (missing completely at random). */
export function hideAtRandom(data: CategoricalDataset, fraction: number, rng: Rng): CategoricalDataset {
  const columns = data.columns.map((col) => {
    const c = col.slice();
    for (let r = 0; r < data.rowCount; r++) if (rng.next() < fraction) c[r] = MISSING;
    return c;
  });
  return { ...data, columns };
}
