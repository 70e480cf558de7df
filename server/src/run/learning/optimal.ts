/**
 * `query optimal V over H` and `query gibbs V over H`: P(h|D) from the space (with the file's
 * observations), P(v|h) from the table P(V | H); the Bayes optimal classifier (Mitchell §6.7)
 * or one seeded Gibbs draw (§6.8).
 */
import type * as A from '../../language/ast.js';
import type { HypothesisPrediction } from '../../engine/hypotheses/bayesOptimal.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext } from '../handlerContext.js';
import { modelNetwork } from '../modelInputs.js';
import { hypothesisSpace, observationModels, posteriorTable, scoredHypotheses } from './hypothesisSpace.js';
import { IMPOSSIBLE_EVIDENCE } from './queryParts.js';

export async function hypothesisPredictions(
  ctx: HandlerContext,
  query: A.OptimalQuery,
): Promise<{ hypotheses: HypothesisPrediction[]; values: string[] }> {
  const space = hypothesisSpace(ctx, query.over);
  const scored = await scoredHypotheses(ctx, space, []);
  const table = posteriorTable(scored);
  if (!table.evidencePossible) throw new CompileError(IMPOSSIBLE_EVIDENCE, query.over.range);
  const model = observationModels(modelNetwork(ctx), space).find((m) => m.variable === query.target.text);
  if (!model)
    throw new CompileError(
      `classifying ${query.target.text} needs a table P(${query.target.text} | ${space.name.text})`,
      query.target.range,
    );
  const hypotheses = table.rows.map((row, h) => ({
    name: row.hypothesis,
    posterior: row.posterior!,
    prediction: model.probabilities[h]!,
  }));
  return { hypotheses, values: [...model.values] };
}
