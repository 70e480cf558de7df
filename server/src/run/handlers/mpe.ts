/**
 * `query mpe N [given e]`: the most probable joint assignment of N's unobserved variables given
 * the evidence (the scope's `observe` lines and `given`). Its value, for `expect … = "…"`, is
 * that assignment as text: `Storm = false, Lightning = true, …` in the network's order.
 */
import type * as A from '../../language/ast.js';
import { mostProbableExplanation } from '../../engine/inference/mpe.js';
import { ImpossibleEvidenceError } from '../../engine/inference/junctionTree.js';
import { dynamicMpe, dynamicNetwork } from '../dynamicQueries.js';
import { gaussianMpe, gaussianNetworkOverTime } from '../gaussianDynamicQueries.js';
import { queryOf, type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { networkScope, scopedEvidence } from '../networkScope.js';
import { impossibleEvidence, requireExact } from '../inferenceOptions.js';
import { setOwn } from '../../engine/records.js';
import { hybridMpe, hybridScope } from '../continuousQueries.js';
import { mpeOutput } from '../mpeResult.js';

export async function mpeQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.MpeQuery>(ctx);
  const gaussianOverTime = gaussianNetworkOverTime(ctx, q.network);
  if (gaussianOverTime) return gaussianMpe(ctx, gaussianOverTime);
  const overTime = dynamicNetwork(ctx, q.network);
  if (overTime) return dynamicMpe(ctx, overTime);
  // A network with continuous variables: the mode of p(d, x, e) (continuousQueries.ts).
  const hybrid = hybridScope(ctx, q.network);
  if (hybrid) return hybridMpe(ctx, q, hybrid);
  const scope = await networkScope(ctx, q.network);
  const { net, evidence, named, findings } = scopedEvidence(ctx, scope, q.given);
  // Max-product elimination builds tables as large as the junction tree's cliques.
  requireExact(net, 'mpe');
  let explanation;
  try {
    explanation = mostProbableExplanation(net, evidence, ctx.signal);
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError)
      return { results: [], diagnostics: [impossibleEvidence(ctx.statement.range)] };
    throw e;
  }
  const assignment: Record<string, string> = {};
  explanation.assignment.forEach((s, v) => {
    if (!evidence.has(v)) setOwn(assignment, net.variables[v]!.name, net.variables[v]!.states[s]!);
  });
  return mpeOutput(ctx, {
    network: scope.name ?? net.name,
    evidence: named,
    ...(findings ? { findings } : {}),
    assignment,
    logProbability: explanation.logProbability,
  });
}

export const mpeHandler: Handler = mpeQuery;
