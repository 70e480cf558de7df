/**
 * Likelihood weighting (Koller & Friedman §12.2.2; Russell & Norvig §14.5): sample the
 * unobserved variables forward in topological order, clamp the observed ones and weight the
 * sample by Π P(e_i | parents). The estimate of P(X = x | e) is the ratio Σ w·[X = x] / Σ w; its
 * standard error is the delta-method one for a ratio estimator,
 * √(Σ w² ([X = x] − p̂)²) / Σ w, kept with running sums (no per-sample storage), and at least
 * one effective sample's worth, Σ w² / (Σ w)².
 */
import type { BayesianNetwork } from '../network.js';
import { createRng } from '../random.js';
import { type Evidence } from '../inference/junctionTree.js';
import {
  flatten,
  NoConsistentSampleError,
  observedStates,
  perVariable,
  weightedSample,
  type SampledMarginals,
  type SamplerOptions,
} from './sampledNetwork.js';
import { CancelledError } from '../cancellation.js';

export function likelihoodWeighting(
  net: BayesianNetwork,
  evidence: Evidence,
  options: SamplerOptions = {},
): SampledMarginals {
  const flat = flatten(net);
  const { samples = 10000, seed = 1, signal, onSamples } = options;
  const rng = createRng(seed);
  const n = net.variables.length;
  const observed = observedStates(flat, evidence);
  const x = new Int32Array(n);
  const sumW = perVariable(flat.cards),
    sumW2 = perVariable(flat.cards);
  let totalW = 0,
    totalW2 = 0;
  for (let i = 0; i < samples; i++) {
    if ((i & 1023) === 0) {
      if (signal?.aborted) throw new CancelledError();
      onSamples?.(i, samples);
    }
    const w = weightedSample(flat, observed, x, rng.next);
    if (w === 0) continue;
    totalW += w;
    totalW2 += w * w;
    for (let v = 0; v < n; v++) {
      sumW[v]![x[v]!]! += w;
      sumW2[v]![x[v]!]! += w * w;
    }
  }
  if (totalW === 0) throw new NoConsistentSampleError('likelihood weighting');
  const marginals = sumW.map((m) => m.map((s) => s / totalW));
  // Σ w²(I − p)² = Σ_{I=1} w² (1 − 2p) + p² Σ w²
  // A state no weighted sample reached (or every one did) has Σ w²(I − p)² = 0, which claimed
  // certainty; no state is resolved finer than one effective sample, 1/ESS with ESS = (Σw)²/Σw².
  // Observed variables are point masses and keep 0.
  const floor = totalW2 / (totalW * totalW);
  const stderr = marginals.map((m, v) =>
    m.map((p, s) =>
      observed[v]! >= 0
        ? 0
        : Math.max(Math.sqrt(Math.max(0, sumW2[v]![s]! * (1 - 2 * p) + p * p * totalW2)) / totalW, floor),
    ),
  );
  return { marginals, stderr, samples };
}
