/** `query bic Trees given D`: likelihood, tree code, MDL and BIC of each tree (Poole §10.2.3–4). The value is the tree of smallest BIC. */
import type * as A from '../../language/ast.js';
import { CompileError } from '../../model/compileError.js';
import type { TreeScoresResult } from '../../protocol/runResult.js';
import { type Handler } from '../handlerContext.js';
import { fmt, queryOf } from '../learning/queryParts.js';
import { hypothesisSpace } from '../learning/hypothesisSpace.js';
import { isTreeSpace, scoreTreeSpace } from '../learning/trees.js';
import { modelData } from '../modelInputs.js';

/**
 * `bic Trees given D` answers with the tree of smallest BIC; `bic t1 given D` (a tree of a space)
 * answers with that tree's BIC in bits, the table of every tree in the result either way.
 */
export const bicHandler: Handler = async (ctx) => {
  const query = queryOf<A.ScoreQuery>(ctx);
  const entry = ctx.symbols.hypothesisEntries.get(query.model.text);
  const space = entry ? entry.space : hypothesisSpace(ctx, query.model);
  if (!isTreeSpace(space))
    throw new CompileError(`bic compares trees; '${space.name.text}' holds no tree`, query.model.range);
  const { scores, examples } = scoreTreeSpace(space, await modelData(ctx, query.given), query.given);
  const smallest = (key: 'bicBits' | 'mdlBits') => scores.reduce((a, b) => (b[key] < a[key] ? b : a));
  const bic = smallest('bicBits'),
    mdl = smallest('mdlBits');
  const result: TreeScoresResult = {
    kind: 'treeScores',
    range: ctx.statement.range,
    source: ctx.source,
    trees: scores,
    examples,
    bestBic: bic.name,
    bestMdl: mdl.name,
    headline: `BIC picks ${bic.name} · ${fmt(bic.bicBits)} bits`,
  };
  if (entry) {
    const own = scores.find((s) => s.name === query.model.text)!;
    result.headline = `BIC(${own.name}) = ${fmt(own.bicBits)} bits; BIC picks ${bic.name}`;
    return { results: [result], diagnostics: [], value: own.bicBits };
  }
  return { results: [result], diagnostics: [], value: bic.name };
};
