/**
 * What the samplers share: the network flattened for fast row lookups, and the result shape.
 * rowOf(v, x) = Σ x[parent_i] · mult_i, the CPT row of v under the full assignment x.
 */
import { topologicalOrder, type BayesianNetwork } from '../network.js';
import { stridesOf } from '../factors/factor.js';
import { EngineError } from '../engineError.js';
import type { Evidence } from '../inference/junctionTree.js';

export interface SampledMarginals {
  /** P(v | e) estimates, one array of states per variable (evidence as point masses). */
  marginals: Float64Array[];
  /** Standard error of each estimate (0 for evidence). */
  stderr: Float64Array[];
  samples: number;
}

export interface SamplerOptions {
  samples?: number;
  seed?: number;
  signal?: { readonly aborted: boolean };
  /**
   * Told where the sampler checks the signal (every 1,024 samples; Gibbs: every 256 sweeps of a
   * chain, burn-in included): the work done and the whole, in the sampler's units.
   */
  onSamples?: SamplesDone;
}

/** Samples (Gibbs: sweeps over all chains) done of the total: a progress report. */
export type SamplesDone = (done: number, total: number) => void;

export class NoConsistentSampleError extends Error {
  constructor(what: string) {
    super(`${what}: no sample was consistent with the evidence (it may have probability 0)`);
  }
}

export interface FlatNetwork {
  order: number[];
  cards: Int32Array;
  parents: Int32Array[];
  /** Row-index multiplier of each parent (mixed radix, last parent fastest). */
  mult: Int32Array[];
  tables: Float64Array[];
}

export function flatten(net: BayesianNetwork): FlatNetwork {
  const topo = topologicalOrder(net);
  if (!('order' in topo)) throw new EngineError('cannot sample a network with a cycle');
  const cards = Int32Array.from(net.variables, (v) => v.states.length);
  const parents = net.cpts.map((c) => Int32Array.from(c.parents));
  const mult = parents.map((ps) => Int32Array.from(stridesOf(Array.from(ps, (p) => cards[p]!))));
  return { order: topo.order, cards, parents, mult, tables: net.cpts.map((c) => c.table) };
}

export function rowOf(flat: FlatNetwork, v: number, x: Int32Array): number {
  const ps = flat.parents[v]!,
    m = flat.mult[v]!;
  let r = 0;
  for (let i = 0; i < ps.length; i++) r += x[ps[i]!]! * m[i]!;
  return r;
}

/** Draws state from row `row` of v's CPT with one uniform u. */
export function drawFromRow(flat: FlatNetwork, v: number, row: number, u: number): number {
  const k = flat.cards[v]!,
    t = flat.tables[v]!,
    o = row * k;
  for (let s = 0; s < k; s++) {
    u -= t[o + s]!;
    if (u < 0) return s;
  }
  for (let s = k - 1; s >= 0; s--) if (t[o + s]! > 0) return s; // rows summing to 1 − ε
  return k - 1;
}

/**
 * One likelihood-weighted forward sample into `x`: unobserved variables drawn from their rows in
 * topological order, observed ones clamped. Returns the weight Π P(e_i | parents).
 */
export function weightedSample(flat: FlatNetwork, observed: Int32Array, x: Int32Array, next: () => number): number {
  let w = 1;
  for (const v of flat.order) {
    const row = rowOf(flat, v, x);
    if (observed[v]! >= 0) {
      x[v] = observed[v]!;
      w *= flat.tables[v]![row * flat.cards[v]! + x[v]!]!;
    } else x[v] = drawFromRow(flat, v, row, next());
  }
  return w;
}

/** The evidence as one state per variable, −1 where unobserved (the samplers' `observed`). */
export function observedStates(flat: FlatNetwork, evidence: Evidence): Int32Array {
  const observed = new Int32Array(flat.cards.length).fill(-1);
  for (const [v, s] of evidence) observed[v] = s;
  return observed;
}

export function perVariable(cards: Int32Array): Float64Array[] {
  return Array.from(cards, (k) => new Float64Array(k));
}
