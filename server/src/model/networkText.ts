/**
 * What the network file readers share (BIF's cousins: XMLBIF, Hugin NET, UAI, GeNIe XDSL): the
 * error every reader returns (a message and the 1-based line of the bad file), the size budget
 * checked from the declarations before any table is allocated, and the assembly of variables and
 * tables — read in whatever order the file gives them — into the engine's network IR, with the
 * checks every format needs (unknown or twice-declared names, missing tables, table sizes,
 * probabilities, cycles). Pure text in, text out: no file I/O here.
 */
import type { BayesianNetwork, Cpt, DiscreteVariable } from '../engine/network.js';
import { normalizeCptRows, ROW_SUM_TOLERANCE, rowOffSum, topologicalOrder } from '../engine/network.js';
import { BudgetError, DEFAULT_BUDGETS, requireWithin, tableEntries, type Budgets } from '../engine/budget.js';

export interface NetworkReadError {
  message: string;
  /** 1-based line of the offending text. */
  line: number;
}

export type NetworkReadResult = { network: BayesianNetwork } | { error: NetworkReadError };

/** Thrown inside a reader and turned into a NetworkReadError at its entry point. */
export class NetworkSyntaxError extends Error {
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(message);
  }
}

/**
 * The steps the readers take — tokens and elements read, characters scanned for line numbers,
 * names looked up — so that tests can hold each reader linear in its input without timing it.
 */
export const readerWork = { steps: 0 };

/** Runs a reader, turning its syntax errors (and a stack overflow on absurd nesting) into a result. */
export function readWith(parse: () => BayesianNetwork): NetworkReadResult {
  try {
    return { network: parse() };
  } catch (e) {
    if (e instanceof NetworkSyntaxError) return { error: { message: e.message, line: e.line } };
    if (e instanceof RangeError) {
      return { error: { message: `the file is too large or too deeply nested: ${e.message}`, line: 1 } };
    }
    throw e;
  }
}

/**
 * The number of entries of a table over these cardinalities; over the budget (engine/budget.ts:
 * 2^24 entries for one table by default) it is an error on the line that declares it, raised
 * before anything is allocated.
 */
export function tableSize(cardinalities: readonly number[], what: string, line: number, budgets: Budgets): number {
  const size = tableEntries(cardinalities);
  within(() => requireWithin(what, size, budgets.maxTableEntries), line);
  return size;
}

/**
 * Refuses a count of declarations (XML elements, variables, the states of one variable) over the
 * budget (engine/budget.ts: 2^20 by default), on `line`: readers call it as they count, before
 * keeping one more.
 */
export function requireDeclarationsWithin(
  what: string,
  size: number,
  unit: string,
  line: number,
  budgets: Budgets,
): void {
  if (size > budgets.maxDeclarations) within(() => requireWithin(what, size, budgets.maxDeclarations, unit), line);
}

/** Runs a budget check, turning its BudgetError into an error on `line`. */
function within(check: () => void, line: number): void {
  try {
    check();
  } catch (e) {
    if (e instanceof BudgetError) throw new NetworkSyntaxError(e.message, line);
    throw e;
  }
}

/** Refuses a network whose tables together are over the budget (2^26 entries by default). */
export function requireTotalWithin(total: number, line: number, budgets: Budgets): void {
  within(() => requireWithin('the network (all its tables)', total, budgets.maxTotalEntries), line);
}

/** A variable as a file declares it. */
export interface DeclaredVariable {
  name: string;
  states: string[];
  line: number;
}

/**
 * A table as a file gives it: `values` in the IR's layout (first parent slowest, the child's
 * states fastest); a function is called with the expected count once names are resolved.
 */
export interface DeclaredTable {
  child: string;
  parents: string[];
  line: number;
  values: (expected: number) => Float64Array;
}

/** The shortest text that reads back to the same double (what every writer prints). */
export function formatNumber(x: number): string {
  return String(x);
}

/**
 * A decimal numeral's value, NaN for anything else: JavaScript's Number() also reads `0x1`, `0b1`
 * and `0o7`, which no network format writes, so a file holding them is refused, not read as 1.
 */
export function decimalNumber(text: string): number {
  return /^[+-]?0[xXbBoO]/.test(text) ? NaN : Number(text);
}

/** Parses a probability token; a negative, non-decimal or infinite one is an error on its line. */
export function probability(text: string, line: number): number {
  const v = decimalNumber(text);
  if (text === '' || !Number.isFinite(v)) throw new NetworkSyntaxError(`expected a probability, found '${text}'`, line);
  if (v < 0) throw new NetworkSyntaxError(`a probability cannot be negative: '${text}'`, line);
  return v;
}

/** Every variable with exactly one table, as a DAG: `cpts[i].child === i`, rows normalised. */
export function assembleNetwork(
  name: string,
  variables: DeclaredVariable[],
  tables: DeclaredTable[],
  budgets: Budgets = DEFAULT_BUDGETS,
): BayesianNetwork {
  const index = new Map<string, number>();
  const vars: DiscreteVariable[] = [];
  requireDeclarationsWithin('the network', variables.length, 'variables', variables[0]?.line ?? 1, budgets);
  for (const v of variables) {
    readerWork.steps += 1 + v.states.length;
    requireDeclarationsWithin(`variable '${v.name}'`, v.states.length, 'states', v.line, budgets);
    if (index.has(v.name)) throw new NetworkSyntaxError(`variable '${v.name}' is declared twice`, v.line);
    if (v.states.length === 0) throw new NetworkSyntaxError(`variable '${v.name}' has no states`, v.line);
    const seen = new Set<string>();
    for (const s of v.states) {
      if (seen.has(s)) throw new NetworkSyntaxError(`variable '${v.name}' lists state '${s}' twice`, v.line);
      seen.add(s);
    }
    index.set(v.name, vars.length);
    vars.push({ name: v.name, states: v.states });
  }
  const net: BayesianNetwork = { name, variables: vars, cpts: [] };
  const cpts: (Cpt | undefined)[] = new Array(vars.length);
  const lines = new Array<number>(vars.length);
  const resolve = (n: string, line: number) => {
    const i = index.get(n);
    if (i === undefined) throw new NetworkSyntaxError(`unknown variable '${n}'`, line);
    return i;
  };
  // every table is resolved and sized, and the sizes checked, before any is allocated
  const sized = tables.map((t) => {
    const child = resolve(t.child, t.line);
    const parents = t.parents.map((p) => resolve(p, t.line));
    const named = new Set<number>([child]);
    const twice = parents.find((p) => named.size === named.add(p).size);
    if (twice !== undefined) {
      throw new NetworkSyntaxError(`the table of '${t.child}' names '${vars[twice]!.name}' twice`, t.line);
    }
    const k = vars[child]!.states.length;
    const cards = [...parents.map((p) => vars[p]!.states.length), k];
    return { t, child, parents, k, size: tableSize(cards, `the table of '${t.child}'`, t.line, budgets) };
  });
  requireTotalWithin(
    sized.reduce((total, s) => total + s.size, 0),
    tables[0]?.line ?? 1,
    budgets,
  );
  for (const { t, child, parents, k, size } of sized) {
    if (cpts[child]) throw new NetworkSyntaxError(`a second table for '${t.child}'`, t.line);
    const table = t.values(size);
    if (table.length !== size) {
      throw new NetworkSyntaxError(`the table of '${t.child}' has ${table.length} entries, expected ${size}`, t.line);
    }
    requireRowsSumToOne(table, k, `the table of '${t.child}'`, t.line, (row) =>
      rowStates(
        row,
        parents.map((p) => vars[p]!),
      ),
    );
    normalizeCptRows(table, k);
    cpts[child] = { child, parents, table };
    lines[child] = t.line;
  }
  const missing = cpts.findIndex((c) => !c);
  if (missing >= 0 || cpts.length < vars.length) {
    const v = missing >= 0 ? missing : cpts.length;
    throw new NetworkSyntaxError(`variable '${vars[v]!.name}' has no table`, variables[v]!.line);
  }
  net.cpts = cpts as Cpt[];
  const order = topologicalOrder(net);
  if ('cycle' in order) {
    const first = order.cycle[0]!;
    throw new NetworkSyntaxError(
      `the tables form a cycle: ${order.cycle.map((v) => vars[v]!.name).join(' → ')}`,
      lines[first]!,
    );
  }
  return net;
}

/**
 * Refuses a table with a row (every entry known) that does not sum to 1 within ROW_SUM_TOLERANCE
 * (1e-6, as a row written in a model): a file's `0.1, 0.3` is an error, not 0.25 / 0.75. Rows
 * within it are normalised afterwards (rounding only). `states(row)` names the row's parent states.
 */
export function requireRowsSumToOne(
  table: Float64Array,
  k: number,
  what: string,
  line: number,
  states: (row: number) => string[],
): void {
  const bad = rowOffSum(table, k);
  if (!bad) return;
  const given = states(bad.row);
  throw new NetworkSyntaxError(
    `${what} has a row${given.length ? ` (${given.join(', ')})` : ''} that sums to ${bad.sum}, not 1 ` +
      `(within ${ROW_SUM_TOLERANCE.toExponential()})`,
    line,
  );
}

/** The states of the parents (first slowest) of row `row`. */
function rowStates(row: number, parents: readonly DiscreteVariable[]): string[] {
  const out = new Array<string>(parents.length);
  for (let i = parents.length - 1; i >= 0; i--) {
    const states = parents[i]!.states;
    out[i] = states[row % states.length]!;
    row = Math.floor(row / states.length);
  }
  return out;
}

/** A network one of the writers cannot express (unknown entries, names the format cannot hold). */
export class UnwritableNetworkError extends Error {}

/** Refuses unknown (NaN) entries, which only BIF (-1) and `.bayes` (a whole unknown table) can mark. */
export function requireKnownTables(net: BayesianNetwork, format: string): void {
  for (const cpt of net.cpts) {
    if (cpt.table.some(Number.isNaN)) {
      const name = net.variables[cpt.child]!.name;
      throw new UnwritableNetworkError(`P(${name} | …) has unknown entries, which ${format} cannot mark`);
    }
  }
}

/**
 * The probabilities in a run of text (separated by white space or commas), which must number
 * `expected`: counted before the table is allocated; a bad one is reported on its own line.
 */
export function numbersIn(text: string, firstLine: number, expected: number, what: string): Float64Array {
  const token = /[^\s,]+/g;
  let count = 0;
  while (token.exec(text)) count++;
  readerWork.steps += 2 * count;
  if (count !== expected) {
    throw new NetworkSyntaxError(`${what} has ${count} probabilities, expected ${expected}`, firstLine);
  }
  const values = new Float64Array(expected);
  let i = 0;
  for (let m = token.exec(text); m; m = token.exec(text)) {
    const v = decimalNumber(m[0]);
    if (!Number.isFinite(v) || v < 0) probability(m[0], firstLine + (text.slice(0, m.index).match(/\n/g)?.length ?? 0));
    values[i++] = v;
  }
  return values;
}

/**
 * Places for the nodes of a written network, for the editors of other tools (Hugin, GeNIe,
 * Weka draw a file's nodes where it says): one row per depth (the longest path from a root),
 * the nodes of a row side by side, 160 × 100 apart.
 */
export function layeredPositions(net: BayesianNetwork): [number, number][] {
  const order = topologicalOrder(net);
  const depth = new Array<number>(net.variables.length).fill(0);
  if ('order' in order) {
    for (const v of order.order) for (const p of net.cpts[v]!.parents) depth[v] = Math.max(depth[v]!, depth[p]! + 1);
  }
  const used: number[] = [];
  return depth.map((d) => {
    const column = (used[d] = (used[d] ?? 0) + 1) - 1;
    return [40 + 160 * column, 40 + 100 * d];
  });
}
