/**
 * Scores of probabilistic predictions against the true values (Netica's "test with cases",
 * Hugin's analysis wizard), defined as scikit-learn defines them so the numbers can be checked
 * against it (test/unit/engine/classifiers/probabilisticScores.test.ts):
 *  - accuracy: the fraction whose most probable state (the first on ties) is the true one;
 *  - log loss: −(1/n) Σ ln p(true state), in nats; a probability below machine ε counts as ε
 *    (scikit-learn's `log_loss` clips the same way), so one impossible truth is large, not ∞;
 *  - Brier score: two states, (1/n) Σ (1[y = pos] − p(pos))² (`brier_score_loss`; the same for
 *    either state as positive); more states, Brier's own (1/n) Σ_rows Σ_states (1[y = s] − p(s))²;
 *  - spherical payoff: (1/n) Σ p(true) / ‖p‖₂ (Netica);
 *  - ROC curves (`roc_curve` with drop_intermediate, scikit-learn 1.2's first threshold max + 1)
 *    and AUC (trapezoids): two states, the positive state's; more states, one-vs-rest per state
 *    and the macro average over the states that occur and do not occur in the data
 *    (`roc_auc_score(multi_class='ovr', average='macro')`);
 *  - calibration (reliability) curves: b equal-width bins of [0, 1] (`calibration_curve(strategy=
 *    'uniform', n_bins=b)`: a probability p falls in the bin whose upper edge is the first edge
 *    ≥ p, edges i/b, so p = 0.1 with b = 10 is in the first bin); empty bins are left out;
 *  - the confusion matrix, rows the true state, columns the predicted (`confusion_matrix`).
 */
import { EngineError } from '../engineError.js';
import { setOwn } from '../records.js';
import { DEFAULT_BUDGETS, requireWithin, SHOWN_CLASSES } from '../budget.js';
import { mostFrequent } from './evaluation.js';

/** Predictions: rows of P(state) (k per row, flat) and the true state of each row. */
export interface ScoredPredictions {
  states: readonly string[];
  /** n × k, row-major. */
  probabilities: Float64Array;
  truth: Int32Array;
}

export interface RocCurve {
  fpr: number[];
  tpr: number[];
  thresholds: number[];
  auc: number;
}

export interface CalibrationCurve {
  /** Mean predicted probability per non-empty bin (scikit-learn's prob_pred). */
  meanPredicted: number[];
  /** Fraction of the bin's rows in the state (prob_true). */
  fractionPositive: number[];
  /** Rows per non-empty bin, and the bin's edges. */
  count: number[];
  lower: number[];
  upper: number[];
}

export interface ProbabilisticScores {
  n: number;
  accuracy: number;
  logLoss: number;
  brier: number;
  spherical: number;
  /** Two states: the positive state's AUC; more: the macro one-vs-rest average. */
  auc: number | null;
  /** The state whose probability the two-state ROC, calibration and Brier score read. */
  positive?: string;
  /** Per state (two states: the positive one only). */
  roc: Record<string, RocCurve>;
  calibration: Record<string, CalibrationCurve>;
  /** States left out of the macro AUC: they never (or always) occur in the data. */
  aucSkipped?: string[];
  /** Over the states listed in `roc`/`calibration` (all, or the SHOWN_CLASSES most frequent). */
  confusion: { states: string[]; matrix: number[][] };
  /** States whose curves and confusion rows are left out of the result (their AUCs still count). */
  statesLeftOut?: number;
}

export const LOG_LOSS_EPSILON = 2.220446049250313e-16;

export function probabilisticScores(
  p: ScoredPredictions,
  bins: number,
  positive = 0,
  maxClasses = DEFAULT_BUDGETS.maxClasses,
): ProbabilisticScores {
  const k = p.states.length,
    n = p.truth.length;
  requireWithin(`scoring a target of ${k.toLocaleString('en-US')} states`, k, maxClasses, 'states');
  if (n === 0) throw new EngineError('no row to score');
  if (k < 2) throw new EngineError('a target needs at least two states to be scored');
  if (!(Number.isInteger(bins) && bins >= 1 && bins <= 1000))
    throw new EngineError(`bins must be an integer from 1 to 1000, got ${bins}`);
  if (k === 2 && positive !== 0 && positive !== 1) throw new EngineError(`no state ${positive} to be positive`);
  const perState = k === 2 ? [positive] : Array.from({ length: k }, (_, s) => s);
  const roc: Record<string, RocCurve> = {};
  const calibration: Record<string, CalibrationCurve> = {};
  const skipped: string[] = [];
  const aucs: number[] = [];
  // Every state's AUC counts in the macro average; only the listed states keep their curves.
  const shown = mostFrequent(occurrences(p), SHOWN_CLASSES);
  const listed = new Set(shown);
  for (const s of perState) {
    const score = column(p, s),
      hit = p.truth.map((t) => (t === s ? 1 : 0));
    const curve = rocCurve(score, hit);
    if (curve) {
      if (listed.has(s)) setOwn(roc, p.states[s]!, curve);
      aucs.push(curve.auc);
    } else skipped.push(p.states[s]!);
    if (listed.has(s)) setOwn(calibration, p.states[s]!, calibrationCurve(score, hit, bins));
  }
  return {
    n,
    ...pointScores(p, positive),
    auc: aucs.length ? aucs.reduce((a, b) => a + b, 0) / aucs.length : null,
    ...(k === 2 ? { positive: p.states[positive]! } : {}),
    roc,
    calibration,
    ...(skipped.length ? { aucSkipped: skipped } : {}),
    confusion: { states: shown.map((s) => p.states[s]!), matrix: confusionMatrix(p, shown) },
    ...(shown.length < k ? { statesLeftOut: k - shown.length } : {}),
  };
}

/** How many rows have each state as their true value. */
function occurrences(p: ScoredPredictions): Float64Array {
  const counts = new Float64Array(p.states.length);
  for (const t of p.truth) counts[t]!++;
  return counts;
}

/** Accuracy, log loss, Brier score and spherical payoff. */
function pointScores(
  p: ScoredPredictions,
  positive: number,
): { accuracy: number; logLoss: number; brier: number; spherical: number } {
  const k = p.states.length,
    n = p.truth.length;
  let right = 0,
    logLoss = 0,
    brier = 0,
    spherical = 0;
  for (let r = 0; r < n; r++) {
    const t = p.truth[r]!,
      row = p.probabilities.subarray(r * k, r * k + k);
    if (argmax(row) === t) right++;
    logLoss -= Math.log(Math.min(Math.max(row[t]!, LOG_LOSS_EPSILON), 1 - LOG_LOSS_EPSILON));
    let norm = 0;
    for (let s = 0; s < k; s++) norm += row[s]! * row[s]!;
    spherical += row[t]! / Math.sqrt(norm);
    // Two states: one state's squared error (the same for either); more: the sum over states.
    if (k === 2) brier += ((t === positive ? 1 : 0) - row[positive]!) ** 2;
    else for (let s = 0; s < k; s++) brier += ((s === t ? 1 : 0) - row[s]!) ** 2;
  }
  return { accuracy: right / n, logLoss: logLoss / n, brier: brier / n, spherical: spherical / n };
}

export function argmax(row: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < row.length; i++) if (row[i]! > row[best]!) best = i;
  return best;
}

function column(p: ScoredPredictions, s: number): Float64Array {
  const k = p.states.length;
  return Float64Array.from({ length: p.truth.length }, (_, r) => p.probabilities[r * k + s]!);
}

/**
 * Scores this close (relative) are one threshold: posteriors that are mathematically equal come out
 * of inference a few ulps apart, depending on the order products were taken in (another
 * triangulation of the same network moved examples/validation.bayes's AUC from 0.933021 to
 * 0.9340625 by breaking such ties one way or the other). Mann–Whitney counts a tie as 1/2; so
 * does the trapezoid over one threshold. Far below any difference a model means: 1e-12 is ten
 * thousand ulps.
 */
export const SCORE_TIE = 1e-12;

/** Whether b is a's tie (SCORE_TIE). */
function tied(a: number, b: number): boolean {
  return Math.abs(a - b) <= SCORE_TIE * Math.max(Math.abs(a), Math.abs(b));
}

/**
 * scikit-learn's roc_curve (drop_intermediate=True) and its trapezoidal AUC, with scores within
 * SCORE_TIE of a threshold's first (largest) score taken as tied with it; undefined when the
 * state never or always occurs (no positive or no negative row).
 */
export function rocCurve(score: Float64Array, hit: Int32Array | Uint8Array): RocCurve | undefined {
  const n = score.length;
  // Descending by score: the reverse of a stable ascending sort, as scikit-learn sorts.
  const order = Int32Array.from({ length: n }, (_, i) => i)
    .sort((a, b) => score[a]! - score[b]! || a - b)
    .reverse();
  let fps: number[] = [],
    tps: number[] = [],
    thresholds: number[] = [];
  let tp = 0,
    first = 0; // where the current threshold's run of tied scores began
  for (let i = 0; i < n; i++) {
    tp += hit[order[i]!]!;
    if (i === n - 1 || !tied(score[order[first]!]!, score[order[i + 1]!]!)) {
      tps.push(tp);
      fps.push(i + 1 - tp);
      thresholds.push(score[order[first]!]!);
      first = i + 1;
    }
  }
  if (tp === 0 || fps[fps.length - 1] === 0) return undefined;
  if (fps.length > 2) {
    const keep = fps.map(
      (_, i) =>
        i === 0 ||
        i === fps.length - 1 ||
        fps[i + 1]! - 2 * fps[i]! + fps[i - 1]! !== 0 ||
        tps[i + 1]! - 2 * tps[i]! + tps[i - 1]! !== 0,
    );
    [fps, tps, thresholds] = [fps, tps, thresholds].map((xs) => xs.filter((_, i) => keep[i]));
  }
  const lastF = fps[fps.length - 1]!,
    lastT = tps[tps.length - 1]!;
  const fpr = [0, ...fps.map((f) => f / lastF)],
    tpr = [0, ...tps.map((t) => t / lastT)];
  let auc = 0;
  for (let i = 1; i < fpr.length; i++) auc += ((fpr[i]! - fpr[i - 1]!) * (tpr[i]! + tpr[i - 1]!)) / 2;
  return { fpr, tpr, thresholds: [thresholds[0]! + 1, ...thresholds], auc };
}

/** scikit-learn's calibration_curve(strategy='uniform', n_bins=bins), with each bin's count and edges. */
export function calibrationCurve(score: Float64Array, hit: Int32Array | Uint8Array, bins: number): CalibrationCurve {
  const edges = Array.from({ length: bins + 1 }, (_, i) => (i === bins ? 1 : i * (1 / bins)));
  const sums = new Float64Array(bins),
    trues = new Float64Array(bins),
    totals = new Float64Array(bins);
  for (let r = 0; r < score.length; r++) {
    const p = score[r]!;
    // searchsorted(inner edges, p, side='left'): how many inner edges lie below p.
    let b = 0;
    while (b < bins - 1 && edges[b + 1]! < p) b++;
    sums[b]! += p;
    trues[b]! += hit[r]!;
    totals[b]!++;
  }
  const out: CalibrationCurve = { meanPredicted: [], fractionPositive: [], count: [], lower: [], upper: [] };
  for (let b = 0; b < bins; b++) {
    if (totals[b] === 0) continue;
    out.meanPredicted.push(sums[b]! / totals[b]!);
    out.fractionPositive.push(trues[b]! / totals[b]!);
    out.count.push(totals[b]!);
    out.lower.push(edges[b]!);
    out.upper.push(edges[b + 1]!);
  }
  return out;
}

/** Rows and columns of the `shown` states only: rows whose truth or prediction is another are left out. */
function confusionMatrix(p: ScoredPredictions, shown: readonly number[]): number[][] {
  const k = p.states.length;
  const at = new Int32Array(k).fill(-1);
  shown.forEach((s, i) => (at[s] = i));
  const m = shown.map(() => new Array<number>(shown.length).fill(0));
  for (let r = 0; r < p.truth.length; r++) {
    const row = at[p.truth[r]!]!,
      col = at[argmax(p.probabilities.subarray(r * k, r * k + k))]!;
    if (row >= 0 && col >= 0) m[row]![col]!++;
  }
  return m;
}
