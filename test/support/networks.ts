/** Networks for engine tests: shared BIF files, seeded random networks, brute-force enumeration. */
import { readFileSync } from 'node:fs';
import { readBif } from '../../server/src/model/bif.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import type { Evidence } from '../../server/src/engine/inference/junctionTree.js';
import { createRng, type Rng } from '../../server/src/engine/random.js';
import { sharedFile } from './shared.js';

export function loadBif(name: string): BayesianNetwork | undefined {
  const path = sharedFile('bif', `${name}.bif`);
  if (!path) return undefined;
  const r = readBif(readFileSync(path, 'utf8'));
  if ('error' in r) throw new Error(`${name}.bif: ${r.error.message}`);
  return r.network;
}

export interface ReferenceCase {
  evidence: Record<string, string>;
  marginals: Record<string, Record<string, number>>;
}

export function loadReference(name: string): ReferenceCase[] | undefined {
  const path = sharedFile('reference', `${name}.json`);
  return path ? (JSON.parse(readFileSync(path, 'utf8')) as { cases: ReferenceCase[] }).cases : undefined;
}

export function evidenceOf(net: BayesianNetwork, named: Record<string, string>): Map<number, number> {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  return new Map(
    Object.entries(named).map(([k, s]) => {
      const v = index.get(k)!;
      return [v, net.variables[v]!.states.indexOf(s)];
    }),
  );
}

/**
 * A random DAG over n variables (2–3 states, ≤ maxParents parents among earlier variables).
 * With `zeros`, about a fifth of the CPT entries are 0 (rows renormalised; never a zero row).
 */
export function randomNetwork(seed: number, n: number, maxParents = 3, zeros = false): BayesianNetwork {
  const rng = createRng(seed);
  const variables = Array.from({ length: n }, (_, i) => ({
    name: `V${i}`,
    states: Array.from({ length: 2 + rng.int(2) }, (_, s) => `s${s}`),
  }));
  const cpts = variables.map((v, i) => {
    const candidates = rng.shuffle(Array.from({ length: i }, (_, j) => j));
    const parents = candidates.slice(0, rng.int(Math.min(maxParents, i) + 1)).sort((a, b) => a - b);
    const rows = parents.reduce((r, p) => r * variables[p]!.states.length, 1);
    const k = v.states.length;
    const table = randomRows(rng, rows, k, zeros);
    return { child: i, parents, table };
  });
  return { name: `random${seed}`, variables, cpts };
}

/** Random evidence on about a third of the variables (seeded). */
export function randomEvidence(seed: number, cards: readonly number[]): Map<number, number> {
  const rng = createRng(seed);
  const e = new Map<number, number>();
  cards.forEach((k, v) => {
    if (rng.next() < 0.3) e.set(v, rng.int(k));
  });
  return e;
}

/** A → B, both with states a and b: P(A) = `a`, P(B | A) = `bGivenA` (row A = a, then A = b). */
export function twoNodes(a: readonly number[], bGivenA: readonly number[]): BayesianNetwork {
  return {
    name: 'ab',
    variables: [
      { name: 'A', states: ['a', 'b'] },
      { name: 'B', states: ['a', 'b'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.from(a) },
      { child: 1, parents: [0], table: Float64Array.from(bGivenA) },
    ],
  };
}

/** Writes assignment number i of the joint (first variable slowest) into x. */
function decodeAssignment(i: number, cards: readonly number[], x: number[]): void {
  let rest = i;
  for (let v = cards.length - 1; v >= 0; v--) {
    x[v] = rest % cards[v]!;
    rest = Math.floor(rest / cards[v]!);
  }
}

/** The full joint P(x₁…x_n) by the chain rule, first variable slowest. Small networks only. */
export function jointTable(net: BayesianNetwork): { cards: number[]; values: Float64Array } {
  const cards = net.variables.map((v) => v.states.length);
  const size = cards.reduce((a, b) => a * b, 1);
  const values = new Float64Array(size);
  const x = new Array<number>(cards.length).fill(0);
  for (let i = 0; i < size; i++) {
    decodeAssignment(i, cards, x);
    let p = 1;
    for (const cpt of net.cpts) {
      let row = 0;
      for (const u of cpt.parents) row = row * cards[u]! + x[u]!;
      p *= cpt.table[row * cards[cpt.child]! + x[cpt.child]!]!;
    }
    values[i] = p;
  }
  return { cards, values };
}

/** Σ of the joint over the assignments consistent with `evidence`, grouped by the values of `keep` (unnormalised). */
export function sumJoint(
  joint: { cards: readonly number[]; values: Float64Array },
  keep: readonly number[],
  evidence: Evidence,
): Float64Array {
  const { cards, values } = joint;
  const out = new Float64Array(keep.reduce((a, v) => a * cards[v]!, 1));
  const x = new Array<number>(cards.length).fill(0);
  for (let i = 0; i < values.length; i++) {
    decodeAssignment(i, cards, x);
    if ([...evidence].some(([v, s]) => x[v] !== s)) continue;
    let at = 0;
    for (const v of keep) at = at * cards[v]! + x[v]!;
    out[at]! += values[i]!;
  }
  return out;
}

/** Brute-force P(e) and P(v | e) for every v by summing the joint (one pass). */
export function enumerate(net: BayesianNetwork, evidence: Evidence): { pEvidence: number; marginals: Float64Array[] } {
  const { cards, values } = jointTable(net);
  const marginals = cards.map((k) => new Float64Array(k));
  let pEvidence = 0;
  const x = new Array<number>(cards.length).fill(0);
  for (let i = 0; i < values.length; i++) {
    decodeAssignment(i, cards, x);
    if ([...evidence].some(([v, s]) => x[v] !== s)) continue;
    pEvidence += values[i]!;
    for (let v = 0; v < cards.length; v++) marginals[v]![x[v]!]! += values[i]!;
  }
  for (const m of marginals) for (let s = 0; s < m.length; s++) m[s]! /= pEvidence;
  return { pEvidence, marginals };
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!));
  return a.length === b.length ? m : Infinity;
}

/** The network with CPT entry (v, row, state) set to θ and the row's other entries co-varied proportionally. */
export function withParameter(
  net: BayesianNetwork,
  v: number,
  row: number,
  state: number,
  theta: number,
): BayesianNetwork {
  const k = net.variables[v]!.states.length;
  const table = Float64Array.from(net.cpts[v]!.table);
  const theta0 = table[row * k + state]!;
  for (let x = 0; x < k; x++)
    table[row * k + x] = x === state ? theta : (table[row * k + x]! * (1 - theta)) / (1 - theta0);
  return { ...net, cpts: net.cpts.map((c, i) => (i === v ? { ...c, table } : c)) };
}

/** `rows` random distributions over k states; with `zeros`, about a fifth of the entries are 0. */
export function randomRows(rng: Rng, rows: number, k: number, zeros: boolean): Float64Array {
  const table = new Float64Array(rows * k);
  for (let r = 0; r < rows; r++) {
    let sum = 0;
    for (let x = 0; x < k; x++) {
      const w = zeros && rng.next() < 0.2 ? 0 : 0.05 + rng.next();
      table[r * k + x] = w;
      sum += w;
    }
    if (sum === 0) {
      table[r * k] = 1;
      sum = 1;
    }
    for (let x = 0; x < k; x++) table[r * k + x]! /= sum;
  }
  return table;
}

/** The length of hubChain's chain. */
export const HUB_CHAIN = 270;

/**
 * A hub H (64 states, variable 0) parent of every link of a chain X1 → … → X270 (8 states each):
 * the cliques {H, Xi−1, Xi} make a tree of 1.1 × 10⁶ entries; observing H leaves a chain of
 * 64-entry cliques.
 */
export function hubChain(): BayesianNetwork {
  const rng = createRng(12);
  const hub = { name: 'H', states: Array.from({ length: 64 }, (_, s) => `h${s}`) };
  const link = (i: number) => ({ name: `X${i}`, states: Array.from({ length: 8 }, (_, s) => `x${s}`) });
  const variables = [hub, ...Array.from({ length: HUB_CHAIN }, (_, i) => link(i + 1))];
  const cpts = variables.map((v, i) => {
    const parents = i === 0 ? [] : i === 1 ? [0] : [0, i - 1];
    const rows = parents.reduce((r, p) => r * variables[p]!.states.length, 1);
    return { child: i, parents, table: randomRows(rng, rows, v.states.length, false) };
  });
  return { name: 'hub chain', variables, cpts };
}
