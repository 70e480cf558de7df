/**
 * Variable elimination for one query P(Q | e) (Koller & Friedman ch. 9; Poole & Mackworth §8.4).
 *
 * Before eliminating, the network is pruned to what the query needs:
 * - barren nodes: only ancestors of Q ∪ E matter (a leaf that is neither queried nor observed
 *   sums to 1 and can be removed, repeatedly);
 * - irrelevant evidence: CPTs are reduced by the evidence (cutting the observed variables out),
 *   and factors in components of the remaining interaction graph that do not touch Q only
 *   contribute a constant that normalisation removes.
 * This is what pgmpy's `_prune_bayesian_model` does (d-separated nodes, then the ancestral graph
 * of Q ∪ E): a node is d-connected to Q given E exactly when it is connected to Q in the moral
 * graph of the ancestral set with E removed (Lauritzen), i.e. in `connected` below. Like pgmpy,
 * the file's CPT rows are multiplied as given, never renormalised, so on files whose rows are
 * rounded to 1 ± 1e-7 we reproduce its reference marginals to ~1e-16, not just to the rounding.
 * The rest is eliminated in a greedy (best of min-fill / weighted min-fill / min-weight) order.
 * Each new factor is rescaled by its largest entry (log kept) so that long products of small
 * probabilities neither underflow nor lose P(e).
 */
import { ancestralSet, type BayesianNetwork } from '../network.js';
import { bestEliminationOrder, cardinalities, type EliminationOrder } from './eliminationOrder.js';
import {
  cptFactor,
  normalized,
  productOf,
  projectOnto,
  reduceFactor,
  sumProductOut,
  type Factor,
} from '../factors/factor.js';
import { ImpossibleEvidenceError, type Evidence } from './junctionTree.js';
import { type CancelSignal, throwIfCancelled } from '../cancellation.js';
import { requireWithin } from '../budget.js';

/** The CPTs of `keep`, reduced by the evidence. */
export function reducedFactors(net: BayesianNetwork, keep: Iterable<number>, evidence: Evidence): Factor[] {
  const out: Factor[] = [];
  for (const v of keep) {
    let f = cptFactor(net, v);
    for (const u of f.vars) {
      const s = evidence.get(u);
      if (s !== undefined) f = reduceFactor(f, u, s);
    }
    out.push(f);
  }
  return out;
}

/** Splits the factors into those connected to `query` through shared variables and the rest. */
function splitByConnection(factors: Factor[], query: readonly number[]): { connected: Factor[]; rest: Factor[] } {
  const reached = new Set(query);
  const used = new Array<boolean>(factors.length).fill(false);
  for (let grew = true; grew;) {
    grew = false;
    factors.forEach((f, i) => {
      if (used[i] || !f.vars.some((v) => reached.has(v))) return;
      used[i] = true;
      grew = true;
      for (const v of f.vars) reached.add(v);
    });
  }
  return { connected: factors.filter((_, i) => used[i]), rest: factors.filter((_, i) => !used[i]) };
}

/** Interaction graph of factor scopes and the greedy order eliminating `eliminate`. */
export function factorOrder(
  net: BayesianNetwork,
  factors: readonly Factor[],
  eliminate: readonly number[],
): EliminationOrder {
  const adj = net.variables.map(() => new Set<number>());
  for (const f of factors) for (const a of f.vars) for (const b of f.vars) if (a !== b) adj[a]!.add(b);
  return bestEliminationOrder(adj, cardinalities(net), eliminate);
}

/**
 * Sums (or maxes) `order` out of the factors. `onEliminate` sees each product before it is
 * reduced (max-product traceback keeps them). Returns the product of what is left, rescaled:
 * its entries times e^logScale are the true values.
 */
export function eliminate(
  factors: Factor[],
  order: EliminationOrder,
  op: 'sum' | 'max',
  signal?: CancelSignal,
  onEliminate?: (v: number, product: Factor) => void,
): { factor: Factor; logScale: number } {
  let pool = factors;
  let logScale = 0;
  for (const v of order.order) {
    throwIfCancelled(signal);
    const bucket = pool.filter((f) => f.vars.includes(v));
    pool = pool.filter((f) => !f.vars.includes(v));
    const message = op === 'sum' && !onEliminate ? sumProductOut(bucket, v) : eliminateFrom(bucket, v, op, onEliminate);
    logScale += rescale(message.values);
    pool.push(message);
  }
  const factor = productOf(pool);
  logScale += rescale(factor.values);
  return { factor, logScale };
}

/** The bucket's product with v maxed (or summed) out, the product shown to `onEliminate` first. */
function eliminateFrom(
  bucket: Factor[],
  v: number,
  op: 'sum' | 'max',
  onEliminate?: (v: number, product: Factor) => void,
): Factor {
  const product = productOf(bucket);
  onEliminate?.(v, product);
  return projectOnto(
    product,
    product.vars.filter((u) => u !== v),
    op,
  );
}

/** Divides by the largest entry; returns its log (−Infinity for an all-zero table). */
function rescale(values: Float64Array): number {
  let m = 0;
  for (let i = 0; i < values.length; i++) if (values[i]! > m) m = values[i]!;
  if (m > 0 && m !== 1) for (let i = 0; i < values.length; i++) values[i]! /= m;
  return Math.log(m);
}

export interface QueryResult {
  /** P(query | e) over the query variables in the order asked. */
  factor: Factor;
  /** Largest intermediate table of the elimination. */
  maxCliqueSize: number;
  /** All its intermediate tables together. */
  totalSize: number;
}

/**
 * P(query | evidence) by variable elimination. Throws ImpossibleEvidenceError when P(e) = 0, and a
 * BudgetError, before any table is built, when the elimination's tables together exceed `maxEntries`.
 */
export function variableElimination(
  net: BayesianNetwork,
  query: readonly number[],
  evidence: Evidence,
  signal?: CancelSignal,
  maxEntries = Infinity,
): QueryResult {
  const observedQuery = query.filter((q) => evidence.has(q));
  const free = query.filter((q) => !evidence.has(q));
  const keep = ancestralSet(net, [...query, ...evidence.keys()]);
  const { connected, rest } = splitByConnection(reducedFactors(net, keep, evidence), free);
  const order = factorOrder(
    net,
    connected,
    [...new Set(connected.flatMap((f) => f.vars))].filter((v) => !free.includes(v)),
  );
  requireWithin('the elimination', order.totalSize, maxEntries, 'table entries');
  const { factor } = eliminate(connected, order, 'sum', signal);
  // The disconnected rest only scales the answer, unless it is 0: then the evidence is impossible.
  if (rest.length && sumAll(net, rest, signal) === -Infinity) throw new ImpossibleEvidenceError();
  const result = projectOnto(factor, free);
  if (!result.values.some((x) => x > 0)) throw new ImpossibleEvidenceError();
  normalized(result.values);
  return {
    factor: withObserved(net, result, query, observedQuery, evidence),
    maxCliqueSize: order.maxCliqueSize,
    totalSize: order.totalSize,
  };
}

/** Observed query variables are certain: put them back as point masses, in the order asked. */
function withObserved(
  net: BayesianNetwork,
  f: Factor,
  query: readonly number[],
  observed: number[],
  evidence: Evidence,
): Factor {
  if (observed.length === 0) return f;
  const points = observed.map((v) => {
    const values = new Float64Array(net.variables[v]!.states.length);
    values[evidence.get(v)!] = 1;
    return { vars: [v], cards: [values.length], values };
  });
  return projectOnto(productOf([f, ...points]), query);
}

/** log P(e) by eliminating every variable of the evidence's ancestral set. */
export function probabilityOfEvidence(net: BayesianNetwork, evidence: Evidence, signal?: CancelSignal): number {
  return sumAll(net, reducedFactors(net, ancestralSet(net, evidence.keys()), evidence), signal);
}

/** log Σ over all variables of the product of `factors`. */
function sumAll(net: BayesianNetwork, factors: Factor[], signal?: CancelSignal): number {
  const order = factorOrder(net, factors, [...new Set(factors.flatMap((f) => f.vars))]);
  const { factor, logScale } = eliminate(factors, order, 'sum', signal);
  return logScale + Math.log(factor.values[0]!);
}
