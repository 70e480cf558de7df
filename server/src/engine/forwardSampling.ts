/**
 * Forward (ancestral) sampling: visit variables parents-first and draw each from its CPT row
 * given the parents already drawn. Seeded, so recovery experiments are repeatable.
 */
import { EngineError } from './engineError.js';
import type { BayesianNetwork } from './network.js';
import { cardinality, topologicalOrder } from './network.js';
import { networkDataset } from './dataset.js';
import { MISSING, type CategoricalDataset } from './categoricalData.js';
import { familyStrides } from './cptLearning.js';
import type { Rng } from './random.js';

export function forwardSample(net: BayesianNetwork, rows: number, rng: Rng): CategoricalDataset {
  const sorted = topologicalOrder(net);
  if ('cycle' in sorted) throw new EngineError('cannot sample a network with a cycle');
  const columns = net.variables.map(() => new Int32Array(rows));
  // Cumulative rows turn each draw into one uniform number and a short scan.
  const cumulative = net.cpts.map((cpt, v) => {
    const k = cardinality(net, v);
    const c = new Float64Array(cpt.table.length);
    for (let r = 0; r < c.length; r += k) {
      let s = 0;
      for (let x = 0; x < k; x++) { s += cpt.table[r + x]!; c[r + x] = s; }
      if (!(s > 0)) throw new EngineError(`${net.variables[v]!.name}: a CPT row is unknown or sums to 0; learn it before sampling`);
    }
    return c;
  });
  const plan = sorted.order.map((v) => {
    const { family, strides } = familyStrides(net, v);
    return { v, k: cardinality(net, v), parents: family.slice(0, -1).map((p) => columns[p]!), strides: strides.slice(0, -1) };
  });
  for (let r = 0; r < rows; r++) {
    for (const { v, k, parents, strides } of plan) {
      let at = 0;
      for (let i = 0; i < parents.length; i++) at += parents[i]![r]! * strides[i]!;
      const c = cumulative[v]!;
      const u = rng.next() * c[at + k - 1]!;
      let x = 0;
      while (x < k - 1 && u >= c[at + x]!) x++;
      columns[v]![r] = x;
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
