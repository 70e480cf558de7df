/**
 * Validating a network's predictions of one variable against data (Netica's "test with cases"):
 * each record's P(target | its other observed values), by exact inference (batchPrediction.ts),
 * next to the record's true value, ready for probabilisticScores. Two ways:
 *  - held out: the network as given predicts every record;
 *  - k folds: the records are shuffled with a seed and cut into k folds exactly as every other
 *    k-fold evaluation cuts them (evaluation.ts `partitions`); for each fold the network's
 *    structure has its tables re-counted from the other k − 1 folds with a prior, and predicts
 *    the fold's records.
 * Records whose target is missing are not scored (`unlabelled`), nor those whose evidence has
 * probability 0 under the network (`impossible`: no posterior exists).
 */
import type { BayesianNetwork } from '../network.js';
import { MISSING, type CategoricalDataset } from '../categoricalData.js';
import { BatchPredictor } from '../inference/batchPrediction.js';
import { partitions } from './evaluation.js';
import { learnCpts, type Prior } from '../estimators/cptLearning.js';
import { rowsOf } from '../structure/crossValidation.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { EngineError } from '../engineError.js';

/** Records over the network's variables: `columns[v]` (network state indices), undefined when v has no column. */
export interface CaseTable {
  columns: (Int32Array | undefined)[];
  rowCount: number;
}

export interface CasePredictions {
  /** Scored records × the target's states, row-major, in record order. */
  probabilities: Float64Array;
  truth: Int32Array;
  /** Each scored record's index in the table. */
  rows: Int32Array;
  logLikelihood: Float64Array;
  unlabelled: number;
  impossible: number;
}

export interface FoldOptions {
  folds: number;
  seed: number;
  prior: Prior;
  signal?: CancelSignal;
  progress?: (foldsDone: number) => void;
  /** Told every 1,024 rows predicted and at the end of each fold: the rows predicted in all. */
  onRows?: RowsDone;
}

/** The rows predicted so far (a progress report; the CLI's progress line). */
export type RowsDone = (rows: number) => void;

/** The network as given predicts every record. */
export function heldOutPredictions(
  net: BayesianNetwork,
  target: number,
  table: CaseTable,
  signal?: CancelSignal,
  onRows?: RowsDone,
): CasePredictions {
  const all = Int32Array.from({ length: table.rowCount }, (_, r) => r);
  return collect(net.variables[target]!.states.length, [predictRows(net, target, table, all, signal, onRows)]);
}

/** k-fold: each fold predicted by the structure with tables counted from the other folds. */
export function foldPredictions(
  net: BayesianNetwork,
  target: number,
  table: CaseTable,
  options: FoldOptions,
): CasePredictions {
  const missing = net.variables.filter((_, v) => !table.columns[v]).map((v) => v.name);
  if (missing.length)
    throw new EngineError(`re-learning in folds needs a column for every variable; missing: ${missing.join(', ')}`);
  const data: CategoricalDataset = {
    attributes: net.variables.map((v) => ({ name: v.name, values: v.states })),
    columns: table.columns as Int32Array[],
    rowCount: table.rowCount,
  };
  const parts = partitions(table.rowCount, { kind: 'folds', k: options.folds, seed: options.seed });
  let before = 0;
  const onRows = options.onRows && ((rows: number) => options.onRows!(before + rows));
  const pieces = parts.map(({ train, test }, f) => {
    throwIfCancelled(options.signal);
    const fold = learnCpts(net, rowsOf(data, train), options.prior);
    const piece = predictRows(fold, target, table, test, options.signal, onRows);
    before += test.length;
    options.progress?.(f + 1);
    return piece;
  });
  const out = collect(net.variables[target]!.states.length, pieces);
  return sortedByRow(out, net.variables[target]!.states.length);
}

interface Piece {
  probabilities: number[];
  truth: number[];
  rows: number[];
  logLikelihood: number[];
  unlabelled: number;
  impossible: number;
}

function predictRows(
  net: BayesianNetwork,
  target: number,
  table: CaseTable,
  rows: Int32Array,
  signal?: CancelSignal,
  onRows?: RowsDone,
): Piece {
  const evidenceVariables = net.variables.map((_, v) => v).filter((v) => v !== target && table.columns[v]);
  const predictor = new BatchPredictor(net, target, evidenceVariables);
  const evidence = new Int32Array(evidenceVariables.length);
  const truthColumn = table.columns[target];
  const piece: Piece = { probabilities: [], truth: [], rows: [], logLikelihood: [], unlabelled: 0, impossible: 0 };
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    if (onRows && (i & 1023) === 0) onRows(i);
    const truth = truthColumn ? truthColumn[r]! : MISSING;
    if (truth < 0) {
      piece.unlabelled++;
      continue;
    }
    for (let c = 0; c < evidenceVariables.length; c++) evidence[c] = table.columns[evidenceVariables[c]!]![r]!;
    if ((r & 1023) === 0) throwIfCancelled(signal);
    const answer = predictor.predict(evidence, signal);
    if (!answer.probabilities) {
      piece.impossible++;
      continue;
    }
    piece.probabilities.push(...answer.probabilities);
    piece.truth.push(truth);
    piece.rows.push(r);
    piece.logLikelihood.push(answer.logLikelihood);
  }
  onRows?.(rows.length);
  return piece;
}

function collect(k: number, pieces: Piece[]): CasePredictions {
  const n = pieces.reduce((s, p) => s + p.truth.length, 0);
  const out: CasePredictions = {
    probabilities: new Float64Array(n * k),
    truth: new Int32Array(n),
    rows: new Int32Array(n),
    logLikelihood: new Float64Array(n),
    unlabelled: 0,
    impossible: 0,
  };
  let at = 0;
  for (const p of pieces) {
    out.probabilities.set(p.probabilities, at * k);
    out.truth.set(p.truth, at);
    out.rows.set(p.rows, at);
    out.logLikelihood.set(p.logLikelihood, at);
    out.unlabelled += p.unlabelled;
    out.impossible += p.impossible;
    at += p.truth.length;
  }
  return out;
}

/** The folds' predictions back in record order. */
function sortedByRow(p: CasePredictions, k: number): CasePredictions {
  const order = Int32Array.from({ length: p.rows.length }, (_, i) => i).sort((a, b) => p.rows[a]! - p.rows[b]!);
  const out: CasePredictions = { ...p, probabilities: new Float64Array(p.probabilities.length) };
  out.truth = order.map((i) => p.truth[i]!);
  out.rows = order.map((i) => p.rows[i]!);
  out.logLikelihood = Float64Array.from(order, (i) => p.logLikelihood[i]!);
  order.forEach((i, j) => out.probabilities.set(p.probabilities.subarray(i * k, i * k + k), j * k));
  return out;
}
