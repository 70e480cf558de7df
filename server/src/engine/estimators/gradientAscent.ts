/**
 * Gradient ascent on CPT entries (Mitchell §6.11.5, eq 6.25):
 *   w_ijk ← w_ijk + η Σ_d P(y_ij, u_ik | d) / w_ijk,
 * with the gradient projected onto each row's constraint Σ_j w_ij = 1 and the step renormalised
 * (after flooring) so each row stays a distribution. The gradient's numerators are the E-step's
 * expected counts, so this shares expectedCounts.ts with EM. η is per record (the sum is divided
 * by the number of rows). The plain rule is slow — a row's step scales with how often its parent
 * configuration occurs — so η adapts ("bold driver"): it grows by half after every step
 * and halves whenever a step would lower the log-likelihood (the step is then retried), so the
 * climb never goes down.
 */
import type { BayesianNetwork } from '../network.js';
import { EngineError } from '../engineError.js';
import { cardinality } from '../network.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { normaliseRows, statePseudoCounts } from './cptLearning.js';
import { climbWithRestarts, type NetworkEmOptions, type NetworkEmResult, type Stepper } from './networkEm.js';

export interface GradientOptions extends NetworkEmOptions {
  /** Initial learning rate η (default 0.05). */
  learningRate?: number;
}

/** Entries are kept above this so the 1/w in the gradient stays finite. */
const FLOOR = 1e-12;

export function gradientAscent(
  net: BayesianNetwork,
  data: CategoricalDataset,
  options: GradientOptions = {},
): NetworkEmResult {
  const rows = Math.max(1, data.rowCount);
  const initial = options.learningRate ?? 0.05;
  if (!(initial > 0)) throw new EngineError(`the learning rate must be positive, not ${initial}`);
  const stepper = (): Stepper => {
    let eta = initial;
    return {
      next(n, tables, counts, prior) {
        eta *= 1.5;
        return tables.map((t, v) => {
          const k = cardinality(n, v);
          const alpha = statePseudoCounts(prior, n, v);
          const c = counts[v]!;
          const out = new Float64Array(t.length);
          for (let r = 0; r < t.length; r += k) {
            // ∂ ln P(D)/∂w = Σ_d P(y, u | d)/w (eq 6.25), minus its row mean: the gradient within the
            // plane Σ_j w_j = 1. Plain rescaling after the step is not always uphill (w = (.1, .9)
            // with expected counts (.1, 2.7) would move towards the first state).
            let mean = 0;
            for (let x = 0; x < k; x++) mean += (c[r + x]! + alpha[x]!) / t[r + x]!;
            mean /= k;
            for (let x = 0; x < k; x++)
              out[r + x] = Math.max(FLOOR, t[r + x]! + (eta * ((c[r + x]! + alpha[x]!) / t[r + x]! - mean)) / rows);
          }
          return normaliseRows(out, k, 0);
        });
      },
      shrink() {
        eta /= 2;
        return eta > 1e-12;
      },
      settled: () => eta >= initial,
    };
  };
  return climbWithRestarts(net, data, options, stepper);
}
