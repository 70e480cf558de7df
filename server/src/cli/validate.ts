/** `bayes validate NET --data rows.csv --target X`: scores of the network's predictions of X on data. */
import { parseArgs } from 'node:util';
import type { BayesianNetwork } from '../engine/network.js';
import {
  foldPredictions,
  heldOutPredictions,
  type CasePredictions,
  type CaseTable,
  type RowsDone,
} from '../engine/classifiers/validation.js';
import { probabilisticScores, type ProbabilisticScores } from '../engine/classifiers/probabilisticScores.js';
import { EngineError } from '../engine/engineError.js';
import type { CliCommand, CliIO } from './command.js';
import { NETWORK_FILE_USAGE } from './networkFile.js';
import { CASE_OPTIONS, CASE_USAGE, CaseFileError, openCases, RowWatch, streamCaseFile } from './caseInputs.js';
import type { CaseLayout } from '../model/caseFile.js';
import { CancelledError } from '../engine/cancellation.js';
import { counted, interrupted, startProgress, untilInterrupted } from './progress.js';
import { integerOption } from './learningInputs.js';
import { cliBudgets } from './limits.js';

const OPTIONS = {
  ...CASE_OPTIONS,
  folds: { type: 'string' },
  seed: { type: 'string' },
  bins: { type: 'string' },
  positive: { type: 'string' },
} as const;

const PRIOR = { kind: 'bdeu' as const, ess: 1 };

const USAGE = `bayes validate NET|MODEL.bayes --data ROWS.csv --target X [options]

Scores the network's predictions of X on the rows of ROWS.csv: each row's P(X | its other
observed values) (as bayes predict computes it) against the row's value of X. Rows with X
missing are not scored ("unlabelled"), nor rows whose evidence has probability 0 ("impossible").
Without --folds the network as given is scored (held-out data); with --folds k its structure is
kept and its tables re-counted in each fold from the other k − 1 folds (BDeu prior, equivalent
sample size 1), the folds drawn with --seed as query evaluate draws them.

Scores (as scikit-learn defines them): accuracy (most probable value, first state on ties); log
loss −(1/n) Σ ln P(true value) in nats (a probability under 2.2e-16 counts as 2.2e-16); Brier
score — two states: brier_score_loss, (1/n) Σ (1[X = positive] − P(positive))², the same for
either state; more states: (1/n) Σ Σ_states (1[X = s] − P(s))²; spherical payoff
(1/n) Σ P(true) / ‖P‖₂; ROC curve (roc_curve, drop_intermediate; first threshold = the largest
score + 1, as scikit-learn 1.2) and AUC — two states: the positive state's (the AUC is the same
for either); more states: one-vs-rest per state and the macro average over the states that occur
and not always; calibration curve — calibration_curve(strategy='uniform', n_bins=b): b equal
bins of [0, 1], a probability p in the bin whose upper edge i/b is the first ≥ p, empty bins left
out — for the positive state (two states) or per state; confusion matrix, rows the true value,
columns the predicted.

On a terminal a progress line on standard error counts the rows read, then the rows predicted
(with the time left); Ctrl+C stops either, exit 130, saying how far it got (no scores printed).

Options:
${CASE_USAGE}
  --folds k         re-learn the tables in k folds (2 ≤ k ≤ rows)
  --seed S          the folds' seed (default 1)
  --bins b          calibration bins (default 10)
  --positive STATE  the positive state of a two-state X (default: its first state)
  --json            {"network", "target", "states", "positive"?, "folds"?, "seed"?, "bins", "n",
                     "unlabelled", "impossible", "accuracy", "logLoss", "brier", "spherical", "auc",
                     "roc": {STATE: {"fpr", "tpr", "thresholds", "auc"}}, "calibration": {STATE:
                     {"meanPredicted", "fractionPositive", "count", "lower", "upper"}},
                     "confusion": {"states", "matrix"}}
${NETWORK_FILE_USAGE}`;

export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'score a network on data: accuracy, log loss, Brier, spherical payoff, ROC/AUC, calibration',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    const folds = integerOption('folds', values.folds, undefined, 2);
    const seed = integerOption('seed', values.seed, 1, 0);
    const bins = integerOption('bins', values.bins, 10, 1, 1000);
    const setup = openCases('validate', values, positionals, io);
    if (typeof setup === 'number') return setup;
    const { net, target } = setup;
    const states = net.variables[target]!.states;
    if (states.length > cliBudgets.maxClasses)
      return fail(
        io,
        `${values.target} has ${states.length.toLocaleString('en-US')} states, over the budget of ` +
          `${cliBudgets.maxClasses.toLocaleString('en-US')} classes (--max-memory raises it)`,
      );
    const positive = values.positive === undefined ? 0 : states.indexOf(values.positive);
    if (states.length === 2 && positive < 0)
      return fail(io, `--positive: '${values.positive}' is not a state of ${values.target} (${states.join(', ')})`);
    const table = await readTable(setup.data, values, io, net, target);
    if (typeof table === 'number') return table;
    if (folds !== undefined && folds > table.rowCount)
      return fail(io, `--folds ${folds}: the data has ${table.rowCount} rows`);
    try {
      const predictions = predictOnTerminal(io, table.rowCount, folds, (onRows) =>
        folds === undefined
          ? heldOutPredictions(net, target, table, undefined, onRows)
          : foldPredictions(net, target, table, { folds, seed, prior: PRIOR, onRows }),
      );
      if (typeof predictions === 'number') return predictions;
      const scores = probabilisticScores(
        { states, probabilities: predictions.probabilities, truth: predictions.truth },
        bins,
        Math.max(positive, 0),
        cliBudgets.maxClasses,
      );
      const report = {
        network: net.name,
        target: values.target!,
        states,
        ...(folds !== undefined ? { folds, seed, prior: 'bdeu=1' } : {}),
        bins,
        unlabelled: predictions.unlabelled,
        impossible: predictions.impossible,
        ...scores,
      };
      if (values.json) io.out(JSON.stringify(report, null, 1) + '\n');
      else io.out(textReport(net, report));
      if (predictions.impossible)
        io.err(`bayes validate: warning: ${predictions.impossible} rows have evidence of probability 0 (not scored)\n`);
      return 0;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      return fail(io, e.message);
    }
  },
};

/**
 * The predictions with a progress line over the rows (time left: their number is known) and
 * Ctrl+C stopping the synchronous loop at once (cli/progress.ts); 130 after the summary.
 */
function predictOnTerminal(
  io: CliIO,
  rowCount: number,
  folds: number | undefined,
  predict: (onRows: RowsDone) => CasePredictions,
): CasePredictions | number {
  const line = startProgress(io, 'validate: predicting', { total: rowCount, unit: 'rows' });
  const inFolds = folds === undefined ? '' : ` (in ${folds} folds)`;
  return untilInterrupted(
    io,
    'validate',
    () => `predicting ${counted(line.done)} of ${counted(rowCount)} rows${inFolds}; no scores printed`,
    () => predict((rows) => line.update(rows)),
    () => [line],
  );
}

function fail(io: CliIO, message: string): number {
  io.err(`bayes validate: ${message}\n`);
  return 1;
}

/**
 * The rows as network-indexed columns (growing Int32Arrays, filled as the file streams); an exit
 * code when the file is wrong or Ctrl+C stopped the read (the problem or summary printed).
 */
async function readTable(
  file: string,
  values: { 'max-file-mb'?: string },
  io: CliIO,
  net: BayesianNetwork,
  target: number,
): Promise<CaseTable | number> {
  const columns: (Int32Array | undefined)[] = net.variables.map(() => undefined);
  let variables: number[] = [],
    rows = 0,
    capacity = 1024;
  const grow = () => {
    capacity *= 2;
    for (const [v, c] of columns.entries()) if (c) columns[v] = copy(c, capacity);
  };
  const onRow = (evidence: Int32Array, truth: number) => {
    if (rows === capacity) grow();
    for (let c = 0; c < variables.length; c++) columns[variables[c]!]![rows] = evidence[c]!;
    if (columns[target]) columns[target][rows] = truth;
    rows++;
  };
  const onLayout = (layout: CaseLayout) => {
    variables = layout.evidenceVariables;
    for (const v of variables) columns[v] = new Int32Array(capacity);
    if (layout.targetColumn >= 0) columns[target] = new Int32Array(capacity);
  };
  const watch = new RowWatch(io, 'validate: reading');
  try {
    const { layout } = await streamCaseFile(file, values, io, net, target, onRow, onLayout, watch);
    watch.finish();
    if (layout.targetColumn < 0)
      throw new CaseFileError(
        `${file}:1:1: error: the data has no column ${net.variables[target]!.name} to score against`,
      );
    if (layout.ignored.length)
      io.err(`bayes validate: ignored columns (no variable of ${net.name}): ${layout.ignored.join(', ')}\n`);
  } catch (e) {
    if (e instanceof CancelledError)
      return interrupted(io, 'validate', `reading ${counted(watch.rows)} rows; no scores printed`);
    if (!(e instanceof CaseFileError)) throw e;
    watch.finish();
    io.err(e.message + '\n');
    return 1;
  } finally {
    watch.dispose();
  }
  return { columns: columns.map((c) => c?.slice(0, rows)), rowCount: rows };
}

function copy(c: Int32Array, capacity: number): Int32Array {
  const out = new Int32Array(capacity);
  out.set(c);
  return out;
}

function textReport(
  net: BayesianNetwork,
  r: ProbabilisticScores & {
    target: string;
    states: string[];
    folds?: number;
    seed?: number;
    unlabelled: number;
    impossible: number;
  },
): string {
  const f = (x: number | null) => (x === null ? 'undefined' : x.toFixed(6));
  const lines = [
    `${net.name}: ${r.target} on ${r.n} rows${r.folds ? ` (${r.folds} folds, seed ${r.seed}, tables re-counted in each)` : ' (the network as given)'}` +
      (r.unlabelled || r.impossible ? `; not scored: ${r.unlabelled} unlabelled, ${r.impossible} impossible` : ''),
    `accuracy ${f(r.accuracy)}  log loss ${f(r.logLoss)} nats  Brier ${f(r.brier)}  spherical ${f(r.spherical)}  AUC ${f(r.auc)}` +
      (r.positive ? ` (positive: ${r.positive})` : ' (macro one-vs-rest)'),
    '',
    'confusion (rows: true, columns: predicted)',
    ['', ...r.confusion.states].join('\t'),
    ...r.confusion.matrix.map((row, i) => [r.confusion.states[i], ...row].join('\t')),
    ...(r.statesLeftOut
      ? [
          `(${r.confusion.states.length} most frequent of ${r.states.length} states listed; ${r.statesLeftOut} left out)`,
        ]
      : []),
    '',
  ];
  for (const [state, c] of Object.entries(r.calibration)) {
    lines.push(`calibration of P(${r.target} = ${state}): bin, rows, mean predicted, observed fraction`);
    c.count.forEach((n, i) =>
      lines.push(
        `  (${c.lower[i]!.toFixed(2)}, ${c.upper[i]!.toFixed(2)}]\t${n}\t${f(c.meanPredicted[i]!)}\t${f(c.fractionPositive[i]!)}`,
      ),
    );
  }
  return lines.join('\n') + '\n';
}
