/**
 * Compiles a model scope that declares continuous variables (`variable Height : real` with a
 * `P(Height | …) ~ Normal(mean: m, variance: v, Parent: b, …)` table, or with discrete parents
 * rows `d₁, d₂: Normal(…)` — a conditional linear Gaussian table) into the hybrid IR
 * (engine/gaussian/hybridNetwork.ts): the scope's discrete tables as compileNetwork builds them,
 * then each continuous variable's CLG CPD, parents first. Discrete variables may not
 * have continuous parents (the checker says so), so the discrete part compiles on its own.
 */
import type * as A from '../language/ast.js';
import type { CheckEnvironment, SymbolTable } from '../language/index.js';
import { isNormalTable, normalRows } from '../language/check/gaussian.js';
import type { HybridNetwork, LinearGaussianCpd } from '../engine/gaussian/hybridNetwork.js';
import { validateHybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { EngineError } from '../engine/engineError.js';
import { compileNetwork, CompileError, importedHybridNetwork } from './compileNetwork.js';

/** The statements of a scope: `undefined` = the top-level model. */
function scopeStatements(file: A.BayesFile, symbols: SymbolTable, scopeName?: string): readonly A.Statement[] {
  if (scopeName === undefined) return file.statements;
  const global = symbols.globals.get(scopeName);
  return global?.node.kind === 'network' ? global.node.statements : [];
}

/** The `~ Normal(…)` tables of a scope, by variable. */
export function normalTables(file: A.BayesFile, symbols: SymbolTable, scopeName?: string): Map<string, A.TableDecl> {
  const tables = new Map<string, A.TableDecl>();
  for (const s of scopeStatements(file, symbols, scopeName))
    if (s.kind === 'table' && isNormalTable(s) && s.head.targets.length === 1)
      tables.set(s.head.targets[0].variable.text, s);
  return tables;
}

/** The hybrid network of a scope, or undefined when it has no continuous variable. Throws CompileError. */
export function compileHybridNetwork(
  file: A.BayesFile,
  symbols: SymbolTable,
  env: CheckEnvironment,
  scopeName?: string,
): HybridNetwork | undefined {
  const global = scopeName === undefined ? undefined : symbols.globals.get(scopeName);
  if (global?.kind === 'import') return importedHybridNetwork(global.node as A.ImportDecl, env);
  const tables = normalTables(file, symbols, scopeName);
  if (tables.size === 0) return undefined;
  const discrete = compileNetwork(file, symbols, env, scopeName);
  const net: HybridNetwork = {
    name: scopeName ?? 'default',
    variables: discrete.variables.map((v) => ({ kind: 'discrete', name: v.name, states: v.states })),
    cpds: discrete.cpts.map((cpt) => ({ kind: 'discrete', cpt })),
  };
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const visiting = new Set<string>();
  const add = (name: string, neededBy?: A.Name): number => {
    const known = index.get(name);
    if (known !== undefined) return known;
    const table = tables.get(name);
    if (!table) throw new CompileError(`'${name}' has no table: give P(${name} | …) ~ Normal(…)`, neededBy?.range);
    if (visiting.has(name)) throw new CompileError(`the tables form a cycle through '${name}'`, neededBy?.range);
    visiting.add(name);
    // Discrete parents are compiled already (the discrete part); continuous ones are added first.
    const parents = table.head.conditions.map((c) => ({
      name: c.variable,
      index: add(c.variable.text, c.variable),
    }));
    const child = net.variables.push({ kind: 'continuous', name }) - 1;
    index.set(name, child);
    const discreteParents = parents.filter((p) => net.variables[p.index]!.kind === 'discrete');
    const continuousParents = parents.filter((p) => net.variables[p.index]!.kind === 'continuous');
    net.cpds.push({ kind: 'gaussian', cpd: regression(net, table, child, discreteParents, continuousParents) });
    return child;
  };
  for (const name of tables.keys()) add(name);
  try {
    validateHybridNetwork(net);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message);
    throw e;
  }
  return net;
}

interface Parent {
  name: A.Name;
  index: number;
}

/**
 * The table as a CPD: `Normal(mean: b₀, variance: σ², Parent: b, …)` once, or one per
 * configuration of the discrete parents (rows keyed by their states, first parent slowest as
 * hybridNetwork.ts numbers them). A continuous parent without a coefficient has 0.
 */
function regression(
  net: HybridNetwork,
  table: A.TableDecl,
  child: number,
  discreteParents: Parent[],
  continuousParents: Parent[],
): LinearGaussianCpd {
  const m = continuousParents.length;
  const domains = discreteParents.map((p) => (net.variables[p.index] as { states: string[] }).states);
  const configurations = domains.reduce((n, states) => n * states.length, 1);
  const cpd: LinearGaussianCpd = {
    child,
    discreteParents: discreteParents.map((p) => p.index),
    continuousParents: continuousParents.map((p) => p.index),
    intercepts: new Float64Array(configurations),
    coefficients: new Float64Array(configurations * m),
    variances: new Float64Array(configurations).fill(NaN),
  };
  for (const { keys, call } of normalRows(table)) {
    if (keys.length !== domains.length)
      throw new CompileError('give one regression per configuration of the discrete parents', call.range);
    let row = 0;
    keys.forEach((key, i) => {
      const s = domains[i]!.indexOf(key.text);
      if (s < 0)
        throw new CompileError(`'${key.text}' is not a state of '${discreteParents[i]!.name.text}'`, key.range);
      row = row * domains[i]!.length + s;
    });
    const numbers = new Map<string, number>();
    for (const arg of call.args)
      if (arg.name && arg.value.kind === 'number') numbers.set(arg.name.text, arg.value.value);
    const variance = numbers.get('variance');
    if (variance === undefined || !(variance > 0)) throw new CompileError('Normal(…) needs variance > 0', call.range);
    cpd.intercepts[row] = numbers.get('mean') ?? 0;
    cpd.variances[row] = variance;
    continuousParents.forEach((p, j) => (cpd.coefficients[row * m + j] = numbers.get(p.name.text) ?? 0));
  }
  if (cpd.variances.some((v) => Number.isNaN(v)))
    throw new CompileError(
      `'${net.variables[child]!.name}' lacks a regression for a configuration of its discrete parents`,
      table.head.range,
    );
  return cpd;
}
