/**
 * A dynamic Bayesian network as a 2-slice template (2-TBN, Murphy 2002 §2.2): the initial slice
 * P(X₀) as a belief network, and the transition P(X_t | X_{t−1}) as CPTs of slice t whose parents
 * are in slice t or in slice t−1 (first order). Unrolled for T steps it is the ordinary network
 * over slices 0…T; the dynamic algorithms never build it.
 *
 * Indexing: slice variables 0…n−1. A transition parent p < n is X_p of slice t; p ≥ n is X_{p−n}
 * of slice t−1. Initial parents are all < n (slice 0).
 */
import type { BayesianNetwork, Cpt, DiscreteVariable } from '../network.js';
import { topologicalOrder } from '../network.js';
import { EngineError } from '../engineError.js';
import { requireWithin, DEFAULT_BUDGETS, type Budgets } from '../budget.js';

export interface TwoSliceNetwork {
  name: string;
  /** The variables of one slice. */
  variables: DiscreteVariable[];
  /** P(X₀): `initial[i].child === i`, parents in slice 0. */
  initial: Cpt[];
  /** P(X_t | parents): `transition[i].child === i`, parents in slice t (< n) or t−1 (≥ n). */
  transition: Cpt[];
}

/** The index a transition table uses for X_v of the previous slice. */
export function previousSlice(dbn: TwoSliceNetwork, v: number): number {
  return dbn.variables.length + v;
}

/** P(X₀) as a plain network over the slice's variables. */
export function initialNetwork(dbn: TwoSliceNetwork): BayesianNetwork {
  return { name: dbn.name, variables: dbn.variables, cpts: dbn.initial };
}

/**
 * The forward interface (Murphy 2002 §3.3): the variables of slice t−1 with a child in slice t.
 * Given them, the past is independent of the future, so the forward message is a table over them.
 */
export function forwardInterface(dbn: TwoSliceNetwork): number[] {
  const n = dbn.variables.length;
  const used = new Set<number>();
  for (const cpt of dbn.transition) for (const p of cpt.parents) if (p >= n) used.add(p - n);
  return [...used].sort((a, b) => a - b);
}

/** Throws EngineError unless the tables fit the variables and each slice is acyclic. */
export function validateTwoSlice(dbn: TwoSliceNetwork): void {
  const n = dbn.variables.length;
  if (dbn.initial.length !== n || dbn.transition.length !== n)
    throw new EngineError('a network over time needs one initial and one transition table per variable');
  const check = (cpt: Cpt, i: number, limit: number, what: string) => {
    if (cpt.child !== i) throw new EngineError(`${what} table ${i} is not the table of variable ${i}`);
    let rows = 1;
    for (const p of cpt.parents) {
      if (!(p >= 0 && p < limit))
        throw new EngineError(`${what} table of ${dbn.variables[i]!.name}: parent ${p} out of range`);
      rows *= dbn.variables[p % n]!.states.length;
    }
    if (cpt.table.length !== rows * dbn.variables[i]!.states.length)
      throw new EngineError(
        `${what} table of ${dbn.variables[i]!.name} has ${cpt.table.length} entries, expected ${rows * dbn.variables[i]!.states.length}`,
      );
  };
  dbn.initial.forEach((c, i) => check(c, i, n, 'the initial'));
  dbn.transition.forEach((c, i) => check(c, i, 2 * n, 'the transition'));
  const within = (cpts: Cpt[]): BayesianNetwork => ({
    name: dbn.name,
    variables: dbn.variables,
    cpts: cpts.map((c) => ({ ...c, parents: c.parents.filter((p) => p < n) })),
  });
  for (const [what, cpts] of [
    ['initial', dbn.initial],
    ['transition', dbn.transition],
  ] as const) {
    const order = topologicalOrder(within(cpts));
    if ('cycle' in order)
      throw new EngineError(
        `the ${what} slice has a cycle: ${order.cycle.map((v) => dbn.variables[v]!.name).join(' → ')}`,
      );
  }
}

/** The name of X in slice t of the unrolled network: `X_t` (slice 0, the prior, is `X_0`). */
export function sliceName(name: string, t: number): string {
  return `${name}_${t}`;
}

/**
 * The plain network of slices 0…T (T transitions): variable X of slice t is `X_t` at index
 * t·n + v. Sizes are checked against the budget before anything is allocated.
 */
export function unroll(dbn: TwoSliceNetwork, steps: number, budgets: Budgets = DEFAULT_BUDGETS): BayesianNetwork {
  const n = dbn.variables.length;
  if (!Number.isInteger(steps) || steps < 0)
    throw new EngineError(`unroll: the number of steps must be a whole number ≥ 0, got ${steps}`);
  const perSlice = dbn.transition.reduce((s, c) => s + c.table.length, 0);
  requireWithin('the unrolled network', n * (steps + 1) + perSlice * steps, budgets.maxTotalEntries, 'table entries');
  const variables: DiscreteVariable[] = [];
  const cpts: Cpt[] = [];
  for (let t = 0; t <= steps; t++) {
    dbn.variables.forEach((v, i) => {
      variables.push({ name: sliceName(v.name, t), states: v.states });
      const src = t === 0 ? dbn.initial[i]! : dbn.transition[i]!;
      // Slice t's index of a template parent: this slice (p < n) or the one before (p ≥ n).
      const parents = src.parents.map((p) => (p < n ? t * n + p : (t - 1) * n + (p - n)));
      cpts.push({ child: t * n + i, parents, table: src.table });
    });
  }
  return { name: dbn.name, variables, cpts };
}
