/**
 * `query predict` (a table of each row's posterior) and `query validate` (the scores, ROC and
 * calibration curves, the calibration table and the confusion matrix).
 */
import type { PredictionResult, ValidationResult } from '../../../server/src/protocol/runResult.js';
import { ownValue } from '../../../server/src/protocol/records.js';
import { atLine, lineChart } from '../charts.js';
import { h } from '../dom.js';
import { num } from '../format.js';
import { dataTable } from '../table.js';
import { confusionMatrix, leftOutNote } from './learning.js';

export function predictionView(e: PredictionResult): HTMLElement[] {
  type Row = PredictionResult['rows'][number];
  const shown = e.rows.length < e.rowCount ? ` (the first ${e.rows.length} shown)` : '';
  return [
    h(
      'p',
      {},
      `P(${e.target} | row) for ${e.rowCount} rows of ${e.data}${shown} · ${e.propagations} propagations · evidence: ` +
        (e.evidence.join(', ') || 'none') +
        (e.ignored.length ? ` · ignored: ${e.ignored.join(', ')}` : ''),
    ),
    dataTable(
      `predictions of ${e.target}`,
      [
        { title: 'row', value: (r: Row) => r.row },
        ...e.states.map((s, i) => ({ title: `P(${s})`, value: (r: Row) => r.probabilities?.[i] })),
        { title: 'predicted', value: (r: Row) => r.predicted ?? '(P(e) = 0)' },
        { title: 'ln P(e)', value: (r: Row) => r.logLikelihood ?? undefined },
        { title: 'actual', value: (r: Row) => r.actual ?? '?' },
      ],
      e.rows,
    ),
  ];
}

export function validationView(e: ValidationResult): HTMLElement[] {
  const score = (label: string, x: number | null) => [
    `${label} `,
    h('strong', { 'data-value': String(x) }, x === null ? 'undefined' : num(x, 4)),
  ];
  const states = Object.keys(e.roc).length ? Object.keys(e.roc) : Object.keys(e.calibration);
  const diagonal = {
    name: 'diagonal',
    className: 'total',
    points: [[0, 0] as [number, number], [1, 1] as [number, number]],
  };
  const series = (s: string, i: number, points: Array<[number, number]>) => ({
    name: `${e.target} = ${s}`,
    className: `c${i % 8}`,
    points,
  });
  const roc = states
    .map((s, i) => {
      const c = ownValue(e.roc, s);
      return (
        c &&
        series(
          s,
          i,
          c.fpr.map((x, j) => [x, c.tpr[j]!] as [number, number]),
        )
      );
    })
    .filter((s) => s !== undefined);
  const calibration = states.map((s, i) => {
    const c = ownValue(e.calibration, s)!;
    return series(
      s,
      i,
      c.meanPredicted.map((x, j) => [x, c.fractionPositive[j]!] as [number, number]),
    );
  });
  const options = { yDomain: [0, 1] as [number, number], width: 360, height: 260 };
  type Bin = { state: string; lower: number; upper: number; count: number; predicted: number; observed: number };
  const bins: Bin[] = states.flatMap((s) => {
    const c = ownValue(e.calibration, s)!;
    return c.count.map((count, j) => ({
      state: s,
      lower: c.lower[j]!,
      upper: c.upper[j]!,
      count,
      predicted: c.meanPredicted[j]!,
      observed: c.fractionPositive[j]!,
    }));
  });
  return [
    h(
      'p',
      { class: 'accuracy' },
      ...score('Accuracy', e.accuracy),
      ' · ',
      ...score('log loss', e.logLoss),
      ' nats · ',
      ...score('Brier', e.brier),
      ' · ',
      ...score('spherical', e.spherical),
      ' · ',
      ...score(e.positive ? `AUC (${e.target} = ${e.positive})` : 'macro AUC', e.auc),
      ` · ${e.n} rows of ${e.data}` +
        (e.folds ? ` · ${e.folds} folds, seed ${e.seed}` : ' · the model as given') +
        (e.unlabelled || e.impossible
          ? ` · not scored: ${e.unlabelled} without ${e.target}, ${e.impossible} impossible`
          : ''),
    ),
    h(
      'div',
      {},
      ...(roc.length
        ? [
            lineChart(
              `roc-${atLine(e)}`,
              `ROC curve of ${e.target}`,
              'false positive rate',
              'true positive rate',
              [...roc, diagonal],
              options,
            ),
          ]
        : []),
      lineChart(
        `calibration-${atLine(e)}`,
        `Calibration of P(${e.target}) (${e.bins} bins)`,
        'mean predicted probability',
        'observed fraction',
        [...calibration, diagonal],
        options,
      ),
    ),
    dataTable(
      'calibration table',
      [
        { title: 'state', value: (b: Bin) => b.state },
        { title: 'bin', value: (b: Bin) => `(${num(b.lower, 3)}, ${num(b.upper, 3)}]` },
        { title: 'rows', value: (b: Bin) => b.count },
        { title: 'mean predicted', value: (b: Bin) => b.predicted },
        { title: 'observed fraction', value: (b: Bin) => b.observed },
      ],
      bins,
    ),
    confusionMatrix(e.confusion.states, e.confusion.matrix),
    ...leftOutNote(e.confusion.states.length, e.statesLeftOut, 'states'),
  ];
}
