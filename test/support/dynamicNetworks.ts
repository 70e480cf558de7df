/** 2-slice networks (random ones, the umbrella world) and sequences for the dynamic-network tests and bench. */
import type { Cpt } from '../../server/src/engine/network.js';
import { createRng, type Rng } from '../../server/src/engine/random.js';
import { unroll, type TwoSliceNetwork } from '../../server/src/engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../../server/src/engine/dynamic/sliceTree.js';
import { jointTable, randomRows } from './networks.js';

/**
 * Russell & Norvig's umbrella world (AIMA §15.2): Rain persists with 0.7, the umbrella is seen
 * with 0.9 on a rainy day and 0.2 on a dry one. With the umbrella seen on days 1 and 2, filtering
 * gives P(R1) 0.818, P(R2) 0.883 and smoothing P(R1) 0.883.
 */
export function umbrellaWorld(): TwoSliceNetwork {
  const yn = ['yes', 'no'];
  return {
    name: 'Umbrella',
    variables: [
      { name: 'Rain', states: yn },
      { name: 'Umbrella', states: yn },
    ],
    initial: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.5) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
    ],
    transition: [
      { child: 0, parents: [2], table: Float64Array.of(0.7, 0.3, 0.3, 0.7) },
      { child: 1, parents: [0], table: Float64Array.of(0.9, 0.1, 0.2, 0.8) },
    ],
  };
}

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

/**
 * Brute force on the unrolled network (tiny networks only: its whole joint is enumerated): P(e),
 * P(X_v,t | e_1..t) (filtered[t − 1][v]) and P(X_v,t | e_1..T) (smoothed[t − 1][v]), the joint
 * probability of the best full assignment with the findings, and that of a given one.
 */
export function bruteForce(dbn: TwoSliceNetwork, findings: StepFindings[]) {
  const n = dbn.variables.length;
  const T = findings.length;
  const net = unroll(dbn, T);
  const { cards, values } = jointTable(net);
  // The weight of each joint entry given the findings of steps 1..upTo.
  const weight = (x: number[], upTo: number) => {
    let w = 1;
    for (let t = 1; t <= upTo; t++) {
      const f = findings[t - 1]!;
      for (const [v, s] of f.evidence) if (x[t * n + v] !== s) return 0;
      for (const [v, l] of f.likelihoods ?? []) w *= l[x[t * n + v]!]!;
    }
    return w;
  };
  // Entry i of the unrolled joint as each variable's state (the last variable varies fastest).
  const statesOf = (i: number, x: number[]) => {
    for (let v = cards.length - 1, rest = i; v >= 0; v--) {
      x[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
  };
  const marginalsUpTo = (upTo: number) => {
    const m = cards.map((k) => new Float64Array(k));
    let z = 0;
    const x = new Array<number>(cards.length);
    for (let i = 0; i < values.length; i++) {
      statesOf(i, x);
      const p = values[i]! * weight(x, upTo);
      z += p;
      for (let v = 0; v < cards.length; v++) m[v]![x[v]!]! += p;
    }
    return { z, m: m.map((a) => a.map((p) => p / z)) };
  };
  const all = marginalsUpTo(T);
  const filtered = Array.from({ length: T }, (_, t) => marginalsUpTo(t + 1).m.slice((t + 1) * n, (t + 2) * n));
  const smoothed = Array.from({ length: T }, (_, t) => all.m.slice((t + 1) * n, (t + 2) * n));
  // The joint probability of the best full assignment with the findings.
  let best = 0;
  const x = new Array<number>(cards.length);
  for (let i = 0; i < values.length; i++) {
    statesOf(i, x);
    best = Math.max(best, values[i]! * weight(x, T));
  }
  const probabilityOf = (states: Int32Array[]) => {
    const flat = states.flatMap((s) => [...s]);
    let i = 0;
    for (let v = 0; v < cards.length; v++) i = i * cards[v]! + flat[v]!;
    return values[i]! * weight(flat, T);
  };
  return { logLikelihood: Math.log(all.z), filtered, smoothed, best, probabilityOf };
}
