/**
 * Learning the tables of a network over time from sequences: EM (Baum–Welch for an HMM, the
 * special case of one hidden and one observed variable per slice; Murphy 2002 §6.2.1). The E-step
 * is forward–backward on the interface (forwardBackward.ts): each step's family posteriors
 * P(X_t, parents | e_1..T) from the 1.5-slice tree with α_{t−1} and β_t, slice 0's from the
 * initial tree with β₀, summed into expected counts; the M-step normalises the counts plus a
 * Dirichlet pseudo-count per entry. On complete sequences the family posteriors are the observed
 * configurations, so one iteration is counting. A table shared by slice 0 and the transition
 * (the same object in both lists) pools the counts of both. The log-likelihood never decreases
 * (checked); random starts are Dirichlet(1) tables from the seed.
 */
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { EngineError } from '../engineError.js';
import { createRng } from '../random.js';
import type { Cpt } from '../network.js';
import { DynamicTrees } from './forwardBackward.js';
import { NO_FINDINGS, type StepFindings } from './sliceTree.js';
import type { TwoSliceNetwork } from './twoSliceNetwork.js';

export interface SequenceEmOptions {
  maxIterations?: number;
  /** Stop when the log-likelihood rises by less than this (relative). */
  tolerance?: number;
  /** Dirichlet pseudo-count added to every entry (0: maximum likelihood). */
  pseudoCount?: number;
  /** Start from random tables drawn from this seed instead of the network's own numbers. */
  seed?: number;
  maxEntries?: number;
  signal?: CancelSignal;
}

export interface SequenceEmResult {
  dbn: TwoSliceNetwork;
  /** log P(sequences) under the starting tables and after each M-step; the last is the returned tables'. */
  logLikelihoods: number[];
  /** M-steps taken. */
  iterations: number;
}

export function learnSequences(
  start: TwoSliceNetwork,
  sequences: readonly (readonly StepFindings[])[],
  options: SequenceEmOptions = {},
): SequenceEmResult {
  const dbn = copyTables(start);
  if (options.seed !== undefined) randomTables(dbn, options.seed);
  const maxEntries = options.maxEntries ?? DEFAULT_BUDGETS.maxTotalEntries;
  const trees = new DynamicTrees(dbn, maxEntries);
  const longest = Math.max(0, ...sequences.map((s) => s.length));
  requireWithin('the forward messages of EM', (longest + 1) * trees.step.ifaceSize, maxEntries);
  const tolerance = options.tolerance ?? 1e-8;
  const history: number[] = [];
  let iterations = 0;
  const maxIterations = options.maxIterations ?? 200;
  // Each pass: the E-step under the current tables (their log-likelihood), then, unless converged
  // or out of iterations, the M-step. The last log-likelihood is always that of the tables returned.
  for (;;) {
    const counts = tableCounts(dbn);
    let logLikelihood = 0;
    for (const seq of sequences) logLikelihood += expectedCounts(trees, seq, counts, options.signal);
    const previous = history[history.length - 1];
    if (previous !== undefined && logLikelihood < previous - 1e-9 * Math.max(1, Math.abs(previous)))
      throw new EngineError(`EM lowered the log-likelihood from ${previous} to ${logLikelihood}`);
    history.push(logLikelihood);
    const converged = previous !== undefined && logLikelihood - previous <= tolerance * Math.max(1, Math.abs(previous));
    if (converged || iterations >= maxIterations) break;
    maximise(dbn, counts, options.pseudoCount ?? 0);
    iterations++;
  }
  return { dbn, logLikelihoods: history, iterations };
}

/** One count table per distinct CPT object (a table shared by slice 0 and t is one). */
function tableCounts(dbn: TwoSliceNetwork): Map<Cpt, Float64Array> {
  const counts = new Map<Cpt, Float64Array>();
  for (const cpt of [...dbn.initial, ...dbn.transition])
    if (!counts.has(cpt)) counts.set(cpt, new Float64Array(cpt.table.length));
  return counts;
}

/** Adds one sequence's family posteriors to `counts`; returns its log-likelihood. */
function expectedCounts(
  trees: DynamicTrees,
  seq: readonly StepFindings[],
  counts: Map<Cpt, Float64Array>,
  signal?: CancelSignal,
): number {
  const dbn = trees.dbn;
  const n = dbn.variables.length;
  const alphas = [trees.priorInterface(signal)];
  let logLikelihood = 0;
  seq.forEach((f, i) => {
    throwIfCancelled(signal);
    logLikelihood += trees.step.propagate(alphas[i], undefined, f, i + 1, signal);
    alphas.push(trees.step.interfaceJoint());
  });
  const ones = new Float64Array(trees.step.ifaceSize).fill(1);
  let beta: Float64Array | undefined;
  for (let t = seq.length; t >= 1; t--) {
    throwIfCancelled(signal);
    trees.step.propagate(alphas[t - 1], beta, seq[t - 1]!, t, signal);
    for (let v = 0; v < n; v++) add(counts.get(dbn.transition[v]!)!, trees.step.familyMarginal(v));
    trees.step.propagate(ones, beta, seq[t - 1]!, t, signal);
    beta = trees.step.previousJoint();
  }
  trees.first.propagate(undefined, beta, NO_FINDINGS, 0, signal);
  for (let v = 0; v < n; v++) add(counts.get(dbn.initial[v]!)!, trees.first.familyMarginal(v));
  return logLikelihood;
}

function add(into: Float64Array, values: Float64Array): void {
  for (let i = 0; i < into.length; i++) into[i]! += values[i]!;
}

/** Each row: counts + pseudo-count, normalised; a row never seen (and no prior) is uniform. */
function maximise(dbn: TwoSliceNetwork, counts: Map<Cpt, Float64Array>, pseudoCount: number): void {
  for (const [cpt, c] of counts) {
    const k = dbn.variables[cpt.child]!.states.length;
    for (let r = 0; r < c.length; r += k) {
      let sum = 0;
      for (let x = 0; x < k; x++) sum += c[r + x]! + pseudoCount;
      for (let x = 0; x < k; x++) cpt.table[r + x] = sum > 0 ? (c[r + x]! + pseudoCount) / sum : 1 / k;
    }
  }
}

/** The network with its own tables (shared ones stay shared), so learning leaves `start` as it was. */
function copyTables(start: TwoSliceNetwork): TwoSliceNetwork {
  const copies = new Map<Cpt, Cpt>();
  const copy = (c: Cpt) => {
    let out = copies.get(c);
    if (!out) copies.set(c, (out = { child: c.child, parents: [...c.parents], table: Float64Array.from(c.table) }));
    return out;
  };
  return { ...start, initial: start.initial.map(copy), transition: start.transition.map(copy) };
}

/** Every row a Dirichlet(1) draw (normalised exponentials) from the seed. */
function randomTables(dbn: TwoSliceNetwork, seed: number): void {
  const rng = createRng(seed);
  const seen = new Set<Cpt>();
  for (const cpt of [...dbn.initial, ...dbn.transition]) {
    if (seen.has(cpt)) continue;
    seen.add(cpt);
    const k = dbn.variables[cpt.child]!.states.length;
    for (let r = 0; r < cpt.table.length; r += k) {
      let sum = 0;
      for (let x = 0; x < k; x++) sum += cpt.table[r + x] = -Math.log(1 - rng.next());
      for (let x = 0; x < k; x++) cpt.table[r + x]! /= sum;
    }
  }
}
