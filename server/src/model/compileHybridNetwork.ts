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
import { isLearntNormal, isNormalTable, normalRows } from '../language/check/gaussian.js';
import type { HybridNetwork, LinearGaussianCpd } from '../engine/gaussian/hybridNetwork.js';
import { validateHybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { EngineError } from '../engine/engineError.js';
import { BudgetError, DEFAULT_BUDGETS, requireWithin, type Budgets } from '../engine/budget.js';
import { compileNetwork, CompileError, importedHybridNetwork, type CompileNetworkOptions } from './compileNetwork.js';

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
  options: CompileNetworkOptions = {},
): HybridNetwork | undefined {
  const global = scopeName === undefined ? undefined : symbols.globals.get(scopeName);
  if (global?.kind === 'import') return importedHybridNetwork(global.node as A.ImportDecl, env);
  const tables = normalTables(file, symbols, scopeName);
  if (tables.size === 0) return undefined;
  const unlearnt = options.unknownTables ? undefined : [...tables.values()].find(isLearntNormal);
  if (unlearnt) throw new UnlearntTableError(unlearnt, scopeName);
  const discrete = compileNetwork(file, symbols, env, scopeName, options);
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
    const cpd = isLearntNormal(table)
      ? toBeLearnt(net, child, discreteParents, continuousParents, env.budgets ?? DEFAULT_BUDGETS)
      : regression(net, table, child, discreteParents, continuousParents);
    net.cpds.push({ kind: 'gaussian', cpd });
    return child;
  };
  for (const name of tables.keys()) add(name);
  // Tables to be learnt have no numbers yet: the structure is what learning needs.
  if (options.unknownTables) return net;
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

/**
 * `~ Normal()` while learning (options.unknownTables): the regressions' numbers are unknown (NaN),
 * one per configuration of the discrete parents (their count held to the budget).
 */
function toBeLearnt(
  net: HybridNetwork,
  child: number,
  discreteParents: Parent[],
  continuousParents: Parent[],
  budgets: Budgets,
): LinearGaussianCpd {
  const configurations = discreteParents.reduce(
    (n, p) => n * (net.variables[p.index] as { states: string[] }).states.length,
    1,
  );
  try {
    requireWithin(
      `the table of '${net.variables[child]!.name}'`,
      configurations * (continuousParents.length + 2),
      budgets.maxTableEntries,
    );
  } catch (e) {
    if (e instanceof BudgetError) throw new CompileError(e.message);
    throw e;
  }
  return {
    child,
    discreteParents: discreteParents.map((p) => p.index),
    continuousParents: continuousParents.map((p) => p.index),
    intercepts: new Float64Array(configurations).fill(NaN),
    coefficients: new Float64Array(configurations * continuousParents.length).fill(NaN),
    variances: new Float64Array(configurations).fill(NaN),
  };
}

/** A `~ Normal()` table asked for before `learn` gave it numbers (the panel draws such a network without densities). */
export class UnlearntTableError extends CompileError {
  constructor(table: A.TableDecl, scopeName: string | undefined) {
    const name = table.head.targets[0].variable.text;
    super(
      `'${name}' ~ Normal() is learnt from data: \`learn ${scopeName ?? 'NETWORK'} from DATA\` first`,
      table.head.range,
    );
  }
}
