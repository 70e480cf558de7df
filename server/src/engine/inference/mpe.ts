/**
 * Most probable explanation: argmax over all unobserved variables of P(x, e), by max-product
 * variable elimination with traceback (Koller & Friedman §13.2). Each eliminated variable keeps
 * the product it was maxed out of; walking the order backwards, its best state given the
 * already-decoded later variables is read off that product.
 */
import type { BayesianNetwork } from '../network.js';
import { stridesOf, type Factor } from '../factors/factor.js';
import { ImpossibleEvidenceError, type Evidence } from './junctionTree.js';
import { eliminate, factorOrder, reducedFactors } from './variableElimination.js';
import { type CancelSignal, throwIfCancelled } from '../cancellation.js';

export interface MpeResult {
  /** State index of every variable (evidence included). */
  assignment: number[];
  /** log P(x*, e), the joint probability of the explanation with the evidence. */
  logProbability: number;
  maxCliqueSize: number;
}

export function mostProbableExplanation(net: BayesianNetwork, evidence: Evidence, signal?: CancelSignal): MpeResult {
  const all = net.variables.map((_, i) => i);
  const factors = reducedFactors(net, all, evidence);
  const order = factorOrder(
    net,
    factors,
    all.filter((v) => !evidence.has(v)),
  );
  const kept: [number, Factor][] = [];
  const { factor, logScale } = eliminate(factors, order, 'max', signal, (v, product) => kept.push([v, product]));
  const logProbability = logScale + Math.log(factor.values[0]!);
  if (logProbability === -Infinity) throw new ImpossibleEvidenceError();
  const assignment = all.map((v) => evidence.get(v) ?? -1);
  for (let i = kept.length - 1; i >= 0; i--) {
    throwIfCancelled(signal);
    const [v, product] = kept[i]!;
    assignment[v] = bestState(product, v, assignment);
  }
  return { assignment, logProbability, maxCliqueSize: order.maxCliqueSize };
}

/** argmax over v of `product` with its other variables fixed by `assignment`. */
export function bestState(product: Factor, v: number, assignment: readonly number[]): number {
  const strides = stridesOf(product.cards);
  let base = 0;
  product.vars.forEach((u, j) => {
    if (u !== v) base += assignment[u]! * strides[j]!;
  });
  const j = product.vars.indexOf(v);
  let best = 0;
  for (let s = 1; s < product.cards[j]!; s++) {
    if (product.values[base + s * strides[j]!]! > product.values[base + best * strides[j]!]!) best = s;
  }
  return best;
}
