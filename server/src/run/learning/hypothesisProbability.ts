/**
 * `P(Conj = "<Sunny, ?, ?, ?, ?, ?>") given Days`: the posterior of one generated conjunction.
 * Such a space is no network variable (its hypotheses are counted, not listed), so the
 * `query probability` handler asks here first and runs inference only when this answers
 * undefined.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { ProbabilityResult } from '../../protocol/runResult.js';
import { conjunctionProbability, isConceptSpace } from './conceptSpace.js';
import { fmt, IMPOSSIBLE_EVIDENCE } from './queryParts.js';
import { answerHypothesisQuery } from './hypothesisQueries.js';
import { posteriorTable, scoredHypotheses } from './hypothesisSpace.js';
import { impossibleEvidence } from '../inferenceOptions.js';

export async function generatedHypothesisProbability(
  ctx: HandlerContext,
  query: A.ProbabilityQuery,
): Promise<HandlerOutput | undefined> {
  const [target, ...more] = query.prob.targets;
  const global = target ? ctx.symbols.globals.get(target.variable.text) : undefined;
  if (!target || global?.kind !== 'hypotheses' || !isConceptSpace(global.node as A.HypothesesDecl)) return undefined;
  const whole = target.value === undefined && more.length === 0 && query.prob.conditions.length === 0;
  if (whole && !query.in && !query.using) {
    return undefined; // P(Conj) given D: the whole space, answered like `posterior`
  }
  const text = valueText(target.value);
  if (text === undefined || more.length > 0 || query.prob.conditions.length > 0 || query.in || query.using) {
    throw new CompileError(`ask for one conjunction: P(${target.variable.text} = "<…>") given D`, query.prob.range);
  }
  const p = await conjunctionProbability(ctx, global.node as A.HypothesesDecl, text, target.range, query.given);
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    network: 'default',
    variables: [target.variable.text],
    evidence: {},
    table: [{ states: [text], p }],
    value: p,
    method: 'exact',
    cost: 0,
    budget: 0,
    headline: `P(${target.variable.text} = ${text} | D) = ${fmt(p)}`,
  };
  return { results: [result], diagnostics: [], value: p };
}

/**
 * `P(H) given D`, `P(H = h) given D`, or P over a generated space: Bayesian learning, answered like
 * `posterior H given D` (Mitchell §6.2). With a hypothesis named, the value is its P(h|D).
 * Undefined when the query is not about one hypothesis space.
 */
export async function hypothesisLearningProbability(
  ctx: HandlerContext,
  query: A.ProbabilityQuery,
): Promise<HandlerOutput | undefined> {
  const [target, ...more] = query.prob.targets;
  const global = target ? ctx.symbols.globals.get(target.variable.text) : undefined;
  if (!target || more.length > 0 || global?.kind !== 'hypotheses' || query.in) return undefined;
  const space = global.node as A.HypothesesDecl;
  const given = [...query.prob.conditions, ...query.given];
  if (target.value === undefined) {
    const posteriorQuery: A.HypothesisQuery = {
      kind: 'query',
      form: 'posterior',
      target: target.variable,
      given,
      range: query.range,
    };
    const statement = { kind: 'queryStatement', query: posteriorQuery, range: ctx.statement.range } as A.QueryStmt;
    return answerHypothesisQuery({ ...ctx, statement }, 'posterior');
  }
  if (space.generator) return undefined;
  const h = valueText(target.value);
  const index = space.entries.findIndex((e) => e.name.text === h);
  if (index < 0) {
    throw new CompileError(`'${h ?? '?'}' is not a hypothesis of '${space.name.text}'`, target.value.range);
  }
  const table = posteriorTable(await scoredHypotheses(ctx, space, given));
  const p = table.rows[index]!.posterior;
  if (p === undefined) {
    return { results: [], diagnostics: [impossibleEvidence(ctx.statement.range, IMPOSSIBLE_EVIDENCE)] };
  }
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    network: 'default',
    variables: [space.name.text],
    evidence: {},
    table: table.rows.map((r) => ({ states: [r.hypothesis], p: r.posterior ?? 0 })),
    value: p,
    method: 'exact',
    cost: 0,
    budget: 0,
    headline: `P(${space.name.text} = ${h} | D) = ${fmt(p)}`,
  };
  return { results: [result], diagnostics: [], value: p };
}
