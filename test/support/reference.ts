/** Compares exact inference with a reference file's cases (used by the unit and slow tests). */
import { JunctionTree } from '../../server/src/engine/junctionTree.js';
import { variableElimination } from '../../server/src/engine/variableElimination.js';
import { normalizeRows, type BayesianNetwork } from '../../server/src/engine/network.js';
import { evidenceOf, maxAbsDiff, type ReferenceCase } from './networks.js';

export interface ReferenceReport {
  /** Max abs error of variable elimination (on the file's rows) against the reference. */
  veError: number;
  /** Max abs error of the junction tree (on the file's rows) against the reference. */
  jtError: number;
  /** Max abs difference of JT and VE on the row-normalised network. */
  jtVsVeNormalized: number;
}

/**
 * VE and JT on the file's rows against the reference. With `crossCheck`, JT and VE also run on
 * the row-normalised network and are compared with each other (doubles the VE work).
 */
export function compareWithReference(net: BayesianNetwork, cases: ReferenceCase[], crossCheck = true): ReferenceReport {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const normalized = normalizeRows(net);
  const jt = JunctionTree.compile(net);
  const jtN = crossCheck ? JunctionTree.compile(normalized) : undefined;
  const report: ReferenceReport = { veError: 0, jtError: 0, jtVsVeNormalized: 0 };
  for (const c of cases) {
    const evidence = evidenceOf(net, c.evidence);
    jt.setEvidence(evidence);
    jt.propagate();
    jtN?.setEvidence(evidence);
    jtN?.propagate();
    for (const [name, m] of Object.entries(c.marginals)) {
      const v = index.get(name)!;
      const states = net.variables[v]!.states;
      const expected = Float64Array.from(states, (s) => m[s]!);
      report.jtError = Math.max(report.jtError, maxAbsDiff(jt.marginal(v), expected));
      report.veError = Math.max(report.veError, maxAbsDiff(variableElimination(net, [v], evidence).factor.values, expected));
      if (!jtN) continue;
      const veN = variableElimination(normalized, [v], evidence).factor.values;
      report.jtVsVeNormalized = Math.max(report.jtVsVeNormalized, maxAbsDiff(jtN.marginal(v), veN));
    }
  }
  return report;
}

/**
 * How far the reference contradicts itself: a variable whose connected component of the DAG's
 * skeleton holds no evidence variable is independent of the evidence, so its reference marginal
 * must equal the no-evidence one (case 0) under any semantics — any fixed CPTs, any pruning.
 * Returns the largest such difference. No inference engine can match a reference closer than
 * this, so the VE tolerance is 1e-9 plus it (0 on a consistent reference).
 */
export function referenceInconsistency(net: BayesianNetwork, cases: ReferenceCase[]): number {
  const component = skeletonComponents(net);
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const prior = cases.find((c) => Object.keys(c.evidence).length === 0);
  if (!prior) return 0;
  let worst = 0;
  for (const c of cases) {
    const touched = new Set(Object.keys(c.evidence).map((n) => component[index.get(n)!]));
    for (const [name, m] of Object.entries(c.marginals)) {
      const p = prior.marginals[name];
      if (!p || touched.has(component[index.get(name)!])) continue;
      for (const s of Object.keys(m)) worst = Math.max(worst, Math.abs(m[s]! - p[s]!));
    }
  }
  return worst;
}

/** Component id of every variable in the undirected skeleton (union-find over parent links). */
function skeletonComponents(net: BayesianNetwork): number[] {
  const root = net.variables.map((_, i) => i);
  const find = (v: number): number => (root[v] === v ? v : (root[v] = find(root[v]!)));
  for (const cpt of net.cpts) for (const p of cpt.parents) root[find(p)] = find(cpt.child);
  return root.map((_, v) => find(v));
}
