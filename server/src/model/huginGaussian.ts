/**
 * Hugin NET's continuous nodes and conditional linear Gaussian potentials, read and written.
 * Hugin writes a continuous node as `continuous node X { … }` and its distribution as
 *
 *     potential ( X | D Y ) { data = ( normal ( 1 + 2 * Y, 1.5 )  normal ( -0.5 - Y, 2 ) ); }
 *
 * one `normal ( mean, variance )` per configuration of the discrete parents (the first slowest,
 * parenthesised by discrete parent as Hugin nests discrete tables), the mean a linear expression
 * in the continuous parents (terms in any order, `c * Y`, `Y * c`, `Y`, `- Y`, an intercept
 * anywhere or absent) and the second argument the variance. hugin.ts tokenises the file and hands
 * each `normal` call's argument text here; this module turns them into the IR of
 * engine/gaussian/hybridNetwork.ts, and writes that IR back.
 */
import type { Budgets } from '../engine/budget.js';
import {
  configurationCount,
  hybridNetworkProblems,
  type HybridCpd,
  type HybridNetwork,
  type HybridVariable,
  type LinearGaussianCpd,
} from '../engine/gaussian/hybridNetwork.js';
import {
  assembleNetwork,
  formatNumber,
  NetworkSyntaxError,
  requireTotalWithin,
  tableSize,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadError,
} from './networkText.js';

/** One `normal ( mean, variance )` as written: the argument texts and the line of `normal`. */
export interface NormalCall {
  mean: string;
  variance: string;
  line: number;
}

/** A continuous node's potential as the file gives it. */
export interface DeclaredGaussian {
  child: string;
  parents: string[];
  line: number;
  normals: NormalCall[];
}

export type HybridReadResult = { network: HybridNetwork } | { error: NetworkReadError };

/** A mean expression: the intercept and a coefficient per named continuous parent. */
interface LinearMean {
  intercept: number;
  coefficients: Map<string, number>;
}

const EXPRESSION_TOKEN =
  /\s*(?:(\d+\.?\d*(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?)|([A-Za-z_][A-Za-z0-9_]*)|([+\-*]))/y;

/** Only white space from lastIndex to the end (sticky: no copy of the rest of the text per token). */
const TRAILING_SPACE = /\s*$/y;

type ExpressionToken = { number: number } | { name: string } | { op: string };

function expressionTokens(text: string, line: number): ExpressionToken[] {
  const tokens: ExpressionToken[] = [];
  EXPRESSION_TOKEN.lastIndex = 0;
  let at = 0;
  while (at < text.length) {
    TRAILING_SPACE.lastIndex = at;
    if (TRAILING_SPACE.test(text)) break;
    EXPRESSION_TOKEN.lastIndex = at;
    const m = EXPRESSION_TOKEN.exec(text);
    if (!m) throw new NetworkSyntaxError(`cannot read the mean '${text.trim()}' at '${text.slice(at).trim()}'`, line);
    at = EXPRESSION_TOKEN.lastIndex;
    if (m[1] !== undefined) tokens.push({ number: Number(m[1]) });
    else if (m[2] !== undefined) tokens.push({ name: m[2] });
    else tokens.push({ op: m[3]! });
  }
  return tokens;
}

/**
 * Reads `b0 + b1 * Y1 - Y2 + …`: signed terms, each a number, a name, or a number and a name
 * multiplied in either order. A name given twice adds up, as the expression says.
 */
export function readLinearMean(text: string, line: number): LinearMean {
  const tokens = expressionTokens(text, line);
  const mean: LinearMean = { intercept: 0, coefficients: new Map() };
  const bad = (what: string): never => {
    throw new NetworkSyntaxError(`the mean '${text.trim()}' ${what}: expected terms like 1.5 + 2 * Y - Z`, line);
  };
  if (tokens.length === 0) bad('is empty');
  let i = 0;
  const isOp = (t: ExpressionToken | undefined, op: string) => t !== undefined && 'op' in t && t.op === op;
  for (let first = true; i < tokens.length; first = false) {
    let sign = 1;
    if (isOp(tokens[i], '+') || isOp(tokens[i], '-')) sign = isOp(tokens[i++], '-') ? -1 : 1;
    else if (!first) bad('has two terms without + or - between them');
    // Hugin may also write `+ -0.5`: further unary signs multiply in
    while (isOp(tokens[i], '+') || isOp(tokens[i], '-')) sign *= isOp(tokens[i++], '-') ? -1 : 1;
    let factor = sign;
    let name: string | undefined;
    for (let want = true; want;) {
      // a signed factor after '*' (Y * -0.3)
      while (isOp(tokens[i], '+') || isOp(tokens[i], '-')) factor *= isOp(tokens[i++], '-') ? -1 : 1;
      const t = tokens[i++];
      if (t === undefined || 'op' in t) return bad('has an operator where a number or a name should be');
      if ('number' in t) factor *= t.number;
      else if (name !== undefined) bad(`multiplies two variables (${name} * ${t.name}), which is not linear`);
      else name = t.name;
      want = isOp(tokens[i], '*');
      if (want) i++;
    }
    if (name === undefined) mean.intercept += factor;
    else mean.coefficients.set(name, (mean.coefficients.get(name) ?? 0) + factor);
  }
  return mean;
}

function readVariance(text: string, child: string, line: number): number {
  const trimmed = text.trim();
  const v = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(v)) {
    throw new NetworkSyntaxError(`the variance of '${child}' must be a number, found '${trimmed}'`, line);
  }
  if (!(v > 0)) throw new NetworkSyntaxError(`the variance of '${child}' must be > 0, found ${trimmed}`, line);
  return v;
}

/** A node of the file, in file order, discrete or continuous. */
export interface DeclaredNode {
  name: string;
  line: number;
  states?: string[];
}

/**
 * The hybrid network of a NET file: its discrete part assembled (and checked) as for a discrete
 * file, every continuous potential resolved against the declared nodes, and the whole checked
 * by the IR's validation (CLG rules, cycles through continuous nodes). Sizes are checked
 * against the budgets before any array is allocated.
 */
export function assembleHybridNetwork(
  name: string,
  nodes: DeclaredNode[],
  tables: DeclaredTable[],
  gaussians: DeclaredGaussian[],
  budgets: Budgets,
): HybridNetwork {
  const index = new Map<string, number>();
  for (const [i, node] of nodes.entries()) {
    if (index.has(node.name)) throw new NetworkSyntaxError(`variable '${node.name}' is declared twice`, node.line);
    index.set(node.name, i);
  }
  const continuous = (n: string) => index.has(n) && nodes[index.get(n)!]!.states === undefined;
  for (const t of tables) {
    const parent = t.parents.find(continuous);
    if (parent !== undefined) {
      throw new NetworkSyntaxError(
        `'${t.child}' is discrete and cannot have the continuous parent '${parent}': in a conditional linear Gaussian network a discrete node has discrete parents only`,
        t.line,
      );
    }
  }
  const discreteNodes = nodes.filter((n) => n.states !== undefined) as DeclaredVariable[];
  const discrete = assembleNetwork(name, discreteNodes, tables, budgets);
  const variables: HybridVariable[] = nodes.map((n) =>
    n.states ? { kind: 'discrete', name: n.name, states: n.states } : { kind: 'continuous', name: n.name },
  );
  const cpds = new Array<HybridCpd | undefined>(nodes.length);
  const toHybrid = discreteNodes.map((n) => index.get(n.name)!);
  for (const cpt of discrete.cpts) {
    const child = toHybrid[cpt.child]!;
    cpds[child] = { kind: 'discrete', cpt: { child, parents: cpt.parents.map((p) => toHybrid[p]!), table: cpt.table } };
  }
  const net: HybridNetwork = { name, variables, cpds: [] };
  let total = discrete.cpts.reduce((s, c) => s + c.table.length, 0);
  for (const g of gaussians) total += gaussianSize(net, index, g, budgets);
  requireTotalWithin(total, gaussians[0]?.line ?? 1, budgets);
  for (const g of gaussians) {
    const cpd = resolveGaussian(net, index, g);
    if (cpds[cpd.child]) throw new NetworkSyntaxError(`a second potential for '${g.child}'`, g.line);
    cpds[cpd.child] = { kind: 'gaussian', cpd };
  }
  const missing = cpds.findIndex((c) => c === undefined);
  if (missing >= 0)
    throw new NetworkSyntaxError(`variable '${nodes[missing]!.name}' has no potential`, nodes[missing]!.line);
  net.cpds = cpds as HybridCpd[];
  const problems = hybridNetworkProblems(net);
  if (problems.length) throw new NetworkSyntaxError(problems[0]!, gaussians[0]?.line ?? 1);
  return net;
}

function splitParents(net: HybridNetwork, index: Map<string, number>, g: DeclaredGaussian) {
  const resolve = (n: string) => {
    const i = index.get(n);
    if (i === undefined) throw new NetworkSyntaxError(`unknown variable '${n}'`, g.line);
    return i;
  };
  const child = resolve(g.child);
  const parents = g.parents.map(resolve);
  const twice = parents.find((p, i) => p === child || parents.indexOf(p) !== i);
  if (twice !== undefined) {
    throw new NetworkSyntaxError(`the potential of '${g.child}' names '${net.variables[twice]!.name}' twice`, g.line);
  }
  return {
    child,
    discreteParents: parents.filter((p) => net.variables[p]!.kind === 'discrete'),
    continuousParents: parents.filter((p) => net.variables[p]!.kind === 'continuous'),
  };
}

/** Entries the CLG will take (configurations × (intercept, coefficients, variance)), within the budget. */
function gaussianSize(net: HybridNetwork, index: Map<string, number>, g: DeclaredGaussian, budgets: Budgets): number {
  const { discreteParents, continuousParents } = splitParents(net, index, g);
  const cards = discreteParents.map((p) => (net.variables[p] as { states: string[] }).states.length);
  return tableSize([...cards, continuousParents.length + 2], `the potential of '${g.child}'`, g.line, budgets);
}

function resolveGaussian(net: HybridNetwork, index: Map<string, number>, g: DeclaredGaussian): LinearGaussianCpd {
  const { child, discreteParents, continuousParents } = splitParents(net, index, g);
  const configs = configurationCount(net, { discreteParents } as LinearGaussianCpd);
  if (g.normals.length !== configs) {
    throw new NetworkSyntaxError(
      `the data of '${g.child}' has ${g.normals.length} normal distributions, expected ${configs} (one per configuration of its discrete parents)`,
      g.line,
    );
  }
  const m = continuousParents.length;
  const cpd: LinearGaussianCpd = {
    child,
    discreteParents,
    continuousParents,
    intercepts: new Float64Array(configs),
    coefficients: new Float64Array(configs * m),
    variances: new Float64Array(configs),
  };
  const names = continuousParents.map((p) => net.variables[p]!.name);
  g.normals.forEach((call, d) => {
    const mean = readLinearMean(call.mean, call.line);
    for (const name of mean.coefficients.keys()) {
      if (!names.includes(name)) {
        throw new NetworkSyntaxError(
          `the mean of '${g.child}' uses '${name}', which is not one of its continuous parents`,
          call.line,
        );
      }
    }
    cpd.intercepts[d] = mean.intercept;
    names.forEach((name, j) => (cpd.coefficients[d * m + j] = mean.coefficients.get(name) ?? 0));
    cpd.variances[d] = readVariance(call.variance, g.child, call.line);
  });
  return cpd;
}

/** `b0 + b1 * Y1 - b2 * Y2` with every number printed to round-trip; coefficients of 0 are kept. */
export function formatLinearMean(intercept: number, coefficients: ArrayLike<number>, names: string[]): string {
  let text = formatNumber(intercept);
  names.forEach((name, j) => {
    const b = coefficients[j]!;
    text += b < 0 || Object.is(b, -0) ? ` - ${formatNumber(-b)} * ${name}` : ` + ${formatNumber(b)} * ${name}`;
  });
  return text;
}

/** The `data = ( … );` lines of a CLG: one normal per configuration, parenthesised by discrete parent. */
export function gaussianDataLines(cpd: LinearGaussianCpd, discreteCards: number[], names: string[]): string[] {
  const m = cpd.continuousParents.length;
  const rows = Array.from(cpd.variances, (variance, d) => {
    const mean = formatLinearMean(cpd.intercepts[d]!, cpd.coefficients.subarray(d * m, (d + 1) * m), names);
    return `normal ( ${mean}, ${formatNumber(variance)} )`;
  });
  return nestedRows(rows, discreteCards);
}

/**
 * Entries (one per configuration of the parents, first slowest) as Hugin nests them: the last
 * parent's configurations side by side in one group, as a discrete table's states, and one level
 * of parentheses per earlier parent.
 */
export function nestedRows(entries: string[], parentCards: number[]): string[] {
  if (parentCards.length <= 1) return [`    data = ( ${entries.join(' ')} );`];
  const k = parentCards[parentCards.length - 1]!;
  const outer = parentCards.slice(0, -1);
  const rows = entries.length / k;
  /** How many groups (one per outer parent but the last) start at this row: its trailing zero digits. */
  const groupsAt = (row: number) => {
    let n = 0;
    for (let i = outer.length - 1, q = row; i >= 1 && q % outer[i]! === 0; i--) {
      n++;
      q = Math.floor(q / outer[i]!);
    }
    return n;
  };
  const lines: string[] = [];
  for (let r = 0; r < rows; r++) {
    const row = entries.slice(r * k, (r + 1) * k).join(' ');
    const prefix = (r === 0 ? '    data = (' : '            ') + '('.repeat(groupsAt(r));
    lines.push(`${prefix}( ${row} )${')'.repeat(groupsAt(r + 1))}${r === rows - 1 ? ');' : ''}`);
  }
  return lines;
}
