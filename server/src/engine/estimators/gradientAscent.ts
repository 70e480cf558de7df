/**
 * Gradient ascent on CPT entries (Mitchell §6.11.5, eq 6.25). The gradient of ln P(D) is
 *   ∂ ln P(D)/∂w_ijk = Σ_d P(y_ij, u_ik | d) / w_ijk = c_ijk / w_ijk,
 * whose numerators are the E-step's expected counts (shared with EM in expectedCounts.ts).
 *
 * Mitchell's additive rule w ← w + η ∂/∂w, renormalised, crawls: a row's gradient scales with how
 * often its parent configuration u_ik occurs (10,000 records in one row, 3 in another), so no one η
 * suits every row, and an additive step can leave the simplex. This climb keeps each row on the
 * simplex by the softmax reparametrisation w_ij = e^θ_ij / Σ_j' e^θ_ij', and scales each row's
 * gradient by its inverse Fisher information — w_ijk / N_ik, with N_ik = Σ_j c_ijk the expected
 * count of the row — a natural-gradient step that takes the same form in every row:
 *   w_ijk ← w_ijk · exp(η · c_ijk / (N_ik w_ijk)) / Z_ik     (the exponentiated gradient of
 * Bauer, Koller & Singer 1997: each entry moves by η/N_ik times eq 6.25's derivative, in logs).
 * With complete data and η = 1 one step lands near the maximum-likelihood table c/N. The
 * learning rate η follows a line search ("bold driver"): it grows by half after every step that
 * raises the log-likelihood (up to MAX_RATE) and halves whenever a step would lower it (the step
 * is then retried), so the climb never goes down. A prior's pseudo-counts add to the counts
 * (its log density to the objective), as in MAP-EM.
 */
import type { BayesianNetwork } from '../network.js';
import { EngineError } from '../engineError.js';
import { cardinality } from '../network.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { statePseudoCounts } from './cptLearning.js';
import { climbWithRestarts, type NetworkEmOptions, type NetworkEmResult, type Stepper } from './networkEm.js';

export interface GradientOptions extends NetworkEmOptions {
  /** Initial learning rate η of the natural-gradient step (default 1; the line search adapts it). */
  learningRate?: number;
}

/** Entries are kept above this so the 1/w in the gradient stays finite. */
const FLOOR = 1e-300;
/** A larger η mostly overshoots and is retried; capping it saves those wasted E-steps. */
const MAX_RATE = 4;

/**
 * The step of one entry in log space, per unit of η: g itself up to 1 (at the optimum every g is 1),
 * then 1 + ln g. An entry far below its share of the counts (g ≫ 1, e.g. w = 1e-20 with counts)
 * would otherwise move by e^(η g) and swamp its row for any η; with 1 + ln g one step of η = 1
 * takes it to about its share c/N. Both branches increase with g, so the step stays uphill
 * (Σ_j N w_j (g_j − 1)(φ(g_j) − φ(1)) > 0 away from the optimum) and shrinks to 0 with η.
 */
function damped(g: number): number {
  return g <= 1 ? g : 1 + Math.log(g);
}

export function gradientAscent(
  net: BayesianNetwork,
  data: CategoricalDataset,
  options: GradientOptions = {},
): NetworkEmResult {
  const initial = options.learningRate ?? 1;
  if (!(initial > 0)) throw new EngineError(`the learning rate must be positive, not ${initial}`);
  const stepper = (): Stepper => {
    let eta = initial / 1.5;
    return {
      next(n, tables, counts, prior) {
        eta = Math.min(eta * 1.5, Math.max(MAX_RATE, initial));
        return tables.map((t, v) =>
          naturalGradientStep(t, counts[v]!, cardinality(n, v), statePseudoCounts(prior, n, v), eta),
        );
      },
      shrink() {
        eta /= 2;
        return eta > 1e-12;
      },
      settled: () => eta >= Math.min(initial, MAX_RATE) / 2,
    };
  };
  return climbWithRestarts(net, data, options, stepper);
}

/**
 * One step on a table: per row, log w_j += η (c_j + α_j) / (N w_j), then normalised (softmax).
 * A row with no expected count (its parent configuration never occurs) has no gradient and stays.
 */
export function naturalGradientStep(
  t: Float64Array,
  c: Float64Array,
  k: number,
  alpha: readonly number[],
  eta: number,
): Float64Array {
  const out = new Float64Array(t.length);
  const exponent = new Float64Array(k);
  for (let r = 0; r < t.length; r += k) {
    let total = 0;
    for (let x = 0; x < k; x++) total += c[r + x]! + alpha[x]!;
    if (!(total > 0)) {
      for (let x = 0; x < k; x++) out[r + x] = t[r + x]!;
      continue;
    }
    let top = -Infinity;
    for (let x = 0; x < k; x++) {
      const w = Math.max(t[r + x]!, FLOOR);
      const g = (c[r + x]! + alpha[x]!) / (total * w); // eq 6.25's derivative × w/N: the natural gradient
      exponent[x] = Math.log(w) + eta * damped(g);
      top = Math.max(top, exponent[x]!);
    }
    let z = 0;
    for (let x = 0; x < k; x++) {
      exponent[x] = Math.exp(exponent[x]! - top);
      z += exponent[x]!;
    }
    for (let x = 0; x < k; x++) out[r + x] = exponent[x]! / z;
  }
  return out;
}
