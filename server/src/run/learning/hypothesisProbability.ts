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
import { fmt } from './queryParts.js';

export async function generatedHypothesisProbability(
  ctx: HandlerContext,
  query: A.ProbabilityQuery,
): Promise<HandlerOutput | undefined> {
  const [target, ...more] = query.prob.targets;
  const global = target ? ctx.symbols.globals.get(target.variable.text) : undefined;
  if (!target || global?.kind !== 'hypotheses' || !isConceptSpace(global.node as A.HypothesesDecl)) return undefined;
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
