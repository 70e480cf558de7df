/**
 * Exact posteriors in conditional linear Gaussian (CLG) networks — Gaussian networks being the
 * case without discrete variables — by conditioning on the discrete parents of the continuous
 * variables (a cutset, Pearl §4.3.1 / Koller & Friedman §12.5 applied to CLG models).
 *
 * Let R be the discrete variables that are parents of some continuous variable. Given R = r the
 * continuous variables are jointly normal (gaussianConditioning.ts), and — since no discrete
 * variable has a continuous parent — independent of the other discrete variables. So, with
 * discrete evidence d and continuous evidence e:
 *
 *     p(r, d, e) = P(r, d) · N(e; μ_E(r), Σ_EE(r))          (P from the discrete junction tree)
 *     P(r | d, e) = p(r, d, e) / Σ_r' p(r', d, e)            p(d, e) = Σ_r p(r, d, e)
 *     P(D | d, e) = Σ_r P(r | d, e) · P(D | r, d)            (a junction tree answer per r)
 *     p(X | d, e) = Σ_r P(r | d, e) · N(μ_X|r,e , σ²_X|r,e)  (a mixture, one component per r)
 *
 * Every step is an identity, so the answer is exact; the cost is one junction-tree propagation
 * and one Gaussian conditioning per configuration of R, checked against the budget before any
 * is made. Hugin's strong junction tree (Lauritzen & Jensen 2001) would also be exact, with the
 * same mixtures collapsed only where the user reads them; enumerating R is simpler and, for the
 * CLG networks people write (a few discrete parents), as fast.
 */
import type { BayesianNetwork, Cpt } from '../network.js';
import { BudgetError, type Budgets, DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import { EngineError } from '../engineError.js';
import { logSumExp } from '../math/logMath.js';
import { posteriorMarginals } from '../inference/marginals.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { hybridNetworkProblems, stateCount, type HybridNetwork } from './hybridNetwork.js';
import { conditionGaussian, continuousOrder, gaussianJoint, type ConditionedGaussian } from './gaussianConditioning.js';

export interface HybridEvidence {
  /** Discrete variable index → observed state. */
  discrete: ReadonlyMap<number, number>;
  /** Continuous variable index → observed value. */
  continuous: ReadonlyMap<number, number>;
  /** Virtual findings: discrete variable index → λ per state (hybridFindings.ts). */
  likelihoods?: ReadonlyMap<number, ArrayLike<number>>;
  /** Soft findings (Jeffrey's rule): discrete variable index → its posterior (hybridFindings.ts). */
  soft?: ReadonlyMap<number, ArrayLike<number>>;
}

export interface GaussianComponent {
  weight: number;
  mean: number;
  variance: number;
}

/** A continuous variable's posterior: a mixture of normals, and its overall mean and variance. */
export interface ContinuousPosterior {
  mean: number;
  variance: number;
  /** Weights sum to 1; components with equal mean and variance are merged. One for a Gaussian network. */
  components: GaussianComponent[];
}

export interface HybridPosterior {
  method: 'exact';
  /** P(D | evidence) for each discrete variable (undefined at continuous ones); observed ones are point masses. */
  discrete: (Float64Array | undefined)[];
  /** The posterior of each continuous variable (undefined at discrete ones); observed ones: the value, variance 0. */
  continuous: (ContinuousPosterior | undefined)[];
  /** log p(evidence): probability of the discrete evidence times density of the continuous. */
  logEvidence: number;
  /**
   * Gaussian networks only: the most probable values of the unobserved variables jointly (the
   * MPE), which for a normal posterior is its mean.
   */
  mostProbable?: Float64Array;
  /** Configurations of the discrete parents of continuous variables that were enumerated. */
  configurations: number;
}

export interface HybridOptions {
  budgets?: Budgets;
  signal?: CancelSignal;
}

export class ImpossibleHybridEvidenceError extends EngineError {
  override name = 'ImpossibleHybridEvidenceError';
  constructor() {
    super('the evidence has probability (density) 0');
  }
}

/** The discrete parents of continuous variables, in index order. */
export function cutsetOf(net: HybridNetwork): number[] {
  const set = new Set<number>();
  for (const cpd of net.cpds) if (cpd.kind === 'gaussian') for (const p of cpd.cpd.discreteParents) set.add(p);
  return [...set].sort((a, b) => a - b);
}

/**
 * The work exact inference would do: configurations of the cutset (those the discrete evidence
 * leaves open) × the entries of one Gaussian joint. Infinity-safe.
 */
export function exactCost(net: HybridNetwork, evidence: HybridEvidence): { configurations: number; entries: number } {
  let configurations = 1;
  for (const r of cutsetOf(net)) if (!evidence.discrete.has(r)) configurations *= stateCount(net, r);
  const n = net.variables.filter((v) => v.kind === 'continuous').length;
  return { configurations, entries: configurations * Math.max(1, n * n) };
}

export function hybridPosterior(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridOptions = {},
): HybridPosterior {
  const problems = hybridNetworkProblems(net);
  if (problems.length) throw new EngineError(problems.join('; '));
  checkEvidence(net, evidence);
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  const cost = exactCost(net, evidence);
  requireWithin(
    'exact inference (configurations of the discrete parents × Gaussian joint)',
    cost.entries,
    budgets.maxTotalEntries,
  );
  const order = continuousOrder(net);
  const discrete = discretePart(net);
  const cutset = cutsetOf(net).filter((r) => !evidence.discrete.has(r));
  const states = new Int32Array(net.variables.length);
  for (const [v, s] of evidence.discrete) states[v] = s;
  const observedAt = new Map<number, number>();
  const jointPosition = new Int32Array(net.variables.length).fill(-1);
  order.forEach((v, i) => (jointPosition[v] = i));
  for (const [v, x] of evidence.continuous) observedAt.set(jointPosition[v]!, x);

  const parts: { logWeight: number; discrete?: Float64Array[]; gaussian: ConditionedGaussian }[] = [];
  forEachConfiguration(net, cutset, states, () => {
    throwIfCancelled(options.signal);
    const given = discrete.evidence(evidence.discrete, cutset, states);
    const answer = discrete.answer(given, options.signal);
    if (!answer) return;
    const gaussian = conditionGaussian(gaussianJoint(net, order, states), observedAt);
    parts.push({ logWeight: answer.logEvidence + gaussian.logDensity, discrete: answer.marginals, gaussian });
  });
  const logWeights = parts.map((p) => p.logWeight);
  const logEvidence = parts.length ? logSumExp(logWeights) : -Infinity;
  if (!(logEvidence > -Infinity)) throw new ImpossibleHybridEvidenceError();
  const weights = logWeights.map((w) => Math.exp(w - logEvidence));
  const result: HybridPosterior = {
    method: 'exact',
    discrete: discretePosteriors(net, discrete, parts, weights),
    continuous: continuousPosteriors(net, order, parts, weights),
    logEvidence,
    configurations: parts.length,
  };
  if (discrete.variables.length === 0) result.mostProbable = Float64Array.from(parts[0]!.gaussian.means);
  return result;
}

export function checkEvidence(net: HybridNetwork, evidence: HybridEvidence): void {
  // Findings are λ nodes by then (hybridFindings.ts, entered by hybridMarginals.ts): never ignored.
  if ((evidence.likelihoods?.size ?? 0) + (evidence.soft?.size ?? 0) > 0)
    throw new EngineError('virtual and soft findings are entered by hybridMarginals (as λ nodes)');
  for (const [v, s] of evidence.discrete) {
    const variable = net.variables[v];
    if (variable?.kind !== 'discrete') throw new EngineError(`'${variable?.name ?? v}' is not a discrete variable`);
    if (!(Number.isInteger(s) && s >= 0 && s < variable.states.length)) {
      throw new EngineError(`state #${s} is not a state of '${variable.name}'`);
    }
  }
  for (const [v, x] of evidence.continuous) {
    const variable = net.variables[v];
    if (variable?.kind !== 'continuous') throw new EngineError(`'${variable?.name ?? v}' is not a continuous variable`);
    if (!Number.isFinite(x)) throw new EngineError(`the value observed for '${variable.name}' must be a finite number`);
  }
}

/** Calls `visit` with `states` set to each configuration of `cutset` (first variable slowest). */
export function forEachConfiguration(
  net: HybridNetwork,
  cutset: number[],
  states: Int32Array,
  visit: () => void,
): void {
  for (const r of cutset) states[r] = 0;
  for (;;) {
    visit();
    let i = cutset.length - 1;
    for (; i >= 0; i--) {
      const r = cutset[i]!;
      if (++states[r]! < stateCount(net, r)) break;
      states[r] = 0;
    }
    if (i < 0) return;
  }
}

/** The discrete variables as a discrete network of their own (their parents are all discrete), and its answers. */
export function discretePart(net: HybridNetwork) {
  const variables = net.variables.flatMap((v, i) => (v.kind === 'discrete' ? [i] : []));
  const local = new Int32Array(net.variables.length).fill(-1);
  variables.forEach((v, i) => (local[v] = i));
  const bn: BayesianNetwork = {
    name: net.name,
    variables: variables.map((v) => ({
      name: net.variables[v]!.name,
      states: (net.variables[v] as { states: string[] }).states,
    })),
    cpts: variables.map((v, i): Cpt => {
      const cpt = (net.cpds[v] as { kind: 'discrete'; cpt: Cpt }).cpt;
      return { child: i, parents: cpt.parents.map((p) => local[p]!), table: cpt.table };
    }),
  };
  return {
    variables,
    local,
    bn,
    evidence(observed: ReadonlyMap<number, number>, cutset: number[], states: Int32Array): Map<number, number> {
      const given = new Map<number, number>();
      for (const [v, s] of observed) given.set(local[v]!, s);
      for (const r of cutset) given.set(local[r]!, states[r]!);
      return given;
    },
    /** log P(given) and the discrete marginals given it; undefined when P(given) = 0. */
    answer(
      given: Map<number, number>,
      signal?: CancelSignal,
    ): { logEvidence: number; marginals?: Float64Array[] } | undefined {
      if (variables.length === 0) return { logEvidence: 0 };
      const answer = posteriorMarginals(bn, given, { method: 'exact', keepTree: true, signal });
      if (!answer.ok) {
        if (answer.message === 'evidence has probability 0') return undefined;
        throw new BudgetError(`the discrete part: ${answer.message}`);
      }
      return { logEvidence: answer.logEvidence!, marginals: answer.marginals };
    },
  };
}

function discretePosteriors(
  net: HybridNetwork,
  discrete: ReturnType<typeof discretePart>,
  parts: { discrete?: Float64Array[] }[],
  weights: number[],
): (Float64Array | undefined)[] {
  const out = new Array<Float64Array | undefined>(net.variables.length);
  discrete.variables.forEach((v, i) => {
    const sum = new Float64Array(stateCount(net, v));
    parts.forEach((part, c) => {
      const marginal = part.discrete![i]!;
      for (let s = 0; s < sum.length; s++) sum[s] = sum[s]! + weights[c]! * marginal[s]!;
    });
    out[v] = sum;
  });
  return out;
}

function continuousPosteriors(
  net: HybridNetwork,
  order: number[],
  parts: { gaussian: ConditionedGaussian }[],
  weights: number[],
): (ContinuousPosterior | undefined)[] {
  const out = new Array<ContinuousPosterior | undefined>(net.variables.length);
  order.forEach((v, i) => {
    // Components equal to the last bit (a variable that does not depend on the configuration) are one.
    const byValue = new Map<string, GaussianComponent>();
    parts.forEach((part, c) => {
      const mean = part.gaussian.means[i]!;
      const variance = part.gaussian.variances[i]!;
      const key = `${mean}|${variance}`;
      const same = byValue.get(key);
      if (same) same.weight += weights[c]!;
      else if (weights[c]! > 0) byValue.set(key, { weight: weights[c]!, mean, variance });
    });
    const components = [...byValue.values()];
    if (components.length === 1) {
      // one normal (a Gaussian network, or a variable the configuration does not move): exactly it
      const only = { weight: 1, mean: components[0]!.mean, variance: components[0]!.variance };
      out[v] = { mean: only.mean, variance: only.variance, components: [only] };
      return;
    }
    let mean = 0;
    for (const k of components) mean += k.weight * k.mean;
    // Var = E[Var | r] + Var(E[X | r]), written so that one component gives its own variance exactly
    let spread = 0;
    for (const k of components) spread += k.weight * (k.variance + (k.mean - mean) ** 2);
    out[v] = { mean, variance: Math.max(0, spread), components };
  });
  return out;
}
