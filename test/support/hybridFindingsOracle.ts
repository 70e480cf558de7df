/**
 * The numpy oracle for findings and the most probable explanation on CLG networks: every
 * configuration of ALL discrete variables enumerated, the continuous joint of each by
 * Σ = A D Aᵀ, A = (I − B)⁻¹ and conditioned by np.linalg.solve (hybridNetworks.ts' numpyOracle is
 * this one without findings).
 * Virtual findings multiply a configuration's weight by λ(x) / max λ; soft findings re-weight the
 * configurations until each finding's marginal is its target (iterative proportional fitting on
 * the enumerated joint, not on λ nodes); the MPE is the configuration with the largest
 * P(d) · N(e) · (2π)^(−u/2) |Σ_U|e|^(−1/2), its |Σ_U|e| by np.linalg.slogdet of the conditioned
 * covariance itself.
 */
import type { HybridNetwork } from '../../server/src/engine/gaussian/hybridNetwork.js';
import type { HybridEvidence } from '../../server/src/engine/gaussian/clgInference.js';
import { runPython } from './python.js';

const ORACLE = String.raw`
import json, sys, itertools, math
import numpy as np
q = json.load(sys.stdin)
V = q["variables"]; n = len(V)
disc = [i for i, v in enumerate(V) if v["kind"] == "discrete"]
cont = [i for i, v in enumerate(V) if v["kind"] == "continuous"]
pos = {v: i for i, v in enumerate(cont)}
def row(parents, x):
    r = 0
    for p in parents: r = r * V[p]["states"] + x[p]
    return r
def answer(c):
  ev_d = {int(k): v for k, v in c["discrete"].items()}
  ev_c = {int(k): v for k, v in c["continuous"].items()}
  lik = {int(k): np.array(v) / max(v) for k, v in c["likelihoods"].items()}
  soft = {int(k): np.array(v) for k, v in c["soft"].items()}
  logw = []; parts = []; peaks = []
  for combo in itertools.product(*[range(V[d]["states"]) for d in disc]):
      x = [0] * n
      for d, s in zip(disc, combo): x[d] = s
      if any(x[d] != s for d, s in ev_d.items()): continue
      p = 1.0
      for d in disc:
          v = V[d]; p *= v["table"][row(v["parents"], x) * v["states"] + x[d]]
      for d, l in lik.items(): p *= l[x[d]]
      if p == 0: continue
      m = len(cont); B = np.zeros((m, m)); b = np.zeros(m); D = np.zeros(m)
      for cc in cont:
          v = V[cc]; r = row(v["dparents"], x); k = len(v["cparents"])
          b[pos[cc]] = v["intercepts"][r]; D[pos[cc]] = v["variances"][r]
          for j, y in enumerate(v["cparents"]): B[pos[cc], pos[y]] = v["coefficients"][r * k + j]
      A = np.linalg.inv(np.eye(m) - B)
      mu = A @ b; S = A @ np.diag(D) @ A.T
      E = [pos[cc] for cc in ev_c]; U = [i for i in range(m) if i not in E]
      e = np.array([ev_c[cc] for cc in ev_c])
      lw = math.log(p)
      mean = mu.copy(); var = np.diag(S).copy(); SU = S[np.ix_(U, U)]
      if E:
          See = S[np.ix_(E, E)]; r_ = e - mu[E]
          sign, logdet = np.linalg.slogdet(See)
          lw += -0.5 * (len(E) * math.log(2 * math.pi) + logdet + r_ @ np.linalg.solve(See, r_))
          K = np.linalg.solve(See, S[np.ix_(E, U)])
          mean[U] = mu[U] + K.T @ r_
          SU = S[np.ix_(U, U)] - S[np.ix_(U, E)] @ K
          var[U] = np.diag(SU)
          mean[E] = e; var[E] = 0
      peak = -0.5 * len(U) * math.log(2 * math.pi)
      if U: peak -= 0.5 * np.linalg.slogdet(SU)[1]
      logw.append(lw); parts.append((x, mean, var)); peaks.append(peak)
  top = max(logw); w = np.exp(np.array(logw) - top); Z = w.sum(); w /= Z
  for sweep in range(100000):
      worst = 0.0
      for d, t in soft.items():
          marg = np.zeros(len(t))
          for wk, (x, _, _) in zip(w, parts): marg[x[d]] += wk
          worst = max(worst, float(np.abs(marg - t).max()))
          w = np.array([wk * t[x[d]] / marg[x[d]] for wk, (x, _, _) in zip(w, parts)])
          w /= w.sum()
      if worst < 1e-14: break
  out = []
  for i, v in enumerate(V):
      if v["kind"] == "discrete":
          post = [0.0] * v["states"]
          for wk, (x, _, _) in zip(w, parts): post[x[i]] += wk
          out.append(post)
      else:
          ms = np.array([pt[1][pos[i]] for pt in parts]); vs = np.array([pt[2][pos[i]] for pt in parts])
          mean = float(w @ ms); out.append([mean, float(w @ (vs + (ms - mean) ** 2))])
  scores = [l + pk for l, pk in zip(logw, peaks)]
  k = int(np.argmax(scores)); x, mean, _ = parts[k]
  mpe = [float(mean[pos[i]]) if V[i]["kind"] == "continuous" else x[i] for i in range(n)]
  return {"logEvidence": top + math.log(Z), "posteriors": out, "mpe": mpe, "mpeLogDensity": scores[k]}
print(json.dumps([answer(c) for c in q["cases"]]))
`;

export interface FindingsOracleAnswer {
  logEvidence: number;
  /** Per variable: a discrete posterior, or [mean, variance]. */
  posteriors: number[][];
  /** The MPE: a state index per discrete variable, a value per continuous one. */
  mpe: number[];
  mpeLogDensity: number;
}

export function findingsOracle(net: HybridNetwork, cases: HybridEvidence[]): FindingsOracleAnswer[] {
  const variables = net.variables.map((v, i) => {
    const cpd = net.cpds[i]!;
    if (cpd.kind === 'discrete') {
      const states = (v as { states: string[] }).states.length;
      return { kind: 'discrete', states, parents: cpd.cpt.parents, table: [...cpd.cpt.table] };
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
  const vectors = (m?: ReadonlyMap<number, ArrayLike<number>>) =>
    Object.fromEntries([...(m ?? [])].map(([v, x]) => [v, Array.from(x)]));
  const input = cases.map((e) => ({
    discrete: Object.fromEntries(e.discrete),
    continuous: Object.fromEntries(e.continuous),
    likelihoods: vectors(e.likelihoods),
    soft: vectors(e.soft),
  }));
  return runPython<FindingsOracleAnswer[]>(ORACLE, { variables, cases: input });
}
