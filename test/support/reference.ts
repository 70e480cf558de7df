/** Compares exact inference with a reference file's cases (used by the unit and slow tests). */
import { JunctionTree } from '../../server/src/engine/inference/junctionTree.js';
import { variableElimination } from '../../server/src/engine/inference/variableElimination.js';
import { reducedMarginals, reducedPlan } from '../../server/src/engine/inference/evidenceReduction.js';
import type { BayesianNetwork } from '../../server/src/engine/network.js';
import { evidenceOf, maxAbsDiff, type ReferenceCase } from './networks.js';

export interface ReferenceReport {
  /** Max abs error of variable elimination against the reference. */
  veError: number;
  /** Max abs error of the junction tree against the reference. */
  jtError: number;
  /** Max abs difference of the junction tree and variable elimination (with `crossCheck`). */
  jtVsVe: number;
  /** With `reduced`: max abs error of the tree reduced by each case's evidence against the reference. */
  reducedError: number;
  /** With `reduced`: max abs difference of the reduced and the full tree, marginals and log P(e). */
  reducedVsJt: number;
  /** With `transient`: max abs difference of a tree with transient tables and the full one (0: same bits). */
  transientVsJt: number;
}

/**
 * JT against the reference on every case; VE too, on every variable (`crossCheck`) or on the
 * first of each case only, since VE per variable repeats the elimination work for each one. With
 * `reduced`, the junction tree reduced by each case's evidence (evidenceReduction.ts) too, against
 * the reference and against the full tree on every variable. With `transient`, a tree with transient
 * tables (JunctionTreeOptions.transient) against the full one, marginals and log P(e).
 * The network is the one the reader returns, rows normalised as for every method.
 */
export function compareWithReference(
  net: BayesianNetwork,
  cases: ReferenceCase[],
  crossCheck = true,
  reduced = false,
  transient = false,
): ReferenceReport {
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const jt = JunctionTree.compile(net);
  const room = transient ? JunctionTree.compile(net, { transient: true }) : undefined;
  const report: ReferenceReport = {
    veError: 0,
    jtError: 0,
    jtVsVe: 0,
    reducedError: 0,
    reducedVsJt: 0,
    transientVsJt: 0,
  };
  const expectedOf = (v: number, m: Record<string, number>) =>
    Float64Array.from(net.variables[v]!.states, (s) => m[s]!);
  for (const c of cases) {
    const evidence = evidenceOf(net, c.evidence);
    jt.setEvidence(evidence);
    jt.propagate();
    Object.entries(c.marginals).forEach(([name, m], i) => {
      const v = index.get(name)!;
      const expected = expectedOf(v, m);
      const fromJt = jt.marginal(v);
      report.jtError = Math.max(report.jtError, maxAbsDiff(fromJt, expected));
      if (!crossCheck && i > 0) return;
      const fromVe = variableElimination(net, [v], evidence).factor.values;
      report.veError = Math.max(report.veError, maxAbsDiff(fromVe, expected));
      report.jtVsVe = Math.max(report.jtVsVe, maxAbsDiff(fromJt, fromVe));
    });
    if (room) {
      room.setEvidence(evidence);
      room.propagate();
      const all = room.marginals();
      report.transientVsJt = Math.max(report.transientVsJt, Math.abs(room.logEvidence - jt.logEvidence));
      all.forEach((m, v) => (report.transientVsJt = Math.max(report.transientVsJt, maxAbsDiff(m, jt.marginal(v)))));
    }
    if (!reduced) continue;
    const { marginals, logEvidence } = reducedMarginals(net, evidence, reducedPlan(net, evidence));
    report.reducedVsJt = Math.max(report.reducedVsJt, Math.abs(logEvidence - jt.logEvidence));
    net.variables.forEach((variable, v) => {
      report.reducedVsJt = Math.max(report.reducedVsJt, maxAbsDiff(marginals[v]!, jt.marginal(v)));
      const m = c.marginals[variable.name];
      if (m) report.reducedError = Math.max(report.reducedError, maxAbsDiff(marginals[v]!, expectedOf(v, m)));
    });
  }
  return report;
}

/**
 * How far the reference contradicts itself: a variable whose connected component of the DAG's
 * skeleton holds no evidence variable is independent of the evidence, so its reference marginal
 * must equal the no-evidence one (case 0) under any semantics — any fixed CPTs, any pruning.
 * Returns the largest such difference: no inference engine can match a reference closer than
 * this, so a test asserts it is far below the 1e-9 the engine is held to.
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
