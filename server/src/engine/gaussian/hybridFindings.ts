/**
 * Virtual (likelihood) and soft (Jeffrey) findings on the DISCRETE variables of a CLG network,
 * made exact the way softEvidence.ts makes them exact for discrete networks: Pearl's
 * virtual-evidence node. A finding on X becomes a discrete child λ(X) of X with
 * P(seen | x) = λ(x) / max λ, observed `seen`; it has no continuous parent or child, so the
 * network stays a CLG network, and every answer of clgInference.ts (or likelihood weighting) on
 * it is the posterior with the likelihood factor λ(X) on the discrete part.
 *
 * A soft finding q on X (Jeffrey's rule, P'(v) = Σ_x q(x) P(v | x, e)) is the virtual finding
 * λ(x) = q(x) / P(x | e), with e all the other evidence, continuous observations included.
 * Several soft findings are met together by iterative proportional fitting: each sweep rescales
 * λ_X by q / P'(X), P' computed exactly by clgInference.ts, until every marginal is within
 * SOFT_TOLERANCE (softEvidence.ts' constants and checks, so both kinds of network refuse the same
 * findings in the same words).
 *
 * A finding on a continuous variable has no states to weigh: it is refused, and the message says
 * to observe a number. The λ nodes come after the network's own variables, so indices and answers
 * read by them do not move.
 */
import { EngineError } from '../engineError.js';
import { maxOf } from '../math/extremes.js';
import { BudgetError } from '../budget.js';
import {
  checkedFindings,
  SOFT_MAX_SWEEPS,
  SOFT_TOLERANCE,
  SoftEvidenceError,
  VIRTUAL_NODE_STATES,
  virtualNodeName,
} from '../inference/softEvidence.js';
import type { HybridCpd, HybridNetwork, HybridVariable } from './hybridNetwork.js';
import { discretePart, hybridPosterior, type HybridEvidence, type HybridOptions } from './clgInference.js';

/** True when the evidence carries a virtual or soft finding. */
export function hasFindings(evidence: HybridEvidence): boolean {
  return (evidence.likelihoods?.size ?? 0) + (evidence.soft?.size ?? 0) > 0;
}

export interface VirtualHybridNetwork {
  /** The network with one λ node per finding, after the original variables. */
  net: HybridNetwork;
  /** The hard evidence and every λ node observed `seen` (no findings left). */
  evidence: HybridEvidence;
  /** Variable → the likelihood in force, scaled to a largest entry of 1 (soft: the fitted one). */
  likelihoods: Map<number, Float64Array>;
  /** Sweeps of the fitting (0 without soft findings). */
  sweeps: number;
}

/**
 * The network and evidence in which the findings are observations of λ nodes. Throws EngineError
 * for a finding on a continuous or observed variable, a vector of the wrong length or with bad
 * entries, and soft findings that cannot all hold (SoftEvidenceError); a BudgetError when soft
 * findings need exact marginals the budget does not allow.
 */
export function virtualHybridNetwork(
  net: HybridNetwork,
  evidence: HybridEvidence,
  options: HybridOptions = {},
): VirtualHybridNetwork {
  for (const v of [...(evidence.likelihoods?.keys() ?? []), ...(evidence.soft?.keys() ?? [])]) {
    const variable = net.variables[v];
    if (variable?.kind !== 'discrete') {
      const name = variable?.name ?? `#${v}`;
      throw new SoftEvidenceError(
        `'${name}' is continuous: virtual and soft findings take a discrete variable; observe ${name} with a number`,
      );
    }
    if (evidence.continuous.has(v)) throw new SoftEvidenceError(`'${variable.name}' is observed`);
  }
  const { likelihoods, targets } = localFindings(net, evidence);
  const variables: HybridVariable[] = [...net.variables];
  const cpds: HybridCpd[] = [...net.cpds];
  const discrete = new Map(evidence.discrete);
  const tables = new Map<number, Float64Array>();
  for (const [v, lambda] of likelihoods) {
    const node =
      variables.push({
        kind: 'discrete',
        name: virtualNodeName(net.variables[v]!.name),
        states: [...VIRTUAL_NODE_STATES],
      }) - 1;
    const table = new Float64Array(2 * lambda.length);
    cpds.push({ kind: 'discrete', cpt: { child: node, parents: [v], table } });
    tables.set(v, table);
    discrete.set(node, 0);
  }
  const virtual: HybridNetwork = { name: net.name, variables, cpds };
  const plain: HybridEvidence = { discrete, continuous: evidence.continuous };
  for (const [v, lambda] of likelihoods) setLikelihood(tables.get(v)!, lambda);
  const sweeps = targets.size ? fitSoftFindings(virtual, plain, tables, likelihoods, targets, options) : 0;
  return { net: virtual, evidence: plain, likelihoods, sweeps };
}

/** softEvidence.ts' checks on the discrete part (its indices), the answer by network index. */
function localFindings(net: HybridNetwork, evidence: HybridEvidence) {
  const part = discretePart(net);
  const local = (m: ReadonlyMap<number, ArrayLike<number>> | undefined) =>
    new Map([...(m ?? [])].map(([v, x]) => [part.local[v]!, x]));
  const observed = new Map([...evidence.discrete].map(([v, s]) => [part.local[v]!, s]));
  const checked = checkedFindings(part.bn, observed, {
    likelihoods: local(evidence.likelihoods),
    soft: local(evidence.soft),
  });
  const global = <T>(m: Map<number, T>) => new Map([...m].map(([i, x]) => [part.variables[i]!, x]));
  return { likelihoods: global(checked.likelihoods), targets: global(checked.targets) };
}

/** P(seen | x) = λ(x) / max λ: the λ node's table, rows summing to 1. */
function setLikelihood(table: Float64Array, lambda: Float64Array): void {
  const max = maxOf(lambda);
  lambda.forEach((l, x) => {
    const p = max > 0 ? l / max : 0;
    table[2 * x] = p;
    table[2 * x + 1] = 1 - p;
  });
}

/**
 * Iterative proportional fitting (softEvidence.ts' fitSoftFindings, with the hybrid posterior for
 * the marginals): rescales each soft variable's λ, in `likelihoods` and its node's table, by
 * q / P'(x) until every marginal is met. Returns the sweeps.
 */
function fitSoftFindings(
  net: HybridNetwork,
  evidence: HybridEvidence,
  tables: Map<number, Float64Array>,
  likelihoods: Map<number, Float64Array>,
  targets: Map<number, Float64Array>,
  options: HybridOptions,
): number {
  const names = [...targets.keys()].map((v) => `'${net.variables[v]!.name}'`).join(', ');
  const inconsistent = () =>
    new SoftEvidenceError(
      `the soft findings on ${names} cannot all hold together: no distribution that agrees with the network ` +
        `and the other evidence has all these marginals (iterative proportional fitting did not meet them)`,
    );
  const marginal = (v: number, sweep: number): Float64Array => {
    try {
      return hybridPosterior(net, evidence, options).discrete[v]!;
    } catch (e) {
      if (e instanceof BudgetError) throw new BudgetError(`soft evidence needs exact marginals: ${e.message}`);
      if (sweep > 1 && e instanceof EngineError && /probability \(density\) 0/.test(e.message)) throw inconsistent();
      throw e;
    }
  };
  for (let sweep = 1; sweep <= SOFT_MAX_SWEEPS; sweep++) {
    let worst = 0;
    for (const [v, q] of targets) {
      const p = marginal(v, sweep);
      const lambda = likelihoods.get(v)!;
      for (let x = 0; x < q.length; x++) {
        worst = Math.max(worst, Math.abs(p[x]! - q[x]!));
        if (q[x]! > 0 && !(p[x]! > 0)) {
          if (sweep > 1) throw inconsistent();
          const variable = net.variables[v] as { name: string; states: string[] };
          throw new SoftEvidenceError(
            `soft evidence gives '${variable.name} = ${variable.states[x]}' probability ${q[x]}, ` +
              'but the other evidence makes it impossible',
          );
        }
        lambda[x] = q[x] === 0 ? 0 : lambda[x]! * (q[x]! / p[x]!);
      }
      const max = maxOf(lambda);
      if (!(max > 0 && Number.isFinite(max))) throw inconsistent();
      for (let x = 0; x < lambda.length; x++) lambda[x]! /= max;
      setLikelihood(tables.get(v)!, lambda);
    }
    if (worst <= SOFT_TOLERANCE) return sweep;
  }
  throw inconsistent();
}
