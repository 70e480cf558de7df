/**
 * Random Gaussian and conditional linear Gaussian networks for tests, a forward sampler for
 * evidence, and the numpy oracle (multivariate normal conditioning; for CLG networks the full
 * discrete joint enumerated) they are compared with.
 */
import { createRng, type Rng } from '../../server/src/engine/random.js';
import type { HybridCpd, HybridNetwork, HybridVariable } from '../../server/src/engine/gaussian/hybridNetwork.js';
import { configurationIndex, hybridTopologicalOrder } from '../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridEvidence } from '../../server/src/engine/gaussian/clgInference.js';
import { findingsOracle } from './hybridFindingsOracle.js';

export interface RandomHybridOptions {
  continuous: number;
  discrete?: number;
  maxParents?: number;
  seed: number;
}

/**
 * Discrete variables first (2–3 states, discrete parents only), then continuous ones whose
 * parents are earlier variables of either kind. Coefficients are scaled by the number of
 * continuous parents so that variances stay of order 1 across hundreds of nodes.
 */
export function randomHybridNetwork(options: RandomHybridOptions): HybridNetwork {
  const rng = createRng(options.seed);
  const nd = options.discrete ?? 0;
  const maxParents = options.maxParents ?? 3;
  const variables: HybridVariable[] = [];
  const cpds: HybridCpd[] = [];
  for (let v = 0; v < nd; v++) {
    const states = Array.from({ length: 2 + rng.int(2) }, (_, s) => `s${s}`);
    variables.push({ kind: 'discrete', name: `D${v}`, states });
    const parents = pick(rng, v, Math.min(2, maxParents));
    let rows = 1;
    for (const p of parents) rows *= (variables[p] as { states: string[] }).states.length;
    const table = new Float64Array(rows * states.length);
    for (let r = 0; r < rows; r++) {
      let sum = 0;
      for (let s = 0; s < states.length; s++) sum += table[r * states.length + s] = 0.1 + rng.next();
      for (let s = 0; s < states.length; s++) table[r * states.length + s]! /= sum;
    }
    cpds.push({ kind: 'discrete', cpt: { child: v, parents, table } });
  }
  for (let i = 0; i < options.continuous; i++) {
    const v = nd + i;
    variables.push({ kind: 'continuous', name: `X${i}` });
    const parents = pick(rng, v, maxParents);
    const discreteParents = parents.filter((p) => p < nd).slice(0, 2);
    const continuousParents = parents.filter((p) => p >= nd);
    let configs = 1;
    for (const p of discreteParents) configs *= (variables[p] as { states: string[] }).states.length;
    const m = continuousParents.length;
    const scale = 0.9 / Math.max(1, m);
    cpds.push({
      kind: 'gaussian',
      cpd: {
        child: v,
        discreteParents,
        continuousParents,
        intercepts: Float64Array.from({ length: configs }, () => 4 * rng.next() - 2),
        coefficients: Float64Array.from({ length: configs * m }, () => scale * (2 * rng.next() - 1)),
        variances: Float64Array.from({ length: configs }, () => 0.2 + 2 * rng.next()),
      },
    });
  }
  return { name: `random${options.seed}`, variables, cpds };
}

function pick(rng: Rng, before: number, most: number): number[] {
  const k = Math.min(before, rng.int(most + 1));
  const chosen = new Set<number>();
  while (chosen.size < k) chosen.add(rng.int(before));
  return [...chosen].sort((a, b) => a - b);
}

/** One forward sample of every variable (a state index or a value). */
export function forwardSample(net: HybridNetwork, seed: number): number[] {
  const rng = createRng(seed);
  const topo = hybridTopologicalOrder(net);
  if (!('order' in topo)) throw new Error('cycle');
  const x = new Array<number>(net.variables.length).fill(0);
  for (const v of topo.order) {
    const cpd = net.cpds[v]!;
    if (cpd.kind === 'discrete') {
      const k = (net.variables[v] as { states: string[] }).states.length;
      let row = 0;
      for (const p of cpd.cpt.parents) row = row * (net.variables[p] as { states: string[] }).states.length + x[p]!;
      x[v] = rng.categorical(cpd.cpt.table.subarray(row * k, row * k + k));
    } else {
      const c = cpd.cpd;
      const d = configurationIndex(net, c, x);
      const m = c.continuousParents.length;
      let mean = c.intercepts[d]!;
      c.continuousParents.forEach((p, j) => (mean += c.coefficients[d * m + j]! * x[p]!));
      x[v] = mean + Math.sqrt(c.variances[d]!) * rng.normal();
    }
  }
  return x;
}

/** Evidence on the given variables, their values from a forward sample. */
export function sampledEvidence(net: HybridNetwork, observed: number[], seed: number): HybridEvidence {
  const x = forwardSample(net, seed);
  const discrete = new Map<number, number>();
  const continuous = new Map<number, number>();
  for (const v of observed) (net.variables[v]!.kind === 'discrete' ? discrete : continuous).set(v, x[v]!);
  return { discrete, continuous };
}

export interface OracleAnswer {
  logEvidence: number;
  /** Per variable: a discrete posterior, or [mean, variance]. */
  posteriors: number[][];
}

/**
 * numpy's answer for each evidence set (one Python process for all of them): for every
 * configuration of ALL discrete variables, P(config) from the CPTs; the continuous joint as
 * X = (I − B)⁻¹ (b + ε), Σ = A D Aᵀ with A = (I − B)⁻¹; conditioning by np.linalg.solve; the
 * mixture's mean and variance by the law of total variance (test/support/hybridFindingsOracle.ts).
 */
export function numpyOracle(net: HybridNetwork, evidence: HybridEvidence): OracleAnswer;
export function numpyOracle(net: HybridNetwork, evidence: HybridEvidence[]): OracleAnswer[];
export function numpyOracle(
  net: HybridNetwork,
  evidence: HybridEvidence | HybridEvidence[],
): OracleAnswer | OracleAnswer[] {
  // The findings oracle without virtual or soft findings.
  const cases = Array.isArray(evidence) ? evidence : [evidence];
  const answers = findingsOracle(net, cases).map(({ logEvidence, posteriors }): OracleAnswer => ({
    logEvidence,
    posteriors,
  }));
  return Array.isArray(evidence) ? answers : answers[0]!;
}
