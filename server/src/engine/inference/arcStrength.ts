/**
 * Strength of influence of an arc Parent → Child (Koiter 2006; GeNIe and Netica draw it as the
 * arc's width): how far apart the child's distributions are across the parent's states.
 *
 * For one assignment o of the child's other parents, the distributions P(C | a, o) over the
 * parent's states a are compared by their generalised Jensen–Shannon divergence with equal
 * weights — the average Kullback–Leibler divergence from each to their mean:
 *
 *   JS(o) = (1/|A|) Σ_a KL( P(C | a, o) ‖ M_o ),   M_o = (1/|A|) Σ_a P(C | a, o),
 *
 * which is the mutual information I(Parent; Child | o) with the parent uniform. It is 0 when the
 * child does not depend on the parent there, at most ln |A| (a child that copies the parent),
 * and finite where a plain KL divergence between two rows with zeros is not. The strength is its
 * expectation over the other parents, weighted by the product of their marginals:
 *
 *   strength(Parent → Child) = Σ_o Π_j P(O_j = o_j) · JS(o)   (nats).
 *
 * One pass over the child's table per parent: linear in the tables' sizes.
 */
import type { BayesianNetwork } from '../network.js';
import { cardinality } from '../network.js';

export interface ArcStrength {
  parent: number;
  child: number;
  /** Nats, in [0, ln |parent states|]. */
  strength: number;
}

/**
 * Every arc's strength. `marginals[v]` weighs the other parents' states (the prior, or the
 * marginals under the evidence in force); tables with unknown entries (NaN) give no arcs.
 */
export function arcStrengths(net: BayesianNetwork, marginals: ArrayLike<ArrayLike<number>>): ArcStrength[] {
  const out: ArcStrength[] = [];
  for (const cpt of net.cpts) {
    if (cpt.table.some((x) => Number.isNaN(x))) continue;
    cpt.parents.forEach((parent, i) => {
      out.push({ parent, child: cpt.child, strength: influenceOf(net, cpt.child, i, marginals) });
    });
  }
  return out;
}

/** The strength of the child's `i`-th parent on it. */
function influenceOf(net: BayesianNetwork, child: number, i: number, marginals: ArrayLike<ArrayLike<number>>): number {
  const { parents, table } = net.cpts[child]!;
  const k = cardinality(net, child);
  const cards = parents.map((p) => cardinality(net, p));
  const rows = cards.reduce((a, b) => a * b, 1);
  // Row stride of parent i (the last parent varies fastest).
  let stride = 1;
  for (let j = parents.length - 1; j > i; j--) stride *= cards[j]!;
  const alternatives = cards[i]!;
  const mean = new Float64Array(k);
  let total = 0;
  for (let r = 0; r < rows; r++) {
    if (Math.floor(r / stride) % alternatives !== 0) continue; // each group once, from its first row
    const weight = otherParentsWeight(parents, cards, i, r, marginals);
    if (weight === 0) continue;
    mean.fill(0);
    for (let a = 0; a < alternatives; a++) {
      const row = (r + a * stride) * k;
      for (let x = 0; x < k; x++) mean[x]! += table[row + x]! / alternatives;
    }
    let js = 0;
    for (let a = 0; a < alternatives; a++) {
      const row = (r + a * stride) * k;
      for (let x = 0; x < k; x++) {
        const p = table[row + x]!;
        if (p > 0) js += (p * Math.log(p / mean[x]!)) / alternatives;
      }
    }
    total += weight * js;
  }
  return Math.max(0, total);
}

/** Π_j P(O_j = o_j) over the parents other than `i`, for the assignment of row `r`. */
function otherParentsWeight(
  parents: readonly number[],
  cards: readonly number[],
  i: number,
  r: number,
  marginals: ArrayLike<ArrayLike<number>>,
): number {
  let weight = 1;
  for (let j = parents.length - 1; j >= 0; j--) {
    const s = r % cards[j]!;
    r = Math.floor(r / cards[j]!);
    if (j !== i) weight *= marginals[parents[j]!]?.[s] ?? 0;
  }
  return weight;
}
