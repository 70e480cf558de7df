/**
 * The E-step shared by EM and gradient ascent on CPTs: for the current tables, the expected
 * count of every (parents, child) configuration, Σ_d P(x, u | d), and the data's log-likelihood
 * Σ_d log P(d).
 *
 * Real data repeats, so rows are grouped into distinct patterns first and each pattern is
 * propagated once, weighted by its multiplicity. Parts that do not depend on the tables are
 * counted once, up front: a family observed in a pattern contributes plain counts, and a pattern
 * with no missing value needs no inference at all (its log-likelihood is Σ counts · log θ).
 * The rest is exact inference with the junction tree (compiled once; each call reloads the tables).
 */
import { EngineError } from '../engineError.js';
import type { BayesianNetwork } from '../network.js';
import { JunctionTree } from '../inference/junctionTree.js';
import { groupRows } from '../dataset.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { familyStrides } from './cptLearning.js';
import { type CancelSignal } from '../cancellation.js';

export interface ExpectedCounts {
  /** counts[v] in v's CPT layout. */
  counts: Float64Array[];
  logLikelihood: number;
}

export class ImpossibleDataError extends EngineError {}

export class ExpectationStep {
  /** Compiled on the first run; later runs swap the tables of `working` in and reload them. */
  private tree: JunctionTree | undefined;
  private readonly working: BayesianNetwork;
  /** Counts from patterns in which the family is fully observed: the same every iteration. */
  private readonly observedCounts: Float64Array[];
  /** Counts from fully observed patterns only: their log-likelihood is Σ counts · log θ. */
  private readonly completeCounts: Float64Array[];
  /** Patterns with a missing value (row-major states, −1 missing) and their multiplicities. */
  private readonly partial: Int32Array;
  private readonly partialWeights: Float64Array;
  /** Per partial pattern p, the families with a missing member: familyList[familyStart[p] … familyStart[p+1]). */
  private readonly familyList: Int32Array;
  private readonly familyStart: Int32Array;
  readonly patterns: number;
  readonly rows: number;

  constructor(
    private readonly net: BayesianNetwork,
    data: CategoricalDataset,
  ) {
    if (data.columns.length !== net.variables.length) {
      throw new EngineError(
        `the data has ${data.columns.length} columns for ${net.variables.length} variables; align it to the network first`,
      );
    }
    this.working = { ...net, cpts: net.cpts.map((c) => ({ ...c })) };
    const grouped = groupRows(data);
    this.patterns = grouped.count;
    this.rows = data.rowCount;
    const n = net.variables.length;
    const layouts = net.cpts.map((_, v) => familyStrides(net, v));
    this.observedCounts = net.cpts.map((c) => new Float64Array(c.table.length));
    this.completeCounts = net.cpts.map((c) => new Float64Array(c.table.length));
    const partial: number[] = [];
    const familyList: number[] = [];
    const familyStart = [0];
    for (let p = 0; p < grouped.count; p++) {
      const row = grouped.states.subarray(p * n, (p + 1) * n);
      const w = grouped.weights[p]!;
      const complete = row.every((s) => s >= 0);
      for (let v = 0; v < n; v++) {
        const { family, strides } = layouts[v]!;
        let at = 0;
        for (let i = 0; i < family.length && at >= 0; i++)
          at = row[family[i]!]! < 0 ? -1 : at + row[family[i]!]! * strides[i]!;
        if (at < 0) {
          familyList.push(v);
          continue;
        }
        this.observedCounts[v]![at]! += w;
        if (complete) this.completeCounts[v]![at]! += w;
      }
      if (complete) continue;
      partial.push(p);
      familyStart.push(familyList.length);
    }
    this.partial = new Int32Array(partial.length * n);
    this.partialWeights = new Float64Array(partial.length);
    partial.forEach((p, i) => {
      this.partial.set(grouped.states.subarray(p * n, (p + 1) * n), i * n);
      this.partialWeights[i] = grouped.weights[p]!;
    });
    this.familyList = Int32Array.from(familyList);
    this.familyStart = Int32Array.from(familyStart);
  }

  /** Expected counts and log-likelihood under `tables` (one per variable, CPT layout). */
  run(tables: Float64Array[], signal?: CancelSignal): ExpectedCounts {
    const counts = this.observedCounts.map((c) => Float64Array.from(c));
    let logLikelihood = 0;
    tables.forEach((t, v) => {
      const c = this.completeCounts[v]!;
      for (let i = 0; i < c.length; i++) if (c[i]! > 0) logLikelihood += c[i]! * Math.log(t[i]!);
    });
    if (this.partialWeights.length === 0) return { counts, logLikelihood };
    this.working.cpts.forEach((c, v) => {
      c.table = tables[v]!;
    });
    if (this.tree) this.tree.reloadTables();
    else this.tree = JunctionTree.compile(this.working);
    const tree = this.tree;
    const n = this.net.variables.length;
    const evidence = new Map<number, number>();
    for (let p = 0; p < this.partialWeights.length; p++) {
      const row = this.partial.subarray(p * n, (p + 1) * n);
      const weight = this.partialWeights[p]!;
      evidence.clear();
      for (let v = 0; v < n; v++) if (row[v]! >= 0) evidence.set(v, row[v]!);
      tree.setEvidence(evidence);
      tree.propagate(signal);
      const logP = tree.logEvidence;
      if (logP === -Infinity)
        throw new ImpossibleDataError(
          `a record (${describe(this.net, evidence)}) has probability 0 under the current CPTs`,
        );
      logLikelihood += weight * logP;
      // Families with a missing member take their share from inference; the rest were counted up front.
      for (let f = this.familyStart[p]!; f < this.familyStart[p + 1]!; f++) {
        const v = this.familyList[f]!;
        const m = tree.familyMarginal(v);
        const c = counts[v]!;
        for (let i = 0; i < m.length; i++) c[i]! += weight * m[i]!;
      }
    }
    return { counts, logLikelihood };
  }
}

function describe(net: BayesianNetwork, evidence: Map<number, number>): string {
  return (
    [...evidence]
      .slice(0, 6)
      .map(([v, s]) => `${net.variables[v]!.name}=${net.variables[v]!.states[s]}`)
      .join(', ') + (evidence.size > 6 ? ', …' : '')
  );
}

/** Records the learned tables give probability 0 (their log-likelihood is −∞), and why. */
export interface ImpossibleRecords {
  records: number;
  /** Distinct patterns among them. */
  patterns: number;
  /** The first such record and the reason it scores −∞. */
  example: string;
  reason: string;
  /** Σ log P(d) over the other records. */
  otherLogLikelihood: number;
}

export interface DataLogLikelihood {
  /** −∞ when some record has probability 0 (`impossible` says which and why). */
  logLikelihood: number;
  patterns: number;
  impossible?: ImpossibleRecords;
}

/**
 * log P(data | net) — for counting, which has no E-step of its own. It never throws for the data:
 * records of probability 0 (counting gives 0 to a value combination no record with that family
 * fully observed shows, and a record with `?` may need one) make it −∞, counted and explained.
 */
export function dataLogLikelihood(
  net: BayesianNetwork,
  data: CategoricalDataset,
  signal?: CancelSignal,
): DataLogLikelihood {
  if (data.columns.length !== net.variables.length) {
    throw new EngineError(
      `the data has ${data.columns.length} columns for ${net.variables.length} variables; align it to the network first`,
    );
  }
  const grouped = groupRows(data);
  const n = net.variables.length;
  const layouts = net.cpts.map((_, v) => familyStrides(net, v));
  let tree: JunctionTree | undefined;
  const evidence = new Map<number, number>();
  let finite = 0,
    records = 0,
    patterns = 0;
  let example: { record: string; reason: string } | undefined;
  for (let p = 0; p < grouped.count; p++) {
    const row = grouped.states.subarray(p * n, (p + 1) * n);
    const w = grouped.weights[p]!;
    let logP = 0;
    let zero: number | undefined; // a fully observed family whose table entry is 0
    let complete = true;
    for (let v = 0; v < n; v++) {
      const { family, strides } = layouts[v]!;
      let at = 0;
      for (let i = 0; i < family.length && at >= 0; i++)
        at = row[family[i]!]! < 0 ? -1 : at + row[family[i]!]! * strides[i]!;
      if (at < 0) {
        complete = false;
        continue;
      }
      const theta = net.cpts[v]!.table[at]!;
      if (theta === 0) zero ??= v;
      logP += Math.log(theta);
    }
    if (!complete && zero === undefined) {
      evidence.clear();
      for (let v = 0; v < n; v++) if (row[v]! >= 0) evidence.set(v, row[v]!);
      tree ??= JunctionTree.compile(net);
      tree.setEvidence(evidence);
      tree.propagate(signal);
      logP = tree.logEvidence;
    }
    if (logP > -Infinity) {
      finite += w * logP;
      continue;
    }
    records += w;
    patterns++;
    if (example) continue;
    const observed = new Map<number, number>();
    for (let v = 0; v < n; v++) if (row[v]! >= 0) observed.set(v, row[v]!);
    example = {
      record: describe(net, observed),
      reason:
        zero !== undefined
          ? zeroEntry(net, row, zero)
          : 'every way to fill in its missing values meets a table entry of 0',
    };
  }
  if (!example) return { logLikelihood: finite, patterns: grouped.count };
  return {
    logLikelihood: -Infinity,
    patterns: grouped.count,
    impossible: { records, patterns, example: example.record, reason: example.reason, otherLogLikelihood: finite },
  };
}

function zeroEntry(net: BayesianNetwork, row: Int32Array, v: number): string {
  const name = (u: number) => `${net.variables[u]!.name} = ${net.variables[u]!.states[row[u]!]}`;
  const parents = net.cpts[v]!.parents;
  return `P(${name(v)}${parents.length ? ` | ${parents.map(name).join(', ')}` : ''}) = 0`;
}
