/**
 * Exact inference in a Gaussian (linear Gaussian) network, in moment form: the joint normal of
 * the continuous variables built parents-first (Koller & Friedman §7.2: μ_X = b₀ + Σ b_j μ_Yj,
 * Cov(X, Z) = Σ b_j Cov(Y_j, Z), Var X = σ² + Σ b_j Cov(Y_j, X)), then conditioned on the
 * observed ones with a Cholesky factor of their covariance (Murphy §4.3.1):
 *
 *     μ_U|e = μ_U + Σ_UE Σ_EE⁻¹ (e − μ_E)      Σ_UU|e = Σ_UU − Σ_UE Σ_EE⁻¹ Σ_EU
 *     log p(e) = −½ (k log 2π + log |Σ_EE| + (e − μ_E)ᵀ Σ_EE⁻¹ (e − μ_E))
 *
 * Exact up to rounding; O(n² · parents) to build and O(k³ + (n − k) k²) to condition, so a
 * 300-node network with 30 observations is a few million flops. Every variance is > 0, so the
 * joint is positive definite and the factor always exists.
 */
import { choleskyFactor } from '../math/linearAlgebra.js';
import { EngineError } from '../engineError.js';
import {
  configurationIndex,
  hybridTopologicalOrder,
  type HybridNetwork,
  type LinearGaussianCpd,
} from './hybridNetwork.js';

/** The joint normal of the continuous variables for one configuration of the discrete ones. */
export interface GaussianJoint {
  /** The continuous variables' indices in the network, in the (topological) order of mean and covariance. */
  variables: number[];
  /** Position of network variable v in `variables`, or -1 for a discrete one. */
  position: Int32Array;
  mean: Float64Array;
  /** n × n, row-major, symmetric. */
  covariance: Float64Array;
}

/** The continuous variables parents-first (the order every joint uses). */
export function continuousOrder(net: HybridNetwork): number[] {
  const topo = hybridTopologicalOrder(net);
  if ('cycle' in topo)
    throw new EngineError(`the network has a cycle: ${topo.cycle.map((v) => net.variables[v]!.name).join(' → ')}`);
  return topo.order.filter((v) => net.variables[v]!.kind === 'continuous');
}

/**
 * The joint of the continuous variables given `states` (a state per network variable; only the
 * discrete parents of continuous variables are read).
 */
export function gaussianJoint(net: HybridNetwork, order: number[], states: ArrayLike<number>): GaussianJoint {
  const n = order.length;
  const position = new Int32Array(net.variables.length).fill(-1);
  order.forEach((v, i) => (position[v] = i));
  const mean = new Float64Array(n);
  const cov = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    const cpd = (net.cpds[order[i]!] as { kind: 'gaussian'; cpd: LinearGaussianCpd }).cpd;
    const d = configurationIndex(net, cpd, states);
    const m = cpd.continuousParents.length;
    let mu = cpd.intercepts[d]!;
    let variance = cpd.variances[d]!;
    const row = i * n;
    // Row i of Σ left of the diagonal: Cov(X_i, X_z) = Σ_j b_j Cov(Y_j, X_z), one parent's row at a
    // time (contiguous: the loop a cold process runs fastest; parents' rows are all earlier)
    for (let j = 0; j < m; j++) {
      const b = cpd.coefficients[d * m + j]!;
      const parent = position[cpd.continuousParents[j]!]!;
      mu += b * mean[parent]!;
      const from = parent * n;
      for (let z = 0; z < i; z++) cov[row + z]! += b * cov[from + z]!;
    }
    mean[i] = mu;
    for (let j = 0; j < m; j++)
      variance += cpd.coefficients[d * m + j]! * cov[row + position[cpd.continuousParents[j]!]!]!;
    cov[row + i] = variance;
    for (let z = 0; z < i; z++) cov[z * n + i] = cov[row + z]!;
  }
  return { variables: order, position, mean, covariance: cov };
}

export interface ConditionedGaussian {
  /** Posterior mean and variance of each position of the joint (observed ones: the value, 0). */
  means: Float64Array;
  variances: Float64Array;
  /** log p(e): the log density of the observed values under the joint (0 with no observation). */
  logDensity: number;
  /** log |Σ_EE|, the observed variables' covariance determinant (0 with no observation). */
  logDetObserved: number;
}

const LOG_2PI = Math.log(2 * Math.PI);

/** Conditions a joint on observed values (`observed`: positions in the joint → values). */
export function conditionGaussian(joint: GaussianJoint, observed: ReadonlyMap<number, number>): ConditionedGaussian {
  const n = joint.mean.length;
  const cov = joint.covariance;
  const E = [...observed.keys()];
  const k = E.length;
  const S = new Float64Array(k * k);
  for (let a = 0; a < k; a++) for (let c = 0; c < k; c++) S[a * k + c] = cov[E[a]! * n + E[c]!]!;
  const L = k ? choleskyFactor(S, k) : new Float64Array(0);
  if (!L) throw new EngineError('the covariance of the observed variables is not positive definite');
  // z = L⁻¹ (e − μ_E)
  const z = forwardSolve(
    L,
    k,
    E.map((p) => observed.get(p)! - joint.mean[p]!),
  );
  let logDetObserved = 0;
  let mahalanobis = 0;
  for (let a = 0; a < k; a++) {
    logDetObserved += 2 * Math.log(L[a * k + a]!);
    mahalanobis += z[a]! * z[a]!;
  }
  const logDensity = -0.5 * (k * LOG_2PI + logDetObserved + mahalanobis);
  const means = Float64Array.from(joint.mean);
  const variances = new Float64Array(n);
  const isObserved = new Uint8Array(n);
  for (const p of E) {
    isObserved[p] = 1;
    means[p] = observed.get(p)!;
  }
  const column = new Array<number>(k);
  for (let u = 0; u < n; u++) {
    if (isObserved[u]) continue;
    for (let a = 0; a < k; a++) column[a] = cov[E[a]! * n + u]!;
    const w = forwardSolve(L, k, column); // L⁻¹ Σ_Eu
    let shift = 0;
    let explained = 0;
    for (let a = 0; a < k; a++) {
      shift += w[a]! * z[a]!;
      explained += w[a]! * w[a]!;
    }
    means[u] = means[u]! + shift;
    variances[u] = Math.max(0, cov[u * n + u]! - explained);
  }
  return { means, variances, logDensity, logDetObserved };
}

/** x with L x = b for lower-triangular L (k × k, row-major). */
function forwardSolve(L: Float64Array, k: number, b: ArrayLike<number>): Float64Array {
  const x = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = b[i]!;
    for (let j = 0; j < i; j++) s -= L[i * k + j]! * x[j]!;
    x[i] = s / L[i * k + i]!;
  }
  return x;
}
