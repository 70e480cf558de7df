/**
 * A network over time (`P(Rain[t] | Rain[t-1])`, `P(Rain[0])`; language/check/dynamic.ts) → the
 * engine's 2-slice template (engine/dynamic/twoSliceNetwork.ts). The slice's variables are the
 * network's discrete variables in declaration order; a variable without a table at 0 uses its
 * table at t in slice 0 (the checker allows that only when it has no parent at t−1).
 */
import type { SymbolTable } from '../language/index.js';
import type { Cpt, DiscreteVariable } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import { validateTwoSlice, type TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from './compileError.js';
import { tableValues } from './compileNetwork.js';
import { isNetworkOverTime } from '../language/check/dynamic.js';

/** The network over time named `name`; throws CompileError. */
export function compileDynamic(
  symbols: SymbolTable,
  name: string,
  budgets: Budgets = DEFAULT_BUDGETS,
): TwoSliceNetwork {
  const global = symbols.globals.get(name);
  if (global?.kind !== 'network' || global.node.kind !== 'network' || !isNetworkOverTime(global.node))
    throw new CompileError(`'${name}' is not a network over time (no table indexes its variables by [t])`);
  const statements = global.node.statements;
  const variables: DiscreteVariable[] = [];
  for (const s of statements)
    if (s.kind === 'variable' && s.domain.type !== 'real')
      for (const n of s.names) variables.push({ name: n.text, states: s.domain.states.map((x) => x.text) });
  const index = new Map(variables.map((v, i) => [v.name, i]));
  const n = variables.length;
  // The space the template's parents index: this slice 0…n−1, the previous one n…2n−1.
  const space = { name, variables: [...variables, ...variables], cpts: [] as Cpt[] };
  const initial = new Array<Cpt | undefined>(n);
  const transition = new Array<Cpt | undefined>(n);
  for (const s of statements) {
    if (s.kind !== 'table' || s.head.targets.length !== 1) continue;
    const target = s.head.targets[0];
    const child = index.get(target.variable.text);
    if (child === undefined)
      throw new CompileError(`'${target.variable.text}' is not a discrete variable of '${name}'`, target.range);
    const parents = s.head.conditions.map((c) => {
      const p = index.get(c.variable.text);
      if (p === undefined)
        throw new CompileError(`'${c.variable.text}' is not a discrete variable of '${name}'`, c.range);
      return c.time?.step && c.time.offset === -1 ? n + p : p;
    });
    const cpt: Cpt = { child, parents, table: new Float64Array(0) };
    cpt.table = tableValues(s, space, cpt, budgets);
    (target.time?.step ? transition : initial)[child] = cpt;
  }
  const missing = variables.find((_, i) => !transition[i]);
  if (missing) throw new CompileError(`'${missing.name}' has no table at t: give P(${missing.name}[t] | …)`);
  const dbn: TwoSliceNetwork = {
    name,
    variables,
    transition: transition as Cpt[],
    initial: variables.map((v, i) => {
      const own = initial[i] ?? transition[i]!;
      if (own.parents.some((p) => p >= n))
        throw new CompileError(`'${v.name}' has no table at 0: give P(${v.name}[0] | …)`);
      return own;
    }),
  };
  try {
    validateTwoSlice(dbn);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message);
    throw e;
  }
  return dbn;
}
