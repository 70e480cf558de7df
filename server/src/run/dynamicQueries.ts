/**
 * Queries over a network over time (engine/dynamic), with a data set of observations as the
 * evidence, row k = step k:
 * - `query P(X[k] = x) in N given D`: smoothed, P(X_k = x | all rows of D); k past the last row
 *   is a forecast P(X_k = x | e_1..T);
 * - `query P(X[k] = x) in N using filtering given D`: P(X_k = x | rows 1..k);
 * - `query mpe N given D`: the most likely sequence of the unobserved variables, steps 1…T.
 * Filtering and forecasts stay answerable when the 1.5-slice junction tree is over the budget: the
 * particle filter answers (`{ samples, seed }`), with its standard error and a warning that the
 * answer is approximate. Smoothing and the most likely sequence need the exact tree: over the
 * budget they are an error on the query.
 */
import type * as A from '../language/ast.js';
import { isNetworkOverTime } from '../language/check/dynamic.js';
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import { forwardBackward } from '../engine/dynamic/forwardBackward.js';
import { filterSequence, type FilteringResult } from '../engine/dynamic/filtering.js';
import { PARTICLE_REPLICATES } from '../engine/dynamic/particleFilter.js';
import type { SliceMarginals } from '../engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../engine/dynamic/viterbi.js';
import { EngineError } from '../engine/engineError.js';
import { BudgetError, DEFAULT_BUDGETS } from '../engine/budget.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { setOwn } from '../engine/records.js';
import { compileDynamic } from '../model/compileDynamic.js';
import { CompileError } from '../model/compileError.js';
import type { MpeResultEntry, ProbabilityResult } from '../protocol/runResult.js';
import { queryOf, type HandlerContext, type HandlerOutput } from './handlerContext.js';
import { memo, modelData } from './modelInputs.js';
import { recordSequence } from './sequenceResults.js';

/** The network over time `name` names, compiled once per run; undefined for any other name. */
export function dynamicNetwork(ctx: HandlerContext, name: A.Name | undefined): TwoSliceNetwork | undefined {
  const global = name ? ctx.symbols.globals.get(name.text) : undefined;
  if (global?.kind !== 'network' || global.node.kind !== 'network' || !isNetworkOverTime(global.node)) return undefined;
  return memo(ctx, `dynamic:${name!.text}`, () =>
    compileDynamic(ctx.symbols, name!.text, ctx.env.budgets ?? DEFAULT_BUDGETS),
  );
}

/** The data set after `given` as one step's findings per row (columns that are not variables are ignored). */
async function observations(
  ctx: HandlerContext,
  dbn: TwoSliceNetwork,
  given: readonly A.Assignment[],
): Promise<StepFindings[]> {
  const name = given[0]!.variable;
  const data = await modelData(ctx, name);
  const columns = data.attributes.map((a) => {
    const v = dbn.variables.findIndex((x) => x.name === a.name);
    // A column's value codes → the variable's state indices (−1: not one of its states).
    return { v, states: v < 0 ? [] : a.values.map((s) => dbn.variables[v]!.states.indexOf(s)) };
  });
  const rows: StepFindings[] = Array.from({ length: data.rowCount }, (_, row) => {
    const evidence = new Map<number, number>();
    columns.forEach(({ v, states }, a) => {
      const code = data.columns[a]![row]!;
      if (v < 0 || code < 0) return;
      const s = states[code]!;
      if (s < 0)
        throw new CompileError(
          `'${data.attributes[a]!.values[code]}' is not a state of ${dbn.variables[v]!.name}`,
          name.range,
        );
      evidence.set(v, s);
    });
    return { evidence };
  });
  for (const g of given.slice(1)) if (g.finding) addFinding(dbn, rows, g);
  return rows;
}

/** `X[k] ~ { x: p, … }` (soft, Jeffrey) or `X[k] ~ likelihood { x: λ, … }` (virtual) onto step k. */
function addFinding(dbn: TwoSliceNetwork, rows: StepFindings[], g: A.Assignment): void {
  const k = g.time!.offset;
  const v = dbn.variables.findIndex((x) => x.name === g.variable.text);
  const variable = dbn.variables[v]!;
  if (k > rows.length) throw new CompileError(`step ${k} is past the data's ${rows.length} rows`, g.time!.range);
  const row = rows[k - 1]!;
  if (row.evidence.has(v)) throw new CompileError(`${variable.name} is observed at step ${k}`, g.range);
  const vector = new Float64Array(variable.states.length);
  for (const entry of g.finding!.entries) {
    const s = variable.states.indexOf(entry.state?.text ?? '');
    if (s < 0) throw new CompileError(`not a state of ${variable.name}`, entry.state?.range ?? entry.range);
    vector[s] = entry.value.value;
  }
  if (vector.some((x) => !(x >= 0) || !Number.isFinite(x)) || !vector.some((x) => x > 0))
    throw new CompileError('give finite numbers ≥ 0, not all 0', g.finding!.range);
  if (g.finding!.likelihood) {
    rows[k - 1] = { ...row, likelihoods: new Map(row.likelihoods ?? []).set(v, vector) };
    return;
  }
  const sum = vector.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-6) throw new CompileError(`the probabilities sum to ${sum}, not 1`, g.finding!.range);
  rows[k - 1] = {
    ...row,
    soft: new Map(row.soft ?? []).set(
      v,
      vector.map((x) => x / sum),
    ),
  };
}

export async function dynamicProbability(ctx: HandlerContext, dbn: TwoSliceNetwork): Promise<HandlerOutput> {
  const q = queryOf<A.ProbabilityQuery>(ctx);
  const target = q.prob.targets[0]!;
  const v = dbn.variables.findIndex((x) => x.name === target.variable.text);
  const k = target.time!.offset;
  const state = dbn.variables[v]!.states.indexOf(target.value?.kind === 'ref' ? target.value.name.text : '');
  if (state < 0) throw new CompileError(`not a state of ${target.variable.text}`, target.value?.range ?? target.range);
  const sampling = particleOptions(q.options);
  const findings = await observations(ctx, dbn, q.given);
  recordSequence(ctx, dbn, q.given, findings);
  const T = findings.length;
  const filtering = q.using?.text === 'filtering' && k <= T;
  const smoothing = !filtering && k <= T;
  const used = filtering ? findings.slice(0, k) : findings;
  const maxEntries = ctx.env.budgets?.maxTotalEntries;
  // Smoothing needs the exact tree; filtering and forecasts fall back to the particle filter.
  const r: FilteringResult = smoothing
    ? {
        method: 'exact',
        ...run(
          () => forwardBackward(dbn, used, { smooth: true, maxEntries, signal: ctx.signal }),
          'smoothing (exact only): ',
          '; `using filtering` answers P(X[k] | rows 1…k) by a particle filter beyond the budget',
        ),
      }
    : run(() =>
        filterSequence(dbn, used, {
          predict: Math.max(0, k - T),
          maxEntries,
          ...sampling,
          maxSamples: ctx.env.budgets?.maxSamples,
          signal: ctx.signal,
        }),
      );
  const pick = (m: { filtered: SliceMarginals[]; predicted?: SliceMarginals[]; smoothed?: SliceMarginals[] }) =>
    (k > T ? m.predicted![k - T - 1]! : filtering ? m.filtered[k - 1]! : m.smoothed![k - 1]!)[v]!;
  const p = pick(r);
  const se = r.method === 'particle' ? pick({ filtered: r.filteredErrors, predicted: r.predictedErrors }) : undefined;
  const label = `${target.variable.text}[${k}]`;
  const how = k > T ? `forecast from ${T} steps` : filtering ? `filtered: steps 1…${k}` : `smoothed: steps 1…${T}`;
  const value = `${Number(p[state]!.toPrecision(6))}${se ? ` ± ${Number(se[state]!.toPrecision(2))}` : ''}`;
  const sampled = r.method === 'particle' ? `; particle filter, ${r.particles} particles, seed ${r.seed}` : '';
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `P(${label} = ${dbn.variables[v]!.states[state]}) = ${value} (${how}${sampled}; log-likelihood ${r.logLikelihood.toFixed(4)})`,
    method: r.method,
    ...(r.method === 'particle' ? { samples: r.particles, seed: r.seed, note: r.note } : {}),
    network: dbn.name,
    variables: [label],
    evidence: {},
    table: dbn.variables[v]!.states.map((s, x) => ({ states: [s], p: p[x]!, ...(se ? { stderr: se[x]! } : {}) })),
    value: p[state]!,
  } as ProbabilityResult;
  const diagnostics: Diagnostic[] =
    r.method === 'particle'
      ? [
          {
            severity: 'warning',
            code: 'inference-budget',
            message: `approximate: ${r.note}`,
            range: ctx.statement.range,
          },
        ]
      : [];
  return { results: [result], diagnostics, value: p[state]! };
}

/** `using filtering { samples, seed }`: the particle filter's size and seed, used only beyond the budget. */
function particleOptions(options: A.Options | undefined): { particles?: number; seed?: number } {
  const out: { particles?: number; seed?: number } = {};
  for (const entry of options?.entries ?? []) {
    const v = entry.value;
    const min = entry.name?.text === 'samples' ? 10 * PARTICLE_REPLICATES : 0;
    if (v.kind !== 'number' || !Number.isInteger(v.value) || v.value < min)
      throw new CompileError(`${entry.name?.text ?? 'an option'} is a whole number ≥ ${min}`, v.range);
    if (entry.name?.text === 'samples') out.particles = v.value;
    else if (entry.name?.text === 'seed') out.seed = v.value;
  }
  return out;
}

export async function dynamicMpe(ctx: HandlerContext, dbn: TwoSliceNetwork): Promise<HandlerOutput> {
  const q = queryOf<A.MpeQuery>(ctx);
  const findings = await observations(ctx, dbn, q.given);
  recordSequence(ctx, dbn, q.given, findings);
  const best = run(
    () => mostLikelySequence(dbn, findings, ctx.signal, ctx.env.budgets?.maxTotalEntries),
    'the most likely sequence (exact only): ',
  );
  const assignment: Record<string, string> = {};
  best.states.slice(1).forEach((x, i) =>
    dbn.variables.forEach((variable, v) => {
      if (!findings[i]!.evidence.has(v)) setOwn(assignment, `${variable.name}[${i + 1}]`, variable.states[x[v]!]!);
    }),
  );
  const value = Object.entries(assignment)
    .map(([name, s]) => `${name} = ${s}`)
    .join(', ');
  const result: MpeResultEntry = {
    kind: 'mpe',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${value.length > 200 ? value.slice(0, 200) + '…' : value} · log P ${best.logProbability.toFixed(4)}`,
    network: dbn.name,
    evidence: {},
    assignment,
    probability: Math.exp(best.logProbability),
    logProbability: best.logProbability,
  };
  return { results: [result], diagnostics: [], value };
}

/** Engine errors (impossible observations, budgets) as the statement's diagnostic; a budget's with what to do. */
function run<T>(compute: () => T, before = '', after = ''): T {
  try {
    return compute();
  } catch (e) {
    if (e instanceof BudgetError) throw new CompileError(`${before}${e.message}${after}`);
    if (e instanceof EngineError) throw new CompileError(e.message);
    throw e;
  }
}
