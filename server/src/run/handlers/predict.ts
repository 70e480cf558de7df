/**
 * `query predict X in N on D`: for each record of D, P(X | the record's other observed values)
 * by exact inference (engine/inference/batchPrediction.ts: the junction tree compiled once, a
 * propagation per distinct evidence pattern), the most probable value and ln P(evidence) — the
 * rows `bayes predict` prints. The result keeps the first PREDICTION_ROWS_SHOWN rows.
 */
import type * as A from '../../language/ast.js';
import { BatchPredictor, mostProbable } from '../../engine/inference/batchPrediction.js';
import { throwIfCancelled } from '../../engine/cancellation.js';
import { CompileError } from '../../model/compileError.js';
import type { Handler } from '../handlerContext.js';
import { queryOf } from '../learning/queryParts.js';
import { networkScope } from '../networkScope.js';
import { modelData } from '../modelInputs.js';
import { caseTable, ignoredColumns } from '../caseTable.js';
import { PREDICTION_ROWS_SHOWN, type PredictionResult, type PredictionRow } from '../../protocol/runResult.js';

export const predictHandler: Handler = async (ctx) => {
  const q = queryOf<A.PredictQuery>(ctx);
  const { net } = await networkScope(ctx, q.in);
  const target = net.variables.findIndex((v) => v.name === q.variable.text);
  if (target < 0) throw new CompileError(`'${q.variable.text}' is not a variable of ${q.in.text}`, q.variable.range);
  const data = await modelData(ctx, q.on);
  const { table, evidence, ignored } = caseTable(net, target, data, q.on);
  const variables = net.variables.map((_, v) => v).filter((v) => v !== target && table.columns[v]);
  const predictor = new BatchPredictor(net, target, variables, { maxEntries: ctx.env.budgets?.maxTotalEntries });
  const states = net.variables[target]!.states;
  const row = new Int32Array(variables.length);
  const rows: PredictionRow[] = [];
  let impossible = 0;
  for (let r = 0; r < table.rowCount; r++) {
    if ((r & 1023) === 0) throwIfCancelled(ctx.signal);
    variables.forEach((v, c) => (row[c] = table.columns[v]![r]!));
    const answer = predictor.predict(row, ctx.signal);
    if (!answer.probabilities) impossible++;
    if (rows.length < PREDICTION_ROWS_SHOWN) {
      const truth = table.columns[target]?.[r] ?? -1;
      rows.push({
        row: r + 1,
        probabilities: answer.probabilities ? Array.from(answer.probabilities) : null,
        predicted: answer.probabilities ? states[mostProbable(answer.probabilities)]! : null,
        logLikelihood: answer.probabilities ? answer.logLikelihood : null,
        ...(truth >= 0 ? { actual: states[truth]! } : {}),
      });
    }
  }
  const result: PredictionResult = {
    kind: 'prediction',
    range: q.range,
    source: ctx.source,
    network: q.in.text,
    data: q.on.text,
    target: q.variable.text,
    states,
    evidence,
    ignored,
    rows,
    rowCount: table.rowCount,
    propagations: predictor.propagations,
    headline:
      `P(${q.variable.text} | row) for ${table.rowCount} rows of ${q.on.text}` +
      ` (${predictor.propagations} propagations)` +
      (impossible ? `; ${impossible} rows of probability 0` : ''),
  };
  return { results: [result], diagnostics: ignoredColumns(ignored, q.on, q.in.text) };
};
