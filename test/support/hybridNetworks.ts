/**
 * Random Gaussian and conditional linear Gaussian networks for tests, a forward sampler for
 * evidence, and the numpy oracle (multivariate normal conditioning; for CLG networks the full
 * discrete joint enumerated) they are compared with.
 */
import { createRng, type Rng } from '../../server/src/engine/random.js';
import type { HybridCpd, HybridNetwork, HybridVariable } from '../../server/src/engine/gaussian/hybridNetwork.js';
import { configurationIndex, hybridTopologicalOrder } from '../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridEvidence } from '../../server/src/engine/gaussian/clgInference.js';
import { runPython } from './python.js';

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
 * numpy: for every configuration of ALL discrete variables, P(config) from the CPTs; the
 * continuous joint as X = (I − B)⁻¹ (b + ε), Σ = A D Aᵀ with A = (I − B)⁻¹; conditioning by
 * np.linalg.solve; the mixture's mean and variance by the law of total variance.
 */
const ORACLE = String.raw`
import json, sys, itertools, math
import numpy as np
q = json.load(sys.stdin)
V = q["variables"]; n = len(V)
disc = [i for i, v in enumerate(V) if v["kind"] == "discrete"]
cont = [i for i, v in enumerate(V) if v["kind"] == "continuous"]
pos = {v: i for i, v in enumerate(cont)}
def row(parents, states, x):
    r = 0
    for p in parents: r = r * V[p]["states"] + x[p]
    return r
def answer(ev_d, ev_c):
  logw = []; parts = []
  for combo in itertools.product(*[range(V[d]["states"]) for d in disc]):
      x = [0] * n
      for d, s in zip(disc, combo): x[d] = s
      if any(x[d] != s for d, s in ev_d.items()): continue
      p = 1.0
      for d in disc:
          v = V[d]; p *= v["table"][row(v["parents"], None, x) * v["states"] + x[d]]
      if p == 0: continue
      m = len(cont); B = np.zeros((m, m)); b = np.zeros(m); D = np.zeros(m)
      for c in cont:
          v = V[c]; r = row(v["dparents"], None, x); k = len(v["cparents"])
          b[pos[c]] = v["intercepts"][r]; D[pos[c]] = v["variances"][r]
          for j, y in enumerate(v["cparents"]): B[pos[c], pos[y]] = v["coefficients"][r * k + j]
      A = np.linalg.inv(np.eye(m) - B)
      mu = A @ b; S = A @ np.diag(D) @ A.T
      E = [pos[c] for c in ev_c]; U = [i for i in range(m) if i not in E]
      e = np.array([ev_c[c] for c in ev_c])
      lw = math.log(p)
      mean = mu.copy(); var = np.diag(S).copy()
      if E:
          See = S[np.ix_(E, E)]; r_ = e - mu[E]
          sign, logdet = np.linalg.slogdet(See)
          lw += -0.5 * (len(E) * math.log(2 * math.pi) + logdet + r_ @ np.linalg.solve(See, r_))
          K = np.linalg.solve(See, S[np.ix_(E, U)])
          mean[U] = mu[U] + K.T @ r_
          var[U] = np.diag(S[np.ix_(U, U)] - S[np.ix_(U, E)] @ K)
          mean[E] = e; var[E] = 0
      logw.append(lw); parts.append((x, mean, var))
  top = max(logw); w = np.exp(np.array(logw) - top); Z = w.sum(); w /= Z
  out = []
  for i, v in enumerate(V):
      if v["kind"] == "discrete":
          post = [0.0] * v["states"]
          for wk, (x, _, _) in zip(w, parts): post[x[i]] += wk
          out.append(post)
      else:
          ms = np.array([pt[1][pos[i]] for pt in parts]); vs = np.array([pt[2][pos[i]] for pt in parts])
          mean = float(w @ ms); out.append([mean, float(w @ (vs + (ms - mean) ** 2))])
  return {"logEvidence": top + math.log(Z), "posteriors": out}
cases = [answer({int(k): v for k, v in c["discrete"].items()}, {int(k): v for k, v in c["continuous"].items()}) for c in q["cases"]]
print(json.dumps(cases))
`;

/** The oracle's answer for each evidence set (one Python process for all of them). */
export function numpyOracle(net: HybridNetwork, evidence: HybridEvidence): OracleAnswer;
export function numpyOracle(net: HybridNetwork, evidence: HybridEvidence[]): OracleAnswer[];
export function numpyOracle(
  net: HybridNetwork,
  evidence: HybridEvidence | HybridEvidence[],
): OracleAnswer | OracleAnswer[] {
  const variables = net.variables.map((v, i) => {
    const cpd = net.cpds[i]!;
    if (cpd.kind === 'discrete') {
      return {
        kind: 'discrete',
        states: (v as { states: string[] }).states.length,
        parents: cpd.cpt.parents,
        table: [...cpd.cpt.table],
      };
    }
    const c = cpd.cpd;
    return {
      kind: 'continuous',
      dparents: c.discreteParents,
      cparents: c.continuousParents,
      intercepts: [...c.intercepts],
      coefficients: [...c.coefficients],
      variances: [...c.variances],
    };
  });
  const cases = (Array.isArray(evidence) ? evidence : [evidence]).map((e) => ({
    discrete: Object.fromEntries(e.discrete),
    continuous: Object.fromEntries(e.continuous),
  }));
  const answers = runPython<OracleAnswer[]>(ORACLE, { variables, cases });
  return Array.isArray(evidence) ? answers : answers[0]!;
}
