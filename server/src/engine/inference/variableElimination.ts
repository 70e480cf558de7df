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
import { bestEliminationOrder, eliminationOrder, type EliminationOrder } from './eliminationOrder.js';
import {
  cptFactor,
  normalized,
  productOf,
  projectOnto,
  reduceFactor,
  sumProductOut,
  type Factor,
  type TablePool,
} from '../factors/factor.js';
import { ImpossibleEvidenceError, type Evidence } from './junctionTree.js';
import { type CancelSignal, throwIfCancelled } from '../cancellation.js';
import { requireWithin } from '../budget.js';

/** The CPTs of `keep`, reduced by the evidence (by `reduced` when given: one query among many). */
export function reducedFactors(
  net: BayesianNetwork,
  keep: Iterable<number>,
  evidence: Evidence,
  reduced?: ReducedCpts,
): Factor[] {
  const out: Factor[] = [];
  for (const v of keep) out.push(reduced ? reduced(v) : reducedCpt(net, v, evidence));
  return out;
}

/** v's CPT as a factor, reduced by the evidence (cut at the observed variables' states). */
function reducedCpt(net: BayesianNetwork, v: number, evidence: Evidence): Factor {
  let f = cptFactor(net, v);
  for (const u of f.vars) {
    const s = evidence.get(u);
    if (s !== undefined) f = reduceFactor(f, u, s);
  }
  return f;
}

/** Each CPT reduced by one evidence set, made once for all the queries that share it. */
export type ReducedCpts = (v: number) => Factor;

export function reducedCpts(net: BayesianNetwork, evidence: Evidence): ReducedCpts {
  const made: (Factor | undefined)[] = [];
  return (v) => (made[v] ??= reducedCpt(net, v, evidence));
}

/**
 * Splits the factors into those connected to `query` through shared variables and the rest
 * (a search from the query over variables and the factors holding them; both keep their order).
 */
function splitByConnection(factors: Factor[], query: readonly number[]): { connected: Factor[]; rest: Factor[] } {
  const holding = new Map<number, number[]>();
  factors.forEach((f, i) => {
    for (const v of f.vars) {
      const list = holding.get(v);
      if (list) list.push(i);
      else holding.set(v, [i]);
    }
  });
  const reached = new Set(query);
  const used = new Uint8Array(factors.length);
  const stack = [...reached];
  while (stack.length) {
    for (const i of holding.get(stack.pop()!) ?? []) {
      if (used[i]) continue;
      used[i] = 1;
      for (const u of factors[i]!.vars) {
        if (reached.has(u)) continue;
        reached.add(u);
        stack.push(u);
      }
    }
  }
  return { connected: factors.filter((_, i) => used[i]), rest: factors.filter((_, i) => !used[i]) };
}

/** Entries (all tables) below which min-fill's order is kept without trying the other heuristics. */
const SMALL_ELIMINATION = 1 << 14;

/**
 * Interaction graph of factor scopes and the greedy order eliminating `eliminate`. The variables
 * that stay (`kept`: the query) are in the graph: every clique holding one is that many times
 * bigger, and the order must know it (barley: a query variable of 10 states hidden from the
 * order made its eliminations 12× the size the order counted).
 */
export function factorOrder(
  net: BayesianNetwork,
  factors: readonly Factor[],
  eliminate: readonly number[],
  kept: readonly number[] = [],
): EliminationOrder {
  // On the variables involved only, renumbered in ascending order (the same order, ties and all):
  // a query's pruned network is often a few dozen of munin's 1,041 variables, and a graph over
  // all of them cost more than the elimination.
  const vars = [...new Set([...factors.flatMap((f) => f.vars), ...eliminate, ...kept])].sort((a, b) => a - b);
  const local = new Map(vars.map((v, i) => [v, i]));
  const adj = vars.map(() => new Set<number>());
  for (const f of factors)
    for (const a of f.vars) for (const b of f.vars) if (a !== b) adj[local.get(a)!]!.add(local.get(b)!);
  const cards = vars.map((v) => net.variables[v]!.states.length);
  const nodes = eliminate.map((v) => local.get(v)!),
    stay = kept.map((v) => local.get(v)!);
  // A small elimination is not worth two more orderings: they could save fewer entries than they cost.
  const first = eliminationOrder(adj, cards, nodes, 'min-fill', stay);
  const order = first.totalSize <= SMALL_ELIMINATION ? first : bestEliminationOrder(adj, cards, nodes, stay, first);
  return {
    ...order,
    order: order.order.map((i) => vars[i]!),
    cliques: order.cliques.map((c) => c.map((i) => vars[i]!)),
  };
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
  pool?: TablePool,
): { factor: Factor; logScale: number } {
  // Bucket elimination: each factor waits in the bucket of its first variable to go, so a step
  // touches its own bucket only (filtering the whole pool at every step was quadratic: 1,041
  // munin queries of hundreds of variables each). A factor's number (its place in the pool the
  // textbook keeps: the given factors, then the messages as made) orders every product as the
  // pool would, so the numbers are the same bit for bit.
  const step = new Map(order.order.map((v, i) => [v, i]));
  const buckets: { f: Factor; n: number }[][] = order.order.map(() => []);
  const left: { f: Factor; n: number }[] = [];
  let made = factors.length;
  const file = (f: Factor, n: number) => {
    let first = -1;
    for (const u of f.vars) {
      const i = step.get(u);
      if (i !== undefined && (first < 0 || i < first)) first = i;
    }
    (first < 0 ? left : buckets[first]!).push({ f, n });
  };
  factors.forEach(file);
  // With a pool, a message's table goes back once its bucket is summed (messages are numbered
  // from factors.length on; the given factors are the caller's and never pooled).
  const given = factors.length;
  const giveBack = (filed: { f: Factor; n: number }[]) => {
    if (pool) for (const b of filed) if (b.n >= given) pool.give(b.f.values);
  };
  let logScale = 0;
  order.order.forEach((v, i) => {
    throwIfCancelled(signal);
    const bucket = buckets[i]!.map((b) => b.f);
    const message =
      op === 'sum' && !onEliminate ? sumProductOut(bucket, v, pool) : eliminateFrom(bucket, v, op, onEliminate);
    giveBack(buckets[i]!);
    logScale += rescale(message.values);
    file(message, made++);
  });
  const factor = productOf(left.sort((a, b) => a.n - b.n).map((b) => b.f));
  giveBack(left);
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
 * What one query's elimination will do, before any table is built: the factors pruned for it
 * (connected to the free query variables), the rest (a constant factor of the answer), and the
 * order with its table sizes, the work the cost model counts.
 */
export interface EliminationPlan {
  query: readonly number[];
  connected: Factor[];
  rest: Factor[];
  order: EliminationOrder;
}

/** Prunes the network for P(query | evidence) and orders the elimination (see the module comment). */
export function eliminationPlan(
  net: BayesianNetwork,
  query: readonly number[],
  evidence: Evidence,
  reduced?: ReducedCpts,
): EliminationPlan {
  const free = query.filter((q) => !evidence.has(q));
  const keep = ancestralSet(net, [...query, ...evidence.keys()]);
  const { connected, rest } = splitByConnection(reducedFactors(net, keep, evidence, reduced), free);
  const order = factorOrder(
    net,
    connected,
    [...new Set(connected.flatMap((f) => f.vars))].filter((v) => !free.includes(v)),
    free,
  );
  return { query, connected, rest, order };
}

/**
 * Carries out a plan: P(query | evidence). The rest's constant is checked for 0 (impossible
 * evidence) unless `checkRest` is false: a caller that checks P(e) itself once for many queries.
 */
export function eliminateByPlan(
  net: BayesianNetwork,
  plan: EliminationPlan,
  evidence: Evidence,
  signal?: CancelSignal,
  checkRest = true,
  pool?: TablePool,
): QueryResult {
  const { query, connected, rest, order } = plan;
  const free = query.filter((q) => !evidence.has(q));
  const { factor } = eliminate(connected, order, 'sum', signal, undefined, pool);
  // The disconnected rest only scales the answer, unless it is 0: then the evidence is impossible.
  if (checkRest && rest.length && sumAll(net, rest, signal) === -Infinity) throw new ImpossibleEvidenceError();
  const result = projectOnto(factor, free);
  if (!result.values.some((x) => x > 0)) throw new ImpossibleEvidenceError();
  normalized(result.values);
  const observedQuery = query.filter((q) => evidence.has(q));
  return {
    factor: withObserved(net, result, query, observedQuery, evidence),
    maxCliqueSize: order.maxCliqueSize,
    totalSize: order.totalSize,
  };
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
  const plan = eliminationPlan(net, query, evidence);
  requireWithin('the elimination', plan.order.totalSize, maxEntries, 'table entries');
  return eliminateByPlan(net, plan, evidence, signal);
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
export function probabilityOfEvidence(
  net: BayesianNetwork,
  evidence: Evidence,
  signal?: CancelSignal,
  pool?: TablePool,
): number {
  return sumAll(net, reducedFactors(net, ancestralSet(net, evidence.keys()), evidence), signal, pool);
}

/** log Σ over all variables of the product of `factors`. */
function sumAll(net: BayesianNetwork, factors: Factor[], signal?: CancelSignal, pool?: TablePool): number {
  const order = factorOrder(net, factors, [...new Set(factors.flatMap((f) => f.vars))]);
  const { factor, logScale } = eliminate(factors, order, 'sum', signal, undefined, pool);
  return logScale + Math.log(factor.values[0]!);
}
