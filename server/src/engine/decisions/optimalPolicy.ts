/**
 * An influence diagram under its optimal strategy, as GeNIe's network view shows it: each free
 * decision replaced by its optimal rule — a deterministic table P(D = rule(c) | c) = 1 over what
 * it knows (engine/decisions/influenceDiagram.ts solves for the rules) — which makes the diagram
 * a belief network. Its marginals are the chance variables' distributions when the decisions are
 * taken optimally (and each decision's, the probability it is taken), and each utility node's
 * expected value is Σ P(parents | e) · U(parents); the values add up to the MEU.
 */
import type { BayesianNetwork, Cpt } from '../network.js';
import { cardinality } from '../network.js';
import { requireWithin } from '../budget.js';
import { posteriorMarginals, DEFAULT_BUDGET } from '../inference/marginals.js';
import { variableElimination } from '../inference/variableElimination.js';
import { EngineError } from '../engineError.js';
import { DEFAULT_DIAGRAM_BUDGET, solveInfluenceDiagram, type InfluenceDiagram } from './influenceDiagram.js';

export interface PolicyView {
  /** The maximum expected utility given the evidence. */
  meu: number;
  /** P(X | e) per variable under the optimal strategy (a fixed decision: its point mass). */
  marginals: Float64Array[];
  /** E[U | e] per utility node, in the diagram's order. */
  utilities: number[];
}

export interface PolicyOptions {
  /** Largest table (entries) a rule or an elimination may build. */
  budget?: number;
  /** The run's memory setting, exact inference's budget. */
  memoryBytes?: number;
}

export function underOptimalPolicy(
  id: InfluenceDiagram,
  evidence: ReadonlyMap<number, number> = new Map(),
  options: PolicyOptions = {},
): PolicyView {
  const budget = options.budget ?? DEFAULT_DIAGRAM_BUDGET;
  const solution = solveInfluenceDiagram(id, evidence, { budget, detailLimit: 0 });
  const net = policyNetwork(id, solution.rules, budget);
  const answer = posteriorMarginals(net, evidence, {
    method: 'exact',
    ...(options.memoryBytes ? { memoryBytes: options.memoryBytes } : {}),
  });
  if (!answer.ok) throw new EngineError(answer.message);
  const utilities = id.utilities.map((u) => {
    if (u.parents.length === 0) return u.table[0]!;
    const { factor } = variableElimination(net, u.parents, evidence, undefined, budget);
    let sum = 0;
    // Both in the order of u.parents, the last fastest.
    for (let i = 0; i < factor.values.length; i++) if (factor.values[i]! > 0) sum += factor.values[i]! * u.table[i]!;
    return sum;
  });
  return { meu: solution.meu, marginals: answer.marginals.map((m) => Float64Array.from(m)), utilities };
}

/** The diagram's network with each free decision's table replaced by its optimal rule. */
export function policyNetwork(
  id: InfluenceDiagram,
  rules: ReturnType<typeof solveInfluenceDiagram>['rules'],
  budget = DEFAULT_BUDGET,
): BayesianNetwork {
  const cpts: Cpt[] = [...id.network.cpts];
  for (const rule of rules) {
    const alternatives = cardinality(id.network, rule.decision);
    const rows = rule.choice.length;
    requireWithin(`the rule of '${id.network.variables[rule.decision]!.name}'`, rows * alternatives, budget, 'entries');
    const table = new Float64Array(rows * alternatives);
    for (let r = 0; r < rows; r++) table[r * alternatives + rule.choice[r]!] = 1;
    cpts[rule.decision] = { child: rule.decision, parents: [...rule.context], table };
  }
  return { name: id.network.name, variables: id.network.variables, cpts };
}
