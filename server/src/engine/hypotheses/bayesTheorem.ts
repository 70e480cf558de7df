/**
 * Bayes theorem over an explicit hypothesis space (Mitchell §6.2, eq. 6.2):
 *   P(h|D) = P(D|h) P(h) / P(D),  P(D) = Σ_h P(D|h) P(h)  (theorem of total probability).
 * Likelihoods arrive as natural logs so that long observation sequences do not underflow; the
 * table still reports the plain products the textbook prints (P(+|cancer)P(cancer) = 0.00784).
 */
import { EngineError, requireDistribution } from '../engineError.js';
import { argmax, logSumExp } from '../math/logMath.js';

export interface PosteriorRow {
  hypothesis: string;
  prior: number;
  /** P(D|h). */
  likelihood: number;
  /** P(D|h) P(h). */
  product: number;
  /** P(h|D); absent when the evidence has probability 0. */
  posterior?: number;
  /** ln P(D|h), exact even when `likelihood` underflows to 0. */
  logLikelihood: number;
}

export interface PosteriorTable {
  rows: PosteriorRow[];
  /** P(D) by total probability. */
  evidence: number;
  logEvidence: number;
  /** False when P(D) = 0: no hypothesis with prior > 0 can produce the data. */
  evidencePossible: boolean;
  /** h_MAP = argmax P(D|h)P(h) (eq. 6.3) and every hypothesis tied with it. */
  map: string[];
  /** h_ML = argmax P(D|h) (eq. 6.4 ff.) and every hypothesis tied with it. */
  ml: string[];
}

export interface Hypothesis {
  name: string;
  prior: number;
}

/** Relative tolerance for calling two scores a tie (they come from the same arithmetic). */
const TIE = 1e-12;

export function posterior(hypotheses: readonly Hypothesis[], logLikelihoods: ArrayLike<number>): PosteriorTable {
  if (hypotheses.length === 0) throw new EngineError('the hypothesis space is empty');
  if (logLikelihoods.length !== hypotheses.length) {
    throw new EngineError(`expected ${hypotheses.length} likelihoods, got ${logLikelihoods.length}`);
  }
  requireDistribution(
    hypotheses.map((h) => h.prior),
    'prior',
  );
  const logProducts = hypotheses.map((h, i) => Math.log(h.prior) + logLikelihoods[i]!);
  const logEvidence = logSumExp(logProducts);
  const evidencePossible = logEvidence > -Infinity;
  const rows = hypotheses.map((h, i): PosteriorRow => ({
    hypothesis: h.name,
    prior: h.prior,
    likelihood: Math.exp(logLikelihoods[i]!),
    product: Math.exp(logProducts[i]!),
    logLikelihood: logLikelihoods[i]!,
    ...(evidencePossible ? { posterior: Math.exp(logProducts[i]! - logEvidence) } : {}),
  }));
  return {
    rows,
    evidence: Math.exp(logEvidence),
    logEvidence,
    evidencePossible,
    map: evidencePossible ? tiedWithBest(hypotheses, logProducts) : [],
    ml: tiedWithBest(hypotheses, Array.from(logLikelihoods)),
  };
}

function tiedWithBest(hypotheses: readonly Hypothesis[], scores: number[]): string[] {
  const best = scores[argmax(scores)]!;
  if (best === -Infinity) return [];
  return hypotheses.filter((_, i) => best - scores[i]! <= TIE * Math.max(1, Math.abs(best))).map((h) => h.name);
}

/**
 * P(value | h) for one observable variable, one row per hypothesis (Mitchell's cancer test:
 * P(+|cancer) = .98, P(−|cancer) = .02, ...).
 */
export interface ObservationModel {
  variable: string;
  values: readonly string[];
  /** probabilities[h][v] = P(variable = values[v] | h). */
  probabilities: readonly (readonly number[])[];
}

export interface Observation {
  variable: string;
  value: string;
}

/**
 * ln P(D|h) for each hypothesis when D is a list of observations that are independent given h
 * (`observe Test = [pos, pos]`): the log-likelihoods add.
 */
export function logLikelihoodOfObservations(
  models: readonly ObservationModel[],
  observations: readonly Observation[],
  hypothesisCount: number,
): Float64Array {
  const out = new Float64Array(hypothesisCount);
  for (const model of models) validateObservationModel(model, hypothesisCount);
  for (const obs of observations) {
    const model = models.find((m) => m.variable === obs.variable);
    if (!model) throw new EngineError(`no likelihood table for '${obs.variable}'`);
    const v = model.values.indexOf(obs.value);
    if (v < 0)
      throw new EngineError(`'${obs.value}' is not a value of ${obs.variable} (values: ${model.values.join(', ')})`);
    for (let h = 0; h < hypothesisCount; h++) out[h]! += Math.log(model.probabilities[h]![v]!);
  }
  return out;
}

/**
 * ln P(D|h) when D is a data set whose rows are independent given h and whose columns each have
 * a likelihood table (`observe Days`). Missing values (undefined, null or '?') are skipped.
 */
export function logLikelihoodOfDataset(
  models: readonly ObservationModel[],
  header: readonly string[],
  rows: readonly (readonly (string | null | undefined)[])[],
  hypothesisCount: number,
): Float64Array {
  const unknown = header.filter((column) => !models.some((m) => m.variable === column));
  if (unknown.length > 0)
    throw new EngineError(`no likelihood table for column${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}`);
  const observations: Observation[] = [];
  for (const row of rows) {
    row.forEach((value, c) => {
      if (value !== null && value !== undefined && value !== '?') observations.push({ variable: header[c]!, value });
    });
  }
  return logLikelihoodOfObservations(models, observations, hypothesisCount);
}

function validateObservationModel(model: ObservationModel, hypothesisCount: number): void {
  if (model.probabilities.length !== hypothesisCount) {
    throw new EngineError(
      `P(${model.variable} | h) has ${model.probabilities.length} rows for ${hypothesisCount} hypotheses`,
    );
  }
  model.probabilities.forEach((row, h) => {
    if (row.length !== model.values.length) {
      throw new EngineError(
        `P(${model.variable} | h) row ${h} has ${row.length} entries for ${model.values.length} values`,
      );
    }
    requireDistribution(row, `P(${model.variable} | h${h})`);
  });
}
