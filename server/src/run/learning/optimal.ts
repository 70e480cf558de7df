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
import { isTreeSpace, treePredictions } from './trees.js';
import { hypothesisEvidence, onlyDataset } from './evidence.js';
import { valueText } from '../../language/ast.js';

const SAMPLING_OPTIONS = new Set(['seed', 'samples']);

/** Trees predict for the instance the query's options name (`{ Length: short, Thread: new }`). */
async function treeSpacePredictions(
  ctx: HandlerContext, query: A.OptimalQuery, space: A.HypothesesDecl, posteriors: number[],
): Promise<{ hypotheses: HypothesisPrediction[]; values: string[] }> {
  const given = onlyDataset(await hypothesisEvidence(ctx, []), 'a space of trees', space.name.range);
  if (!given) throw new CompileError(`trees are judged on a data set: add 'observe D'`, query.over.range);
  const instance = new Map<string, string>();
  for (const entry of query.options?.entries ?? []) {
    if (!entry.name || SAMPLING_OPTIONS.has(entry.name.text)) continue;
    const value = valueText(entry.value);
    if (value === undefined) throw new CompileError(`${entry.name.text} takes a value`, entry.value.range);
    instance.set(entry.name.text, value);
  }
  const { target, values, predictions } = treePredictions(space, given.data, instance, query.over.range);
  if (target !== query.target.text) {
    throw new CompileError(`the trees of '${space.name.text}' predict ${target}`, query.target.range);
  }
  const hypotheses = space.entries.map((e, h) => ({
    name: e.name.text, posterior: posteriors[h]!, prediction: predictions[h]!,
  }));
  return { hypotheses, values };
}

export async function hypothesisPredictions(ctx: HandlerContext, query: A.OptimalQuery): Promise<{ hypotheses: HypothesisPrediction[]; values: string[] }> {
  const space = hypothesisSpace(ctx, query.over);
  const scored = await scoredHypotheses(ctx, space, []);
  const table = posteriorTable(scored);
  if (!table.evidencePossible) throw new CompileError(IMPOSSIBLE_EVIDENCE, query.over.range);
  if (isTreeSpace(space)) return treeSpacePredictions(ctx, query, space, table.rows.map((r) => r.posterior!));
  const model = observationModels(modelNetwork(ctx), space).find((m) => m.variable === query.target.text);
  if (!model) throw new CompileError(`classifying ${query.target.text} needs a table P(${query.target.text} | ${space.name.text})`, query.target.range);
  const hypotheses = table.rows.map((row, h) => ({ name: row.hypothesis, posterior: row.posterior!, prediction: model.probabilities[h]! }));
  return { hypotheses, values: [...model.values] };
}
