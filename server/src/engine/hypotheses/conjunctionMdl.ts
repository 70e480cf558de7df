/**
 * The Minimum Description Length principle over conjunctions (Mitchell exercise 6.5): a
 * hypothesis is encoded by listing its constraints, each one of the N literals `A = v` in
 * log2 N bits, and the data given the hypothesis by naming each misclassified example among the
 * m in log2 m bits (its class is then the opposite of the prediction). h_MDL minimises
 * L(h) + L(D|h) = c·log2 N + e·log2 m; found by enumerating every conjunction (the empty
 * hypothesis ∅ lists no literal and is no conjunction, so it is left out).
 */
import { EngineError } from '../engineError.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { ANY, covers, type ConceptExamples } from './conjunctiveHypotheses.js';

export interface ConjunctionLength {
  /** Constraint per attribute: a value code or ANY. */
  constraints: Int32Array;
  /** How many attributes are constrained (c). */
  literals: number;
  /** Misclassified examples (e). */
  errors: number;
  hypothesisBits: number;
  dataBits: number;
  totalBits: number;
}

export interface ConjunctionMdl {
  /** The `keep` shortest descriptions, shortest first (ties by fewer literals, then enumeration order). */
  shortest: ConjunctionLength[];
  /** Every conjunction of the smallest total length. */
  best: ConjunctionLength[];
  /** log2 N, N = Σ_i k_i literals. */
  literalBits: number;
  /** log2 m, m examples. */
  exceptionBits: number;
  /** Conjunctions enumerated: Π_i (k_i + 1). */
  count: number;
}

/** Enumeration beyond this many (conjunction × example) checks is refused. */
export const CONJUNCTION_MDL_BUDGET = 5e7;

export function conjunctionMdl(problem: ConceptExamples, keep = 20, signal?: CancelSignal): ConjunctionMdl {
  const sizes = problem.attributes.map((a) => a.values.length);
  const count = sizes.reduce((n, k) => n * (k + 1), 1);
  const m = problem.rows.length;
  if (count * Math.max(1, m) > CONJUNCTION_MDL_BUDGET) {
    throw new EngineError(
      `MDL over ${count} conjunctions and ${m} examples is over the budget of ${CONJUNCTION_MDL_BUDGET} checks`,
    );
  }
  const literalBits = Math.log2(
    Math.max(
      1,
      sizes.reduce((n, k) => n + k, 0),
    ),
  );
  const exceptionBits = Math.log2(Math.max(1, m));
  const h = new Int32Array(sizes.length).fill(ANY);
  const all: ConjunctionLength[] = [];
  let min = Infinity;
  const best: ConjunctionLength[] = [];
  for (let n = 0; n < count; n++) {
    if ((n & 0xfff) === 0) throwIfCancelled(signal);
    let errors = 0;
    for (let e = 0; e < m; e++) if (covers(h, problem.rows[e]!) !== problem.positive[e]) errors++;
    const literals = h.reduce((c, v) => c + (v === ANY ? 0 : 1), 0);
    const hypothesisBits = literals * literalBits,
      dataBits = errors * exceptionBits;
    const length: ConjunctionLength = {
      constraints: Int32Array.from(h),
      literals,
      errors,
      hypothesisBits,
      dataBits,
      totalBits: hypothesisBits + dataBits,
    };
    if (length.totalBits < min - 1e-9) {
      min = length.totalBits;
      best.length = 0;
    }
    if (Math.abs(length.totalBits - min) <= 1e-9) best.push(length);
    all.push(length);
    if (all.length > 4 * keep) trim(all, keep);
    next(h, sizes);
  }
  trim(all, keep);
  return { shortest: all, best, literalBits, exceptionBits, count };
}

function trim(lengths: ConjunctionLength[], keep: number): void {
  lengths.sort((a, b) => a.totalBits - b.totalBits || a.literals - b.literals);
  lengths.length = Math.min(lengths.length, keep);
}

/** The next conjunction in odometer order: each attribute runs ANY, 0, 1, …, k − 1. */
function next(h: Int32Array, sizes: readonly number[]): void {
  for (let i = h.length - 1; i >= 0; i--) {
    if (h[i]! < sizes[i]! - 1) {
      h[i]!++;
      return;
    }
    h[i] = ANY;
  }
}
