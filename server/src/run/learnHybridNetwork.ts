/**
 * `learn N from D` where N has continuous variables (`variable Height : real` with `~ Normal()`
 * or numbered `Normal(…)` tables, or an imported Hugin NET file with continuous nodes): each
 * continuous variable's linear Gaussian table by least squares — one regression per configuration
 * of its discrete parents, on the records showing it, the variance RSS / n (the maximum-likelihood
 * estimate) — and the discrete tables by counting with the priors the model declares, as for a
 * discrete network. A Gaussian network (every variable continuous) with `?` values is learnt by
 * EM (engine/gaussian/gaussianEm.ts). The fitting is engine/gaussian/hybridLearning.ts, the same
 * as `bayes learn NET.net --data rows.csv`.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic } from '../language/diagnostics.js';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { configurationStates } from '../engine/gaussian/hybridNetwork.js';
import { setOwn } from '../engine/records.js';
import { discretePart } from '../engine/gaussian/clgInference.js';
import {
  alignHybridData,
  familyLogLikelihood,
  hasMissingValues,
  learnHybridNetwork,
  type HybridLearningMethod,
} from '../engine/gaussian/hybridLearning.js';
import type { HybridDataset } from '../engine/gaussian/hybridData.js';
import { learnCpts } from '../engine/estimators/cptLearning.js';
import { alignToNetwork } from '../engine/dataset.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from '../model/compileError.js';
import type { LearnedNetworkResult, RegressionJson } from '../protocol/runResult.js';
import type { HandlerContext, HandlerOutput } from './handlerContext.js';
import { modelData, networkColumns, setLearnedNetwork } from './modelInputs.js';
import { cptsToJson } from './learningResults.js';
import { declaredPrior } from './tablePriors.js';
import { LearnOptions } from './learnOptions.js';

/** Key of a scope's hybrid network in the run's shared values (run/continuousQueries.ts reads it). */
export function hybridKey(name: string | undefined): string {
  return `hybrid:${name ?? ''}`;
}

const EM_OPTIONS = ['iterations', 'tolerance', 'seed'];

export async function learnHybridTables(
  ctx: HandlerContext,
  s: A.LearnStmt,
  from: A.Name,
  structure: HybridNetwork,
): Promise<HandlerOutput> {
  const name = s.model.text;
  const { table, notes } = await hybridColumns(ctx, from, structure);
  const data = engineCall(() => alignHybridData(structure, table), from.range);
  const method = hybridMethod(s, structure, data);
  const options = new LearnOptions(s.options);
  const diagnostics: Diagnostic[] = [...options.unused(method === 'em' ? EM_OPTIONS : [], `learning by ${method}`)];
  diagnostics.push(...notes);
  if (method === 'counting' && hasMissingValues(data))
    diagnostics.push({
      severity: 'information',
      code: 'missing-values',
      range: from.range,
      message:
        'least squares and counting use only the records where a table’s family is fully observed ' +
        '(EM, which uses every record, learns networks whose variables are all continuous)',
    });
  const fit = engineCall(
    () =>
      learnHybridNetwork(structure, data, {
        method,
        seed: options.number('seed', 1, { integer: true, min: 0 }),
        maxIterations: options.number('iterations', 1000, { integer: true, min: 1, max: 1_000_000 }),
        tolerance: options.number('tolerance', 1e-8, { min: 0 }),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      }),
    from.range,
  );
  const network = withDeclaredPriors(ctx, name, fit.network, table);
  const logLikelihood = method === 'em' ? fit.logLikelihood : familyLogLikelihood(network, data);
  ctx.shared.set(hybridKey(name), network);
  setLearnedNetwork(ctx, name, { ...discretePart(network).bn, name });
  const result: LearnedNetworkResult = {
    kind: 'learnedNetwork',
    network: name,
    method,
    records: data.rowCount,
    patterns: data.rowCount,
    iterations: fit.iterations ?? 0,
    converged: fit.converged ?? true,
    logLikelihood,
    trace: [],
    runs: [],
    hidden: [],
    cpts: cptsToJson(discretePart(network).bn),
    regressions: regressionsJson(network, fit.rows),
    range: s.range,
    source: ctx.source,
    headline:
      `${name} · ${method === 'em' ? `em, ${fit.iterations} iterations` : 'least squares'} · ` +
      `${data.rowCount} records · log L = ${logLikelihood.toFixed(4)}`,
  };
  return { results: [result], diagnostics };
}

/** The data set's columns that are variables of the network; a variable without one is an error. */
async function hybridColumns(
  ctx: HandlerContext,
  from: A.Name,
  net: HybridNetwork,
): Promise<{ table: CategoricalDataset; notes: Diagnostic[] }> {
  const all = await modelData(ctx, from);
  const names = new Set(all.attributes.map((a) => a.name));
  const hidden = net.variables.filter((v) => !names.has(v.name)).map((v) => v.name);
  if (hidden.length)
    throw new CompileError(
      `'${from.text}' has no column ${hidden.join(', ')}: a network with continuous variables is learnt ` +
        'from a column per variable (hidden variables are learnt in discrete networks only)',
      from.range,
    );
  const { picked: table, notes } = networkColumns(ctx, from, all, net);
  return { table, notes };
}

/** `by counting` (least squares) or `by em`; EM by default for a Gaussian network with `?` values. */
function hybridMethod(s: A.LearnStmt, net: HybridNetwork, data: HybridDataset): HybridLearningMethod {
  const method = s.method?.text;
  if (method !== undefined && method !== 'counting' && method !== 'em')
    throw new CompileError(
      `a network with continuous variables is learnt by counting (least squares) or em, not ${method}`,
      s.method!.range,
    );
  const gaussian = net.variables.every((v) => v.kind === 'continuous');
  if (method === 'em' && !gaussian)
    throw new CompileError(
      'EM learns networks whose variables are all continuous; this one has discrete variables: learn it by counting',
      s.method!.range,
    );
  return (method as HybridLearningMethod | undefined) ?? (gaussian && hasMissingValues(data) ? 'em' : 'counting');
}

/** The discrete tables counted again with the pseudo-counts the model declares (`P(D) ~ Dirichlet(1)`). */
function withDeclaredPriors(
  ctx: HandlerContext,
  name: string,
  net: HybridNetwork,
  table: CategoricalDataset,
): HybridNetwork {
  if (ctx.symbols.globals.get(name)?.kind !== 'network') return net;
  const part = discretePart(net);
  if (part.variables.length === 0) return net;
  const columns = new Set(part.bn.variables.map((v) => v.name));
  const keep = table.attributes.flatMap((a, i) => (columns.has(a.name) ? [i] : []));
  const discrete = {
    attributes: keep.map((i) => table.attributes[i]!),
    columns: keep.map((i) => table.columns[i]!),
    rowCount: table.rowCount,
  };
  const aligned = alignToNetwork(part.bn.variables, discrete);
  if ('error' in aligned) return net;
  const counted = learnCpts(part.bn, aligned.data, declaredPrior(ctx.ast, ctx.symbols, name, part.bn));
  const cpds = [...net.cpds];
  part.variables.forEach((v, i) => {
    const cpt = counted.cpts[i]!;
    cpds[v] = {
      kind: 'discrete',
      cpt: { child: v, parents: cpt.parents.map((p) => part.variables[p]!), table: cpt.table },
    };
  });
  return { ...net, cpds };
}

/** Each continuous variable's regressions, one per configuration of its discrete parents, with the records fitted. */
function regressionsJson(net: HybridNetwork, rows: number[][]): Record<string, RegressionJson> {
  const out: Record<string, RegressionJson> = {};
  net.cpds.forEach((cpd, v) => {
    if (cpd.kind !== 'gaussian') return;
    const g = cpd.cpd;
    const m = g.continuousParents.length;
    const parentNames = g.continuousParents.map((p) => net.variables[p]!.name);
    const configurations = Array.from(g.intercepts, (intercept, d) => {
      const states = configurationStates(net, g, d);
      const given = g.discreteParents.map((p, i) => (net.variables[p] as { states: string[] }).states[states[i]!]!);
      const coefficients: Record<string, number> = {};
      parentNames.forEach((p, j) => setOwn(coefficients, p, g.coefficients[d * m + j]!));
      return { given, intercept, coefficients, variance: g.variances[d]!, records: rows[v]?.[d] ?? 0 };
    });
    setOwn(out, net.variables[v]!.name, {
      discreteParents: g.discreteParents.map((p) => net.variables[p]!.name),
      continuousParents: parentNames,
      configurations,
    });
  });
  return out;
}

function engineCall<T>(work: () => T, range: A.Name['range']): T {
  try {
    return work();
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message, range);
    throw e;
  }
}
