/**
 * How far learned CPTs are from reference ones: total-variation distance ½ Σ_x |p(x|u) − q(x|u)|
 * per parent row, averaged over rows (optionally weighted, e.g. by how often the row occurs)
 * and then over variables. A hidden variable's state labels are arbitrary, so
 * `alignHiddenStates` first relabels it to the permutation closest to the reference.
 */
import type { BayesianNetwork } from '../network.js';
import { cardinality, rowAssignment, rowCount } from '../network.js';
import { withTables } from './cptLearning.js';
import { EngineError } from '../engineError.js';
import { setOwn } from '../records.js';

/** Mean over rows of the TV distance between two tables of variable v (rowWeights: per row, default equal). */
export function tableDistance(
  net: BayesianNetwork,
  v: number,
  a: Float64Array,
  b: Float64Array,
  rowWeights?: Float64Array,
): number {
  const k = cardinality(net, v);
  let sum = 0,
    weight = 0;
  for (let r = 0; r * k < a.length; r++) {
    const w = rowWeights ? rowWeights[r]! : 1;
    if (w === 0) continue;
    let tv = 0;
    for (let x = 0; x < k; x++) tv += Math.abs(a[r * k + x]! - b[r * k + x]!);
    sum += (w * tv) / 2;
    weight += w;
  }
  return weight > 0 ? sum / weight : 0;
}

export interface DistanceReport {
  /** Mean over the compared variables of their mean row distance. */
  mean: number;
  perVariable: Record<string, number>;
}

export function meanTotalVariation(
  learned: BayesianNetwork,
  reference: BayesianNetwork,
  options: { variables?: number[]; rowWeights?: (v: number) => Float64Array | undefined } = {},
): DistanceReport {
  const vars = options.variables ?? learned.variables.map((_, i) => i);
  const perVariable: Record<string, number> = {};
  let sum = 0;
  for (const v of vars) {
    const d = tableDistance(learned, v, learned.cpts[v]!.table, reference.cpts[v]!.table, options.rowWeights?.(v));
    setOwn(perVariable, learned.variables[v]!.name, d);
    sum += d;
  }
  return { mean: vars.length ? sum / vars.length : 0, perVariable };
}

const MAX_PERMUTED_STATES = 7; // 5,040 relabellings

/** Relabels hidden variable h's states (tries every permutation; fine for the few states hidden variables have). */
export function alignHiddenStates(learned: BayesianNetwork, reference: BayesianNetwork, h: number): BayesianNetwork {
  const k = cardinality(learned, h);
  if (k > MAX_PERMUTED_STATES)
    throw new EngineError(
      `${learned.variables[h]!.name} has ${k} states: too many to try every relabelling (at most ${MAX_PERMUTED_STATES})`,
    );
  const affected = learned.cpts.filter((c) => c.child === h || c.parents.includes(h)).map((c) => c.child);
  let best = learned,
    bestDistance = Infinity;
  for (const perm of permutations(k)) {
    const candidate = relabel(learned, h, perm);
    const d = meanTotalVariation(candidate, reference, { variables: affected }).mean;
    if (d < bestDistance) {
      bestDistance = d;
      best = candidate;
    }
  }
  return best;
}

/** The network with h's state s renamed perm[s] (tables re-indexed to match). */
export function relabel(net: BayesianNetwork, h: number, perm: number[]): BayesianNetwork {
  return withTables(net, (v) => {
    const cpt = net.cpts[v]!;
    const at = cpt.parents.indexOf(h);
    if (v !== h && at < 0) return Float64Array.from(cpt.table);
    const k = cardinality(net, v);
    const out = new Float64Array(cpt.table.length);
    for (let r = 0; r < rowCount(net, v); r++) {
      const states = rowAssignment(net, v, r);
      if (at >= 0) states[at] = perm[states[at]!]!;
      let to = 0;
      cpt.parents.forEach((p, i) => {
        to = to * cardinality(net, p) + states[i]!;
      });
      for (let x = 0; x < k; x++) out[to * k + (v === h ? perm[x]! : x)] = cpt.table[r * k + x]!;
    }
    return out;
  });
}

function permutations(k: number): number[][] {
  if (k === 1) return [[0]];
  return permutations(k - 1).flatMap((p) =>
    Array.from({ length: k }, (_, i) => [...p.slice(0, i), k - 1, ...p.slice(i)]),
  );
}
