/**
 * Likelihood weighting for CLG networks too large to enumerate (clgInference.ts), Rao-Blackwellised
 * (Koller & Friedman §12.4): the discrete variables are sampled forward as in discrete likelihood
 * weighting (observed ones clamped, the weight multiplied by their probability), and the
 * continuous ones are not sampled at all — given the sampled configuration r of their discrete
 * parents they are a Gaussian network, conditioned exactly (gaussianConditioning.ts), and the
 * weight is multiplied by the density of the continuous evidence N(e; μ_E(r), Σ_EE(r)). So
 *
 *     P(D = s | e) ≈ Σ wᵢ [dᵢ = s] / Σ wᵢ       E[X | e] ≈ Σ wᵢ μ_X(rᵢ) / Σ wᵢ
 *     Var[X | e] ≈ Σ wᵢ (σ²_X(rᵢ) + μ_X(rᵢ)²) / Σ wᵢ − E[X | e]²      p(e) ≈ Σ wᵢ / N
 *
 * with delta-method standard errors for the ratio estimators (as likelihoodWeighting.ts), and the
 * Gaussian part computed once per distinct configuration. Seeded: the same seed, the same answer.
 */
import { createRng } from '../random.js';
import { flatten, observedStates, weightedSample, type SamplesDone } from '../sampling/sampledNetwork.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { requireWithin, type Budgets, DEFAULT_BUDGETS } from '../budget.js';
import { stateCount, type HybridNetwork } from './hybridNetwork.js';
import { conditionGaussian, continuousOrder, gaussianJoint, type ConditionedGaussian } from './gaussianConditioning.js';
import {
  cutsetOf,
  discretePart,
  ImpossibleHybridEvidenceError,
  type ContinuousPosterior,
  type GaussianComponent,
  type HybridEvidence,
} from './clgInference.js';

export interface SampledHybridPosterior {
  method: 'lw';
  discrete: (Float64Array | undefined)[];
  /** Standard errors of the discrete probabilities. */
  discreteStderr: (Float64Array | undefined)[];
  /** Components are the distinct sampled configurations, when at most MAX_COMPONENTS; else none are listed. */
  continuous: (ContinuousPosterior | undefined)[];
  /** Standard errors of the continuous posterior means. */
  meanStderr: (number | undefined)[];
  /** log of the estimate Σ w / N of p(evidence). */
  logEvidence: number;
  samples: number;
  seed: number;
  /** Distinct configurations of the discrete parents of continuous variables that were sampled. */
  configurations: number;
}

export interface HybridSamplingOptions {
  samples?: number;
  seed?: number;
  budgets?: Budgets;
  signal?: CancelSignal;
  /** Progress, as the discrete samplers report it (every 1024 samples). */
  onSamples?: SamplesDone;
}

/** A mixture of more configurations than this is summarised by its mean and variance only. */
export const MAX_COMPONENTS = 64;

export function hybridLikelihoodWeighting(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridSamplingOptions = {},
): SampledHybridPosterior {
  const { samples = 20000, seed = 1, signal, onSamples } = options;
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  requireWithin('likelihood weighting', samples, budgets.maxSamples, 'samples');
  const order = continuousOrder(net);
  const n = order.length;
  requireWithin('the Gaussian joint of the continuous variables', n * n, budgets.maxTableEntries);
  const discrete = discretePart(net);
  const flat = flatten(discrete.bn);
  const observed = observedStates(flat, discrete.evidence(evidence.discrete, [], new Int32Array(net.variables.length)));
  const cutset = cutsetOf(net);
  const position = new Int32Array(net.variables.length).fill(-1);
  order.forEach((v, i) => (position[v] = i));
  const observedAt = new Map([...evidence.continuous].map(([v, x]) => [position[v]!, x]));
  const byConfiguration = new Map<string, { gaussian: ConditionedGaussian; weight: number }>();
  const x = new Int32Array(discrete.variables.length);
  const states = new Int32Array(net.variables.length);
  const rng = createRng(seed);
  const sums = new Sums(net, discrete.variables, n);
  let logScale = -Infinity; // weights are kept relative to exp(logScale) so densities cannot underflow
  for (let i = 0; i < samples; i++) {
    if ((i & 255) === 0) throwIfCancelled(signal);
    if ((i & 1023) === 0) onSamples?.(i, samples);
    const wd = discrete.variables.length ? weightedSample(flat, observed, x, rng.next) : 1;
    if (wd === 0) continue;
    for (const r of cutset) states[r] = x[discrete.local[r]!]!;
    const key = cutset.map((r) => states[r]).join(',');
    let part = byConfiguration.get(key);
    if (!part) {
      part = { gaussian: conditionGaussian(gaussianJoint(net, order, states), observedAt), weight: 0 };
      byConfiguration.set(key, part);
    }
    const logW = Math.log(wd) + part.gaussian.logDensity;
    if (logW === -Infinity) continue;
    if (logW > logScale) {
      sums.rescale(Math.exp(logScale - logW));
      for (const p of byConfiguration.values()) p.weight *= Math.exp(logScale - logW);
      logScale = logW;
    }
    const w = Math.exp(logW - logScale);
    part.weight += w;
    sums.add(w, x, part.gaussian);
  }
  if (sums.totalW === 0) throw new ImpossibleHybridEvidenceError();
  return {
    method: 'lw',
    ...sums.answer(evidence, order, byConfiguration),
    logEvidence: logScale + Math.log(sums.totalW / samples),
    samples,
    seed,
    configurations: byConfiguration.size,
  };
}

/** Running weighted sums (no per-sample storage). */
class Sums {
  totalW = 0;
  totalW2 = 0;
  private readonly discreteW: Float64Array[];
  private readonly discreteW2: Float64Array[];
  private readonly meanW: Float64Array;
  private readonly meanW2: Float64Array;
  private readonly meanSqW2: Float64Array;
  private readonly secondW: Float64Array;

  constructor(
    private readonly net: HybridNetwork,
    private readonly discreteVariables: number[],
    n: number,
  ) {
    this.discreteW = discreteVariables.map((v) => new Float64Array(stateCount(net, v)));
    this.discreteW2 = discreteVariables.map((v) => new Float64Array(stateCount(net, v)));
    this.meanW = new Float64Array(n);
    this.meanW2 = new Float64Array(n);
    this.meanSqW2 = new Float64Array(n);
    this.secondW = new Float64Array(n);
  }

  rescale(f: number): void {
    const f2 = f * f;
    this.totalW *= f;
    this.totalW2 *= f2;
    for (const a of this.discreteW) for (let s = 0; s < a.length; s++) a[s]! *= f;
    for (const a of this.discreteW2) for (let s = 0; s < a.length; s++) a[s]! *= f2;
    for (let i = 0; i < this.meanW.length; i++) {
      this.meanW[i]! *= f;
      this.secondW[i]! *= f;
      this.meanW2[i]! *= f2;
      this.meanSqW2[i]! *= f2;
    }
  }

  add(w: number, x: Int32Array, g: ConditionedGaussian): void {
    this.totalW += w;
    this.totalW2 += w * w;
    this.discreteVariables.forEach((_, i) => {
      this.discreteW[i]![x[i]!]! += w;
      this.discreteW2[i]![x[i]!]! += w * w;
    });
    for (let i = 0; i < this.meanW.length; i++) {
      const m = g.means[i]!;
      this.meanW[i]! += w * m;
      this.secondW[i]! += w * (g.variances[i]! + m * m);
      this.meanW2[i]! += w * w * m;
      this.meanSqW2[i]! += w * w * m * m;
    }
  }

  answer(
    evidence: HybridEvidence,
    order: number[],
    parts: Map<string, { gaussian: ConditionedGaussian; weight: number }>,
  ) {
    const { net, totalW, totalW2 } = this;
    const discrete = new Array<Float64Array | undefined>(net.variables.length);
    const discreteStderr = new Array<Float64Array | undefined>(net.variables.length);
    const floor = totalW2 / (totalW * totalW); // one effective sample's worth, as likelihoodWeighting.ts
    this.discreteVariables.forEach((v, i) => {
      const p = this.discreteW[i]!.map((s) => s / totalW);
      discrete[v] = p;
      discreteStderr[v] = p.map((q, s) =>
        evidence.discrete.has(v)
          ? 0
          : Math.max(Math.sqrt(Math.max(0, this.discreteW2[i]![s]! * (1 - 2 * q) + q * q * totalW2)) / totalW, floor),
      );
    });
    const continuous = new Array<ContinuousPosterior | undefined>(net.variables.length);
    const meanStderr = new Array<number | undefined>(net.variables.length);
    const list = [...parts.values()].filter((p) => p.weight > 0);
    order.forEach((v, i) => {
      const mean = this.meanW[i]! / totalW;
      const variance = Math.max(0, this.secondW[i]! / totalW - mean * mean);
      // Σ w² (μ − m̂)² = Σ w² μ² − 2 m̂ Σ w² μ + m̂² Σ w²
      const spread = this.meanSqW2[i]! - 2 * mean * this.meanW2[i]! + mean * mean * totalW2;
      meanStderr[v] = evidence.continuous.has(v) ? 0 : Math.sqrt(Math.max(0, spread)) / totalW;
      const components: GaussianComponent[] =
        list.length <= MAX_COMPONENTS
          ? list.map((p) => ({
              weight: p.weight / totalW,
              mean: p.gaussian.means[i]!,
              variance: p.gaussian.variances[i]!,
            }))
          : [];
      continuous[v] = evidence.continuous.has(v)
        ? {
            mean: evidence.continuous.get(v)!,
            variance: 0,
            components: [{ weight: 1, mean: evidence.continuous.get(v)!, variance: 0 }],
          }
        : { mean, variance, components };
    });
    return { discrete, discreteStderr, continuous, meanStderr };
  }
}
