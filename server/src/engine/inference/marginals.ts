/**
 * Choosing how to answer posterior marginals: exact (junction tree) when the whole junction tree
 * fits its share of the memory budget in bytes (or, given an explicit clique budget, when the
 * largest clique fits it), else a seeded sampler whose answer says so, with the cost that
 * ruled exact inference out (the glue turns that into a warning diagnostic).
 */
import { ancestralSet, topologicalOrder, type BayesianNetwork } from '../network.js';
import {
  JunctionTree,
  TRANSIENT_MIN_ENTRIES,
  junctionTreeLayout,
  junctionTreeOrder,
  junctionTreeSize,
  ImpossibleEvidenceError,
  familiesOf,
  type Evidence,
  type JunctionTreeLayout,
} from './junctionTree.js';
import { cardinalities } from './eliminationOrder.js';
import { likelihoodWeighting } from '../sampling/likelihoodWeighting.js';
import { rejectionSampling } from '../sampling/rejectionSampling.js';
import { gibbsSampling } from '../sampling/gibbsSampling.js';
import type { EliminationOrder } from './eliminationOrder.js';
import { NoConsistentSampleError, type SamplesDone } from '../sampling/sampledNetwork.js';
import {
  eliminateByPlan,
  eliminationPlan,
  probabilityOfEvidence,
  reducedCpts,
  variableElimination,
  type EliminationPlan,
} from './variableElimination.js';
import { tablePool, type Factor } from '../factors/factor.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { BudgetError } from '../budget.js';
import { reducedMarginals, reducedPlan, shrunkenEntries, type ReducedPlan } from './evidenceReduction.js';

/** Largest clique table (entries) exact inference may build by default: 2²² doubles = 32 MB. */
export const DEFAULT_BUDGET = 1 << 22;
/** Beyond this many entries in all cliques together even an explicit `exact` is refused (memory). */
export const EXACT_HARD_LIMIT = 1 << 26;
/** The default memory budget of a run (the setting bayes.run.memoryMb: 2048 MB). */
export const DEFAULT_MEMORY_BYTES = 2048 * 1024 * 1024;
/** The share of the memory budget the junction tree may take; the rest is the network and the run. */
const JUNCTION_TREE_MEMORY_SHARE = 0.5;

export type InferenceMethod = 'exact' | 'lw' | 'gibbs' | 'rejection';

export interface MarginalsOptions {
  method?: InferenceMethod | 'auto';
  /**
   * Largest clique table exact inference may use when the method is 'auto'. When given it
   * decides; otherwise the total size of the junction tree in bytes is held against memoryBytes.
   */
  budget?: number;
  /** The memory budget (bytes) the junction tree must fit for 'auto' to choose exact (default 2 GB). */
  memoryBytes?: number;
  samples?: number;
  seed?: number;
  /** Gibbs sampling: sweeps each chain discards first (default: the sampler's own). */
  burnIn?: number;
  signal?: CancelSignal;
  /** The samplers' progress report (sampledNetwork.ts). */
  onSamples?: SamplesDone;
  /**
   * The caller will ask again about this network object with other evidence (the results panel's
   * clicks): answer on the full junction tree, compiled once and kept, never on a tree reduced by
   * this evidence set (see evidenceReduction.ts), which serves one answer only.
   */
  keepTree?: boolean;
}

export type MarginalsAnswer =
  | {
      ok: true;
      method: InferenceMethod;
      /** P(v | e) for every variable (observed ones as point masses). */
      marginals: Float64Array[];
      /** Sampled answers: standard error of each probability. */
      stderr?: Float64Array[];
      samples?: number;
      seed?: number;
      /** Rejection sampling: samples accepted, and accepted / samples (≈ P(e)) with its standard error. */
      accepted?: number;
      acceptanceRate?: number;
      acceptanceStderr?: number;
      /** Largest clique table of the exact plan, and the budget it was compared with. */
      cost: number;
      budget: number;
      /** log P(e), exact answers only. */
      logEvidence?: number;
      /** Why a sampler answered (over budget), for a warning. */
      note?: string;
      /** Which method ran and why (the sizes it was chosen on). */
      reason?: string;
      /** Where the time went, in milliseconds (see InferenceTimings). */
      timings: InferenceTimings;
    }
  | { ok: false; method: InferenceMethod; message: string; cost: number; budget: number };

/**
 * Wall time of each stage of one answer, in milliseconds, as Hugin and SMILE report it:
 * triangulate = finding the elimination order and cliques (the full network's, 0 when cached with
 * the network object, plus a reduced network's when one answers, or the per-variable eliminations'
 * pruning and orders when they answer); compile = allocating the
 * junction tree's tables and multiplying the CPTs in (0 when a kept tree answers); propagate =
 * entering the evidence, collect/distribute and reading the marginals (or the per-variable
 * eliminations, or the sampling).
 */
export interface InferenceTimings {
  triangulate: number;
  compile: number;
  propagate: number;
}

/** Runs `work`, adding its wall time (ms) to `timings[stage]`. */
function timed<T>(timings: InferenceTimings, stage: keyof InferenceTimings, work: () => T): T {
  const start = performance.now();
  try {
    return work();
  } finally {
    timings[stage] += performance.now() - start;
  }
}

/**
 * Why `net` cannot be used for inference (a cycle, unknown or invalid CPT entries, rows that do
 * not sum to 1), or undefined when it can.
 */
export function inferenceProblem(net: BayesianNetwork): string | undefined {
  const topo = topologicalOrder(net);
  if ('cycle' in topo)
    return `the network has a cycle: ${[...topo.cycle, topo.cycle[0]!].map((v) => net.variables[v]!.name).join(' → ')}`;
  for (const cpt of net.cpts) {
    const name = net.variables[cpt.child]!.name;
    const k = net.variables[cpt.child]!.states.length;
    for (let o = 0; o < cpt.table.length; o += k) {
      let sum = 0;
      for (let x = 0; x < k; x++) {
        const p = cpt.table[o + x]!;
        if (Number.isNaN(p)) return `P(${name} | …) has unknown entries: learn them before inference`;
        if (p < 0 || p > 1) return `P(${name} | …) has an entry ${p} outside [0, 1]`;
        sum += p;
      }
      if (Math.abs(sum - 1) > ROW_TOLERANCE) return `a row of P(${name} | …) sums to ${sum}, not 1`;
    }
  }
  return undefined;
}

/** Rows may be off by rounding (bnlearn files: 1e-7); more than this is an error. */
const ROW_TOLERANCE = 1e-6;

const plans = new WeakMap<
  BayesianNetwork,
  {
    order: EliminationOrder;
    layout: JunctionTreeLayout;
    entries: number;
    bytes: number;
    tree?: JunctionTree;
  }
>();

export interface ExactPlan {
  order: EliminationOrder;
  /** The cliques of the junction tree and their tree. */
  layout: JunctionTreeLayout;
  /** Entries of all cliques of the junction tree. */
  entries: number;
  /** Bytes of the compiled junction tree's arrays (JunctionTree.bytes, computed before compiling). */
  bytes: number;
  /** True when tree() was called before: the tree is compiled and kept. */
  compiled: boolean;
  tree(): JunctionTree;
}

/**
 * The junction tree plan of `net`, triangulated once and cached with the network object. The
 * cache keys on the object: after changing CPT numbers in place call `tree().reloadTables()`.
 */
export function exactPlan(net: BayesianNetwork): ExactPlan {
  let plan = plans.get(net);
  if (!plan) {
    const order = junctionTreeOrder(net);
    const cards = cardinalities(net);
    const layout = junctionTreeLayout(order, cards, familiesOf(net));
    plan = { order, layout, ...junctionTreeSize(layout, cards) };
    plans.set(net, plan);
  }
  const p = plan;
  return {
    order: p.order,
    layout: p.layout,
    entries: p.entries,
    bytes: p.bytes,
    compiled: p.tree !== undefined,
    tree: () => (p.tree ??= JunctionTree.compile(net, { order: p.order, layout: p.layout })),
  };
}

/** Bytes of the junction tree compiled and kept with `net`, 0 when none is (never triangulates). */
export function keptTreeBytes(net: BayesianNetwork): number {
  const plan = plans.get(net);
  return plan?.tree ? plan.bytes : 0;
}

const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(bytes < 2 ** 20 ? 2 : 0)} MB`;

/**
 * The automatic choice: with an explicit clique budget, exact while the largest clique fits it;
 * otherwise exact while the whole junction tree fits its share of the memory budget.
 */
export function chooseExact(
  plan: Pick<ExactPlan, 'order' | 'entries' | 'bytes'>,
  options: MarginalsOptions,
): { exact: boolean; reason: string } {
  const cost = plan.order.maxCliqueSize;
  if (options.budget !== undefined) {
    const exact = cost <= options.budget;
    const within = exact ? 'within' : 'over';
    return { exact, reason: `a clique table of ${cost} entries, ${within} the budget of ${options.budget}` };
  }
  const limit = (options.memoryBytes ?? DEFAULT_MEMORY_BYTES) * JUNCTION_TREE_MEMORY_SHARE;
  const exact = plan.bytes <= limit && plan.entries <= EXACT_HARD_LIMIT;
  return {
    exact,
    reason:
      `a junction tree of ${plan.entries} clique entries (about ${mb(plan.bytes)}), ` +
      `${exact ? 'within' : 'over'} its memory budget of ${mb(limit)}`,
  };
}

export function posteriorMarginals(
  net: BayesianNetwork,
  evidence: Evidence,
  options: MarginalsOptions = {},
): MarginalsAnswer {
  return marginalsAnswer(net, evidence, options, true);
}

/** posteriorMarginals; `byElimination` false when the caller already found an elimination over budget. */
function marginalsAnswer(
  net: BayesianNetwork,
  evidence: Evidence,
  options: MarginalsOptions,
  byElimination: boolean,
): MarginalsAnswer {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const problem = inferenceProblem(net);
  if (problem)
    return {
      ok: false,
      method: options.method && options.method !== 'auto' ? options.method : 'exact',
      cost: 0,
      budget,
      message: problem,
    };
  const timings: InferenceTimings = { triangulate: 0, compile: 0, propagate: 0 };
  const plan = timed(timings, 'triangulate', () => exactPlan(net));
  const cost = plan.order.maxCliqueSize;
  const requested = options.method ?? 'auto';
  const choice = requested === 'auto' ? chooseExact(plan, options) : undefined;
  const method: InferenceMethod = choice ? (choice.exact ? 'exact' : 'lw') : (requested as InferenceMethod);
  const reason = choice
    ? `${method === 'exact' ? 'exact (junction tree)' : 'likelihood weighting'}: exact inference needs ${choice.reason}`
    : `${method}: asked for`;
  const note =
    choice && !choice.exact ? `exact inference needs ${choice.reason}: answered by likelihood weighting` : undefined;
  try {
    // Within budget the reduced tree competes with the full one. Over it, per-variable elimination
    // comes first: on munin1 with 10 observed variables it took 144–150 ms where the reduced tree
    // (5.9 × 10⁷ entries, within budget) took 783–795 ms (fresh processes); the reduced tree is
    // then the last exact answer before a sampler.
    if (byElimination && choice?.exact === false && options.budget === undefined) {
      const plans = timed(timings, 'triangulate', () =>
        eliminationPlans(net, evidence, eliminationLimit(options), ELIMINATION_WORK, options.signal),
      );
      if (plans) {
        const answer = timed(timings, 'propagate', () => marginalsByPlans(net, evidence, plans, options.signal));
        return { ok: true, method: 'exact', cost, budget, ...answer, reason: exactByElimination(choice), timings };
      }
    }
    // Within budget, the cost model: per-variable eliminations answer when all their tables
    // together are fewer entries than the tree's (which it allocates, fills and passes over
    // three times more).
    const cheaper =
      method === 'exact' && !options.keepTree && (choice?.exact ?? plan.entries <= EXACT_HARD_LIMIT)
        ? timed(timings, 'triangulate', () => cheaperByElimination(net, evidence, plan, options))
        : undefined;
    if (cheaper) {
      const answer = timed(timings, 'propagate', () => marginalsByPlans(net, evidence, cheaper.plans, options.signal));
      return { ok: true, method: 'exact', cost, budget, ...answer, reason: cheaper.reason, timings };
    }
    const reduction =
      requested === 'auto' || requested === 'exact'
        ? timed(timings, 'triangulate', () => oneShotReduction(net, evidence, plan, options))
        : undefined;
    if (reduction?.plan)
      return reducedAnswer(net, evidence, reduction.plan, reduction.reason, budget, options, timings);
    // Why the reduced tree did not answer, when it was tried, goes with the reason of what did.
    const andWhy = (r: string) => (reduction ? `${r}; ${reduction.reason}` : r);
    // The junction tree multiplies every CPT as the file gives it. pgmpy, and our single-query
    // `variableElimination`, answer each P(X | e) on the network pruned for that query (barren
    // and d-separated nodes dropped); where a file rounds rows to 1 ± 1e-7 that moves answers by
    // about the rounding (measured against pgmpy: alarm 2.2e-8, hepar2 2.2e-8, pathfinder 7.4e-8;
    // VE: ≤ 3.3e-11). No one network reproduces every per-query pruning (a node's raw rows count
    // for its own and its descendants' marginals, not its ancestors'), so matching would cost one
    // elimination per variable: 4× (hepar2) to 230× (alarm) one propagation. Not worth an error
    // inside the file's own rounding; on rows summing to 1 both agree to 1e-12.
    if (method === 'exact') {
      if (plan.entries > EXACT_HARD_LIMIT) {
        return {
          ok: false,
          method,
          cost,
          budget,
          message: `exact inference needs ${plan.entries} clique entries in all, more than the ${EXACT_HARD_LIMIT} this machine allows; use a sampler`,
        };
      }
      const jt = timed(timings, 'compile', () => treeFor(net, plan, options));
      const { logEvidence, marginals } = timed(timings, 'propagate', () => {
        jt.setEvidence(evidence);
        jt.propagate(options.signal);
        if (jt.logEvidence === -Infinity) throw new ImpossibleEvidenceError();
        return { logEvidence: jt.logEvidence, marginals: jt.marginals() };
      });
      return { ok: true, method, cost, budget, logEvidence, reason: andWhy(reason), marginals, timings };
    }
    const seed = options.seed ?? 1;
    if (method === 'rejection') {
      const { signal, onSamples } = options;
      const r = timed(timings, 'propagate', () =>
        rejectionSampling(net, evidence, { samples: options.samples ?? 20000, seed, signal, onSamples }),
      );
      const { marginals, stderr, samples, accepted, acceptanceRate, acceptanceStderr } = r;
      return {
        ok: true,
        method,
        cost,
        budget,
        seed,
        reason: andWhy(reason), // the other methods' answers all carry one
        marginals,
        stderr,
        samples,
        accepted,
        acceptanceRate,
        acceptanceStderr,
        timings,
      };
    }
    const sampler = method === 'lw' ? likelihoodWeighting : gibbsSampling;
    const burnIn = method === 'gibbs' && options.burnIn !== undefined ? { burnIn: options.burnIn } : {};
    const { signal, onSamples } = options;
    const r = timed(timings, 'propagate', () =>
      sampler(net, evidence, { samples: options.samples ?? 20000, seed, signal, onSamples, ...burnIn }),
    );
    const caution = method === 'gibbs' ? gibbsCaution(net) : undefined;
    const notes = [note, caution].filter((n) => n !== undefined).join('; ');
    return {
      ok: true,
      method,
      cost,
      budget,
      seed,
      reason: andWhy(reason),
      marginals: r.marginals,
      stderr: r.stderr,
      samples: r.samples,
      ...(notes ? { note: notes } : {}),
      timings,
    };
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError || e instanceof NoConsistentSampleError)
      return { ok: false, method, cost, budget, message: e.message };
    throw e;
  }
}

/**
 * The junction tree for one answer: the kept one when compiled already or asked for (keepTree);
 * else, on a large tree, one with transient tables for this answer only, not kept (a second
 * answer on the same network compiles again).
 */
function treeFor(net: BayesianNetwork, plan: ExactPlan, options: MarginalsOptions): JunctionTree {
  if (plan.compiled || options.keepTree || plan.entries < TRANSIENT_MIN_ENTRIES) return plan.tree();
  return JunctionTree.compile(net, { order: plan.order, layout: plan.layout, transient: true });
}

/** Table entries below this make a Gibbs chain's moves between states rare or impossible. */
const GIBBS_MIXING_ENTRY = 1e-3;

/**
 * Why a Gibbs answer may be far off with small standard errors: where a table is deterministic or
 * nearly (an entry of 0 or below 0.001), single-variable moves can leave a region of the joint
 * rarely or never, every chain then misses the same states, and the spread between chains, which
 * the standard errors come from, stays small (ALARM given its leaves: VENTLUNG = LOW 3.6e-6 ± 1.6e-6
 * where the exact answer is 0.0023). Undefined for tables without such entries.
 */
function gibbsCaution(net: BayesianNetwork): string | undefined {
  let smallest = Infinity;
  for (const cpt of net.cpts) for (const p of cpt.table) if (p < smallest) smallest = p;
  if (!(smallest < GIBBS_MIXING_ENTRY)) return undefined;
  return (
    `Gibbs chains may not mix here: a table has the entry ${smallest}, so the standard errors (the spread ` +
    'between chains) can understate the error; exact inference or likelihood weighting is safer'
  );
}

/**
 * A one-shot answer takes the tree reduced by the evidence when its cliques hold at most this
 * share of the full tree's entries: below it, the reduced tree's own triangulation (on a smaller
 * graph) is repaid by a smaller compile and propagation.
 */
const REDUCED_SHARE = 0.5;
/**
 * Below this many entries the full tree compiles and propagates in a few milliseconds, no more
 * than reducing and triangulating again (hepar2, 2,617 entries, halved by 4 observations: 18–21 ms
 * reduced vs 12–15 ms full, fresh processes): reduction is tried only when the full tree fits
 * and is at least this big, or when it does not fit.
 */
export const REDUCTION_MIN_ENTRIES = 1 << 20;

/**
 * Whether the junction tree of the network reduced by the evidence (evidenceReduction.ts) should
 * answer this evidence set: when the full tree is over its budget and the reduced one fits, or
 * when both fit and the reduced one is clearly smaller. Returns the reduced plan and the reason
 * to use it, or (no plan) why not, for the full tree's reason; undefined when it was not tried:
 * the caller keeps the full tree for more evidence sets, or that tree is already compiled (one
 * propagation is then the cheapest answer) or small, or there is no evidence to reduce by.
 */
function oneShotReduction(
  net: BayesianNetwork,
  evidence: Evidence,
  full: ExactPlan,
  options: MarginalsOptions,
): { plan?: ReducedPlan; reason: string } | undefined {
  if (options.keepTree || evidence.size === 0) return undefined;
  const fullChoice = chooseExact(full, options);
  const fullFits = options.method === 'exact' ? full.entries <= EXACT_HARD_LIMIT : fullChoice.exact;
  if (fullFits && (full.compiled || full.entries < REDUCTION_MIN_ENTRIES)) return undefined;
  // Triangulating again costs about what the full triangulation did: only worth trying when the
  // full tree's cliques without the observed variables are already clearly fewer entries.
  const shrunk = shrunkenEntries(full.layout, cardinalities(net), evidence);
  if (fullFits && shrunk > REDUCED_SHARE * full.entries) {
    return { reason: `without the observed variables its cliques hold ${shrunk} entries, not clearly fewer` };
  }
  const plan = reducedPlan(net, evidence);
  const fits = plan.entries <= EXACT_HARD_LIMIT && (options.method === 'exact' || chooseExact(plan, options).exact);
  const observed = evidence.size === 1 ? '1 observed variable' : `${evidence.size} observed variables`;
  const sizes = `${plan.entries} clique entries (about ${mb(plan.bytes)}) vs ${full.entries} for the full network's tree`;
  if (!fits || (fullFits && plan.entries > REDUCED_SHARE * full.entries)) {
    return {
      reason: `reduced by the evidence it would need ${sizes}, ${fits ? 'not clearly fewer' : 'over budget too'}`,
    };
  }
  return {
    plan,
    reason:
      `exact (junction tree on the network reduced by the evidence, ${observed} instantiated and removed): ` +
      (fullFits ? sizes : `${plan.entries} clique entries (about ${mb(plan.bytes)}); ${overFull(full, fullChoice)}`),
  };
}

/** Every marginal and P(e) from the tree of the network reduced by the evidence. */
function reducedAnswer(
  net: BayesianNetwork,
  evidence: Evidence,
  plan: ReducedPlan,
  reason: string,
  budget: number,
  options: MarginalsOptions,
  timings: InferenceTimings,
): MarginalsAnswer {
  const { marginals, logEvidence } = reducedMarginals(net, evidence, plan, options.signal, timings);
  return { ok: true, method: 'exact', cost: plan.order.maxCliqueSize, budget, marginals, logEvidence, reason, timings };
}

/** Why the full network's tree cannot answer (the automatic choice's reason, or the hard limit). */
const overFull = (full: ExactPlan, choice: { exact: boolean; reason: string }) =>
  choice.exact
    ? `the full network's tree would need ${full.entries} clique entries, more than the ${EXACT_HARD_LIMIT} allowed`
    : `the full network's tree would need ${choice.reason}`;

/** Per-variable eliminations are tried over the junction tree's budget up to this many variables. */
const ELIMINATION_VARIABLES = 2000;
/** ... and while all their tables together (a measure of the work) stay under this many entries. */
const ELIMINATION_WORK = 1 << 28;

/**
 * When the junction tree is over its memory budget, each P(v | e) can still be exact: variable
 * elimination on the network pruned for v (its ancestors and the evidence's, d-separated parts
 * dropped) is often far smaller than the tree of the whole network (munin1: a 1.9 × 10⁸-entry
 * tree, but every pruned elimination is small; pgmpy answers it this way). Each elimination is
 * held to the tree's memory share (`each`) and all of them to `work` before any table is
 * allocated: undefined when one does not fit (a sampler or the tree answers then).
 */
function eliminationPlans(
  net: BayesianNetwork,
  evidence: Evidence,
  each: number,
  work: number,
  signal?: CancelSignal,
): (EliminationPlan | undefined)[] | undefined {
  if (net.variables.length > ELIMINATION_VARIABLES) return undefined;
  let total = 0;
  const plans: (EliminationPlan | undefined)[] = [];
  const reduced = reducedCpts(net, evidence);
  for (let v = 0; v < net.variables.length; v++) {
    throwIfCancelled(signal); // each elimination's order is found before its own checks run
    if (evidence.has(v)) {
      plans.push(undefined); // a point mass
      continue;
    }
    const p = eliminationPlan(net, [v], evidence, reduced);
    total += p.order.totalSize;
    if (p.order.totalSize > each || total > work) return undefined;
    plans.push(p);
  }
  return plans;
}

/**
 * Every marginal by its planned elimination, and log P(e). P(e) is found once, first (one
 * elimination of the evidence's ancestors): impossible evidence throws before any query runs,
 * and the queries need not each check the constant their pruning set aside.
 */
function marginalsByPlans(
  net: BayesianNetwork,
  evidence: Evidence,
  plans: readonly (EliminationPlan | undefined)[],
  signal?: CancelSignal,
): { marginals: Float64Array[]; logEvidence: number } {
  // One pool for all the eliminations: a query's messages are written where earlier ones were.
  const pool = tablePool();
  const logEvidence = evidence.size ? probabilityOfEvidence(net, evidence, signal, pool) : 0;
  if (logEvidence === -Infinity) throw new ImpossibleEvidenceError();
  const marginals = plans.map((p, v) => {
    if (p) return eliminateByPlan(net, p, evidence, signal, false, pool).factor.values;
    const point = new Float64Array(net.variables[v]!.states.length);
    point[evidence.get(v)!] = 1;
    return point;
  });
  return { marginals, logEvidence };
}

/**
 * The cost model, in junction-tree entries (the tree's cost is its entries: it allocates them,
 * writes the CPTs in and passes over them to collect, distribute and read). Planning one
 * query's elimination costs about ANCESTOR_ENTRIES per variable of its pruned network (munin4:
 * 12,900 such variables planned in about the time its 1.4 × 10⁷-entry tree compiled and
 * propagated), and an entry of its tables ELIMINATION_ENTRY_COST (one pass over tables never
 * allocated whole: barley's 1.7 × 10⁷ entries of eliminations took a quarter of the time of its
 * 1.8 × 10⁷-entry tree, fresh processes).
 */
const ANCESTOR_ENTRIES = 1000;
const ELIMINATION_ENTRY_COST = 1 / 3;

/**
 * The cost model: when a one-shot answer's junction tree is big (at least REDUCTION_MIN_ENTRIES)
 * and not compiled yet, per-variable eliminations answer if they cost less (see ANCESTOR_ENTRIES)
 * than the tree (without the observed variables, when evidence shrinks it). The planning's cost
 * is known first from the ancestral sets (cheap); the tables' as the queries are planned, and
 * planning stops as soon as the sum passes the tree's. Their plans and why, or undefined.
 */
function cheaperByElimination(
  net: BayesianNetwork,
  evidence: Evidence,
  full: ExactPlan,
  options: MarginalsOptions,
): { plans: (EliminationPlan | undefined)[]; reason: string } | undefined {
  if (full.compiled || full.entries < REDUCTION_MIN_ENTRIES || net.variables.length > ELIMINATION_VARIABLES)
    return undefined;
  const shrunk = evidence.size ? shrunkenEntries(full.layout, cardinalities(net), evidence) : full.entries;
  const tree = Math.min(full.entries, shrunk);
  let ancestors = 0;
  for (let v = 0; v < net.variables.length; v++)
    if (!evidence.has(v)) ancestors += ancestralSet(net, [v, ...evidence.keys()]).size;
  const planning = ANCESTOR_ENTRIES * ancestors;
  if (planning >= tree) return undefined;
  const work = Math.min(ELIMINATION_WORK, (tree - planning) / ELIMINATION_ENTRY_COST);
  const plans = eliminationPlans(net, evidence, eliminationLimit(options), work, options.signal);
  if (!plans) return undefined;
  const total = plans.reduce((n, p) => n + (p?.order.totalSize ?? 0), 0);
  return {
    plans,
    reason:
      'exact (variable elimination per variable, each on the network pruned for it): ' +
      `${ancestors} variables to eliminate from and ${total} table entries in all, cheaper than ` +
      `a junction tree of ${tree} clique entries`,
  };
}

/** Entries an elimination's tables may take: the junction tree's share of the memory budget, as doubles. */
const eliminationLimit = (options: MarginalsOptions) =>
  ((options.memoryBytes ?? DEFAULT_MEMORY_BYTES) * JUNCTION_TREE_MEMORY_SHARE) / 8;

const exactByElimination = (choice: { reason: string }) =>
  `exact (variable elimination per variable, each on the network pruned for it): one junction tree needs ${choice.reason}`;

export type QueryAnswer =
  | {
      ok: true;
      method: InferenceMethod;
      /** P(query | e) over the query variables in the order asked (first slowest). */
      factor: Factor;
      /** Sampled answers (single variables): standard error of each entry. */
      stderr?: Float64Array;
      samples?: number;
      seed?: number;
      accepted?: number;
      acceptanceRate?: number;
      acceptanceStderr?: number;
      cost: number;
      budget: number;
      note?: string;
    }
  | { ok: false; method: InferenceMethod; message: string; cost: number; budget: number };

/**
 * P(query | e) for one or more variables. Exact: the calibrated junction tree when one clique
 * holds the query, else variable elimination. Over the budget (auto) a single variable is
 * sampled; a joint query then fails with the cost.
 */
export function posteriorQuery(
  net: BayesianNetwork,
  query: readonly number[],
  evidence: Evidence,
  options: MarginalsOptions = {},
): QueryAnswer {
  const budget = options.budget ?? DEFAULT_BUDGET;
  const problem = inferenceProblem(net);
  if (problem) return { ok: false, method: 'exact', cost: 0, budget, message: problem };
  const plan = exactPlan(net);
  const cost = plan.order.maxCliqueSize;
  const requested = options.method ?? 'auto';
  const choice = requested === 'auto' ? chooseExact(plan, options) : undefined;
  const exact = requested === 'exact' || choice?.exact === true;
  if (!exact && choice && options.budget === undefined) {
    // Over the tree's budget the query alone may still be exact on the network pruned for it.
    try {
      const { factor } = variableElimination(net, query, evidence, options.signal, eliminationLimit(options));
      return { ok: true, method: 'exact', cost, budget, factor };
    } catch (e) {
      if (e instanceof ImpossibleEvidenceError) return { ok: false, method: 'exact', cost, budget, message: e.message };
      if (!(e instanceof BudgetError)) throw e;
    }
  }
  if (!exact && query.length !== 1) {
    return {
      ok: false,
      method: requested === 'auto' ? 'lw' : requested,
      cost,
      budget,
      message: `a joint query needs exact inference, which needs ${choice?.reason ?? `the method ${requested}`}`,
    };
  }
  if (!exact) {
    // A sampler was asked for, or this query's own elimination is over budget (then the per-variable
    // eliminations, this one among them, would not all fit either): no second try.
    const answer = marginalsAnswer(net, evidence, options, false);
    if (!answer.ok) return answer;
    const v = query[0]!;
    const { marginals, stderr, ...info } = answer;
    return {
      ...info,
      factor: { vars: [v], cards: [marginals[v]!.length], values: marginals[v]! },
      stderr: stderr?.[v],
    };
  }
  try {
    const jt = plan.entries <= EXACT_HARD_LIMIT ? plan.tree() : undefined;
    let factor: Factor | undefined;
    if (jt) {
      jt.setEvidence(evidence);
      jt.propagate(options.signal);
      if (jt.impossible) throw new ImpossibleEvidenceError();
      factor = jt.jointMarginal(query);
    }
    factor ??= variableElimination(net, query, evidence, options.signal).factor;
    return { ok: true, method: 'exact', cost, budget, factor };
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError) return { ok: false, method: 'exact', cost, budget, message: e.message };
    throw e;
  }
}
