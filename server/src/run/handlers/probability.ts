/**
 * `query P(X [= x], Y … | e) [in N] [using METHOD { … }] [given …]`: the posterior table of the
 * query variables given the evidence (the scope's `observe` lines, the conditions and `given`).
 * When every query variable names a state, the value is that entry, P(x, y | e).
 */
import type * as A from '../../language/ast.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { valueText } from '../../language/ast.js';
import { variableIndexMap, type BayesianNetwork } from '../../engine/network.js';
import { posteriorQuery } from '../../engine/inference/marginals.js';
import { CompileError } from '../../model/compileError.js';
import type { ProbabilityResult } from '../../protocol/runResult.js';
import { dynamicNetwork, dynamicProbability } from '../dynamicQueries.js';
import { gaussianNetworkOverTime, gaussianProbability } from '../gaussianDynamicQueries.js';
import { queryOf, type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { networkScope, scopedEvidence, stateIndex, variableIndex, type NetworkScope } from '../networkScope.js';
import { intervened } from '../interventions.js';
import { hybridProbability, hybridScope, needsHybrid } from '../continuousQueries.js';
import { answerDiagnostics, inferenceInfo, inferenceOptions } from '../inferenceOptions.js';
import { generatedHypothesisProbability, hypothesisLearningProbability } from '../learning/hypothesisProbability.js';

/** Largest joint table a query may ask for (entries); larger tables are no answer to read. */
const MAX_TABLE = 1 << 16;

export async function probabilityQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.ProbabilityQuery>(ctx);
  const gaussianOverTime = gaussianNetworkOverTime(ctx, q.in);
  if (gaussianOverTime) return gaussianProbability(ctx, gaussianOverTime);
  const overTime = dynamicNetwork(ctx, q.in);
  if (overTime) return dynamicProbability(ctx, overTime);
  // A generated conjunction space (Mitchell §6.3) is no network variable: its own glue answers.
  const generated = await generatedHypothesisProbability(ctx, q);
  if (generated) return generated;
  if (!q.in && isHypothesisLearning(ctx, q)) {
    const learnt = await hypothesisLearningProbability(ctx, q);
    if (learnt) return learnt;
    const message =
      'P(h) given a data set, or over a generated hypothesis space, is not implemented yet: ask query posterior';
    return {
      results: [],
      diagnostics: [{ severity: 'error', code: 'not-implemented', message, range: ctx.statement.range }],
    };
  }
  // Continuous variables asked for or observed: the hybrid engine answers (continuousQueries.ts).
  const hybrid = hybridScope(ctx, q.in);
  if (hybrid && needsHybrid(hybrid, q.prob.targets, [...q.prob.conditions, ...q.given]))
    return hybridProbability(ctx, q, hybrid);
  const declared = await networkScope(ctx, q.in);
  // do(X = x): the query runs in the network with X's incoming arcs cut (Pearl).
  const { scope, interventions, named: intervention } = intervened(ctx, declared, [...q.prob.conditions, ...q.given]);
  if (q.prob.conditions.some((c) => !c.value && !c.finding)) return conditionalTable(ctx, q, scope);
  const { net, evidence, named, findings } = scopedEvidence(ctx, scope, [...q.prob.conditions, ...q.given]);
  const targets = queryTargets(net, q.prob.targets);
  const size = targets.reduce((n, t) => n * net.variables[t.v]!.states.length, 1);
  if (size > MAX_TABLE)
    throw new CompileError(
      `the joint table of these variables has ${size} entries: ask for fewer variables or name their states`,
      q.prob.range,
    );
  const answer = posteriorQuery(
    net,
    targets.map((t) => t.v),
    evidence,
    inferenceOptions(q.using, q.options, ctx.signal, ctx.env.budgets),
  );
  const diagnostics = answerDiagnostics(answer, ctx.statement.range);
  if (!answer.ok) return { results: [], diagnostics };
  const table = rowsOf(
    targets.map((t) => net.variables[t.v]!.states),
    answer.factor.values,
    answer.stderr,
  );
  const allNamed = targets.every((t) => t.s !== undefined);
  const value = allNamed ? table[rowIndex(targets, net)]!.p : undefined;
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    headline:
      headline(q, table, value) +
      (answer.accepted !== undefined ? ` · accepted ${answer.accepted} of ${answer.samples} samples` : ''),
    ...inferenceInfo(answer),
    network: scope.name ?? net.name,
    variables: targets.map((t) => net.variables[t.v]!.name),
    evidence: named,
    table,
    ...(findings ? { findings } : {}),
    ...(value !== undefined ? { value } : {}),
    ...(interventions.size
      ? {
          interventions: intervention,
          ...observational(
            ctx,
            declared,
            q,
            targets.map((t) => t.v),
          ),
        }
      : {}),
  };
  return { results: [result], diagnostics, ...(value !== undefined ? { value } : {}) };
}

/**
 * `P(Wind | Play)`: a condition without a state asks for the whole conditional table, one
 * posterior of the targets per state of the open conditions (each block sums to 1). The rows
 * list the targets' states, then the conditions'. A value only when nothing is left open.
 */
async function conditionalTable(
  ctx: HandlerContext,
  q: A.ProbabilityQuery,
  scope: Awaited<ReturnType<typeof networkScope>>,
): Promise<HandlerOutput> {
  const open = q.prob.conditions.filter((c) => !c.value);
  const fixedConditions = q.prob.conditions.filter((c) => c.value);
  const base = scopedEvidence(ctx, scope, [...fixedConditions, ...q.given]);
  const index = variableIndexMap(base.net);
  const openStates = open.map((c) => {
    return base.net.variables[variableIndex(base.net, index, c.variable.text, c.variable)]!.states;
  });
  const count = openStates.reduce((n, s) => n * s.length, 1);
  const targets = queryTargets(base.net, q.prob.targets);
  const size = count * targets.reduce((n, t) => n * base.net.variables[t.v]!.states.length, 1);
  if (size > MAX_TABLE) {
    throw new CompileError(`this conditional table has ${size} entries: condition on fewer variables`, q.prob.range);
  }
  const table: ProbabilityResult['table'] = [];
  const diagnostics: Diagnostic[] = [];
  let info: ReturnType<typeof inferenceInfo> | undefined;
  for (const combination of rowsOf(openStates, new Array<number>(count).fill(0))) {
    const assigned: A.Assignment[] = open.map((c, j) => ({
      ...c,
      value: { kind: 'string', value: combination.states[j]!, range: c.variable.range },
    }));
    const { net, evidence } = scopedEvidence(ctx, scope, [...assigned, ...fixedConditions, ...q.given]);
    const options = inferenceOptions(q.using, q.options, ctx.signal, ctx.env.budgets);
    const answer = posteriorQuery(
      net,
      targets.map((t) => t.v),
      evidence,
      options,
    );
    diagnostics.push(...answerDiagnostics(answer, ctx.statement.range));
    if (!answer.ok) continue; // this parent state is impossible given the evidence: no row
    info ??= inferenceInfo(answer);
    const block = rowsOf(
      targets.map((t) => net.variables[t.v]!.states),
      answer.factor.values,
      answer.stderr,
    );
    for (const row of block) table.push({ ...row, states: [...row.states, ...combination.states] });
  }
  if (!info) return { results: [], diagnostics };
  const variables = [...targets.map((t) => base.net.variables[t.v]!.name), ...open.map((c) => c.variable.text)];
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    ...info,
    network: scope.name ?? base.net.name,
    variables,
    evidence: base.named,
    table,
    headline:
      `${probText(q.prob)}: ${table.length} entries, one distribution per state of ` +
      variables.slice(targets.length).join(', '),
  };
  return { results: [result], diagnostics };
}

/**
 * P(h | D) given a data set (`given Days`, `observe Days`) or over another generated space is
 * Bayesian learning, not inference in one network: never answer it with the prior.
 */
function isHypothesisLearning(ctx: HandlerContext, q: A.ProbabilityQuery): boolean {
  const isData = (a: A.Assignment) => !a.value && ctx.symbols.data.has(a.variable.text);
  const observed = ctx.ast.statements.flatMap((s) => (s.kind === 'observe' ? s.items : []));
  const generated = q.prob.targets.some((t) => {
    const node = ctx.symbols.globals.get(t.variable.text)?.node;
    return node?.kind === 'hypotheses' && node.generator !== undefined;
  });
  return generated || [...q.given, ...q.prob.conditions, ...observed].some(isData);
}

interface Target {
  v: number;
  s?: number;
}

function queryTargets(net: BayesianNetwork, assignments: readonly A.Assignment[]): Target[] {
  const index = variableIndexMap(net);
  const seen = new Set<number>();
  return assignments.map((a) => {
    const v = variableIndex(net, index, a.variable.text, a.variable);
    if (seen.has(v)) throw new CompileError(`'${a.variable.text}' is asked twice`, a.range);
    seen.add(v);
    if (a.value?.kind === 'list') throw new CompileError('a query names one state per variable', a.value.range);
    if (!a.value) return { v };
    const state = valueText(a.value);
    if (state === undefined) throw new CompileError(`'${a.variable.text}' takes a state name here`, a.value.range);
    return { v, s: stateIndex(net, v, state, a.value) };
  });
}

/** Row of the named states in a table whose first variable varies slowest. */
function rowIndex(targets: Target[], net: BayesianNetwork): number {
  return targets.reduce((r, t) => r * net.variables[t.v]!.states.length + t.s!, 0);
}

function rowsOf(states: string[][], values: ArrayLike<number>, stderr?: ArrayLike<number>): ProbabilityResult['table'] {
  return Array.from({ length: values.length }, (_, i) => {
    const row: string[] = [];
    let rest = i;
    for (let j = states.length - 1; j >= 0; j--) {
      row.unshift(states[j]![rest % states[j]!.length]!);
      rest = Math.floor(rest / states[j]!.length);
    }
    return { states: row, p: values[i]!, ...(stderr ? { stderr: stderr[i]! } : {}) };
  });
}

/** `P(cancer | pos) = 0.2085` for a named entry, else the most probable row: `No · 0.7954`. */
function headline(q: A.ProbabilityQuery, table: ProbabilityResult['table'], value: number | undefined): string {
  if (value !== undefined) return `${probText(q.prob)} = ${fixed(value)}`;
  const best = table.reduce((a, b) => (b.p > a.p ? b : a));
  return `${best.states.join(', ')} · ${fixed(best.p)}`;
}

function probText(p: A.ProbExpr): string {
  const one = (a: A.Assignment) => (a.finding ? `${a.variable.text} ~ …` : (valueText(a.value) ?? a.variable.text));
  const part = (xs: A.Assignment[]) => xs.map(one).join(', ');
  return `P(${part(p.targets)}${p.conditions.length ? ` | ${part(p.conditions)}` : ''})`;
}

/** P(Y | X = x, e) beside P(Y | do(X = x), e): the set variables only observed (none when that is impossible). */
function observational(
  ctx: HandlerContext,
  scope: NetworkScope,
  q: A.ProbabilityQuery,
  vars: number[],
): Pick<ProbabilityResult, 'observational'> {
  const { net, evidence } = scopedEvidence(ctx, scope, [...q.prob.conditions, ...q.given]);
  const answer = posteriorQuery(net, vars, evidence, inferenceOptions(q.using, q.options, ctx.signal, ctx.env.budgets));
  if (!answer.ok) return {};
  const rows = rowsOf(
    vars.map((v) => net.variables[v]!.states),
    answer.factor.values,
  );
  return { observational: rows.map(({ states, p }) => ({ states, p })) };
}

function fixed(p: number): string {
  return String(Number(p.toPrecision(4)));
}

export const probabilityHandler: Handler = probabilityQuery;
