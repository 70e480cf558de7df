/**
 * `query voi X for D [in N] [given e]`: the expected value of perfect information about the
 * chance variable X before decision D — the MEU when X is known at D (and after) minus the MEU.
 */
import type * as A from '../../language/ast.js';
import { valueOfInformation } from '../../engine/decisions/influenceDiagram.js';
import type { ValueOfInformationResult } from '../../protocol/runResult.js';
import { queryOf, type Handler, type HandlerContext, type HandlerOutput } from '../handlerContext.js';
import { diagramScope, diagramVariable, utilityText } from '../decisionDiagram.js';

export async function voiQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.VoiQuery>(ctx);
  const { id, evidence, named, name } = await diagramScope(ctx, q.in, q.given, q);
  const x = diagramVariable(id, q.variable);
  const d = diagramVariable(id, q.decision);
  const answer = valueOfInformation(id, x, d, evidence, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
  // Rounding may leave −1e-15 where knowing X changes nothing.
  const voi = Math.abs(answer.voi) < 1e-12 * Math.max(1, Math.abs(answer.meu)) ? 0 : answer.voi;
  const result: ValueOfInformationResult = {
    kind: 'valueOfInformation',
    range: ctx.statement.range,
    source: ctx.source,
    headline:
      `EVPI(${q.variable.text} before ${q.decision.text}) = ${utilityText(voi)} ` +
      `(MEU ${utilityText(answer.meu)} → ${utilityText(answer.meuInformed)})`,
    network: name,
    variable: q.variable.text,
    decision: q.decision.text,
    evidence: named,
    voi,
    meu: answer.meu,
    meuInformed: answer.meuInformed,
  };
  return { results: [result], diagnostics: [], value: voi };
}

export const voiHandler: Handler = voiQuery;
