/**
 * A network over time whose variables are all `real` (language/check/dynamic.ts) → the engine's
 * Gaussian 2-slice template (engine/dynamic/gaussianSlice.ts). Each table is one regression,
 * `P(Position[t] | Position[t-1], Velocity[t-1]) ~ Normal(mean: 0, Position[t-1]: 1, Velocity[t-1]: 1,
 * variance: 0.01)`: a coefficient names its parent with the parent's slice (a parent without one
 * has coefficient 0). A variable without a table at 0 uses its table at t in slice 0 (the checker
 * allows that only when it has no parent at t−1), as compileDynamic.ts does for discrete slices.
 */
import type * as A from '../language/ast.js';
import type { SymbolTable } from '../language/index.js';
import {
  validateGaussianTwoSlice,
  type GaussianTwoSliceNetwork,
  type LinearGaussianTable,
} from '../engine/dynamic/gaussianSlice.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from './compileError.js';
import { isNetworkOverTime, sliceKey, timedName } from '../language/check/dynamic.js';
import { normalRows } from '../language/check/gaussian.js';

/** Whether the network over time `decl` is a Gaussian one: every variable it declares is real. */
export function isGaussianOverTime(decl: A.NetworkDecl): boolean {
  const declared = decl.statements.filter((s): s is A.VariableDecl => s.kind === 'variable');
  return isNetworkOverTime(decl) && declared.length > 0 && declared.every((s) => s.domain.type === 'real');
}

/** The Gaussian network over time named `name`; throws CompileError. */
export function compileGaussianDynamic(symbols: SymbolTable, name: string): GaussianTwoSliceNetwork {
  const global = symbols.globals.get(name);
  if (global?.kind !== 'network' || global.node.kind !== 'network' || !isGaussianOverTime(global.node))
    throw new CompileError(`'${name}' is not a network over time of real variables`);
  const statements = global.node.statements;
  const variables: string[] = [];
  for (const s of statements) if (s.kind === 'variable') for (const n of s.names) variables.push(n.text);
  const index = new Map(variables.map((v, i) => [v, i]));
  const n = variables.length;
  const initial = new Array<LinearGaussianTable | undefined>(n);
  const transition = new Array<LinearGaussianTable | undefined>(n);
  for (const s of statements) {
    if (s.kind !== 'table' || s.head.targets.length !== 1) continue;
    const target = s.head.targets[0];
    const child = index.get(target.variable.text);
    if (child === undefined)
      throw new CompileError(`'${target.variable.text}' is not a variable of '${name}'`, target.range);
    (target.time?.step ? transition : initial)[child] = regression(s, child, index, n);
  }
  const missing = variables.find((_, i) => !transition[i]);
  if (missing) throw new CompileError(`'${missing}' has no table at t: give P(${missing}[t] | …)`);
  const net: GaussianTwoSliceNetwork = {
    name,
    variables,
    transition: transition as LinearGaussianTable[],
    initial: variables.map((v, i) => {
      const own = initial[i] ?? transition[i]!;
      if (own.parents.some((p) => p >= n)) throw new CompileError(`'${v}' has no table at 0: give P(${v}[0] | …)`);
      return own;
    }),
  };
  try {
    validateGaussianTwoSlice(net);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message);
    throw e;
  }
  return net;
}

/** One `~ Normal(mean: m, Parent[t-1]: b, …, variance: v)` → a table; parents ≥ n are of slice t−1. */
function regression(table: A.TableDecl, child: number, index: Map<string, number>, n: number): LinearGaussianTable {
  const rows = normalRows(table);
  if (rows.length !== 1 || rows[0]!.keys.length)
    throw new CompileError('a Gaussian network over time has one regression per table: ~ Normal(…)', table.range);
  const numbers = new Map<string, number>();
  for (const arg of rows[0]!.call.args)
    if (arg.name && arg.value.kind === 'number') numbers.set(timedName(arg.name.text, arg.time), arg.value.value);
  const variance = numbers.get('variance');
  if (variance === undefined || !(variance > 0))
    throw new CompileError('Normal(…) needs variance > 0', rows[0]!.call.range);
  const parents: number[] = [];
  const coefficients: number[] = [];
  for (const c of table.head.conditions) {
    const p = index.get(c.variable.text);
    if (p === undefined) throw new CompileError(`'${c.variable.text}' is not a variable of this network`, c.range);
    parents.push(c.time?.step && c.time.offset === -1 ? n + p : p);
    coefficients.push(numbers.get(sliceKey(c)) ?? 0);
  }
  return { child, parents, coefficients, mean: numbers.get('mean') ?? 0, variance };
}
