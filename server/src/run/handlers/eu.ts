/**
 * `query eu D [in N] [given e]`: the expected utility of each alternative of decision D given
 * the evidence, every other free decision taken optimally. `expect` compares the best
 * alternative (tied ones joined by `, `).
 */
import type * as A from '../../language/ast.js';
import { expectedUtilities } from '../../engine/decisions/influenceDiagram.js';
import type { ExpectedUtilityResult } from '../../protocol/runResult.js';
import { queryOf, type Handler, type HandlerContext, type HandlerOutput } from '../handlerContext.js';
import { diagramScope, diagramVariable, utilityText } from '../decisionDiagram.js';
import { maxOf } from '../../engine/math/extremes.js';

/** Alternatives within this (relative) of the best are tied. */
const TIE = 1e-9;

export async function euQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.EuQuery>(ctx);
  const { id, evidence, named, name } = await diagramScope(ctx, q.in, q.given, q);
  const d = diagramVariable(id, q.decision);
  const eu = expectedUtilities(id, d, evidence, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const alternatives = id.network.variables[d]!.states;
  const top = maxOf(eu);
  const best = alternatives.filter((_, a) => eu[a]! >= top - TIE * Math.max(1, Math.abs(top)));
  const others = alternatives
    .filter((a) => !best.includes(a))
    .map((a) => `${a} · ${utilityText(eu[alternatives.indexOf(a)]!)}`);
  const result: ExpectedUtilityResult = {
    kind: 'expectedUtility',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `${best.join(', ')} · ${utilityText(top)}${others.length ? ` (${others.join(', ')})` : ''}`,
    network: name,
    decision: q.decision.text,
    evidence: named,
    expectedUtility: Object.fromEntries(alternatives.map((a, i) => [a, eu[i]!])),
    best,
  };
  return { results: [result], diagnostics: [], value: best.join(', ') };
}

export const euHandler: Handler = euQuery;
