/**
 * The parameters of a hybrid (CLG) network's structure from data: discrete tables by counting
 * (maximum likelihood; a parent configuration no row shows gets the uniform row), continuous
 * nodes by least squares per configuration of their discrete parents (gaussianLearning.ts), or
 * with the normal-inverse-gamma prior's posterior means. A Gaussian network (every node
 * continuous) with missing values is learnt by EM (gaussianEm.ts) instead, which uses every row.
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { EngineError } from '../engineError.js';
import { hybridParents, type HybridCpd, type HybridNetwork, type LinearGaussianCpd } from './hybridNetwork.js';
import { configurations, completeRows, type HybridColumn, type HybridDataset } from './hybridData.js';
import { isNumberText } from './hybridData.js';
import { fitGaussianFamily, type NormalInverseGammaPrior } from './gaussianLearning.js';
import { gaussianEm, type GaussianEmOptions } from './gaussianEm.js';

export type HybridLearningMethod = 'counting' | 'em';

export interface HybridLearningOptions extends GaussianEmOptions {
  method?: HybridLearningMethod;
  prior?: NormalInverseGammaPrior;
}

export interface HybridLearningResult {
  network: HybridNetwork;
  method: HybridLearningMethod;
  /** Σ over families of the log-density of the rows complete in the family (EM: observed-data log-likelihood). */
  logLikelihood: number;
  /** Per variable and configuration, the rows that fitted it (EM: every row). */
  rows: number[][];
  iterations?: number;
  converged?: boolean;
}

/**
 * The data's columns in the network's variable order, typed by the network: a continuous
 * variable's cells must be numbers, a discrete one's among its states. Other columns are ignored.
 */
export function alignHybridData(net: HybridNetwork, table: CategoricalDataset): HybridDataset {
  const columns = net.variables.map((v): HybridColumn => {
    const a = table.attributes.findIndex((att) => att.name === v.name);
    if (a < 0)
      throw new EngineError(
        `the data has no column '${v.name}' (its columns: ${table.attributes.map((x) => x.name).join(', ')})`,
      );
    const levels = table.attributes[a]!.values;
    const codes = table.columns[a]!;
    if (v.kind === 'continuous') {
      const bad = levels.find((l) => !isNumberText(l));
      if (bad !== undefined)
        throw new EngineError(`column '${v.name}' is continuous in the network, but holds '${bad}'`);
      const byCode = levels.map(Number);
      return { kind: 'continuous', name: v.name, values: Float64Array.from(codes, (c) => (c < 0 ? NaN : byCode[c]!)) };
    }
    const toState = levels.map((l) => {
      const s = v.states.indexOf(l);
      if (s < 0)
        throw new EngineError(
          `column '${v.name}' holds '${l}', which is not one of its states (${v.states.join(', ')})`,
        );
      return s;
    });
    return {
      kind: 'discrete',
      name: v.name,
      levels: v.states,
      codes: Int32Array.from(codes, (c) => (c < 0 ? -1 : toState[c]!)),
    };
  });
  return { columns, rowCount: table.rowCount };
}

export function hasMissingValues(data: HybridDataset): boolean {
  return data.columns.some((c) => (c.kind === 'continuous' ? c.values.some(Number.isNaN) : c.codes.some((x) => x < 0)));
}

export function learnHybridNetwork(
  structure: HybridNetwork,
  data: HybridDataset,
  options: HybridLearningOptions = {},
): HybridLearningResult {
  const allContinuous = structure.variables.every((v) => v.kind === 'continuous');
  const method = options.method ?? (allContinuous && hasMissingValues(data) ? 'em' : 'counting');
  if (method === 'em') {
    if (!allContinuous) {
      throw new EngineError(
        'EM with missing values learns Gaussian networks (every node continuous); this one has discrete nodes',
      );
    }
    if (options.prior) throw new EngineError('EM gives maximum-likelihood estimates: it takes no prior');
    return learnByEm(structure, data, options);
  }
  const cpds = structure.variables.map((_, v): HybridCpd => {
    const parents = hybridParents(structure, v);
    if (structure.cpds[v]!.kind === 'discrete') return { kind: 'discrete', cpt: countTable(data, v, parents) };
    const fam = fitGaussianFamily(data, v, parents, { prior: options.prior });
    return { kind: 'gaussian', cpd: toCpd(fam.child, fam.discreteParents, fam.continuousParents, fam.regressions) };
  });
  const network = { ...structure, cpds };
  return {
    network,
    method,
    logLikelihood: familyLogLikelihood(network, data),
    rows: rowsPerConfiguration(network, data),
  };
}

function learnByEm(
  structure: HybridNetwork,
  data: HybridDataset,
  options: HybridLearningOptions,
): HybridLearningResult {
  const parents = structure.variables.map((_, v) => hybridParents(structure, v));
  const em = gaussianEm(data, parents, options);
  const p = em.parameters;
  const cpds = parents.map((ps, v): HybridCpd => ({
    kind: 'gaussian',
    cpd: toCpd(v, [], ps, [{ intercept: p.intercept[v]!, coefficients: p.coefficients[v]!, variance: p.variance[v]! }]),
  }));
  return {
    network: { ...structure, cpds },
    method: 'em',
    logLikelihood: em.logLikelihood,
    rows: parents.map(() => [data.rowCount]),
    iterations: em.iterations,
    converged: em.converged,
  };
}

function toCpd(
  child: number,
  discreteParents: number[],
  continuousParents: number[],
  regressions: ReadonlyArray<{ intercept: number; coefficients: readonly number[]; variance: number }>,
): LinearGaussianCpd {
  return {
    child,
    discreteParents,
    continuousParents,
    intercepts: Float64Array.from(regressions, (r) => r.intercept),
    coefficients: Float64Array.from(regressions.flatMap((r) => [...r.coefficients])),
    variances: Float64Array.from(regressions, (r) => r.variance),
  };
}

/** A discrete table by counting the rows complete in the family (first parent slowest, child fastest). */
function countTable(data: HybridDataset, child: number, parents: number[]) {
  const col = data.columns[child]!;
  if (col.kind !== 'discrete') throw new EngineError(`'${col.name}' is continuous`);
  const r = col.levels.length;
  const { config, count } = configurations(data, parents);
  const table = new Float64Array(count * r);
  for (const i of completeRows(data, [child, ...parents])) table[config[i]! * r + col.codes[i]!]!++;
  for (let c = 0; c < count; c++) {
    let n = 0;
    for (let k = 0; k < r; k++) n += table[c * r + k]!;
    for (let k = 0; k < r; k++) table[c * r + k] = n > 0 ? table[c * r + k]! / n : 1 / r;
  }
  return { child, parents, table };
}

/** Σ over families and the rows complete in each of log P(child | parents): the fit's log-likelihood. */
export function familyLogLikelihood(net: HybridNetwork, data: HybridDataset): number {
  let total = 0;
  net.cpds.forEach((cpd, v) => {
    const parents = hybridParents(net, v);
    const rows = completeRows(data, [v, ...parents]);
    if (cpd.kind === 'discrete') {
      const col = data.columns[v] as Extract<HybridColumn, { kind: 'discrete' }>;
      const r = col.levels.length;
      const { config } = configurations(data, parents);
      for (const i of rows) total += Math.log(cpd.cpt.table[config[i]! * r + col.codes[i]!]!);
      return;
    }
    const g = cpd.cpd;
    const { config } = configurations(data, g.discreteParents);
    const m = g.continuousParents.length;
    const value = (p: number, i: number) =>
      (data.columns[p] as Extract<HybridColumn, { kind: 'continuous' }>).values[i]!;
    for (const i of rows) {
      const d = config[i]!;
      let mean = g.intercepts[d]!;
      for (let j = 0; j < m; j++) mean += g.coefficients[d * m + j]! * value(g.continuousParents[j]!, i);
      const variance = g.variances[d]!;
      total += -0.5 * (Math.log(2 * Math.PI * variance) + (value(v, i) - mean) ** 2 / variance);
    }
  });
  return total;
}

/** Per continuous variable and configuration of its discrete parents, the rows fitted (discrete: all counted). */
function rowsPerConfiguration(net: HybridNetwork, data: HybridDataset): number[][] {
  return net.cpds.map((cpd, v) => {
    const parents = hybridParents(net, v);
    const rows = completeRows(data, [v, ...parents]);
    if (cpd.kind === 'discrete') return [rows.length];
    const { config, count } = configurations(data, cpd.cpd.discreteParents);
    const n = new Array<number>(count).fill(0);
    for (const i of rows) n[config[i]!]!++;
    return n;
  });
}
