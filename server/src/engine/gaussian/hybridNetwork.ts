/**
 * The IR of continuous and hybrid (conditional linear Gaussian, CLG) Bayesian networks — Lauritzen
 * & Wermuth's CLG model, as Hugin and R's bnlearn use it. It sits beside the discrete IR
 * (engine/network.ts), whose types it reuses for the discrete part, and is plain data: typed
 * arrays, no methods.
 *
 * A variable is discrete (finite states, a CPT as in network.ts) or continuous (real-valued). A
 * continuous variable X with discrete parents D₁…D_k and continuous parents Y₁…Y_m has, for each
 * configuration d of its discrete parents, a linear Gaussian regression
 *
 *     X | d, y  ~  N( b₀(d) + Σ_j b_j(d) · y_j ,  σ²(d) )         σ²(d) > 0
 *
 * Configurations are numbered in mixed radix with the FIRST discrete parent varying slowest, as
 * network.ts numbers CPT rows and as Hugin nests a potential's `data`. A discrete variable may
 * not have a continuous parent (the CLG restriction that keeps every posterior a finite mixture of
 * Gaussians); `validateHybridNetwork` reports that, as every other structural error, in words.
 */
import { dagOrder, type Cpt } from '../network.js';
import { EngineError } from '../engineError.js';

export interface DiscreteHybridVariable {
  kind: 'discrete';
  name: string;
  states: string[];
}

export interface ContinuousVariable {
  kind: 'continuous';
  name: string;
}

export type HybridVariable = DiscreteHybridVariable | ContinuousVariable;

/** The conditional linear Gaussian distribution of a continuous variable given its parents. */
export interface LinearGaussianCpd {
  /** Index of the child (a continuous variable) in `HybridNetwork.variables`. */
  child: number;
  /** Discrete parent indices, in configuration order (first slowest). */
  discreteParents: number[];
  /** Continuous parent indices, in coefficient order. */
  continuousParents: number[];
  /** b₀(d), one per configuration of the discrete parents. */
  intercepts: Float64Array;
  /**
   * b_j(d): configurations × continuousParents.length, row-major, so the coefficient of
   * continuous parent j in configuration d is at `d * m + j`.
   */
  coefficients: Float64Array;
  /** σ²(d) > 0, one per configuration of the discrete parents. */
  variances: Float64Array;
}

/** A discrete variable's table (network.ts layout; its parents are discrete) or a continuous one's CLG. */
export type HybridCpd = { kind: 'discrete'; cpt: Cpt } | { kind: 'gaussian'; cpd: LinearGaussianCpd };

export interface HybridNetwork {
  name: string;
  variables: HybridVariable[];
  /** `cpds[i]` belongs to variable i: 'discrete' for a discrete variable, 'gaussian' for a continuous one. */
  cpds: HybridCpd[];
}

export function isContinuous(net: HybridNetwork, v: number): boolean {
  return net.variables[v]!.kind === 'continuous';
}

/** True when at least one variable is continuous (a network with none is the discrete IR's job). */
export function hasContinuous(net: HybridNetwork): boolean {
  return net.variables.some((v) => v.kind === 'continuous');
}

export function hybridIndexMap(net: HybridNetwork): Map<string, number> {
  return new Map(net.variables.map((v, i) => [v.name, i]));
}

/** All parents of variable v (discrete ones first for a continuous child). */
export function hybridParents(net: HybridNetwork, v: number): number[] {
  const cpd = net.cpds[v]!;
  return cpd.kind === 'discrete' ? cpd.cpt.parents : [...cpd.cpd.discreteParents, ...cpd.cpd.continuousParents];
}

/** Number of states of a discrete variable. */
export function stateCount(net: HybridNetwork, v: number): number {
  const variable = net.variables[v]!;
  if (variable.kind !== 'discrete') throw new EngineError(`'${variable.name}' is continuous: it has no states`);
  return variable.states.length;
}

/** Number of configurations of a CLG's discrete parents (1 with none). */
export function configurationCount(net: HybridNetwork, cpd: LinearGaussianCpd): number {
  let n = 1;
  for (const p of cpd.discreteParents) n *= stateCount(net, p);
  return n;
}

/**
 * The configuration number of a CLG given the state of every discrete variable (indexed like
 * `net.variables`; entries of continuous variables are ignored).
 */
export function configurationIndex(net: HybridNetwork, cpd: LinearGaussianCpd, states: ArrayLike<number>): number {
  let row = 0;
  for (const p of cpd.discreteParents) row = row * stateCount(net, p) + states[p]!;
  return row;
}

/** The discrete parents' states of configuration `row` (inverse of configurationIndex). */
export function configurationStates(net: HybridNetwork, cpd: LinearGaussianCpd, row: number): number[] {
  const states = new Array<number>(cpd.discreteParents.length);
  for (let i = cpd.discreteParents.length - 1; i >= 0; i--) {
    const k = stateCount(net, cpd.discreteParents[i]!);
    states[i] = row % k;
    row = Math.floor(row / k);
  }
  return states;
}

/**
 * Everything wrong with the network, in words (empty when it is well formed): each CPD on its
 * own variable, parents that exist, discrete children with discrete parents only, array sizes
 * that match the configurations, finite numbers, variances > 0, and no directed cycle.
 */
export function hybridNetworkProblems(net: HybridNetwork): string[] {
  const problems: string[] = [];
  if (net.cpds.length !== net.variables.length) {
    return [`${net.variables.length} variables but ${net.cpds.length} distributions`];
  }
  net.cpds.forEach((cpd, v) => problems.push(...cpdProblems(net, v, cpd)));
  if (problems.length === 0) {
    const order = hybridTopologicalOrder(net);
    if ('cycle' in order)
      problems.push(`the arcs form a cycle: ${order.cycle.map((v) => net.variables[v]!.name).join(' → ')}`);
  }
  return problems;
}

/** Throws an EngineError listing the problems when the network is not well formed. */
export function validateHybridNetwork(net: HybridNetwork): void {
  const problems = hybridNetworkProblems(net);
  if (problems.length) throw new EngineError(`network '${net.name}': ${problems.join('; ')}`);
}

function cpdProblems(net: HybridNetwork, v: number, cpd: HybridCpd): string[] {
  const variable = net.variables[v]!;
  if (cpd.kind === 'discrete') {
    if (variable.kind !== 'discrete') return [`'${variable.name}' is continuous but has a probability table`];
    return discreteCptProblems(net, v, cpd.cpt);
  }
  if (variable.kind !== 'continuous') return [`'${variable.name}' is discrete but has a normal distribution`];
  return gaussianProblems(net, v, cpd.cpd);
}

function parentProblems(net: HybridNetwork, v: number, parents: number[], kind: HybridVariable['kind']): string[] {
  const name = net.variables[v]!.name;
  const problems: string[] = [];
  for (const p of parents) {
    const parent = net.variables[p];
    if (!parent) problems.push(`'${name}' has a parent #${p} that does not exist`);
    else if (p === v) problems.push(`'${name}' is its own parent`);
    else if (parent.kind !== kind) {
      problems.push(
        kind === 'discrete'
          ? `'${name}' is discrete, so its parent '${parent.name}' must be discrete too: in a conditional linear Gaussian network a discrete variable cannot depend on a continuous one`
          : `'${parent.name}' is listed among the continuous parents of '${name}' but is discrete`,
      );
    }
  }
  if (new Set(parents).size !== parents.length) problems.push(`'${name}' lists a parent twice`);
  return problems;
}

function discreteCptProblems(net: HybridNetwork, v: number, cpt: Cpt): string[] {
  const name = net.variables[v]!.name;
  if (cpt.child !== v) return [`the table of '${name}' names another child`];
  const problems = parentProblems(net, v, cpt.parents, 'discrete');
  if (problems.length) return problems;
  let entries = stateCount(net, v);
  for (const p of cpt.parents) entries *= stateCount(net, p);
  if (cpt.table.length !== entries)
    problems.push(`the table of '${name}' has ${cpt.table.length} entries, not ${entries}`);
  return problems;
}

function gaussianProblems(net: HybridNetwork, v: number, cpd: LinearGaussianCpd): string[] {
  const name = net.variables[v]!.name;
  if (cpd.child !== v) return [`the distribution of '${name}' names another child`];
  const problems = [
    ...parentProblems(net, v, cpd.discreteParents, 'discrete'),
    ...parentProblems(net, v, cpd.continuousParents, 'continuous'),
  ];
  if (problems.length) return problems;
  const configs = configurationCount(net, cpd);
  const m = cpd.continuousParents.length;
  if (
    cpd.intercepts.length !== configs ||
    cpd.variances.length !== configs ||
    cpd.coefficients.length !== configs * m
  ) {
    return [
      `the distribution of '${name}' needs ${configs} regression(s), one per configuration of its discrete parents`,
    ];
  }
  for (let d = 0; d < configs; d++) {
    const variance = cpd.variances[d]!;
    if (!(variance > 0) || !Number.isFinite(variance)) {
      problems.push(
        `the variance of '${name}'${configurationLabel(net, cpd, d)} must be a finite number > 0, got ${variance}`,
      );
    }
    if (!Number.isFinite(cpd.intercepts[d]!))
      problems.push(`the intercept of '${name}'${configurationLabel(net, cpd, d)} is not finite`);
    for (let j = 0; j < m; j++) {
      if (!Number.isFinite(cpd.coefficients[d * m + j]!)) {
        problems.push(`a coefficient of '${name}'${configurationLabel(net, cpd, d)} is not finite`);
      }
    }
  }
  return problems;
}

/** " given D=a, E=b" for configuration d ("" without discrete parents): for messages. */
export function configurationLabel(net: HybridNetwork, cpd: LinearGaussianCpd, d: number): string {
  if (cpd.discreteParents.length === 0) return '';
  const states = configurationStates(net, cpd, d);
  const parts = cpd.discreteParents.map((p, i) => {
    const variable = net.variables[p] as DiscreteHybridVariable;
    return `${variable.name}=${variable.states[states[i]!]}`;
  });
  return ` given ${parts.join(', ')}`;
}

/** Kahn's algorithm over all arcs (engine/network.ts dagOrder): parents first, or the variables on a cycle. */
export function hybridTopologicalOrder(net: HybridNetwork): { order: number[] } | { cycle: number[] } {
  return dagOrder(net.variables.length, (v) => hybridParents(net, v));
}

/** A linear Gaussian CPD with no discrete parents (the building block of a Gaussian network). */
export function linearGaussian(
  child: number,
  continuousParents: number[],
  intercept: number,
  coefficients: number[],
  variance: number,
): LinearGaussianCpd {
  return {
    child,
    discreteParents: [],
    continuousParents,
    intercepts: Float64Array.of(intercept),
    coefficients: Float64Array.from(coefficients),
    variances: Float64Array.of(variance),
  };
}
