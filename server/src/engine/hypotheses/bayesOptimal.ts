/**
 * The Bayes optimal classifier (Mitchell §6.7, eq. 6.18):
 *   argmax_v Σ_h P(v|h) P(h|D)
 * No classifier using the same hypothesis space and prior does better on average. Its answer can
 * differ from the MAP hypothesis' own prediction, which the result shows beside it.
 */
import { EngineError, requireDistribution } from '../engineError.js';
import { argmax } from '../math/logMath.js';

export interface HypothesisPrediction {
  name: string;
  /** P(h|D). */
  posterior: number;
  /** P(v|h) for each value v (a deterministic h has a single 1). */
  prediction: readonly number[];
}

export interface OptimalClassification {
  /** P(v|D) = Σ_h P(v|h) P(h|D) for every value. */
  values: { value: string; probability: number }[];
  optimal: string;
  /** h_MAP and what it alone predicts. */
  map: string;
  mapPrediction: string;
}

export function validatePredictions(hypotheses: readonly HypothesisPrediction[], values: readonly string[]): void {
  if (hypotheses.length === 0) throw new EngineError('the hypothesis space is empty');
  requireDistribution(
    hypotheses.map((h) => h.posterior),
    'P(h|D)',
  );
  for (const h of hypotheses) {
    if (h.prediction.length !== values.length)
      throw new EngineError(`${h.name} predicts ${h.prediction.length} probabilities for ${values.length} values`);
    requireDistribution(h.prediction, `P(v | ${h.name})`);
  }
}

export function bayesOptimal(
  hypotheses: readonly HypothesisPrediction[],
  values: readonly string[],
): OptimalClassification {
  validatePredictions(hypotheses, values);
  const probability = values.map((_, v) => hypotheses.reduce((s, h) => s + h.prediction[v]! * h.posterior, 0));
  const map = hypotheses[argmax(hypotheses.map((h) => h.posterior))]!;
  return {
    values: values.map((value, v) => ({ value, probability: probability[v]! })),
    optimal: values[argmax(probability)]!,
    map: map.name,
    mapPrediction: values[argmax(map.prediction)]!,
  };
}
