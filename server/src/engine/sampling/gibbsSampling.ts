/**
 * Gibbs sampling (Koller & Friedman §12.3; Pearl 1987): from a state consistent with the
 * evidence, repeatedly resample each unobserved variable from its full conditional
 * P(x | Markov blanket) ∝ P(x | parents) Π_children P(child | its parents). Estimates are
 * Rao-Blackwellised (the full conditional's probabilities are averaged instead of 0/1
 * indicators). Many short independent chains run from starts drawn by importance resampling;
 * the standard error comes from the spread of the chain means, so slow mixing (alarm's
 * near-deterministic chains) widens it instead of hiding behind autocorrelation.
 *
 * Deterministic CPTs (every row has an entry 1: hailfinder's CombVerMo and AreaMeso_ALS) freeze a
 * single-site sampler: a parent cannot change while its deterministic child pins it. So each
 * variable is resampled as a block with its unobserved deterministic descendants, which follow
 * it: for every state of v, those descendants take the state their rows force, and the block's
 * weight is P(v | parents) times the CPTs of the block's other children (Koller & Friedman
 * §12.3.3 on blocking). Zeros that are not whole deterministic rows can still split the state
 * space into parts no move crosses; likelihood weighting has no such limit.
 */
import type { BayesianNetwork } from '../network.js';
import { createRng, type Rng } from '../random.js';
import { type Evidence } from '../inference/junctionTree.js';
import {
  flatten,
  NoConsistentSampleError,
  observedStates,
  perVariable,
  rowOf,
  weightedSample,
  type FlatNetwork,
  type SampledMarginals,
  type SamplerOptions,
} from './sampledNetwork.js';
import { CancelledError } from '../cancellation.js';
import { maxOf } from '../math/extremes.js';

export interface GibbsOptions extends SamplerOptions {
  /** Sweeps each chain discards before estimating (default: a fifth of its sweeps). */
  burnIn?: number;
  /** Independent chains sharing the `samples` sweeps (default: one per 300 sweeps, 20 to 500). */
  chains?: number;
}

/** A variable's block: itself, the deterministic descendants it drives, and the block's other children. */
interface Block {
  driven: Int32Array;
  boundary: Int32Array;
}

/** forced[v][row] = the state v's CPT row makes certain, or −1 when the row is not deterministic. */
function forcedStates(flat: FlatNetwork): (Int32Array | undefined)[] {
  return flat.tables.map((t, v) => {
    const k = flat.cards[v]!;
    const forced = new Int32Array(t.length / k);
    for (let r = 0; r < forced.length; r++) {
      forced[r] = -1;
      for (let s = 0; s < k; s++) if (t[r * k + s]! >= 1 - 1e-12) forced[r] = s;
      if (forced[r] === -1) return undefined;
    }
    return forced;
  });
}

function blocks(flat: FlatNetwork, observed: Int32Array, forced: (Int32Array | undefined)[]): Block[] {
  const children: number[][] = Array.from(flat.cards, () => []);
  flat.parents.forEach((ps, c) => ps.forEach((p) => children[p]!.push(c)));
  const position = new Int32Array(flat.cards.length);
  flat.order.forEach((v, i) => {
    position[v] = i;
  });
  return Array.from(flat.cards, (_, v) => {
    const driven = new Set<number>();
    const stack = [v];
    while (stack.length) {
      for (const c of children[stack.pop()!]!) {
        if (observed[c]! < 0 && forced[c] && !driven.has(c)) {
          driven.add(c);
          stack.push(c);
        }
      }
    }
    const inBlock = new Set([v, ...driven]);
    const boundary = new Set<number>();
    for (const b of inBlock) for (const c of children[b]!) if (!inBlock.has(c)) boundary.add(c);
    const topo = (a: number, b: number) => position[a]! - position[b]!;
    return { driven: Int32Array.from([...driven].sort(topo)), boundary: Int32Array.from(boundary) };
  });
}

/**
 * Chain starting points drawn by importance resampling: likelihood-weighted forward samples,
 * resampled in proportion to their weights, so chains start spread roughly as the posterior is
 * (rare modes included) instead of all in the prior's favourite corner.
 */
function initialStates(flat: FlatNetwork, observed: Int32Array, rng: Rng, chains: number): Int32Array[] {
  const pool: Int32Array[] = [];
  const weights: number[] = [];
  for (let attempt = 0; attempt < 100000 && (pool.length < 50 * chains || attempt < 1000); attempt++) {
    const x = new Int32Array(flat.cards.length);
    const w = weightedSample(flat, observed, x, rng.next);
    if (w > 0) {
      pool.push(x);
      weights.push(w);
    }
  }
  if (pool.length === 0) throw new NoConsistentSampleError('Gibbs sampling');
  return Array.from({ length: chains }, () => Int32Array.from(pool[rng.categorical(weights)]!));
}

export function gibbsSampling(net: BayesianNetwork, evidence: Evidence, options: GibbsOptions = {}): SampledMarginals {
  const flat = flatten(net);
  const { samples = 10000, seed = 1, signal } = options;
  const chains = Math.max(
    2,
    Math.min(options.chains ?? Math.min(500, Math.max(20, Math.floor(samples / 300))), samples),
  );
  const perChain = Math.floor(samples / chains);
  const burnIn = options.burnIn ?? Math.floor(perChain / 5);
  const rng = createRng(seed);
  const observed = observedStates(flat, evidence);
  const forced = forcedStates(flat);
  const chain: Chain = {
    flat,
    forced,
    rng,
    signal,
    onSweeps: options.onSamples && ((sweeps: number) => options.onSamples!(sweeps, chains * (burnIn + perChain))),
    sweepsBefore: 0,
    free: Int32Array.from(flat.order.filter((v) => observed[v]! < 0)),
    block: blocks(flat, observed, forced),
    conditional: new Float64Array(maxOf(flat.cards)),
  };
  const chainSums = initialStates(flat, observed, rng, chains).map((start) => {
    const sums = perVariable(flat.cards);
    runChain(chain, start, burnIn, perChain, sums);
    chain.sweepsBefore += burnIn + perChain;
    return sums;
  });
  return summarise(chainSums, observed, flat.cards, perChain);
}

interface Chain {
  flat: FlatNetwork;
  forced: (Int32Array | undefined)[];
  block: Block[];
  free: Int32Array;
  rng: Rng;
  signal: SamplerOptions['signal'];
  /** The progress report, in sweeps over all chains (burn-in included), and the sweeps of the chains done. */
  onSweeps?: (sweeps: number) => void;
  sweepsBefore: number;
  conditional: Float64Array;
}

/** `burnIn` discarded sweeps, then `sweeps` whose full conditionals are added to `sums`. */
function runChain(c: Chain, x: Int32Array, burnIn: number, sweeps: number, sums: Float64Array[]): void {
  const { flat, forced, block, free, conditional, rng } = c;
  for (let sweep = -burnIn; sweep < sweeps; sweep++) {
    if ((sweep & 255) === 0) {
      if (c.signal?.aborted) throw new CancelledError();
      c.onSweeps?.(c.sweepsBefore + sweep + burnIn);
    }
    for (let i = 0; i < free.length; i++) {
      const v = free[i]!;
      const z = blockConditional(flat, forced, block[v]!, v, x, conditional);
      setBlock(flat, forced, block[v]!, v, x, rng.categorical(conditional.subarray(0, flat.cards[v]!), z));
      if (sweep >= 0) {
        const acc = sums[v]!;
        for (let s = 0; s < acc.length; s++) acc[s]! += conditional[s]! / z;
      }
    }
  }
}

/**
 * Unnormalised P(v = s, forced descendants | rest) into `out`; returns the sum (> 0, since the
 * current state has non-zero probability). Leaves `x` as it found it.
 */
function blockConditional(
  flat: FlatNetwork,
  forced: (Int32Array | undefined)[],
  block: Block,
  v: number,
  x: Int32Array,
  out: Float64Array,
): number {
  const current = x[v]!;
  const k = flat.cards[v]!,
    own = rowOf(flat, v, x) * k,
    table = flat.tables[v]!;
  let z = 0;
  for (let s = 0; s < k; s++) {
    let p = table[own + s]!;
    if (p > 0) {
      setBlock(flat, forced, block, v, x, s);
      const boundary = block.boundary;
      for (let j = 0; j < boundary.length && p > 0; j++) {
        const c = boundary[j]!;
        p *= flat.tables[c]![rowOf(flat, c, x) * flat.cards[c]! + x[c]!]!;
      }
    }
    out[s] = p;
    z += p;
  }
  setBlock(flat, forced, block, v, x, current);
  return z;
}

/** Sets v = s and its driven descendants to the states their rows force. */
function setBlock(
  flat: FlatNetwork,
  forced: (Int32Array | undefined)[],
  block: Block,
  v: number,
  x: Int32Array,
  s: number,
): void {
  x[v] = s;
  for (let j = 0; j < block.driven.length; j++) {
    const d = block.driven[j]!;
    x[d] = forced[d]![rowOf(flat, d, x)]!;
  }
}

/** Mean over chains, and the standard error of that mean from the spread of the chain means. */
function summarise(
  chainSums: Float64Array[][],
  observed: Int32Array,
  cards: Int32Array,
  perChain: number,
): SampledMarginals {
  const marginals = perVariable(cards),
    stderr = perVariable(cards);
  const C = chainSums.length;
  cards.forEach((k, v) => {
    if (observed[v]! >= 0) {
      marginals[v]![observed[v]!] = 1;
      return;
    }
    for (let s = 0; s < k; s++) {
      let mean = 0;
      for (const sums of chainSums) mean += sums[v]![s]! / perChain;
      mean /= C;
      let ss = 0;
      for (const sums of chainSums) ss += (sums[v]![s]! / perChain - mean) ** 2;
      marginals[v]![s] = mean;
      stderr[v]![s] = Math.sqrt(ss / (C - 1) / C);
    }
  });
  return { marginals, stderr, samples: perChain * C };
}
