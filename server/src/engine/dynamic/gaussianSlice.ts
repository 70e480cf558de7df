/**
 * A linear Gaussian network over time (a Gaussian 2-TBN, Murphy 2002 §2.3): every variable of the
 * slice is real, and each has a linear Gaussian table X | parents ~ N(b₀ + Σ b_j · parent_j, σ²)
 * whose parents are in the same slice (< n) or in the previous one (≥ n, as in twoSliceNetwork.ts).
 *
 * Unrolled it is one big Gaussian network; written as a state-space model it is
 *
 *     x_t = A x_{t−1} + c + w_t,   w_t ~ N(0, Q)          x_0 ~ N(μ₀, Σ₀)
 *
 * over the whole slice: with the intra-slice coefficients B and the noise variances D (diagonal),
 * x_t = B x_t + C x_{t−1} + b + e gives A = (I − B)⁻¹ C, c = (I − B)⁻¹ b, Q = (I − B)⁻¹ D (I − B)⁻ᵀ.
 * `sliceModel` derives them variable by variable in topological order (so (I − B)⁻¹ is never
 * formed): each x_i is an affine function of x_{t−1} and the noises of itself and its ancestors.
 */
import { dagOrder } from '../network.js';
import { EngineError } from '../engineError.js';
import { requireWithin, DEFAULT_BUDGETS, type Budgets } from '../budget.js';
import type { HybridCpd, HybridNetwork, HybridVariable, LinearGaussianCpd } from '../gaussian/hybridNetwork.js';
import { sliceName } from './twoSliceNetwork.js';

/** X | parents ~ N(mean + Σ coefficients[j] · parents[j], variance). */
export interface LinearGaussianTable {
  child: number;
  parents: number[];
  coefficients: number[];
  mean: number;
  variance: number;
}

export interface GaussianTwoSliceNetwork {
  name: string;
  /** The variables of one slice (all real). */
  variables: string[];
  /** Slice 0's tables: parents in slice 0 only. */
  initial: LinearGaussianTable[];
  /** Slice t's tables: parents in slice t (< n) or t−1 (≥ n). */
  transition: LinearGaussianTable[];
}

/** The state-space form of the template; matrices n × n, row-major, symmetric where covariances. */
export interface SliceModel {
  n: number;
  initialMean: Float64Array;
  initialCovariance: Float64Array;
  /** The transition matrix A (row i: how x_i at t depends on slice t−1). */
  transition: Float64Array;
  /** The offset c. */
  offset: Float64Array;
  /** The process noise covariance Q (positive definite: every variance is > 0). */
  noise: Float64Array;
}

/** Throws EngineError unless the tables fit the variables, every variance is > 0 and each slice is acyclic. */
export function validateGaussianTwoSlice(net: GaussianTwoSliceNetwork): void {
  const n = net.variables.length;
  if (net.initial.length !== n || net.transition.length !== n)
    throw new EngineError('a network over time needs one initial and one transition table per variable');
  const check = (table: LinearGaussianTable, i: number, limit: number, what: string) => {
    const name = net.variables[i];
    if (table.child !== i) throw new EngineError(`${what} table ${i} is not the table of variable ${i}`);
    if (table.parents.length !== table.coefficients.length)
      throw new EngineError(`${what} table of ${name}: one coefficient per parent`);
    if (table.parents.some((p) => !(p >= 0 && p < limit) || p === i))
      throw new EngineError(`${what} table of ${name}: a parent is out of range`);
    if (!(table.variance > 0) || !Number.isFinite(table.variance))
      throw new EngineError(`${what} table of ${name}: the variance must be a finite number > 0`);
    if (!Number.isFinite(table.mean) || table.coefficients.some((b) => !Number.isFinite(b)))
      throw new EngineError(`${what} table of ${name}: the mean and coefficients must be finite`);
  };
  net.initial.forEach((t, i) => check(t, i, n, 'the initial'));
  net.transition.forEach((t, i) => check(t, i, 2 * n, 'the transition'));
  sliceOrder(net, net.initial, 'initial');
  sliceOrder(net, net.transition, 'transition');
}

/** The slice's variables parents-first (arcs inside the slice only). */
function sliceOrder(net: GaussianTwoSliceNetwork, tables: LinearGaussianTable[], what: string): number[] {
  const n = net.variables.length;
  const order = dagOrder(n, (v) => tables[v]!.parents.filter((p) => p < n));
  if ('cycle' in order)
    throw new EngineError(`the ${what} slice has a cycle: ${order.cycle.map((v) => net.variables[v]).join(' → ')}`);
  return order.order;
}

/** μ₀, Σ₀, A, c and Q of the template (see the module comment). O(n³); sizes checked first. */
export function sliceModel(net: GaussianTwoSliceNetwork, budgets: Budgets = DEFAULT_BUDGETS): SliceModel {
  validateGaussianTwoSlice(net);
  const n = net.variables.length;
  requireWithin('the slice covariance', n * n, budgets.maxTableEntries);
  const initial = affineSlice(net, net.initial);
  const transition = affineSlice(net, net.transition);
  return {
    n,
    initialMean: initial.offset,
    initialCovariance: initial.noise,
    transition: transition.transition,
    offset: transition.offset,
    noise: transition.noise,
  };
}

/**
 * Each x_i = T_i · x_{t−1} + o_i + M_i · e (e the slice's independent noises, e_j ~ N(0, σ²_j)),
 * built parents-first: a parent's row is complete before its children read it. Q = M D Mᵀ.
 */
function affineSlice(
  net: GaussianTwoSliceNetwork,
  tables: LinearGaussianTable[],
): { transition: Float64Array; offset: Float64Array; noise: Float64Array } {
  const n = net.variables.length;
  const T = new Float64Array(n * n);
  const M = new Float64Array(n * n);
  const offset = new Float64Array(n);
  for (const i of sliceOrder(net, tables, tables === net.initial ? 'initial' : 'transition')) {
    const table = tables[i]!;
    offset[i] = table.mean;
    M[i * n + i] = 1;
    table.parents.forEach((p, j) => {
      const b = table.coefficients[j]!;
      if (p >= n) {
        T[i * n + (p - n)]! += b;
        return;
      }
      offset[i]! += b * offset[p]!;
      for (let z = 0; z < n; z++) {
        T[i * n + z]! += b * T[p * n + z]!;
        M[i * n + z]! += b * M[p * n + z]!;
      }
    });
  }
  const noise = new Float64Array(n * n);
  for (let i = 0; i < n; i++)
    for (let k = 0; k <= i; k++) {
      let s = 0;
      for (let z = 0; z < n; z++) s += M[i * n + z]! * tables[z]!.variance * M[k * n + z]!;
      noise[i * n + k] = s;
      noise[k * n + i] = s;
    }
  return { transition: T, offset, noise };
}

/**
 * The plain Gaussian network of slices 0…T (twoSliceNetwork.ts `unroll`'s numbering: X of slice t
 * is `X_t` at index t·n + v), for `bayes convert --unroll` to Hugin NET. Sizes are checked against
 * the budget before anything is allocated.
 */
export function unrollGaussian(
  net: GaussianTwoSliceNetwork,
  steps: number,
  budgets: Budgets = DEFAULT_BUDGETS,
): HybridNetwork {
  validateGaussianTwoSlice(net);
  const n = net.variables.length;
  if (!Number.isInteger(steps) || steps < 0)
    throw new EngineError(`unroll: the number of steps must be a whole number ≥ 0, got ${steps}`);
  const perSlice = net.transition.reduce((s, t) => s + t.parents.length + 2, 0);
  requireWithin('the unrolled network', 3 * n + perSlice * steps, budgets.maxTotalEntries, 'numbers');
  const variables: HybridVariable[] = [];
  const cpds: HybridCpd[] = [];
  for (let t = 0; t <= steps; t++)
    net.variables.forEach((name, i) => {
      variables.push({ kind: 'continuous', name: sliceName(name, t) });
      const table = (t === 0 ? net.initial : net.transition)[i]!;
      const cpd: LinearGaussianCpd = {
        child: t * n + i,
        discreteParents: [],
        continuousParents: table.parents.map((p) => (p < n ? t * n + p : (t - 1) * n + (p - n))),
        intercepts: Float64Array.of(table.mean),
        coefficients: Float64Array.from(table.coefficients),
        variances: Float64Array.of(table.variance),
      };
      cpds.push({ kind: 'gaussian', cpd });
    });
  return { name: net.name, variables, cpds };
}
