/**
 * Queries over a Gaussian network over time (every variable real; engine/dynamic/kalman.ts), with a
 * data set of readings as the evidence, row k = step k (a missing cell: not observed that step):
 * - `query P(X[k]) in N given D`: the smoothed mean and variance of X at step k; k past the last
 *   row is a forecast; `using filtering` conditions on rows 1…k only;
 * - `query mean X[k] …`, `query variance X[k] …`: one of those two numbers (`expect` compares it);
 * - `query mpe N given D`: the most likely values of the unobserved variables at steps 1…T. The
 *   posterior of the whole sequence is one joint Gaussian, whose mode is its mean, and the mean's
 *   components are the marginal means: the smoothed means (no Viterbi is needed).
 */
import type * as A from '../language/ast.js';
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import { kalmanSmoother, type GaussianObservations, type KalmanResult } from '../engine/dynamic/kalman.js';
import { BudgetError } from '../engine/budget.js';
import { EngineError } from '../engine/engineError.js';
import { setOwn } from '../engine/records.js';
import { compileGaussianDynamic, isGaussianOverTime } from '../model/compileGaussianDynamic.js';
import { CompileError } from '../model/compileError.js';
import type { ContinuousResult, MpeResultEntry } from '../protocol/runResult.js';
import { queryOf, type HandlerContext, type HandlerOutput } from './handlerContext.js';
import { memo, modelData } from './modelInputs.js';
import { recordGaussianSequence } from './sequenceResults.js';

/** The Gaussian network over time `name` names, compiled once per run; undefined for any other name. */
export function gaussianNetworkOverTime(
  ctx: HandlerContext,
  name: A.Name | undefined,
): GaussianTwoSliceNetwork | undefined {
  const global = name ? ctx.symbols.globals.get(name.text) : undefined;
  if (global?.kind !== 'network' || global.node.kind !== 'network' || !isGaussianOverTime(global.node))
    return undefined;
  return memo(ctx, `gaussianDynamic:${name!.text}`, () => compileGaussianDynamic(ctx.symbols, name!.text));
}

/** The data set after `given` as one step's readings per row (columns that are not variables are ignored). */
async function readings(
  ctx: HandlerContext,
  net: GaussianTwoSliceNetwork,
  given: readonly A.Assignment[],
): Promise<GaussianObservations[]> {
  const name = given[0]!.variable;
  if (given.length > 1)
    throw new CompileError('soft and virtual findings take variables with states; these are real', given[1]!.range);
  const data = await modelData(ctx, name);
  const columns = data.attributes.map((a) => {
    const v = net.variables.indexOf(a.name);
    return { v, values: v < 0 ? [] : a.values.map((s) => number(s, a.name, name)) };
  });
  return Array.from({ length: data.rowCount }, (_, row) => {
    const seen = new Map<number, number>();
    columns.forEach(({ v, values }, a) => {
      const code = data.columns[a]![row]!;
      if (v >= 0 && code >= 0) seen.set(v, values[code]!);
    });
    return seen;
  });
}

function number(cell: string, column: string, data: A.Name): number {
  const x = Number(cell);
  if (!Number.isFinite(x) || !/^\s*[-+]?(\d|\.\d)/.test(cell))
    throw new CompileError(`'${cell}' in column ${column} is not a number (${column} is real)`, data.range);
  return x;
}

/** Smoothing over every row (and the forecast up to step k), or filtering over rows 1…k. */
function answer(
  ctx: HandlerContext,
  net: GaussianTwoSliceNetwork,
  steps: GaussianObservations[],
  k: number,
  filtering: boolean,
): KalmanResult {
  const T = steps.length;
  const used = filtering && k <= T ? steps.slice(0, k) : steps;
  try {
    return kalmanSmoother(net, used, {
      predict: Math.max(0, k - T),
      maxEntries: ctx.env.budgets?.maxTotalEntries,
      signal: ctx.signal,
    });
  } catch (e) {
    if (e instanceof BudgetError || e instanceof EngineError) throw new CompileError(e.message);
    throw e;
  }
}

/** `P(X[k]) in N given D` and `mean X[k]` / `variance X[k]`: the posterior normal of X at step k. */
async function stepMoments(
  ctx: HandlerContext,
  net: GaussianTwoSliceNetwork,
  variable: A.Name,
  time: A.TimeIndex,
  using: A.Name | undefined,
  given: readonly A.Assignment[],
  moment?: 'mean' | 'variance',
): Promise<HandlerOutput> {
  const v = net.variables.indexOf(variable.text);
  if (v < 0) throw new CompileError(`'${variable.text}' is not a variable of ${net.name}`, variable.range);
  const k = time.offset;
  const steps = await readings(ctx, net, given);
  recordGaussianSequence(ctx, net, given[0]!.variable.text, steps, k);
  const T = steps.length;
  const filtering = using?.text === 'filtering' && k <= T;
  const r = answer(ctx, net, steps, k, filtering);
  const at = k > T ? r.predicted![k - T - 1]! : filtering ? r.filtered[k - 1]! : r.smoothed![k - 1]!;
  const mean = at.means[v]!;
  const variance = at.variances[v]!;
  const label = `${variable.text}[${k}]`;
  const how = k > T ? `forecast from ${T} steps` : filtering ? `filtered: steps 1…${k}` : `smoothed: steps 1…${T}`;
  const value = moment === 'mean' ? mean : variance;
  const shown = (x: number) => String(Number(x.toPrecision(6)));
  const result: ContinuousResult = {
    kind: 'continuous',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${moment ? `${moment} ${label} = ${shown(value)}` : `${label}: mean ${shown(mean)}, variance ${shown(variance)}`} (${how}; log-likelihood ${r.logLikelihood.toFixed(4)})`,
    network: net.name,
    variable: label,
    evidence: {},
    method: 'exact',
    mean,
    variance,
    components: [{ weight: 1, mean, variance }],
    logEvidence: r.logLikelihood,
    ...(moment ? { moment, value } : {}),
  };
  return { results: [result], diagnostics: [], ...(moment ? { value } : {}) };
}

export function gaussianProbability(ctx: HandlerContext, net: GaussianTwoSliceNetwork): Promise<HandlerOutput> {
  const q = queryOf<A.ProbabilityQuery>(ctx);
  const target = q.prob.targets[0]!;
  return stepMoments(ctx, net, target.variable, target.time!, q.using, q.given);
}

export function gaussianMoment(ctx: HandlerContext, net: GaussianTwoSliceNetwork): Promise<HandlerOutput> {
  const q = queryOf<A.ContinuousMomentQuery>(ctx);
  return stepMoments(ctx, net, q.variable, q.time!, q.using, q.given, q.moment);
}

/** `mpe N given D`: the smoothed means of the unobserved variables, `X[k] = value` (full precision, for `expect`). */
export async function gaussianMpe(ctx: HandlerContext, net: GaussianTwoSliceNetwork): Promise<HandlerOutput> {
  const q = queryOf<A.MpeQuery>(ctx);
  const steps = await readings(ctx, net, q.given);
  recordGaussianSequence(ctx, net, q.given[0]!.variable.text, steps, steps.length);
  const r = answer(ctx, net, steps, steps.length, false);
  const assignment: Record<string, string> = {};
  r.mostLikely!.forEach((x, i) =>
    net.variables.forEach((name, v) => {
      if (!steps[i]!.has(v)) setOwn(assignment, `${name}[${i + 1}]`, String(x[v]!));
    }),
  );
  const value = Object.entries(assignment)
    .map(([name, x]) => `${name} = ${x}`)
    .join(', ');
  const shown = Object.entries(assignment)
    .map(([name, x]) => `${name} = ${Number(Number(x).toPrecision(6))}`)
    .join(', ');
  const logDensity = r.mostLikelyLogDensity!;
  const result: MpeResultEntry = {
    kind: 'mpe',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${shown.length > 200 ? shown.slice(0, 200) + '…' : shown} · log density ${logDensity.toFixed(4)}`,
    network: net.name,
    evidence: {},
    assignment,
    probability: Math.exp(logDensity),
    logProbability: logDensity,
  };
  return { results: [result], diagnostics: [], value };
}
