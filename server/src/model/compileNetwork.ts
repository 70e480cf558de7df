/**
 * Compiles a model scope of a checked AST — the file's default model, a `network { … }`, or an
 * imported BIF network — into the Bayesian network IR the inference engine reads. Hypothesis
 * spaces with priors are root variables whose states are the hypotheses, so P(h | D) is
 * ordinary inference. Only variables that have a table (or a prior) take part; a variable that
 * a table needs but that has none is an error naming it.
 */
import type * as A from '../language/ast.js';
import type { CheckEnvironment, SymbolTable } from '../language/index.js';
import type { Range } from '../language/diagnostics.js';
import type { BayesianNetwork, Cpt, DiscreteVariable } from '../engine/network.js';
import { normalizeCptRows } from '../engine/network.js';
import { formatList, networkFormatOf, readImportedNetworkText } from './networkFormats.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { BudgetError, DEFAULT_BUDGETS, requireWithin, tableEntries, type Budgets } from '../engine/budget.js';
import { readModelNetwork, readModelText } from './files.js';
import { CompileError } from './compileError.js';
import { canonicalValues } from './compileCanonical.js';
import { isNetworkOverTime } from '../language/check/dynamic.js';
import { isNormalTable } from '../language/check/gaussian.js';

export { CompileError };

interface TableSource {
  table: A.TableDecl;
}
interface PriorSource {
  hypotheses: A.HypothesesDecl;
}
/** A decision is a root whose value is chosen: here uniform, until a query sets it (`given`, `do`). */
interface DecisionSource {
  decision: A.DecisionDecl;
}
type Source = TableSource | PriorSource | DecisionSource;

export interface CompileNetworkOptions {
  /**
   * For learning: tables declared by a parameter prior only (`P(X | U) ~ Dirichlet(1)`) join
   * the network with unknown (NaN) entries, so the structure is there for data to fill in.
   */
  unknownTables?: boolean;
}

/** The network of a scope: `undefined` name = the default model. Throws CompileError. */
export function compileNetwork(
  file: A.BayesFile,
  symbols: SymbolTable,
  env: CheckEnvironment,
  scopeName?: string,
  options: CompileNetworkOptions = {},
): BayesianNetwork {
  const global = scopeName === undefined ? undefined : symbols.globals.get(scopeName);
  if (global?.kind === 'import') return importedNetwork(global.node as A.ImportDecl, env);
  if (scopeName !== undefined && global?.kind !== 'network') throw new CompileError(`'${scopeName}' is not a network`);
  const statements = global ? (global.node as A.NetworkDecl).statements : file.statements;
  if (global?.node.kind === 'network' && isNetworkOverTime(global.node))
    throw new CompileError(
      `'${scopeName}' is a network over time: use \`bayes filter\`, or unroll it (\`bayes convert --unroll T\`)`,
    );
  // Names resolve in the network first, then among the top-level declarations.
  const states = new Map([...declaredStates(file.statements), ...declaredStates(statements)]);
  const net = buildNetwork(
    scopeName ?? 'default',
    states,
    sourcesOf(statements, options.unknownTables ?? false),
    env.budgets,
  );
  // Tables are compiled parents first; the network then takes the order the scope declares its
  // variables in. That order is what UAI numbers, `--evidence-file` indexes and `mpe` lists, so
  // `bayes convert X.bif X.bayes` then X.bayes → X.uai numbers the variables as X.bif → X.uai does,
  // and .bayes → .bayes is a fixed point (it reordered declarations parents first).
  const ordered = declarationOrder(net, [...declaredStates(statements).keys()]);
  if (!options.unknownTables) {
    const learnt = new Set(priorTables(statements).keys());
    for (const v of ordered.variables) learnt.delete(v.name);
    if (learnt.size > 0) tablesToLearn.set(ordered, learnt);
  }
  const normal = statements.filter((s) => s.kind === 'table' && isNormalTable(s)) as A.TableDecl[];
  if (normal.length > 0)
    continuousVariables.set(ordered, new Set(normal.map((t) => t.head.targets[0]?.variable.text ?? '')));
  return ordered;
}

/** `net` with the variables named in `declared` first, in that order, then the others as they were. */
function declarationOrder(net: BayesianNetwork, declared: readonly string[]): BayesianNetwork {
  const rank = new Map<string, number>();
  for (const name of declared) if (!rank.has(name)) rank.set(name, rank.size);
  const order = net.variables.map((_, i) => i);
  const key = (i: number) => rank.get(net.variables[i]!.name) ?? rank.size + i;
  order.sort((a, b) => key(a) - key(b));
  if (order.every((v, i) => v === i)) return net;
  const position = new Int32Array(order.length);
  order.forEach((v, i) => (position[v] = i));
  return {
    ...net,
    variables: order.map((v) => net.variables[v]!),
    cpts: order.map((v, child) => ({
      ...net.cpts[v]!,
      child,
      parents: net.cpts[v]!.parents.map((p) => position[p]!),
    })),
  };
}

/**
 * The variables a compiled scope leaves out because their table is a parameter prior only
 * (`P(B | A) ~ Dirichlet(1)`: to be learnt). A query on one was told "'B' is not a variable of
 * the default model", which it is.
 */
const tablesToLearn = new WeakMap<BayesianNetwork, Set<string>>();

/** The continuous variables (`~ Normal(…)` tables) a compiled scope leaves out of the discrete IR. */
const continuousVariables = new WeakMap<BayesianNetwork, Set<string>>();

export function isContinuousVariable(net: BayesianNetwork, name: string): boolean {
  return continuousVariables.get(net)?.has(name) ?? false;
}

export function isTableToLearn(net: BayesianNetwork, name: string): boolean {
  return tablesToLearn.get(net)?.has(name) ?? false;
}

/** The tables of a scope declared by a parameter prior, by variable. */
export function parameterPriors(file: A.BayesFile, symbols: SymbolTable, scopeName?: string): Map<string, A.TableDecl> {
  const global = scopeName === undefined ? undefined : symbols.globals.get(scopeName);
  const statements = global?.node.kind === 'network' ? global.node.statements : global ? [] : file.statements;
  return priorTables(statements);
}

/** The tables among `statements` given by a parameter prior (`P(B | A) ~ Dirichlet(1)`), by variable. */
function priorTables(statements: readonly A.Statement[]): Map<string, A.TableDecl> {
  const priors = new Map<string, A.TableDecl>();
  for (const s of statements)
    if (s.kind === 'table' && s.parameterPrior && !isNormalTable(s) && s.head.targets.length === 1)
      priors.set(s.head.targets[0].variable.text, s);
  return priors;
}

/**
 * An `import network N from "x.bif"` (or .xml, .net, .uai, .xdsl) read through the environment
 * (confined to the allowed roots).
 */
export function importedNetwork(decl: A.ImportDecl, env: CheckEnvironment): BayesianNetwork {
  // A network with continuous nodes: its discrete part (they have no discrete children).
  return importedRead(decl, env).network;
}

/** An imported Hugin NET network with continuous nodes, or undefined when the file's network is discrete. */
export function importedHybridNetwork(decl: A.ImportDecl, env: CheckEnvironment): HybridNetwork | undefined {
  return importedRead(decl, env).hybrid;
}

function importedRead(decl: A.ImportDecl, env: CheckEnvironment): { network: BayesianNetwork; hybrid?: HybridNetwork } {
  if (!networkFormatOf(decl.path.value)) {
    throw new CompileError(`networks are read from ${formatList()} files`, decl.path.range);
  }
  const read = env.readNetwork
    ? readModelNetwork(decl.path, env)
    : readImportedNetworkText(decl.path.value, readModelText(decl.path, env), env.budgets);
  if ('error' in read)
    throw new CompileError(`${decl.path.value}, line ${read.error.line}: ${read.error.message}`, decl.path.range);
  // The host may share its parse between requests: named here, on copies.
  const name = decl.name.text;
  return { network: { ...read.network, name }, ...(read.hybrid ? { hybrid: { ...read.hybrid, name } } : {}) };
}

/**
 * Every variable a block declares, with whatever tables it gives, for showing and exporting a
 * network while it is being written: entries the model does not give (a table to be learned, a
 * missing row) are NaN, as the IR marks unknown entries, and rows naming unknown states are left
 * out. Nothing is checked here — the checker reports what is wrong.
 */
export function declaredNetwork(name: string, statements: readonly A.Statement[]): BayesianNetwork {
  const states = declaredStates(statements);
  const sources = sourcesOf(statements, true);
  const variables: DiscreteVariable[] = [...states].map(([n, st]) => ({ name: n, states: st }));
  const index = new Map(variables.map((v, i) => [v.name, i]));
  const net: BayesianNetwork = { name, variables, cpts: [] };
  net.cpts = variables.map((v, child) => {
    const source = sources.get(v.name);
    const parents =
      source && 'table' in source ? source.table.head.conditions.map((c) => index.get(c.variable.text)) : [];
    if (!source || parents.some((p) => p === undefined))
      return { child, parents: [], table: new Float64Array(v.states.length).fill(NaN) };
    const cpt: Cpt = { child, parents: parents as number[], table: new Float64Array(0) };
    try {
      cpt.table = 'table' in source ? tableValues(source.table, net, cpt) : sourceValues(source);
    } catch (e) {
      // A canonical model whose numbers do not fit together: unknown here, reported by the run.
      if (!(e instanceof CompileError)) throw e;
      cpt.table = new Float64Array(rowCountOf(net, cpt) * v.states.length).fill(NaN);
    }
    return cpt;
  });
  return net;
}

function declaredStates(statements: readonly A.Statement[]): Map<string, string[]> {
  const states = new Map<string, string[]>();
  for (const s of statements) {
    if (s.kind === 'variable' && s.domain.type !== 'real')
      for (const n of s.names)
        states.set(
          n.text,
          s.domain.states.map((x) => x.text),
        );
    if (s.kind === 'hypotheses' && !s.generator)
      states.set(
        s.name.text,
        s.entries.map((e) => e.name.text),
      );
    if (s.kind === 'decision' && s.domain.type !== 'real')
      states.set(
        s.name.text,
        s.domain.states.map((x) => x.text),
      );
  }
  return states;
}

function sourcesOf(statements: readonly A.Statement[], unknownTables: boolean): Map<string, Source> {
  const sources = new Map<string, Source>();
  for (const s of statements) {
    if (s.kind === 'table' && (unknownTables || !s.parameterPrior) && !isNormalTable(s) && s.head.targets.length === 1)
      sources.set(s.head.targets[0].variable.text, { table: s });
    if (s.kind === 'hypotheses' && !s.generator && !sources.has(s.name.text) && hasPriors(s))
      sources.set(s.name.text, { hypotheses: s });
    if (s.kind === 'decision' && !sources.has(s.name.text)) sources.set(s.name.text, { decision: s });
  }
  return sources;
}

function hasPriors(h: A.HypothesesDecl): boolean {
  if (h.prior?.text === 'uniform') return true;
  if (h.entries.length === 0) return false;
  return h.entries.every((e) => e.prior !== undefined) || h.entries.every((e) => e.bits !== undefined);
}

/** Adds every variable with a source, parents first, so that `cpts[i].child === i`. */
function buildNetwork(
  name: string,
  states: Map<string, string[]>,
  sources: Map<string, Source>,
  budgets?: Budgets,
): BayesianNetwork {
  requireDeclaredSizes(states, sources, budgets ?? DEFAULT_BUDGETS);
  const net: BayesianNetwork = { name, variables: [], cpts: [] };
  const index = new Map<string, number>();
  const visiting = new Set<string>();
  const add = (variable: string, neededBy?: A.Name): number => {
    const known = index.get(variable);
    if (known !== undefined) return known;
    const source = sources.get(variable);
    if (!source)
      throw new CompileError(
        `'${variable}' has no table: give P(${variable} | …) to use it in this model`,
        neededBy?.range,
      );
    if (visiting.has(variable))
      throw new CompileError(`the tables form a cycle through '${variable}'`, neededBy?.range);
    visiting.add(variable);
    const parents = 'table' in source ? source.table.head.conditions.map((c) => add(c.variable.text, c.variable)) : [];
    const domain = states.get(variable);
    // On the name that needs it, else on its own table: without a range it fell on the statement
    // that compiled the model (a query lines away).
    const at = neededBy ?? ('table' in source ? source.table.head.targets[0]!.variable : undefined);
    if (!domain) throw new CompileError(`'${variable}' has no states here`, at?.range);
    const v: DiscreteVariable = { name: variable, states: domain };
    const child = net.variables.push(v) - 1;
    index.set(variable, child);
    const cpt: Cpt = { child, parents, table: new Float64Array(0) };
    net.cpts.push(cpt);
    cpt.table = 'table' in source ? tableValues(source.table, net, cpt, budgets) : sourceValues(source);
    return child;
  };
  for (const variable of sources.keys()) add(variable);
  return net;
}

function rowCountOf(net: BayesianNetwork, cpt: Cpt): number {
  return cpt.parents.reduce((n, p) => n * net.variables[p]!.states.length, 1);
}

function sourceValues(source: PriorSource | DecisionSource): Float64Array {
  if ('hypotheses' in source) return priorValues(source.hypotheses);
  const k = source.decision.domain.states.length;
  return new Float64Array(k).fill(1 / k);
}

function priorValues(h: A.HypothesesDecl): Float64Array {
  if (h.prior?.text === 'uniform') return new Float64Array(h.entries.length).fill(1 / h.entries.length);
  // Code lengths alone (`h: bits 3`) are the prior 2^−L(h), normalised (Kraft: the sum is at most 1).
  // Lengths are taken relative to the shortest when no hypothesis has a probability: 2^−2000
  // underflows to 0, and two such hypotheses normalised to NaN where each has prior 1/2.
  const shortest = h.entries.some((e) => e.prior)
    ? 0
    : h.entries.reduce((m, e) => Math.min(m, e.bits!.value), Infinity);
  const values = Float64Array.from(h.entries, (e) => (e.prior ? e.prior.value : 2 ** -(e.bits!.value - shortest)));
  normalizeCptRows(values, values.length);
  return values;
}

/**
 * The rows of `P(X | parents) { … }` (or `P(X) = p`) in the IR's layout, each normalised: the
 * checker accepts rows that sum to 1 within its tolerance, and the engine computes with exact ones.
 */
export function tableValues(table: A.TableDecl, net: BayesianNetwork, cpt: Cpt, budgets?: Budgets): Float64Array {
  const values = givenValues(table, net, cpt, budgets);
  normalizeCptRows(values, net.variables[cpt.child]!.states.length);
  return values;
}

function givenValues(table: A.TableDecl, net: BayesianNetwork, cpt: Cpt, budgets?: Budgets): Float64Array {
  const states = net.variables[cpt.child]!.states;
  const k = states.length;
  const parentStates = cpt.parents.map((p) => net.variables[p]!.states);
  const rows = parentStates.reduce((n, s) => n * s.length, 1);
  const budget = budgets?.maxTableEntries ?? DEFAULT_BUDGETS.maxTableEntries;
  withinBudget(
    () => requireWithin(`the table of '${net.variables[cpt.child]!.name}'`, rows * k, budget),
    table.head.range,
  );
  const values = new Float64Array(rows * k).fill(NaN);
  if (table.parameterPrior) return values;
  if (table.canonical) return canonicalValues(table, table.canonical, net, cpt);
  if (table.value) {
    values.set(
      distribution(
        [{ kind: 'rowEntry', value: table.value, range: table.value.range }],
        'single',
        states,
        table.value.range,
      ),
    );
    return values;
  }
  if (cpt.parents.length === 0) {
    // Without parents each row is `state: p`; together they are one distribution.
    for (const row of table.rows) {
      const x = states.indexOf(row.keys[0]?.text ?? '');
      if (x >= 0 && row.entries[0]) values[x] = row.entries[0].value.value;
    }
    return values;
  }
  for (const row of table.rows) {
    const r = rowIndex(
      row.keys.map((key) => key.text),
      parentStates,
    );
    if (r !== undefined) values.set(distribution(row.entries, row.form, states, row.range), r * k);
  }
  return values;
}

/**
 * The network's tables together, computed from the declarations before any is allocated: sixty
 * tables of 2^24 entries each pass the per-table budget but not this one.
 */
function requireDeclaredSizes(states: Map<string, string[]>, sources: Map<string, Source>, budgets: Budgets): void {
  let total = 0;
  let first: Range | undefined;
  for (const [variable, source] of sources) {
    const conditions = 'table' in source ? source.table.head.conditions : [];
    const entries = tableEntries([
      ...conditions.map((c) => states.get(c.variable.text)?.length ?? 1),
      states.get(variable)?.length ?? 1,
    ]);
    const range =
      'table' in source
        ? source.table.head.range
        : 'hypotheses' in source
          ? source.hypotheses.name.range
          : source.decision.name.range;
    first ??= range;
    withinBudget(() => requireWithin(`the table of '${variable}'`, entries, budgets.maxTableEntries), range);
    total += entries;
  }
  withinBudget(() => requireWithin('the network (all its tables)', total, budgets.maxTotalEntries), first);
}

/** A BudgetError as a compile error on the declaration that asked for the allocation. */
function withinBudget(check: () => void, range: Range | undefined): void {
  try {
    check();
  } catch (e) {
    if (e instanceof BudgetError) throw new CompileError(e.message, range);
    throw e;
  }
}

/** The mixed-radix row number of parent states (first parent slowest); undefined for an unknown state. */
function rowIndex(keys: string[], radices: string[][]): number | undefined {
  if (keys.length !== radices.length) return undefined;
  let row = 0;
  for (let i = 0; i < keys.length; i++) {
    const s = radices[i]!.indexOf(keys[i]!);
    if (s < 0) return undefined;
    row = row * radices[i]!.length + s;
  }
  return row;
}

function distribution(entries: A.RowEntry[], form: A.Row['form'], states: string[], range: Range): Float64Array {
  const d = new Float64Array(states.length);
  if (form === 'single') {
    // A single probability is P(first state) of a two-state variable (bool: P(true)).
    if (states.length !== 2) throw new CompileError('a single probability needs a two-state variable', range);
    d[0] = entries[0]!.value.value;
    d[1] = 1 - d[0];
  } else if (form === 'list') {
    d.fill(NaN);
    entries.slice(0, states.length).forEach((e, i) => {
      d[i] = e.value.value;
    });
  } else {
    d.fill(NaN);
    for (const e of entries) {
      const x = states.indexOf(e.state?.text ?? '');
      if (x >= 0) d[x] = e.value.value;
    }
  }
  return d;
}
