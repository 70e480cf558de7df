/** Random 2-slice networks and sequences for the dynamic-network tests and bench. */
import type { Cpt } from '../../server/src/engine/network.js';
import { createRng, type Rng } from '../../server/src/engine/random.js';
import type { TwoSliceNetwork } from '../../server/src/engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../../server/src/engine/dynamic/sliceTree.js';
import { randomRows } from './networks.js';

/**
 * n variables per slice, 2–3 states each; each variable of slice t has up to `maxParents`
 * parents among the earlier variables of its slice and up to `maxPrevious` in slice t−1 (X_v of
 * slice t−1 always, so every variable persists).
 */
export function randomTwoSlice(
  seed: number,
  n: number,
  maxParents = 2,
  maxPrevious = 2,
  persistent = n,
): TwoSliceNetwork {
  const rng = createRng(seed);
  const variables = Array.from({ length: n }, (_, i) => ({
    name: `V${i}`,
    states: Array.from({ length: 2 + (rng.next() < 0.3 ? 1 : 0) }, (_, s) => `s${s}`),
  }));
  const card = (p: number) => variables[p % n]!.states.length;
  const table = (child: number, parents: number[]): Cpt => {
    const rows = parents.reduce((r, p) => r * card(p), 1);
    return { child, parents, table: randomRows(rng, rows, card(child), false) };
  };
  const pick = (from: number[], k: number) => rng.shuffle([...from]).slice(0, k);
  const initial = variables.map((_, i) =>
    table(
      i,
      pick(range(i), rng.int(maxParents + 1)).sort((a, b) => a - b),
    ),
  );
  const transition = variables.map((_, i) => {
    const within = pick(range(i), rng.int(maxParents + 1));
    if (i >= persistent)
      return table(
        i,
        within.sort((a, b) => a - b),
      );
    const others = pick(
      range(persistent).filter((v) => v !== i),
      rng.int(maxPrevious),
    ).map((v) => n + v);
    return table(
      i,
      [...within, n + i, ...others].sort((a, b) => a - b),
    );
  });
  return { name: `random${seed}`, variables, initial, transition };
}

function range(k: number): number[] {
  return Array.from({ length: k }, (_, i) => i);
}

/** Findings for T steps: each variable observed with probability `pObserved`, at a random state. */
export function randomFindings(
  rng: Rng,
  dbn: TwoSliceNetwork,
  T: number,
  pObserved: number,
  likelihoods = false,
): StepFindings[] {
  return Array.from({ length: T }, () => {
    const evidence = new Map<number, number>();
    const lik = new Map<number, Float64Array>();
    dbn.variables.forEach((v, i) => {
      const r = rng.next();
      if (r < pObserved) evidence.set(i, rng.int(v.states.length));
      else if (likelihoods && r < pObserved + 0.2)
        lik.set(
          i,
          Float64Array.from(v.states, () => 0.1 + rng.next()),
        );
    });
    return likelihoods ? { evidence, likelihoods: lik } : { evidence };
  });
}

/** A sequence drawn from the model itself (so no finding is impossible), observing `observed`. */
export function sampleFindings(rng: Rng, dbn: TwoSliceNetwork, T: number, observed: readonly number[]): StepFindings[] {
  const states = sampleStates(rng, dbn, T);
  return states.slice(1).map((x) => ({ evidence: new Map(observed.map((v) => [v, x[v]!])) }));
}

/** States of slices 0…T drawn forward from the template. */
export function sampleStates(rng: Rng, dbn: TwoSliceNetwork, T: number): Int32Array[] {
  const n = dbn.variables.length;
  const order = topological(dbn);
  const out: Int32Array[] = [];
  for (let t = 0; t <= T; t++) {
    const x = new Int32Array(n);
    for (const v of order[t === 0 ? 0 : 1]!) {
      const cpt = t === 0 ? dbn.initial[v]! : dbn.transition[v]!;
      let row = 0;
      for (const p of cpt.parents)
        row = row * dbn.variables[p % n]!.states.length + (p < n ? x[p]! : out[t - 1]![p - n]!);
      const k = dbn.variables[v]!.states.length;
      x[v] = rng.categorical(cpt.table.subarray(row * k, row * k + k));
    }
    out.push(x);
  }
  return out;
}

function topological(dbn: TwoSliceNetwork): number[][] {
  const n = dbn.variables.length;
  return [dbn.initial, dbn.transition].map((cpts) => {
    const done = new Set<number>();
    const order: number[] = [];
    while (order.length < n)
      for (let v = 0; v < n; v++)
        if (!done.has(v) && cpts[v]!.parents.every((p) => p >= n || done.has(p))) {
          done.add(v);
          order.push(v);
        }
    return order;
  });
}

export { writeTwoSlice as twoSliceText } from '../../server/src/model/dynamicWriter.js';
