/**
 * The most probable explanation of a Gaussian or CLG network: the discrete states d and
 * continuous values x of the unobserved variables that maximise the joint density p(d, x, e)
 * (probability of the discrete part times density of the continuous part).
 *
 * Given the configuration r of the discrete parents of continuous variables, the continuous
 * variables are jointly normal N(μ(r), Σ(r)) and independent of the other discrete variables
 * (clgInference.ts). So for a full discrete assignment d (which fixes r),
 *
 *     max_x p(d, x, e) = P(d, d_e) · N(e; μ_E, Σ_EE) · max_u N(u; μ_U|e, Σ_U|e)
 *                      = P(d, d_e) · N(e; μ_E, Σ_EE) · (2π)^(−|U|/2) |Σ_U|e|^(−1/2)
 *
 * reached at u = μ_U|e, the conditional mean. |Σ_U|e| = |Σ| / |Σ_EE| (Schur complement), and
 * |Σ| = Π σ²_i(r): the joint is X = B X + b + ε with B strictly triangular in topological order,
 * so Σ = A D Aᵀ with |A| = 1. Hence, per r, the best d is a discrete MPE (max-product variable
 * elimination, inference/mpe.ts) with r clamped, and the answer is the best r: exact, by
 * enumerating the configurations of r the evidence leaves open, within the same budget as
 * clgInference.ts. For a Gaussian network (no discrete variable) it is the posterior mean
 * vector, the mode of the posterior normal.
 */
import { requireWithin, DEFAULT_BUDGETS } from '../budget.js';
import { EngineError } from '../engineError.js';
import { throwIfCancelled } from '../cancellation.js';
import { ImpossibleEvidenceError } from '../inference/junctionTree.js';
import { mostProbableExplanation } from '../inference/mpe.js';
import { exactPlan } from '../inference/marginals.js';
import { hybridNetworkProblems, configurationIndex, type HybridNetwork } from './hybridNetwork.js';
import {
  checkEvidence,
  cutsetOf,
  discretePart,
  exactCost,
  forEachConfiguration,
  ImpossibleHybridEvidenceError,
  type HybridEvidence,
  type HybridOptions,
} from './clgInference.js';
import { conditionGaussian, continuousOrder, gaussianJoint } from './gaussianConditioning.js';
import { hasFindings, virtualHybridNetwork } from './hybridFindings.js';

export interface HybridExplanation {
  /** The state of every discrete variable (observed ones: as observed); -1 at continuous ones. */
  states: Int32Array;
  /** The value of every continuous variable (observed ones: as observed); NaN at discrete ones. */
  values: Float64Array;
  /** log p(d*, x*, e): log probability of the discrete part + log density of the continuous part. */
  logDensity: number;
  /** Configurations of the discrete parents of continuous variables that were compared. */
  configurations: number;
}

const LOG_2PI = Math.log(2 * Math.PI);

export function hybridMostProbableExplanation(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridOptions = {},
): HybridExplanation {
  if (hasFindings(evidence)) {
    // Findings are observed λ nodes (hybridFindings.ts), as the discrete MPE takes them.
    const virtual = virtualHybridNetwork(net, evidence, options);
    const best = hybridMostProbableExplanation(virtual.net, virtual.evidence, options);
    const n = net.variables.length;
    return { ...best, states: best.states.slice(0, n), values: best.values.slice(0, n) };
  }
  const problems = hybridNetworkProblems(net);
  if (problems.length) throw new EngineError(problems.join('; '));
  checkEvidence(net, evidence);
  const budgets = options.budgets ?? DEFAULT_BUDGETS;
  requireWithin(
    'the most probable explanation (configurations of the discrete parents × Gaussian joint)',
    exactCost(net, evidence).entries,
    budgets.maxTotalEntries,
  );
  const order = continuousOrder(net);
  const discrete = discretePart(net);
  // Max-product elimination builds tables as large as the discrete part's cliques.
  if (discrete.variables.length) {
    const largest = exactPlan(discrete.bn).order.maxCliqueSize;
    requireWithin(
      'the most probable explanation of the discrete part (largest clique)',
      largest,
      budgets.maxTableEntries,
    );
  }
  const cutset = cutsetOf(net).filter((r) => !evidence.discrete.has(r));
  const position = new Int32Array(net.variables.length).fill(-1);
  order.forEach((v, i) => (position[v] = i));
  const observedAt = new Map([...evidence.continuous].map(([v, x]) => [position[v]!, x]));
  const unobserved = order.length - observedAt.size;
  const states = new Int32Array(net.variables.length);
  for (const [v, s] of evidence.discrete) states[v] = s;
  let best: HybridExplanation | undefined;
  let configurations = 0;
  forEachConfiguration(net, cutset, states, () => {
    throwIfCancelled(options.signal);
    configurations++;
    const given = discrete.evidence(evidence.discrete, cutset, states);
    const explained = discreteExplanation(discrete, given, options.signal);
    if (!explained) return;
    const gaussian = conditionGaussian(gaussianJoint(net, order, states), observedAt);
    let logDetJoint = 0;
    for (const v of order) {
      const cpd = (net.cpds[v] as Extract<HybridNetwork['cpds'][number], { kind: 'gaussian' }>).cpd;
      logDetJoint += Math.log(cpd.variances[configurationIndex(net, cpd, states)]!);
    }
    const peak = -0.5 * (unobserved * LOG_2PI + logDetJoint - gaussian.logDetObserved);
    const logDensity = explained.logProbability + gaussian.logDensity + peak;
    if (best && !(logDensity > best.logDensity)) return;
    const out = new Int32Array(net.variables.length).fill(-1);
    discrete.variables.forEach((v, i) => (out[v] = explained.assignment[i]!));
    const values = new Float64Array(net.variables.length).fill(Number.NaN);
    order.forEach((v, i) => (values[v] = gaussian.means[i]!));
    best = { states: out, values, logDensity, configurations: 0 };
  });
  if (!best || !(best.logDensity > -Infinity)) throw new ImpossibleHybridEvidenceError();
  return { ...(best as HybridExplanation), configurations };
}

/** The discrete part's MPE given `given`, or undefined when that evidence has probability 0. */
function discreteExplanation(
  discrete: ReturnType<typeof discretePart>,
  given: Map<number, number>,
  signal: HybridOptions['signal'],
): { assignment: number[]; logProbability: number } | undefined {
  if (discrete.variables.length === 0) return { assignment: [], logProbability: 0 };
  try {
    return mostProbableExplanation(discrete.bn, given, signal);
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError) return undefined;
    throw e;
  }
}
