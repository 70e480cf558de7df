/**
 * `learn NET from DATA [by counting|em|gradient] { … }` (Mitchell §6.11): the network's CPTs
 * from data, with the per-table parameter priors the model declares. Counting needs every
 * family observed; `?` values and variables without a column (hidden) call for EM, which is
 * the default then. The learnt network replaces the declared one for later statements.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { BayesianNetwork } from '../engine/network.js';
import { MISSING, type CategoricalDataset } from '../engine/categoricalData.js';
import { alignToNetwork } from '../engine/dataset.js';
import { learnCpts } from '../engine/estimators/cptLearning.js';
import { networkEm, type NetworkEmResult } from '../engine/estimators/networkEm.js';
import { gradientAscent, type GradientOptions } from '../engine/estimators/gradientAscent.js';
import { dataLogLikelihood } from '../engine/estimators/expectedCounts.js';
import { compileNetwork } from '../model/compileNetwork.js';
import { compileHybridNetwork } from '../model/compileHybridNetwork.js';
import { learnHybridTables } from './learnHybridNetwork.js';
import { CompileError } from '../model/compileError.js';
import type { HandlerContext, HandlerOutput } from './handlerContext.js';
import { modelData, networkColumns, networkKey, setLearnedNetwork } from './modelInputs.js';
import { learnedNetworkData } from './learningResults.js';
import { declaredPrior } from './tablePriors.js';
import { LearnOptions, MAX_ITERATIONS, MAX_RESTARTS } from './learnOptions.js';
import { optionsOf } from '../language/learnMethods.js';
import type { LearnedNetworkResult } from '../protocol/runResult.js';

export const PARAMETER_METHODS = ['counting', 'em', 'gradient'] as const;
export type ParameterMethod = (typeof PARAMETER_METHODS)[number];

/** Counting, EM or gradient ascent, all reported in EM's result shape (shared with `bayes learn`). */
export function learnParameters(
  net: BayesianNetwork,
  data: CategoricalDataset,
  method: ParameterMethod,
  options: GradientOptions,
): NetworkEmResult {
  if (method === 'em') return networkEm(net, data, options);
  if (method === 'gradient') return gradientAscent(net, data, options);
  const network = learnCpts(net, data, options.prior);
  return { network, iterations: 0, converged: true, trace: [], runs: [], ...dataLogLikelihood(network, data) };
}

export function hasMissing(data: CategoricalDataset): boolean {
  return data.columns.some((c) => c.includes(MISSING));
}

export async function learnNetwork(ctx: HandlerContext, s: A.LearnStmt): Promise<HandlerOutput> {
  if (!s.from) throw new CompileError(`say which data: learn ${s.model.text} from DATA`, s.model.range);
  const name = s.model.text;
  const found = learntStructure(ctx, s);
  // Continuous variables (declared `real`, or an imported NET file's continuous nodes): least squares.
  const hybrid = found ? undefined : compileHybridNetwork(ctx.ast, ctx.symbols, ctx.env, name, { unknownTables: true });
  if (hybrid) return learnHybridTables(ctx, s, s.from, hybrid);
  const net = found ?? compileNetwork(ctx.ast, ctx.symbols, ctx.env, name, { unknownTables: true });
  const data = await networkData(ctx, s.from, net);
  const method = parameterMethod(s, data.data, data.hidden);
  const options = new LearnOptions(s.options);
  const diagnostics: Diagnostic[] = [...options.unused(optionsOf(method), `learning by ${method}`), ...data.notes];
  if (method === 'counting' && hasMissing(data.data)) {
    diagnostics.push({
      severity: 'information',
      code: 'missing-values',
      range: s.from.range,
      message: `counting uses only the records where a table's family is fully observed; 'by em' uses every record`,
    });
  }
  const maxIterations = options.number('iterations', 100, { integer: true, min: 1, max: MAX_ITERATIONS });
  const fit = learnParameters(net, data.data, method, {
    prior: declaredPrior(ctx.ast, ctx.symbols, name, net),
    start: 'given',
    maxIterations,
    tolerance: options.number('tolerance', 1e-6, { min: 0 }),
    seed: options.number('seed', 1, { integer: true, min: 0 }),
    restarts: options.number('restarts', 1, { integer: true, min: 1, max: MAX_RESTARTS }),
    learningRate: options.number('rate', 1, { positive: true }),
    signal: ctx.signal,
    onProgress: (p) =>
      ctx.onProgress?.(
        Math.min(1, p.iteration / maxIterations),
        `${method} on ${name}: iteration ${p.iteration}, log-likelihood ${p.logLikelihood.toFixed(4)}`,
      ),
  });
  setLearnedNetwork(ctx, name, fit.network);
  if (fit.impossible) {
    const i = fit.impossible,
      records = data.data.rowCount;
    diagnostics.push({
      severity: 'warning',
      code: 'zero-probability-records',
      range: s.from.range,
      message:
        `${i.records} of ${records} records (${i.patterns} distinct) ` +
        `${i.records === 1 ? 'has' : 'have'} probability 0 ` +
        `under the counted tables, so the log-likelihood is -∞; e.g. (${i.example}): ${i.reason}. ` +
        'Counting gives 0 to a value combination that no record with the family fully observed shows; ' +
        `a prior (P(X | U) ~ Dirichlet(1)) or 'by em' gives every record a probability. ` +
        `The other ${records - i.records} records: log-likelihood ${i.otherLogLikelihood.toFixed(4)}`,
    });
  }
  const result: LearnedNetworkResult = {
    ...learnedNetworkData(method, data.data.rowCount, data.hidden, fit),
    range: s.range,
    source: ctx.source,
    headline: headline(name, method, data.data.rowCount, fit),
  };
  return { results: [result], diagnostics };
}

function headline(
  name: string,
  method: ParameterMethod,
  records: number,
  fit: { logLikelihood: number; iterations: number; converged: boolean },
): string {
  const how =
    method === 'counting'
      ? 'counting'
      : `${method}, ${fit.iterations} iterations${fit.converged ? '' : ' (not converged)'}`;
  const logL = Number.isFinite(fit.logLikelihood) ? fit.logLikelihood.toFixed(4) : '-∞';
  return `${name} · ${how} · ${records} records · log L = ${logL}`;
}

/** Explicit method, or EM when anything is unobserved, else counting. */
function parameterMethod(s: A.LearnStmt, data: CategoricalDataset, hidden: string[]): ParameterMethod {
  const method = s.method?.text;
  if (method !== undefined && !(PARAMETER_METHODS as readonly string[]).includes(method)) {
    throw new CompileError(`a network's tables are learnt by counting, em or gradient, not ${method}`, s.method!.range);
  }
  if (method === 'counting' && hidden.length > 0) {
    throw new CompileError(
      `${hidden.join(', ')} never observed in '${s.from!.text}': counting cannot learn ${hidden.length === 1 ? 'its table' : 'their tables'}; learn … by em`,
      s.method!.range,
    );
  }
  return (method as ParameterMethod | undefined) ?? (hidden.length > 0 || hasMissing(data) ? 'em' : 'counting');
}

/**
 * A network declared by `learn structure N from D` has no statements to compile: its tables are
 * learnt again from the network the structure search found earlier in the run.
 */
function learntStructure(ctx: HandlerContext, s: A.LearnStmt): BayesianNetwork | undefined {
  const global = ctx.symbols.globals.get(s.model.text);
  if (global?.node.kind !== 'learn') return undefined;
  const found = ctx.shared.get(networkKey(s.model.text)) as BayesianNetwork | undefined;
  if (!found)
    throw new CompileError(
      `the structure of '${s.model.text}' is learnt later in the file: learn it first`,
      s.model.range,
    );
  return found;
}

/** The data set's columns that are variables of the network, in network order; the rest are left out. */
async function networkData(
  ctx: HandlerContext,
  from: A.Name,
  net: BayesianNetwork,
): Promise<{ data: CategoricalDataset; hidden: string[]; notes: Diagnostic[] }> {
  const all = await modelData(ctx, from);
  const { picked, notes } = networkColumns(ctx, from, all, net);
  const aligned = alignToNetwork(net.variables, picked);
  if ('error' in aligned) throw new CompileError(`'${from.text}': ${aligned.error}`, from.range);
  return { data: aligned.data, hidden: aligned.hidden, notes };
}
