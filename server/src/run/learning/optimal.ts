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

/**
 * Over a space of trees, D is the data set of the file's `observe D` line, and the new instance
 * is named by the query's options (`{ Length: short, Thread: new }`) or by `observe A = v` lines
 * on attributes the data has (the options win); P(v|h) is the leaf the instance reaches.
 */
async function treeSpacePredictions(
  ctx: HandlerContext,
  query: A.OptimalQuery,
  space: A.HypothesesDecl,
): Promise<{ hypotheses: HypothesisPrediction[]; values: string[] }> {
  const observed = ctx.ast.statements.flatMap((s) => (s.kind === 'observe' ? s.items : []));
  const datasets = observed.filter((a) => !a.value && ctx.symbols.data.has(a.variable.text));
  if (datasets.length === 0)
    throw new CompileError(`trees are judged on a data set: add 'observe D'`, query.over.range);
  // The data set given mentions its columns: observations of them are the instance, not data.
  const scored = await scoredHypotheses(ctx, space, datasets);
  const table = posteriorTable(scored);
  if (!table.evidencePossible) throw new CompileError(IMPOSSIBLE_EVIDENCE, query.over.range);
  const given = onlyDataset(await hypothesisEvidence(ctx, datasets), 'a space of trees', space.name.range)!;
  const instance = new Map<string, string>();
  for (const a of observed) {
    const value = valueText(a.value);
    if (value !== undefined && given.data.attributes.some((c) => c.name === a.variable.text)) {
      instance.set(a.variable.text, value);
    }
  }
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
  const hypotheses = table.rows.map((row, h) => ({
    name: row.hypothesis,
    posterior: row.posterior!,
    prediction: predictions[h]!,
  }));
  return { hypotheses, values };
}

export async function hypothesisPredictions(
  ctx: HandlerContext,
  query: A.OptimalQuery,
): Promise<{ hypotheses: HypothesisPrediction[]; values: string[] }> {
  const space = hypothesisSpace(ctx, query.over);
  if (isTreeSpace(space)) return treeSpacePredictions(ctx, query, space);
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
