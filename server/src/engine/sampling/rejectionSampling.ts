/**
 * Rejection sampling (Poole & Mackworth §8.6): draw each variable from its CPT row in
 * topological order and reject the sample as soon as an observed variable takes a value other
 * than the evidence; the samples that survive are drawn from P(· | e), so P(X = x | e) is the
 * fraction of accepted samples with X = x. The acceptance rate estimates P(e): the expected
 * number accepted is n·P(e), which is why rare evidence needs many samples.
 *
 * Standard errors are binomial: √(p̂(1 − p̂)/a) for a marginal over a accepted samples (at least
 * 1/a, one sample's worth, so a state never or always seen is not reported as certain), and
 * √(r(1 − r)/n) for the acceptance rate r. When nothing is accepted there is no estimate: the
 * error says how many samples were drawn and how small P(e) must then be, never NaN.
 */
import type { BayesianNetwork } from '../network.js';
import { createRng } from '../random.js';
import type { Evidence } from '../inference/junctionTree.js';
import { CancelledError } from '../cancellation.js';
import {
  drawFromRow,
  flatten,
  NoConsistentSampleError,
  observedStates,
  perVariable,
  rowOf,
  type SampledMarginals,
  type SamplerOptions,
} from './sampledNetwork.js';

export interface RejectionMarginals extends SampledMarginals {
  /** Samples consistent with the evidence: the marginals are their frequencies. */
  accepted: number;
  /** accepted / samples, an estimate of P(e), and its standard error. */
  acceptanceRate: number;
  acceptanceStderr: number;
}

/** Nothing was accepted: P(e) is 0 or too small for this many samples. */
export class NoAcceptedSampleError extends NoConsistentSampleError {
  constructor(readonly samples: number) {
    super('rejection sampling');
    // 1 − (1 − p)^n ≥ 0.95 needs p ≥ about 3/n: below that, seeing none is likely.
    this.message =
      'rejection sampling: no sample was consistent with the evidence, ' +
      `none of the ${samples} drawn, so there is no estimate: P(e) is 0, or below about ` +
      `${(3 / samples).toPrecision(2)} (where seeing none is likely); draw more samples, ` +
      'or use likelihood_weighting or exact inference';
  }
}

export function rejectionSampling(
  net: BayesianNetwork,
  evidence: Evidence,
  options: SamplerOptions = {},
): RejectionMarginals {
  const flat = flatten(net);
  const { samples = 10000, seed = 1, signal, onSamples } = options;
  const rng = createRng(seed);
  const n = net.variables.length;
  const observed = observedStates(flat, evidence);
  const x = new Int32Array(n);
  const counts = perVariable(flat.cards);
  let accepted = 0;
  for (let i = 0; i < samples; i++) {
    if ((i & 1023) === 0) {
      if (signal?.aborted) throw new CancelledError();
      onSamples?.(i, samples);
    }
    let consistent = true;
    for (const v of flat.order) {
      x[v] = drawFromRow(flat, v, rowOf(flat, v, x), rng.next());
      if (observed[v]! >= 0 && x[v] !== observed[v]) {
        consistent = false;
        break;
      } // reject early
    }
    if (!consistent) continue;
    accepted++;
    for (let v = 0; v < n; v++) counts[v]![x[v]!]!++;
  }
  if (accepted === 0) throw new NoAcceptedSampleError(samples);
  const marginals = counts.map((c) => c.map((k) => k / accepted));
  // √(p̂(1 − p̂)/a) is 0 for a state seen in no accepted sample or in all of them, which claimed
  // certainty (`1 ±0` from 3 samples). No state is resolved finer than one sample: at least 1/a.
  // Observed variables are point masses and keep 0.
  const stderr = marginals.map((m, v) =>
    m.map((p) => (observed[v]! >= 0 ? 0 : Math.max(Math.sqrt((p * (1 - p)) / accepted), 1 / accepted))),
  );
  const acceptanceRate = accepted / samples;
  const acceptanceStderr = Math.sqrt((acceptanceRate * (1 - acceptanceRate)) / samples);
  return { marginals, stderr, samples, accepted, acceptanceRate, acceptanceStderr };
}
