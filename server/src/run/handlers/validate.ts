/**
 * `query validate N on D target X [folds k] { seed, bins, positive, score }`: how well N predicts X
 * on D — accuracy, log loss, Brier score, spherical payoff, ROC curves and AUC, calibration
 * curves, the confusion matrix (engine/classifiers/probabilisticScores.ts; `bayes validate`
 * computes the same). N is a network, an imported network or a naive Bayes classifier. Without
 * folds N is scored as it is; with `folds k` its tables are re-counted in each fold from the other
 * folds (drawn with `seed` as `evaluate` draws them): a network's with a BDeu prior of equivalent
 * sample size 1, a classifier's with its smoothing. The value is the score `score` names
 * (default accuracy).
 */
import type * as A from '../../language/ast.js';
import { foldPredictions, heldOutPredictions } from '../../engine/classifiers/validation.js';
import { probabilisticScores } from '../../engine/classifiers/probabilisticScores.js';
import type { Prior } from '../../engine/estimators/cptLearning.js';
import { CompileError } from '../../model/compileError.js';
import type { Handler, HandlerContext } from '../handlerContext.js';
import { fmt, numberOption, queryOf, seedOption } from '../learning/queryParts.js';
import { networkScope } from '../networkScope.js';
import { modelData } from '../modelInputs.js';
import { caseTable, ignoredColumns } from '../caseTable.js';
import { classesLeftOutNote, classifierDecl, requireClassCount, smoothingOf } from '../classifiers.js';
import { DEFAULT_BUDGETS } from '../../engine/budget.js';
import type { ValidationResult } from '../../protocol/runResult.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { VALIDATION_SCORES } from '../../language/check/queries.js';

type Score = (typeof VALIDATION_SCORES)[number];
const KEYS = { accuracy: 'accuracy', log_loss: 'logLoss', brier: 'brier', spherical: 'spherical', auc: 'auc' } as const;

export const validateHandler: Handler = async (ctx) => {
  const q = queryOf<A.ValidateQuery>(ctx);
  const { net } = await networkScope(ctx, q.network);
  const target = net.variables.findIndex((v) => v.name === q.target.text);
  if (target < 0) throw new CompileError(`'${q.target.text}' is not a variable of ${q.network.text}`, q.target.range);
  requireClassCount(ctx, net.variables[target]!.states.length, q.target.range, `'${q.target.text}'`);
  const data = await modelData(ctx, q.on);
  const { table, ignored } = caseTable(net, target, data, q.on);
  if (!table.columns[target])
    throw new CompileError(`'${q.on.text}' has no column ${q.target.text} to score against`, q.on.range);
  const states = net.variables[target]!.states;
  const bins = numberOption(q.options, 'bins') ?? 10;
  if (!(Number.isInteger(bins) && bins >= 1 && bins <= 1000))
    throw new CompileError('bins must be a whole number from 1 to 1000', q.options?.range ?? q.range);
  const positive = positiveState(q, states);
  const score = scoreOption(q);
  const seed = seedOption(q.options);
  const folds = q.folds?.value;
  if (folds !== undefined && folds > table.rowCount)
    throw new CompileError(`folds must be at most the ${table.rowCount} records of '${q.on.text}'`, q.folds!.range);
  const predictions =
    folds === undefined
      ? heldOutPredictions(net, target, table, ctx.signal)
      : foldPredictions(net, target, table, {
          folds,
          seed,
          prior: foldPrior(ctx, q.network),
          signal: ctx.signal,
          progress: (done) => ctx.onProgress?.(done / folds, `fold ${done} of ${folds}`),
        });
  const scores = probabilisticScores(
    { states, probabilities: predictions.probabilities, truth: predictions.truth },
    bins,
    positive,
    (ctx.env.budgets ?? DEFAULT_BUDGETS).maxClasses,
  );
  const value = scores[KEYS[score]];
  const result: ValidationResult = {
    kind: 'validation',
    range: q.range,
    source: ctx.source,
    network: q.network.text,
    data: q.on.text,
    target: q.target.text,
    states,
    ...(folds !== undefined ? { folds, seed } : {}),
    bins,
    unlabelled: predictions.unlabelled,
    impossible: predictions.impossible,
    score,
    ...scores,
    headline:
      `${q.target.text} on ${scores.n} rows${folds !== undefined ? ` (${folds} folds, seed ${seed})` : ''}: ` +
      `accuracy ${fmt(scores.accuracy)} · log loss ${fmt(scores.logLoss)} · Brier ${fmt(scores.brier)} · ` +
      `AUC ${scores.auc === null ? 'undefined' : fmt(scores.auc)}`,
  };
  const diagnostics: Diagnostic[] = ignoredColumns(ignored, q.on, q.network.text);
  const skipped = predictions.unlabelled + predictions.impossible;
  if (skipped)
    diagnostics.push({
      severity: 'information',
      code: 'missing-values',
      range: q.on.range,
      message: `${skipped} records were not scored: ${predictions.unlabelled} without ${q.target.text}, ${predictions.impossible} whose evidence has probability 0`,
    });
  diagnostics.push(...classesLeftOutNote(ctx, scores.confusion.states.length, scores.statesLeftOut));
  return { results: [result], diagnostics, ...(value !== null ? { value } : {}) };
};

function positiveState(q: A.ValidateQuery, states: string[]): number {
  const entry = q.options?.entries.find((e) => e.name?.text === 'positive');
  if (!entry) return 0;
  const text = entry.value.kind === 'ref' ? entry.value.name.text : undefined;
  const s = text === undefined ? -1 : states.indexOf(text);
  if (s < 0)
    throw new CompileError(`positive: must name a state of ${q.target.text} (${states.join(', ')})`, entry.value.range);
  if (states.length !== 2) throw new CompileError('positive: applies to a target of two states', entry.value.range);
  return s;
}

function scoreOption(q: A.ValidateQuery): Score {
  const v = q.options?.entries.find((e) => e.name?.text === 'score')?.value;
  if (!v) return 'accuracy';
  if (v.kind === 'ref' && (VALIDATION_SCORES as readonly string[]).includes(v.name.text)) return v.name.text as Score;
  throw new CompileError(`score: is one of ${VALIDATION_SCORES.join(', ')}`, v.range);
}

/** The prior of the tables re-counted in each fold: a classifier's smoothing, else BDeu(1) as `evaluate` uses. */
function foldPrior(ctx: HandlerContext, name: A.Name): Prior {
  if (ctx.symbols.globals.get(name.text)?.kind !== 'classifier') return { kind: 'bdeu', ess: 1 };
  const smoothing = smoothingOf(classifierDecl(ctx, name).definition);
  if (smoothing.kind === 'none') return { kind: 'none' };
  if (smoothing.kind === 'laplace') return { kind: 'dirichlet', alpha: 1 };
  if (smoothing.p !== undefined)
    throw new CompileError('folds re-count tables with a uniform m-estimate: drop p: from m_estimate', name.range);
  return { kind: 'mEstimate', m: smoothing.m };
}
