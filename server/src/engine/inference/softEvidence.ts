/**
 * Uncertain evidence on a variable X, in the two forms the literature distinguishes (Pearl 1988
 * §2.2.2; Chan & Darwiche 2005, "On the revision of probabilistic beliefs using uncertain
 * evidence"):
 *
 * - virtual (likelihood) evidence λ(x): the new belief is P(v | e) λ(x) / Σ_x P(x | e) λ(x). Only
 *   the ratios of λ matter. Pearl's construction: a binary child Ô of X with P(Ô = seen | x) =
 *   λ(x) / max λ, observed `seen`. Reducing Ô's table by its observation is the likelihood
 *   factor λ(x) on X, so every exact algorithm (junction tree, variable elimination,
 *   max-product MPE, sensitivity) computes exactly with it, likelihood weighting weighs each
 *   sample by λ(x) / max λ and Gibbs sampling multiplies X's full conditional by it.
 * - soft evidence q(x) (Jeffrey's rule): X's new marginal is exactly q, and the rest moves as
 *   P'(v) = Σ_x q(x) P(v | x, e). That is virtual evidence with λ(x) = q(x) / P(x | e). Several
 *   soft findings are met together by iterative proportional fitting over their likelihood
 *   factors (each λ_i rescaled by q_i / P'(X_i) in turn until every marginal matches), which
 *   converges to the distribution closest to P(· | e) in Kullback–Leibler divergence with those
 *   marginals when one exists (Csiszár 1975; Peng, Zhang & Pan 2010).
 *
 * The virtual-evidence nodes are appended after the network's own variables, so indices of the
 * original variables, and answers read by them, do not change.
 */
import type { BayesianNetwork } from '../network.js';
import { EngineError } from '../engineError.js';
import { DEFAULT_BUDGET, EXACT_HARD_LIMIT, exactPlan } from './marginals.js';
import type { Evidence } from './junctionTree.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { maxOf } from '../math/extremes.js';

/** Soft or virtual findings that cannot be used as given, or that cannot all hold together. */
export class SoftEvidenceError extends EngineError {}

/** The two states of a virtual-evidence node; the first is observed. */
export const VIRTUAL_NODE_STATES = ['seen', 'unseen'];

/** Soft findings are met when every marginal is within this of its target. */
export const SOFT_TOLERANCE = 1e-10;
/** A fitted likelihood ratio this small for a wanted state means the fitting diverges (inconsistent findings). */
const VANISHING = 1e-250;
/** Sweeps of iterative proportional fitting before the findings are declared inconsistent. */
export const SOFT_MAX_SWEEPS = 1000;

export interface UncertainFindings {
  /** Virtual evidence: variable → λ(x) per state (non-negative, not all zero). */
  likelihoods?: ReadonlyMap<number, ArrayLike<number>>;
  /** Soft evidence: variable → the distribution its posterior must take (sums to 1). */
  soft?: ReadonlyMap<number, ArrayLike<number>>;
}

export interface SoftEvidenceOptions {
  tolerance?: number;
  maxSweeps?: number;
  /** Largest clique table the fitting may use (it needs exact marginals). */
  budget?: number;
  signal?: CancelSignal;
}

export interface VirtualEvidenceNetwork {
  /** The network with one virtual-evidence node per uncertain finding, after the original variables. */
  net: BayesianNetwork;
  /** The hard evidence and every virtual-evidence node observed `seen`. */
  evidence: Evidence;
  /** Variable → its virtual-evidence node. */
  nodes: Map<number, number>;
  /** Variable → the likelihood vector in force, scaled to a largest entry of 1 (soft: the fitted one). */
  likelihoods: Map<number, Float64Array>;
  /** Sweeps the fitting took (0 without soft findings). */
  sweeps: number;
}

/** The name of X's virtual-evidence node: `λ(X)` (no name a file can declare). */
export function virtualNodeName(variable: string): string {
  return `λ(${variable})`;
}

/** True for a node `virtualEvidenceNetwork` added. */
export function isVirtualNode(net: BayesianNetwork, v: number): boolean {
  const name = net.variables[v]?.name ?? '';
  return name.startsWith('λ(') && name.endsWith(')');
}

/**
 * The network and evidence in which the uncertain findings are ordinary observations. Soft
 * findings are turned into likelihoods by iterative proportional fitting on the junction tree.
 * Throws EngineError for a likelihood that is all zero, negative or not finite, a soft finding
 * that is not a distribution, a finding on a variable that is also observed, and soft findings
 * that cannot all hold (a state given mass that has probability 0 given the other evidence,
 * or findings that contradict each other and do not converge).
 */
export function virtualEvidenceNetwork(
  net: BayesianNetwork,
  evidence: Evidence,
  findings: UncertainFindings,
  options: SoftEvidenceOptions = {},
): VirtualEvidenceNetwork {
  const { likelihoods, targets } = checkedFindings(net, evidence, findings);
  const variables = [...net.variables];
  const cpts = [...net.cpts];
  const nodes = new Map<number, number>();
  const out = new Map(evidence);
  for (const v of likelihoods.keys()) {
    const node = variables.push({ name: virtualNodeName(name(net, v)), states: VIRTUAL_NODE_STATES }) - 1;
    cpts.push({ child: node, parents: [v], table: new Float64Array(2 * net.variables[v]!.states.length) });
    nodes.set(v, node);
    out.set(node, 0);
  }
  const virtual: BayesianNetwork = { name: net.name, variables, cpts };
  // Soft findings are fitted on the tree of the network that will answer (one compile, kept with
  // it): their λ nodes say 1 for every state meanwhile, and their λ enter as likelihoods.
  for (const [v, lambda] of likelihoods)
    setLikelihood(virtual, nodes.get(v)!, targets.has(v) ? lambda.map(() => 1) : lambda);
  if (targets.size === 0) return { net: virtual, evidence: out, nodes, likelihoods, sweeps: 0 };
  const soft = new Map([...targets.keys()].map((v) => [v, likelihoods.get(v)!]));
  const sweeps = fitSoftFindings(virtual, out, soft, targets, options);
  for (const v of targets.keys()) setLikelihood(virtual, nodes.get(v)!, likelihoods.get(v)!);
  exactPlan(virtual).tree().reloadTables(); // its λ tables changed in place
  return { net: virtual, evidence: out, nodes, likelihoods, sweeps };
}

/**
 * The findings checked (see virtualEvidenceNetwork for what is refused): virtual ones as
 * likelihoods scaled to a largest entry of 1, soft ones as targets, each with a likelihood of
 * ones for the fitting to adjust.
 */
export function checkedFindings(
  net: BayesianNetwork,
  evidence: Evidence,
  findings: UncertainFindings,
): { likelihoods: Map<number, Float64Array>; targets: Map<number, Float64Array> } {
  const likelihoods = new Map<number, Float64Array>();
  const targets = new Map<number, Float64Array>();
  for (const [v, lambda] of findings.likelihoods ?? []) likelihoods.set(v, checkedLikelihood(net, evidence, v, lambda));
  for (const [v, q] of findings.soft ?? []) {
    if (likelihoods.has(v)) {
      throw new SoftEvidenceError(`'${name(net, v)}' has both soft and virtual evidence: give one finding`);
    }
    targets.set(v, checkedSoft(net, evidence, v, q));
    likelihoods.set(v, new Float64Array(q.length).fill(1));
  }
  return { likelihoods, targets };
}

function name(net: BayesianNetwork, v: number): string {
  return net.variables[v]!.name;
}

function checkedVector(
  net: BayesianNetwork,
  evidence: Evidence,
  v: number,
  values: ArrayLike<number>,
  what: string,
): Float64Array {
  const k = net.variables[v]?.states.length;
  if (k === undefined) throw new RangeError(`${what} on ${v}, which is no variable of the network`);
  if (evidence.has(v)) throw new SoftEvidenceError(`'${name(net, v)}' is observed: it cannot also take ${what}`);
  if (values.length !== k) {
    const states = net.variables[v]!.states.join(', ');
    throw new EngineError(
      `${what} on '${name(net, v)}' needs ${k} numbers, one per state (${states}), ` + `got ${values.length}`,
    );
  }
  const out = Float64Array.from(values);
  for (const x of out) {
    if (!(x >= 0 && Number.isFinite(x))) {
      throw new SoftEvidenceError(
        `${what} on '${name(net, v)}' has the entry ${x}: entries are finite and not negative`,
      );
    }
  }
  return out;
}

function checkedLikelihood(net: BayesianNetwork, evidence: Evidence, v: number, lambda: ArrayLike<number>) {
  const out = checkedVector(net, evidence, v, lambda, 'virtual evidence');
  const max = maxOf(out);
  if (max === 0) {
    throw new SoftEvidenceError(
      `the likelihood of '${name(net, v)}' is zero for every state: it rules out every value`,
    );
  }
  return out.map((x) => x / max);
}

function checkedSoft(net: BayesianNetwork, evidence: Evidence, v: number, q: ArrayLike<number>): Float64Array {
  const out = checkedVector(net, evidence, v, q, 'soft evidence');
  const sum = out.reduce((a, b) => a + b, 0);
  if (Math.abs(sum - 1) > 1e-6) {
    throw new SoftEvidenceError(`soft evidence on '${name(net, v)}' must sum to 1, got ${Number(sum.toPrecision(10))}`);
  }
  return out.map((x) => x / sum);
}

/** P(seen | x) = λ(x) / max λ: the node's table, rows summing to 1. */
function setLikelihood(net: BayesianNetwork, node: number, lambda: Float64Array): void {
  const table = net.cpts[node]!.table;
  const max = maxOf(lambda);
  lambda.forEach((l, x) => {
    const p = max > 0 ? l / max : 0;
    table[2 * x] = p;
    table[2 * x + 1] = 1 - p;
  });
}

/**
 * Iterative proportional fitting: each sweep rescales every soft variable's λ (in `likelihoods`,
 * in place) by q / P'(x), P' computed on the junction tree of `net` itself with every likelihood
 * entered as a finding (no virtual nodes: the tree is the network's own, compiled once and kept
 * with it, so the results panel's clicks reuse it). Returns the sweeps.
 */
export function fitSoftFindings(
  net: BayesianNetwork,
  evidence: Evidence,
  likelihoods: Map<number, Float64Array>,
  targets: ReadonlyMap<number, Float64Array>,
  options: SoftEvidenceOptions = {},
): number {
  const tolerance = options.tolerance ?? SOFT_TOLERANCE;
  const maxSweeps = options.maxSweeps ?? SOFT_MAX_SWEEPS;
  const plan = exactPlan(net);
  const budget = options.budget ?? DEFAULT_BUDGET;
  if (plan.order.maxCliqueSize > budget || plan.order.totalSize > EXACT_HARD_LIMIT) {
    const cost = plan.order.maxCliqueSize;
    throw new EngineError(
      `soft evidence needs exact marginals, and this network's largest clique table (${cost} entries) is over ` +
        `the budget of ${budget}`,
    );
  }
  const jt = plan.tree();
  let fitted = false;
  const marginal = (v: number): Float64Array => {
    throwIfCancelled(options.signal);
    jt.setEvidence(evidence, likelihoods);
    jt.propagate(options.signal);
    // Before any rescaling, P(e) = 0 is the other evidence's; later, likelihoods that ran to 0.
    if (jt.impossible && !fitted) throw new EngineError('the evidence besides the soft findings has probability 0');
    if (jt.impossible) throw inconsistent();
    const p = jt.marginal(v);
    if (p.some(Number.isNaN)) throw inconsistent();
    return p;
  };
  const inconsistent = () => {
    const names = [...targets.keys()].map((v) => `'${name(net, v)}'`).join(', ');
    const why =
      'no distribution that agrees with the network and the other evidence has all these marginals ' +
      `(iterative proportional fitting diverged or did not meet them within ${tolerance})`;
    return new SoftEvidenceError(`the soft findings on ${names} cannot all hold together: ${why}`);
  };
  for (let sweep = 1; sweep <= maxSweeps; sweep++) {
    let worst = 0;
    for (const [v, q] of targets) {
      const p = marginal(v);
      const lambda = likelihoods.get(v)!;
      for (let x = 0; x < q.length; x++) {
        worst = Math.max(worst, Math.abs(p[x]! - q[x]!));
        if (q[x]! > 0 && p[x] === 0) {
          // Later sweeps: the findings' own likelihoods drove the state to 0 (they contradict each other).
          if (sweep > 1) throw inconsistent();
          const state = `${name(net, v)} = ${net.variables[v]!.states[x]}`;
          const why = 'but the other evidence makes it impossible';
          throw new SoftEvidenceError(`soft evidence gives '${state}' probability ${q[x]}, ${why}`);
        }
        lambda[x] = q[x] === 0 ? 0 : lambda[x]! * (q[x]! / p[x]!);
      }
      const max = maxOf(lambda);
      if (!(max > 0 && Number.isFinite(max))) throw inconsistent();
      for (let x = 0; x < lambda.length; x++) {
        lambda[x]! /= max;
        // A state the findings want but keep pushing towards 0: the fitting diverges (the
        // marginals contradict each other) long before λ underflows to a meaningless 0 or NaN.
        if (q[x]! > 0 && !(lambda[x]! >= VANISHING)) throw inconsistent();
      }
      fitted = true;
    }
    // The last sweep measured every target before rescaling it: all within tolerance means met.
    if (worst <= tolerance) return sweep;
  }
  throw inconsistent();
}
