/**
 * k-fold cross-validation of a network (bnlearn's `bn.cv`): the rows are shuffled with a seed
 * and cut into k folds; for each fold the structure is learnt from the other k − 1 (a fixed
 * structure, or the search re-run), its tables counted from them with a prior, and the fold's
 * rows scored:
 *  - log-likelihood loss: −(1/n) Σ_rows ln P(x) under the fold's network (bnlearn's `logl`);
 *  - classification error for a target T: the fraction of rows whose T is not the most probable
 *    value of P(T | every other variable), computed in T's Markov blanket (bnlearn's `pred`
 *    losses use the parents only or sampling; this is the exact posterior).
 * The expected loss is the mean of the folds' losses, as bnlearn reports it. Rows with a missing
 * value are left out of the scoring (counted in `skipped`); the same seed gives the same folds
 * as every other k-fold evaluation (engine/evaluation.ts).
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { networkFromStructure, type Prior } from '../estimators/cptLearning.js';
import type { BayesianNetwork } from '../network.js';
import { partitions } from '../classifiers/evaluation.js';
import { EngineError } from '../engineError.js';
import { throwIfCancelled } from '../cancellation.js';

export interface CrossValidationOptions {
  folds: number;
  seed: number;
  /** Column whose classification error is also reported. */
  target?: number;
  prior: Prior;
  signal?: { readonly aborted: boolean };
  progress?: (done: number) => void;
}

export interface CrossValidationResult {
  /** Mean over the folds of the log-likelihood loss per record (nats). */
  logLoss: number;
  foldLogLoss: number[];
  /** Mean over the folds of the classification error of the target. */
  error?: number;
  foldError?: number[];
  /** Rows scored (complete rows), and rows left out for a missing value. */
  tested: number;
  skipped: number;
}

/**
 * `learn` gives the parent lists learnt from a training set (the fixed structure, or a search).
 */
export function crossValidate(
  data: CategoricalDataset,
  learn: (train: CategoricalDataset) => number[][],
  options: CrossValidationOptions,
): CrossValidationResult {
  const parts = partitions(data.rowCount, { kind: 'folds', k: options.folds, seed: options.seed });
  const foldLogLoss: number[] = [],
    foldError: number[] = [];
  let tested = 0,
    skipped = 0;
  for (const [f, { train, test }] of parts.entries()) {
    throwIfCancelled(options.signal);
    const training = rowsOf(data, train);
    const parents = learn(training);
    const net = networkFromStructure('fold', training, parents, options.prior);
    let loss = 0,
      wrong = 0,
      n = 0;
    for (const r of test) {
      if (data.columns.some((c) => c[r]! < 0)) {
        skipped++;
        continue;
      }
      n++;
      loss -= logJoint(net, data, r);
      const t = options.target;
      if (t !== undefined && predict(net, data, r, t) !== data.columns[t]![r]) wrong++;
    }
    if (n === 0) throw new EngineError(`fold ${f + 1} has no complete row to score`);
    tested += n;
    foldLogLoss.push(loss / n);
    if (options.target !== undefined) foldError.push(wrong / n);
    options.progress?.(f + 1);
  }
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  return {
    logLoss: mean(foldLogLoss),
    foldLogLoss,
    ...(options.target !== undefined ? { error: mean(foldError), foldError } : {}),
    tested,
    skipped,
  };
}

/** The data restricted to `rows` (in that order). */
export function rowsOf(data: CategoricalDataset, rows: Int32Array): CategoricalDataset {
  return {
    attributes: data.attributes,
    rowCount: rows.length,
    columns: data.columns.map((col) => {
      const out = new Int32Array(rows.length);
      rows.forEach((r, i) => {
        out[i] = col[r]!;
      });
      return out;
    }),
  };
}

/** Index of variable v's row for record r: its parents' states, first parent slowest. */
function rowIndex(
  net: BayesianNetwork,
  data: CategoricalDataset,
  v: number,
  r: number,
  override?: [number, number],
): number {
  let at = 0;
  for (const p of net.cpts[v]!.parents) {
    const s = override && override[0] === p ? override[1] : data.columns[p]![r]!;
    at = at * net.variables[p]!.states.length + s;
  }
  return at;
}

/** ln P(x_r) = Σ_v ln θ(x_v | x_pa(v)). */
export function logJoint(net: BayesianNetwork, data: CategoricalDataset, r: number): number {
  let s = 0;
  for (let v = 0; v < net.cpts.length; v++) {
    const k = net.variables[v]!.states.length;
    s += Math.log(net.cpts[v]!.table[rowIndex(net, data, v, r) * k + data.columns[v]![r]!]!);
  }
  return s;
}

/** argmax_t P(T = t | the rest of record r): θ(t | pa(T)) Π_children θ(x_c | pa(c) with T = t). */
export function predict(net: BayesianNetwork, data: CategoricalDataset, r: number, target: number): number {
  const k = net.variables[target]!.states.length;
  const children = net.cpts.filter((c) => c.parents.includes(target)).map((c) => c.child);
  let best = 0,
    bestLog = -Infinity;
  for (let t = 0; t < k; t++) {
    let s = Math.log(net.cpts[target]!.table[rowIndex(net, data, target, r) * k + t]!);
    for (const c of children) {
      const kc = net.variables[c]!.states.length;
      s += Math.log(net.cpts[c]!.table[rowIndex(net, data, c, r, [target, t]) * kc + data.columns[c]![r]!]!);
    }
    if (s > bestLog) {
      bestLog = s;
      best = t;
    }
  }
  return best;
}
