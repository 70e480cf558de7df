/**
 * The Gibbs algorithm (Mitchell §6.8): draw one hypothesis h at random according to P(h|D) and
 * classify with it. Its expected error is at most twice the Bayes optimal classifier's (under a
 * correct prior). Seeded, so the same file draws the same h.
 */
import { createRng } from '../random.js';
import { validatePredictions, type HypothesisPrediction } from './bayesOptimal.js';
import { argmax } from '../math/logMath.js';
import { EngineError } from '../engineError.js';

export interface GibbsDraw {
  hypothesis: string;
  prediction: string;
}

export interface GibbsResult {
  seed: number;
  draws: GibbsDraw[];
  /** Fraction of draws predicting each value (tends to P(v|D) for deterministic hypotheses). */
  frequencies: { value: string; fraction: number }[];
}

export function gibbsClassify(
  hypotheses: readonly HypothesisPrediction[],
  values: readonly string[],
  seed: number,
  draws = 1,
): GibbsResult {
  validatePredictions(hypotheses, values);
  if (!(Number.isInteger(draws) && draws >= 1))
    throw new EngineError(`the number of draws must be a positive integer, got ${draws}`);
  const rng = createRng(seed);
  const weights = hypotheses.map((h) => h.posterior);
  const counts = new Array<number>(values.length).fill(0);
  const drawn: GibbsDraw[] = [];
  for (let i = 0; i < draws; i++) {
    const h = hypotheses[rng.categorical(weights)]!;
    const v = argmax(h.prediction);
    counts[v]!++;
    drawn.push({ hypothesis: h.name, prediction: values[v]! });
  }
  return { seed, draws: drawn, frequencies: values.map((value, v) => ({ value, fraction: counts[v]! / draws })) };
}
