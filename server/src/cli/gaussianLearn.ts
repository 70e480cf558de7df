/**
 * `bayes learn NET.net --data FILE` when NET has continuous nodes (Hugin NET `continuous node`,
 * read into the hybrid IR by model/hugin.ts): least squares per configuration of the discrete
 * parents, the normal-inverse-gamma prior, or EM for Gaussian networks with missing values
 * (engine/gaussian/hybridLearning.ts). Prints every regression; --out writes a NET file.
 */
import { basename, extname } from 'node:path';
import { writeHuginHybrid } from '../model/hugin.js';
import type { DiscreteHybridVariable, HybridNetwork, LinearGaussianCpd } from '../engine/gaussian/hybridNetwork.js';
import { configurationLabel, configurationStates, hybridParents } from '../engine/gaussian/hybridNetwork.js';
import {
  alignHybridData,
  learnHybridNetwork,
  type HybridLearningMethod,
  type HybridLearningResult,
} from '../engine/gaussian/hybridLearning.js';
import type { NormalInverseGammaPrior } from '../engine/gaussian/gaussianLearning.js';
import { EngineError } from '../engine/engineError.js';
import { UsageError, type CliIO } from './command.js';
import { InputError, integerOption, positiveOption, readDataFile } from './learningInputs.js';
import { commandLineReads } from './workspace.js';
import { writeOutputFileSync } from '../workspace/files.js';

export interface HybridLearnValues {
  data?: string;
  method?: string;
  prior?: string;
  seed?: string;
  iterations?: string;
  tolerance?: string;
  out?: string;
  json?: boolean;
  'max-file-mb'?: string;
  [option: string]: unknown;
}

/** Options of bayes learn that only discrete networks take. */
const DISCRETE_ONLY = ['restarts', 'rate', 'compare', 'progress', 'network'];

/** `--prior nig=λ,a,b`: the normal-inverse-gamma prior's hyperparameters. */
export function parseNigPrior(text: string | undefined): NormalInverseGammaPrior | undefined {
  if (text === undefined || text === 'none') return undefined;
  const m = /^nig=([^,]+),([^,]+),([^,]+)$/.exec(text);
  const [lambda, a, b] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [NaN, NaN, NaN];
  if (!(lambda > 0 && a > 0 && b > 0)) {
    throw new UsageError(`--prior on a continuous network is none or nig=λ,a,b with positive numbers, not '${text}'`);
  }
  return { lambda, a, b };
}

export async function learnHybrid(
  net: HybridNetwork,
  file: string,
  values: HybridLearnValues,
  io: CliIO,
): Promise<number> {
  // A NET file without a name (bnlearn's, Hugin's own) is named after its file, as networkFile.ts does.
  if (net.name === 'unknown' || !net.name) net.name = basename(file, extname(file)).replace(/[^A-Za-z0-9_]/g, '_');
  const misplaced = DISCRETE_ONLY.find((o) => values[o] !== undefined);
  if (misplaced) throw new UsageError(`--${misplaced} does not apply to a network with continuous nodes`);
  if (values.method !== undefined && values.method !== 'counting' && values.method !== 'em') {
    throw new UsageError('--method on a network with continuous nodes is counting (least squares) or em');
  }
  const prior = parseNigPrior(values.prior);
  const options = {
    method: values.method as HybridLearningMethod | undefined,
    prior,
    seed: integerOption('seed', values.seed, 1),
    maxIterations: integerOption('iterations', values.iterations, 1000),
    tolerance: positiveOption('tolerance', values.tolerance, 1e-8, true),
  };
  try {
    const table = await readDataFile(commandLineReads(values), values.data!);
    const data = alignHybridData(net, table);
    const fit = learnHybridNetwork(net, data, options);
    if (values.out) writeNet(values.out, fit.network);
    io.out(
      values.json
        ? JSON.stringify(resultJson(fit, data.rowCount), null, 2) + '\n'
        : summary(fit, file, data.rowCount, values.out),
    );
    return 0;
  } catch (e) {
    if (e instanceof InputError || e instanceof EngineError) {
      io.err(`bayes learn: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

function writeNet(file: string, net: HybridNetwork): void {
  if (extname(file).toLowerCase() !== '.net') {
    throw new InputError(`cannot write ${file}: a network with continuous nodes is written as Hugin NET (.net)`);
  }
  try {
    writeOutputFileSync(file, writeHuginHybrid(net));
  } catch (e) {
    throw new InputError(`cannot write ${file}: ${(e as Error).message}`);
  }
}

interface NodeJson {
  kind: 'discrete' | 'gaussian';
  parents: string[];
  /** discrete: one row of probabilities per parent configuration (first parent slowest). */
  table?: number[][];
  /** gaussian: one regression per configuration of the discrete parents. */
  configurations?: Array<{
    given: Record<string, string>;
    intercept: number;
    coefficients: Record<string, number>;
    variance: number;
    rows: number;
  }>;
}

function resultJson(fit: HybridLearningResult, records: number) {
  const net = fit.network;
  const name = (v: number) => net.variables[v]!.name;
  const nodes: Record<string, NodeJson> = {};
  net.cpds.forEach((cpd, v) => {
    const parents = hybridParents(net, v).map(name);
    if (cpd.kind === 'discrete') {
      const r = (net.variables[v] as { states: string[] }).states.length;
      const rows = Array.from({ length: cpd.cpt.table.length / r }, (_, c) => [
        ...cpd.cpt.table.subarray(c * r, c * r + r),
      ]);
      nodes[name(v)] = { kind: 'discrete', parents, table: rows };
      return;
    }
    const g = cpd.cpd,
      m = g.continuousParents.length;
    nodes[name(v)] = {
      kind: 'gaussian',
      parents,
      configurations: Array.from(g.intercepts, (intercept, d) => ({
        given: givenOf(net, g, d),
        intercept,
        coefficients: Object.fromEntries(g.continuousParents.map((p, j) => [name(p), g.coefficients[d * m + j]!])),
        variance: g.variances[d]!,
        rows: fit.rows[v]![d]!,
      })),
    };
  });
  return {
    network: net.name,
    method: fit.method,
    records,
    logLikelihood: fit.logLikelihood,
    ...(fit.iterations !== undefined ? { iterations: fit.iterations, converged: fit.converged } : {}),
    nodes,
  };
}

/** {D: "a", …}: configuration d of v's discrete parents. */
function givenOf(net: HybridNetwork, cpd: LinearGaussianCpd, d: number): Record<string, string> {
  const states = configurationStates(net, cpd, d);
  return Object.fromEntries(
    cpd.discreteParents.map((p, i) => {
      const parent = net.variables[p] as DiscreteHybridVariable;
      return [parent.name, parent.states[states[i]!]!];
    }),
  );
}

function summary(fit: HybridLearningResult, file: string, records: number, out?: string): string {
  const net = fit.network;
  const how =
    fit.method === 'em'
      ? `EM (${fit.iterations} iterations${fit.converged ? ', converged' : ''})`
      : 'least squares and counting';
  const lines = [`${net.name}: ${net.variables.length} nodes learned by ${how} from ${records} records of ${file}`];
  net.cpds.forEach((cpd, v) => {
    const name = net.variables[v]!.name;
    if (cpd.kind === 'discrete') {
      const ps = cpd.cpt.parents.map((p) => net.variables[p]!.name);
      lines.push(`  ${name}${ps.length ? ` | ${ps.join(', ')}` : ''}: table counted from ${fit.rows[v]![0]} rows`);
      return;
    }
    const g = cpd.cpd,
      m = g.continuousParents.length;
    for (let d = 0; d < g.intercepts.length; d++) {
      let mean = fmt(g.intercepts[d]!);
      g.continuousParents.forEach((p, j) => {
        const b = g.coefficients[d * m + j]!;
        mean += ` ${b < 0 ? '-' : '+'} ${fmt(Math.abs(b))}·${net.variables[p]!.name}`;
      });
      lines.push(
        `  ${name}${configurationLabel(net, g, d)} ~ Normal(${mean}, variance ${fmt(g.variances[d]!)})  [${fit.rows[v]![d]} rows]`,
      );
    }
  });
  lines.push(`log-likelihood ${fit.logLikelihood.toFixed(4)}`);
  if (out) lines.push(`wrote ${out}`);
  return lines.join('\n') + '\n';
}

function fmt(x: number): string {
  return Number(x.toPrecision(6)).toString();
}
