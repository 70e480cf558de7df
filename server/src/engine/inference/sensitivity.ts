/**
 * One-way sensitivity analysis of a posterior P(T = t | e) to each CPT parameter
 * θ = P(X = x | u), as GeNIe, SamIam and Hugin report it (Castillo et al. 1997; Chan & Darwiche
 * 2002). When θ moves, the row's other entries co-vary proportionally, θ_x' ∝ (1 − θ)/(1 − θ₀),
 * so P(e)(θ) and P(t, e)(θ) are linear in θ and the posterior is a ratio of linear functions:
 *
 *   P(e)(θ) = P(x, u, e)/θ₀ · θ + P(¬x, u, e)/(1 − θ₀) · (1 − θ) + P(¬u, e).
 *
 * All the joint terms are family marginals of the junction tree: one propagation with e and one
 * with e ∪ {T = s} per state s of T give the coefficients of every parameter at once. Entries
 * at 0 or 1 are structural (proportional co-variation is undefined there) and are not ranked.
 */
import type { BayesianNetwork } from '../network.js';
import { JunctionTree, ImpossibleEvidenceError, type Evidence } from './junctionTree.js';
import { maxOf } from '../math/extremes.js';

export interface SensitivityParameter {
  variable: number;
  /** CPT row (parent assignment, as `rowAssignment` decodes it) and child state. */
  row: number;
  state: number;
  value: number;
  /** ∂P(T = t | e)/∂θ at the current value. */
  derivative: number;
  /** θ range over which T's most probable state stays the same (top parameters only). */
  interval?: [number, number];
}

export interface SensitivityAnswer {
  value: number;
  /** Most probable state of T at the current parameters. */
  mostProbable: number;
  parameters: SensitivityParameter[];
}

/** Coefficients (a, b) of a linear function a·θ + b, per parameter entry. */
interface Linear {
  a: Float64Array[];
  b: Float64Array[];
}

export function sensitivity(
  net: BayesianNetwork,
  target: { variable: number; state: number },
  evidence: Evidence,
  options: { top?: number; tree?: JunctionTree } = {},
): SensitivityAnswer {
  if (evidence.has(target.variable))
    throw new RangeError('the target variable is observed: its posterior does not depend on any parameter');
  const jt = options.tree ?? JunctionTree.compile(net);
  // Everything is scaled by 1/P(e): P(e) becomes 1, P(s, e) becomes P(s | e).
  jt.setEvidence(evidence);
  jt.propagate();
  if (jt.impossible) throw new ImpossibleEvidenceError();
  const posterior = jt.marginal(target.variable);
  const denominator = linearIn(
    net,
    net.cpts.map((_, v) => jt.familyMarginal(v)),
    1,
  );
  const numerators = Array.from(posterior, (p, s) => {
    // P(s, e) = 0 at θ₀ ∈ (0, 1) makes every term of the linear form 0: it stays 0 for all θ.
    if (p === 0) return undefined;
    jt.setEvidence(new Map([...evidence, [target.variable, s]]));
    jt.propagate();
    return linearIn(
      net,
      net.cpts.map((_, v) => jt.familyMarginal(v)),
      p,
    );
  });
  const mostProbable = posterior.indexOf(maxOf(posterior));
  const parameters: SensitivityParameter[] = [];
  net.cpts.forEach((cpt, v) => {
    for (let i = 0; i < cpt.table.length; i++) {
      const theta = cpt.table[i]!;
      if (!(theta > 0 && theta < 1)) continue;
      const k = net.variables[v]!.states.length;
      const num = numerators[target.state];
      const [a, b] = num ? [num.a[v]![i]!, num.b[v]![i]!] : [0, 0];
      const [c, d] = [denominator.a[v]![i]!, denominator.b[v]![i]!];
      const derivative = (a * d - b * c) / (c * theta + d) ** 2;
      parameters.push({ variable: v, row: Math.floor(i / k), state: i % k, value: theta, derivative });
    }
  });
  parameters.sort((p, q) => Math.abs(q.derivative) - Math.abs(p.derivative));
  for (const p of parameters.slice(0, options.top ?? 20)) {
    p.interval = argmaxInterval(
      numerators,
      mostProbable,
      p.variable,
      p.row * net.variables[p.variable]!.states.length + p.state,
      p.value,
    );
  }
  return { value: posterior[target.state]!, mostProbable, parameters };
}

/**
 * Coefficients of P(·)(θ) = a·θ + b for every entry θ of every CPT, from the family marginals
 * P(x, u | ·) of a propagation whose evidence has (scaled) probability `scale`.
 */
function linearIn(net: BayesianNetwork, families: Float64Array[], scale: number): Linear {
  const a: Float64Array[] = [],
    b: Float64Array[] = [];
  net.cpts.forEach((cpt, v) => {
    const k = net.variables[v]!.states.length;
    const fam = families[v]!;
    const av = new Float64Array(fam.length),
      bv = new Float64Array(fam.length);
    for (let o = 0; o < fam.length; o += k) {
      let rowMass = 0;
      for (let x = 0; x < k; x++) rowMass += fam[o + x]!;
      for (let x = 0; x < k; x++) {
        const theta = cpt.table[o + x]!;
        if (!(theta > 0 && theta < 1)) continue;
        const pxue = fam[o + x]! * scale,
          pnotx = (rowMass - fam[o + x]!) * scale;
        av[o + x] = pxue / theta - pnotx / (1 - theta);
        bv[o + x] = scale - av[o + x]! * theta;
      }
    }
    a.push(av);
    b.push(bv);
  });
  return { a, b };
}

/**
 * θ interval in [0, 1] around θ₀ on which state `best` keeps the largest posterior: the
 * posteriors share the positive denominator, so compare the linear numerators.
 */
function argmaxInterval(
  numerators: (Linear | undefined)[],
  best: number,
  v: number,
  i: number,
  theta0: number,
): [number, number] {
  let lo = 0,
    hi = 1;
  const coef = (s: number): [number, number] => {
    const n = numerators[s];
    return n ? [n.a[v]![i]!, n.b[v]![i]!] : [0, 0];
  };
  const [ab, bb] = coef(best);
  numerators.forEach((_, s) => {
    if (s === best) return;
    const [as, bs] = coef(s);
    const slope = ab - as,
      offset = bb - bs; // best stays ahead while slope·θ + offset ≥ 0
    if (slope > 0) lo = Math.max(lo, -offset / slope);
    else if (slope < 0) hi = Math.min(hi, -offset / slope);
  });
  return [Math.min(lo, theta0), Math.max(hi, theta0)];
}
