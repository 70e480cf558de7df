/**
 * The version space of conjunctive hypotheses (Mitchell ch. 2) and brute-force MAP learning over
 * it (§6.3): uniform prior P(h) = 1/|H| and, with noise ε, P(d|h, x) = 1 − ε when h(x) = d and ε
 * otherwise (ε = 0 gives eq. 6.4: P(D|h) = 1 if h is consistent with D, else 0, and
 * P(h|D) = 1/|VS_H,D| on the version space).
 *
 * Hypotheses with the same number of errors share one posterior, so the engine counts them
 * instead of listing them: a pass over the attributes tracks, for each set of examples a partial
 * conjunction still covers, how many partial conjunctions do. The work is bounded by the number
 * of distinct covered sets, not by |H|. The boundary sets S and G come from Candidate-
 * Elimination (§2.5), which never enumerates H either.
 */
import { EngineError } from '../engineError.js';
import { logSumExp } from '../math/logMath.js';
import {
  ANY,
  covers,
  describeConjunction,
  hypothesisSpaceSize,
  moreGeneralOrEqual,
  type ConceptExamples,
  type Conjunction,
} from './conjunctiveHypotheses.js';

export interface ErrorClass {
  /** Number of training examples a hypothesis of this class misclassifies. */
  errors: number;
  /** How many hypotheses make exactly that many errors (exact integer, as text). */
  hypotheses: string;
  /** P(D|h) of each of them. */
  likelihood: number;
  /** P(h|D) of each of them. */
  posteriorEach: number;
  /** Σ P(h|D) over the class. */
  posteriorTotal: number;
}

export interface ConceptPosterior {
  hypothesisCount: string;
  examples: number;
  noise: number;
  /** Hypotheses consistent with every example: |VS_H,D|. */
  versionSpaceSize: string;
  evidence: number;
  logEvidence: number;
  evidencePossible: boolean;
  /** Error classes with at least one hypothesis, fewest errors first; the first one with non-zero posterior is h_MAP's. */
  errorClasses: ErrorClass[];
  /** Most specific and most general boundaries of the version space (noise 0 only). */
  boundaries?: { S: string[][]; G: string[][] } | { exceeded: string };
  /** Every member of the version space, when noise is 0 and there are at most `listLimit`. */
  members?: string[][];
}

export interface ConceptOptions {
  noise: number;
  /** Give up (with an error) beyond this many distinct covered-example sets. */
  stateBudget?: number;
  /** Largest G boundary to compute. */
  boundaryBudget?: number;
  /** List the version space's members when it has at most this many (default 100). */
  listLimit?: number;
}

export function conceptPosterior(problem: ConceptExamples, options: ConceptOptions): ConceptPosterior {
  const { noise } = options;
  if (!(noise >= 0 && noise < 1)) throw new EngineError(`noise must be in [0, 1), got ${noise}`);
  const m = problem.rows.length;
  const histogram = errorHistogram(problem, options.stateBudget ?? 2_000_000);
  const total = hypothesisSpaceSize(problem.attributes);
  const logH = logOfBigInt(total);
  const logLikelihood = (e: number) =>
    (e === 0 ? 0 : noise === 0 ? -Infinity : e * Math.log(noise)) + (m - e) * Math.log1p(-noise);
  const entries = [...histogram.entries()].sort((a, b) => a[0] - b[0]);
  const logEvidence = logSumExp(entries.map(([e, count]) => logOfBigInt(count) + logLikelihood(e))) - logH;
  const evidencePossible = logEvidence > -Infinity;
  const errorClasses = entries.map(([errors, count]): ErrorClass => {
    const each = evidencePossible ? Math.exp(logLikelihood(errors) - logH - logEvidence) : 0;
    return {
      errors,
      hypotheses: count.toString(),
      likelihood: Math.exp(logLikelihood(errors)),
      posteriorEach: each,
      posteriorTotal: each * Number(count),
    };
  });
  return {
    hypothesisCount: total.toString(),
    examples: m,
    noise,
    versionSpaceSize: (histogram.get(0) ?? 0n).toString(),
    evidence: Math.exp(logEvidence),
    logEvidence,
    evidencePossible,
    errorClasses,
    ...(noise === 0
      ? describeVersionSpace(
          problem,
          options.boundaryBudget ?? 10_000,
          histogram.get(0) ?? 0n,
          options.listLimit ?? 100,
        )
      : {}),
  };
}

/** errors → number of hypotheses in H (∅ included) making that many errors. */
export function errorHistogram(problem: ConceptExamples, stateBudget: number): Map<number, bigint> {
  const m = problem.rows.length;
  const all = (1n << BigInt(m)) - 1n;
  let positives = 0n;
  problem.positive.forEach((p, e) => {
    if (p) positives |= 1n << BigInt(e);
  });
  // covered-example set → number of partial conjunctions covering exactly those examples.
  let states = new Map<bigint, bigint>([[all, 1n]]);
  problem.attributes.forEach((attribute, i) => {
    const matching = attribute.values.map((_, v) =>
      problem.rows.reduce((set, row, e) => (row[i] === v ? set | (1n << BigInt(e)) : set), 0n),
    );
    const next = new Map<bigint, bigint>();
    const add = (set: bigint, n: bigint) => next.set(set, (next.get(set) ?? 0n) + n);
    for (const [set, n] of states) {
      add(set, n); // '?'
      for (const match of matching) add(set & match, n);
    }
    if (next.size > stateBudget) {
      throw new EngineError(
        `the hypothesis space is too large to count with ${m} examples (more than ${stateBudget} distinct coverings)`,
      );
    }
    states = next;
  });
  const histogram = new Map<number, bigint>();
  const bump = (errors: number, n: bigint) => histogram.set(errors, (histogram.get(errors) ?? 0n) + n);
  for (const [set, n] of states) bump(popcount(positives & ~set) + popcount(set & ~positives & all), n);
  bump(popcount(positives), 1n); // ∅ covers nothing: it errs on every positive example
  return histogram;
}

function popcount(x: bigint): number {
  let count = 0;
  while (x > 0n) {
    let word = Number(BigInt.asUintN(32, x));
    word -= (word >>> 1) & 0x55555555;
    word = (word & 0x33333333) + ((word >>> 2) & 0x33333333);
    count += (((word + (word >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
    x >>= 32n;
  }
  return count;
}

function logOfBigInt(n: bigint): number {
  if (n === 0n) return -Infinity;
  const digits = n.toString(2).length;
  if (digits <= 1000) return Math.log(Number(n));
  const shift = BigInt(digits - 60);
  return Math.log(Number(n >> shift)) + Number(shift) * Math.LN2;
}

export interface Boundaries {
  S: Conjunction[];
  G: Conjunction[];
}

/**
 * Candidate-Elimination (Mitchell Table 2.5) for conjunctions. Positive examples are processed
 * first: the version space does not depend on the order, and a specific S keeps G small.
 * Returns undefined when G outgrows `budget`. Empty S and G: no consistent hypothesis.
 */
export function candidateElimination(problem: ConceptExamples, budget: number): Boundaries | undefined {
  const n = problem.attributes.length;
  let S: Conjunction[] = [null];
  let G: Conjunction[] = [new Int32Array(n).fill(ANY)];
  const order = problem.rows.map((_, e) => e).sort((a, b) => Number(problem.positive[b]) - Number(problem.positive[a]));
  for (const e of order) {
    const x = problem.rows[e]!;
    if (problem.positive[e]) {
      G = G.filter((g) => covers(g, x));
      S = S.map((s) => (covers(s, x) ? s : minimalGeneralization(s, x))).filter((s) =>
        G.some((g) => moreGeneralOrEqual(g, s)),
      );
    } else {
      S = S.filter((s) => !covers(s, x));
      const next: Conjunction[] = [];
      for (const g of G) {
        if (!covers(g, x)) {
          next.push(g);
          continue;
        }
        for (const h of minimalSpecializations(
          g as Int32Array,
          x,
          problem.attributes.map((a) => a.values.length),
        )) {
          if (S.some((s) => moreGeneralOrEqual(h, s))) next.push(h);
        }
      }
      G = maximallyGeneral(next);
      if (G.length > budget) return undefined;
    }
  }
  if (S.length === 0 || G.length === 0) return { S: [], G: [] };
  return { S, G };
}

function minimalGeneralization(s: Conjunction, x: Int32Array): Conjunction {
  if (s === null) return Int32Array.from(x);
  return s.map((c, i) => (c === x[i] ? c : ANY));
}

function minimalSpecializations(g: Int32Array, x: Int32Array, domainSizes: number[]): Conjunction[] {
  const out: Conjunction[] = [];
  g.forEach((c, i) => {
    if (c !== ANY) return;
    for (let v = 0; v < domainSizes[i]!; v++)
      if (v !== x[i]) {
        const h = Int32Array.from(g);
        h[i] = v;
        out.push(h);
      }
  });
  // No '?' left to narrow: the only hypothesis below g that excludes x is ∅.
  return out.length > 0 ? out : [null];
}

function maximallyGeneral(hs: Conjunction[]): Conjunction[] {
  const unique = hs.filter((h, i) => hs.findIndex((k) => moreGeneralOrEqual(k, h) && moreGeneralOrEqual(h, k)) === i);
  return unique.filter((h) => !unique.some((k) => k !== h && moreGeneralOrEqual(k, h) && !moreGeneralOrEqual(h, k)));
}

function describeVersionSpace(
  problem: ConceptExamples,
  budget: number,
  size: bigint,
  listLimit: number,
): Pick<ConceptPosterior, 'boundaries' | 'members'> {
  const b = candidateElimination(problem, budget);
  if (!b) return { boundaries: { exceeded: `the G boundary has more than ${budget} members` } };
  const show = (h: Conjunction) => describeConjunction(h, problem.attributes);
  const boundaries = { S: b.S.map(show), G: b.G.map(show) };
  if (size > BigInt(listLimit)) return { boundaries };
  return {
    boundaries,
    members: versionSpaceMembers(
      b,
      problem.attributes.map((a) => a.values.length),
    ).map(show),
  };
}

/**
 * The members of a version space from its boundaries (Mitchell's representation theorem 2.1):
 * every h with s ≤g h ≤g g for some s in S and g in G. Call only when the space is small.
 */
export function versionSpaceMembers(b: Boundaries, domainSizes: readonly number[]): Conjunction[] {
  const members = new Map<string, Conjunction>();
  for (const s of b.S) {
    if (s === null) members.set('∅', null);
    for (const g of b.G) {
      if (g === null || !moreGeneralOrEqual(g, s)) continue;
      // Per attribute, the constraints between s and g.
      const options = Array.from(g, (gi, i) =>
        gi !== ANY
          ? [gi]
          : s === null
            ? [ANY, ...Array.from({ length: domainSizes[i]! }, (_, v) => v)]
            : s[i] === ANY
              ? [ANY]
              : [ANY, s[i]!],
      );
      let partial: number[][] = [[]];
      for (const choice of options) partial = partial.flatMap((p) => choice.map((c) => [...p, c]));
      for (const p of partial) members.set(p.join(','), Int32Array.from(p));
    }
  }
  return [...members.values()];
}
