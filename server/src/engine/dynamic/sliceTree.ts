/**
 * The 1.5-slice network of the interface algorithm (Murphy 2002 §3.3): the variables of slice t
 * and, as roots, the forward interface of slice t−1. The forward message α_{t−1}(I_{t−1}) enters
 * as a factor over the previous interface, the backward message β_t(I_t) as a factor over this
 * slice's interface; both factors also make each interface a clique. One junction tree
 * (engine/inference/junctionTree.ts) is compiled once and re-propagated per step.
 */
import type { BayesianNetwork, Cpt } from '../network.js';
import type { Factor } from '../factors/factor.js';
import {
  JunctionTree,
  junctionTreeLayout,
  junctionTreeOrder,
  modelFamilies,
  type JunctionTreeLayout,
} from '../inference/junctionTree.js';
import { cardinalities, type EliminationOrder } from '../inference/eliminationOrder.js';
import { tableEntries, requireWithin } from '../budget.js';
import { EngineError } from '../engineError.js';
import type { CancelSignal } from '../cancellation.js';
import { forwardInterface, initialNetwork, type TwoSliceNetwork } from './twoSliceNetwork.js';

/**
 * What is known at one step: observed states, likelihood (virtual) findings λ per state, and soft
 * findings q (Jeffrey: the belief in X at this step, given the steps before and this step's other
 * findings, becomes q). The forward pass turns each soft finding into the likelihood that meets it
 * (softFindings.ts); every later use of the step (smoothing, Viterbi) takes that likelihood.
 */
export interface StepFindings {
  evidence: ReadonlyMap<number, number>;
  likelihoods?: ReadonlyMap<number, ArrayLike<number>>;
  soft?: ReadonlyMap<number, ArrayLike<number>>;
}

export const NO_FINDINGS: StepFindings = { evidence: new Map() };

export class SliceTree {
  readonly n: number;
  /** Slice variables with a child in the next slice. */
  readonly iface: number[];
  /** Entries of a table over the interface. */
  readonly ifaceSize: number;
  /** Slice t's variables 0…n−1, then slice t−1's interface at n…n+|I|−1. */
  readonly net: BayesianNetwork;
  private readonly tree: JunctionTree;
  private readonly prior: Factor;
  private readonly future: Factor;

  constructor(
    readonly dbn: TwoSliceNetwork,
    maxEntries: number,
    initial = false,
    plan: SliceTreePlan = planSliceTree(dbn, maxEntries, initial),
  ) {
    const n = (this.n = dbn.variables.length);
    this.net = plan.net;
    this.iface = plan.iface;
    const cards = plan.iface.map((v) => dbn.variables[v]!.states.length);
    this.ifaceSize = tableEntries(cards);
    this.prior = initial
      ? { vars: [], cards: [], values: Float64Array.of(1) }
      : { vars: plan.iface.map((_, j) => n + j), cards, values: new Float64Array(this.ifaceSize).fill(1) };
    this.future = { vars: [...this.iface], cards, values: new Float64Array(this.ifaceSize).fill(1) };
    // A factor over no variable has no clique to live in (slice 0's α, an empty interface's).
    const factors = [this.prior, this.future].filter((f) => f.vars.length > 0);
    this.tree = JunctionTree.compile(this.net, { factors, maxEntries, order: plan.order, layout: plan.layout });
  }

  /** Entries of the compiled tree (for the budget). */
  get totalSize(): number {
    return this.tree.totalSize;
  }

  /**
   * Propagates one step: α_{t−1} over the previous interface (ignored on slice 0), β_t over this
   * slice's (undefined: ones), and the step's findings. Returns log P(e_t, β | α) — with β ones and
   * α normalised, log P(e_t | e_1..t−1). Throws EngineError when the findings are impossible.
   */
  propagate(
    alpha: Float64Array | undefined,
    beta: Float64Array | undefined,
    findings: StepFindings,
    step: number,
    signal?: CancelSignal,
  ): number {
    if (alpha && this.prior.vars.length) this.prior.values.set(alpha);
    if (beta) this.future.values.set(beta);
    else this.future.values.fill(1);
    this.tree.reloadTables();
    this.tree.setEvidence(findings.evidence, findings.likelihoods);
    this.tree.propagate(signal);
    const logZ = this.tree.logEvidence;
    if (logZ === -Infinity)
      throw new EngineError(`the observations at step ${step} are impossible given the model and the steps before`);
    return logZ;
  }

  /** P(X_v | what was propagated). */
  marginal(v: number): Float64Array {
    return this.tree.marginal(v);
  }

  /** P(X_v, parents(X_v) | what was propagated) in the CPT's layout (EM's expected counts). */
  familyMarginal(v: number): Float64Array {
    return this.tree.familyMarginal(v);
  }

  /** The joint over this slice's interface (in `iface` order), normalised. */
  interfaceJoint(): Float64Array {
    return this.joint(this.iface);
  }

  /** The joint over the previous slice's interface, normalised (not on slice 0). */
  previousJoint(): Float64Array {
    return this.joint(this.iface.map((_, j) => this.n + j));
  }

  private joint(vars: number[]): Float64Array {
    if (vars.length === 0) return Float64Array.of(1);
    const f = this.tree.jointMarginal(vars);
    if (!f) throw new Error('interface is not in one clique'); // the factor over it guarantees one
    return f.values;
  }
}

/** The 1.5-slice tree's triangulation and cliques, before any table is allocated. */
export interface SliceTreePlan {
  net: BayesianNetwork;
  iface: number[];
  order: EliminationOrder;
  layout: JunctionTreeLayout;
  /** Entries of the tree's clique tables: what compiling it would allocate. */
  entries: number;
}

/**
 * Triangulates the 1.5-slice network (the α and β factors join each interface, as the compiled
 * tree's do) and sums its cliques' state spaces, allocating no table: a template over the budget
 * is refused here in the time of a triangulation, where compiling it first would fill the
 * interface's tables and the cliques' index maps before measuring (seconds and hundreds of MB,
 * or an array too large to allocate at all). Throws BudgetError.
 */
export function planSliceTree(dbn: TwoSliceNetwork, maxEntries: number, initial = false): SliceTreePlan {
  const n = dbn.variables.length;
  const { net, iface } = sliceNetwork(dbn, initial);
  const cards = cardinalities(net);
  // The shapes of the α and β factors: their variables are all the triangulation needs.
  const shape = (vars: number[]): Factor => ({ vars, cards: vars.map((v) => cards[v]!), values: new Float64Array() });
  const shapes = [initial ? [] : iface.map((_, j) => n + j), iface].filter((vs) => vs.length > 0).map(shape);
  const order = junctionTreeOrder(net, shapes);
  const layout = junctionTreeLayout(order, cards, modelFamilies(net, shapes));
  const entries = layout.cliques.reduce((sum, c) => sum + tableEntries(c.map((v) => cards[v]!)), 0);
  requireWithin('the junction tree', entries, maxEntries, 'clique entries');
  return { net, iface, order, layout, entries };
}

/**
 * Slice t's variables 0…n−1 with their transition tables (or, for slice 0, the initial ones), then
 * slice t−1's interface at n…n+|I|−1 as roots whose tables are ones: α_{t−1}, a distribution, is
 * their prior.
 */
export function sliceNetwork(dbn: TwoSliceNetwork, initial: boolean): { net: BayesianNetwork; iface: number[] } {
  const n = dbn.variables.length;
  const iface = forwardInterface(dbn);
  if (initial) return { net: initialNetwork(dbn), iface };
  const prevIndex = new Map(iface.map((v, j) => [v, n + j]));
  const remap = (cpt: Cpt): Cpt => ({ ...cpt, parents: cpt.parents.map((p) => (p < n ? p : prevIndex.get(p - n)!)) });
  const prevVars = iface.map((v) => ({ name: `${dbn.variables[v]!.name}[t-1]`, states: dbn.variables[v]!.states }));
  const prevCpts = prevVars.map((v, j) => ({
    child: n + j,
    parents: [],
    table: new Float64Array(v.states.length).fill(1),
  }));
  return {
    net: {
      name: dbn.name,
      variables: [...dbn.variables, ...prevVars],
      cpts: [...dbn.transition.map(remap), ...prevCpts],
    },
    iface,
  };
}
