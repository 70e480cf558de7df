/**
 * `query evaluate N on D folds k { seed, target: X }`: k-fold cross-validation of a network
 * (bnlearn's `bn.cv`). A network declared or imported keeps its structure and has its tables
 * counted from each fold's training rows; a network learnt by `learn structure N from … by M`
 * has the search M (with its options and background knowledge) re-run inside each fold. Tables
 * take a BDeu prior of equivalent sample size 1, so a value unseen in training is not
 * impossible. The value is the expected log-likelihood loss per record, or with `target` the
 * classification error of X (predicted from every other variable).
 */
import type * as A from '../../language/ast.js';
import type { CategoricalDataset } from '../../engine/categoricalData.js';
import { crossValidate } from '../../engine/structure/crossValidation.js';
import { searchStructure, type SearchMethod, type SearchSpec } from '../../engine/structure/search.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { NetworkEvaluationResult } from '../../protocol/runResult.js';
import { modelData, modelNetwork } from '../modelInputs.js';
import { LearnOptions } from '../learnOptions.js';
import { fmt, seedOption } from '../learning/queryParts.js';
import { SCORES, backgroundKnowledge, nodeOrder, pcOptions, searchOptions } from './learnStructure.js';

const PRIOR = { kind: 'bdeu' as const, ess: 1 };

export async function crossValidateNetwork(ctx: HandlerContext, q: A.EvaluateQuery): Promise<HandlerOutput> {
  const folds = q.folds!,
    on = q.on!;
  const all = await modelData(ctx, on);
  const seed = seedOption(q.options);
  const declared = ctx.symbols.globals.get(q.classifier.text)?.node;
  const search = declared?.kind === 'learn' && declared.structure ? declared : undefined;
  let data: CategoricalDataset, learn: (train: CategoricalDataset) => number[][], how: string;
  if (search) {
    data = all;
    const spec = { ...searchSpecOf(search, all), signal: ctx.signal };
    learn = (train) => searchStructure(train, spec).parents;
    how = `${spec.method} re-run in each fold`;
  } else {
    const net = modelNetwork(ctx, q.classifier.text);
    const names = all.attributes.map((a) => a.name);
    const columns = net.variables.map((v) => {
      const i = names.indexOf(v.name);
      if (i < 0) {
        const columnsText = names.join(', ');
        const message = `${q.classifier.text}'s variable ${v.name} is not a column of '${on.text}' (${columnsText})`;
        throw new CompileError(message, on.range);
      }
      return i;
    });
    data = {
      attributes: columns.map((i) => all.attributes[i]!),
      columns: columns.map((i) => all.columns[i]!),
      rowCount: all.rowCount,
    };
    const parents = net.cpts.map((c) => [...c.parents]);
    learn = () => parents;
    how = 'its structure, tables re-counted in each fold';
  }
  const targetEntry = q.options?.entries.find((e) => e.name?.text === 'target');
  let target: number | undefined;
  if (targetEntry) {
    const v = targetEntry.value;
    if (v.kind !== 'ref' || v.member || v.columns) {
      throw new CompileError('target: must name a variable, e.g. target: Play', v.range);
    }
    target = data.attributes.findIndex((a) => a.name === v.name.text);
    if (target < 0) {
      throw new CompileError(`target: '${v.name.text}' is not a variable of ${q.classifier.text}`, v.range);
    }
  }
  if (!Number.isInteger(folds.value) || folds.value < 2 || folds.value > data.rowCount) {
    throw new CompileError(`folds must be a whole number from 2 to the ${data.rowCount} records`, folds.range);
  }
  const cv = crossValidate(data, learn, {
    folds: folds.value,
    seed,
    prior: PRIOR,
    ...(target !== undefined ? { target } : {}),
    signal: ctx.signal,
    progress: (done) => ctx.onProgress?.(done / folds.value, `fold ${done} of ${folds.value}`),
  });
  const targetName = target !== undefined ? data.attributes[target]!.name : undefined;
  const result: NetworkEvaluationResult = {
    kind: 'networkEvaluation',
    range: q.range,
    source: ctx.source,
    network: q.classifier.text,
    data: on.text,
    folds: folds.value,
    seed,
    how,
    logLoss: cv.logLoss,
    foldLogLoss: cv.foldLogLoss,
    tested: cv.tested,
    skipped: cv.skipped,
    ...(targetName !== undefined ? { target: targetName, error: cv.error!, foldError: cv.foldError! } : {}),
    headline:
      `log-likelihood loss ${fmt(cv.logLoss)} nats per record` +
      (targetName !== undefined ? ` · ${targetName} error ${fmt(cv.error!)}` : '') +
      ` (${folds.value} folds, seed ${seed}; ${how})`,
  };
  const diagnostics =
    cv.skipped > 0
      ? [
          {
            severity: 'information' as const,
            code: 'missing-values',
            range: on.range,
            message: `${cv.skipped} records with a missing value were not scored`,
          },
        ]
      : [];
  return { results: [result], diagnostics, value: targetName !== undefined ? cv.error! : cv.logLoss };
}

/** The search of `learn structure N from … by M { … }`, to re-run on each fold's rows. */
function searchSpecOf(s: A.LearnStmt, data: CategoricalDataset): SearchSpec {
  const method = (s.method?.text ?? 'k2') as SearchMethod;
  const options = new LearnOptions(s.options);
  const names = data.attributes.map((a) => a.name);
  const score = options.choice('score', SCORES, method === 'k2' ? 'k2' : 'bic');
  return {
    method,
    score,
    ess: options.number('ess', 1, { positive: true }),
    maxParents: options.number('max_parents', names.length - 1, { integer: true, min: 0 }),
    knowledge: backgroundKnowledge(s.options, data),
    ...(method === 'k2' ? { order: nodeOrder(options, data, s.from ?? s.model) } : {}),
    ...(method === 'hillclimb' || method === 'tabu' ? searchOptions(options, method === 'tabu') : {}),
    ...(method === 'pc' ? pcOptions(options) : {}),
  };
}
