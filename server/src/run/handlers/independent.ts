/**
 * `query independent X, Y … given Z … [in N]`: whether the first variable is d-separated from
 * the others given Z in N's graph (structure only: no numbers, no `observe` lines). The value
 * is "true" or "false"; when dependent, the result shows an active trail.
 */
import type * as A from '../../language/ast.js';
import { variableIndexMap } from '../../engine/network.js';
import { dSeparated } from '../../engine/inference/dSeparation.js';
import { CompileError } from '../../model/compileError.js';
import type { IndependenceResult } from '../../protocol/runResult.js';
import { queryOf, type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { networkScope, variableIndex } from '../networkScope.js';

export async function independenceQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.IndependenceQuery>(ctx);
  if (q.variables.length < 2) throw new CompileError('name two variables: independent X, Y given Z', q.range);
  const { net, name } = await networkScope(ctx, q.in);
  const index = variableIndexMap(net);
  const resolve = (names: A.Name[]) => names.map((n) => variableIndex(net, index, n.text, n));
  const [xs, ys, zs] = [resolve(q.variables.slice(0, 1)), resolve(q.variables.slice(1)), resolve(q.given)];
  const answer = dSeparated(net, xs, ys, zs);
  const names = (vs: number[]) => vs.map((v) => net.variables[v]!.name);
  const trail = answer.independent ? undefined : names(answer.activePath);
  const result: IndependenceResult = {
    kind: 'independence',
    range: ctx.statement.range,
    source: ctx.source,
    headline: answer.independent ? 'independent (d-separated)' : `dependent: ${trail!.join(' – ')}`,
    network: name ?? net.name,
    x: names(xs),
    y: names(ys),
    given: names(zs),
    independent: answer.independent,
    ...(trail ? { activePath: trail } : {}),
  };
  return { results: [result], diagnostics: [], value: String(answer.independent) };
}

export const independentHandler: Handler = independenceQuery;
