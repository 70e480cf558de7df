/**
 * Decomposable scores of a network structure given complete data: the score of a DAG is the sum
 * of its families' scores, so a search re-scores only the families a move changes.
 *  - `k2`: Cooper & Herskovits' Bayesian score with uniform Dirichlet(1) parameters:
 *    Σ_j [ln Γ(r) − ln Γ(N_j + r) + Σ_k ln Γ(N_jk + 1)]  (Mitchell §6.11.6, K2).
 *  - `bdeu`: Dirichlet with equivalent sample size ess spread as ess/(q·r) per cell.
 *  - `bic`: log-likelihood at the ML parameters − ½ ln N · q(r − 1).
 * Rows with a missing value in the family are left out of that family's counts.
 */
import { distinctRows, type CategoricalDataset } from '../categoricalData.js';
import { countConfigurations } from '../estimators/cptLearning.js';
import { logGamma } from '../estimators/betaDistribution.js';

export type ScoreName = 'k2' | 'bdeu' | 'bic';

export interface ScoreOptions {
  score: ScoreName;
  /** Equivalent sample size for BDeu (default 1). */
  ess?: number;
}

export function familyScore(
  data: CategoricalDataset,
  child: number,
  parents: readonly number[],
  options: ScoreOptions,
): number {
  return scoreOfCounts(countConfigurations(data, [...parents, child]), data.attributes[child]!.values.length, options);
}

/** The score of a family from its counts (parent configurations × r child states, child fastest). */
function scoreOfCounts(counts: Float64Array, r: number, options: ScoreOptions): number {
  const q = counts.length / r;
  switch (options.score) {
    case 'k2':
      return dirichletScore(counts, r, 1);
    case 'bdeu':
      return dirichletScore(counts, r, (options.ess ?? 1) / (q * r));
    case 'bic':
      return bicScore(counts, r, q);
  }
}

/** Marginal likelihood of the counts under a symmetric Dirichlet(α) per row (Cooper & Herskovits). */
function dirichletScore(counts: Float64Array, r: number, alpha: number): number {
  let s = 0;
  const rowAlpha = alpha * r;
  const lgAlpha = logGamma(alpha),
    lgRowAlpha = logGamma(rowAlpha);
  for (let j = 0; j < counts.length; j += r) {
    let n = 0;
    for (let k = 0; k < r; k++) {
      const c = counts[j + k]!;
      if (c > 0) {
        s += logGamma(alpha + c) - lgAlpha;
        n += c;
      }
    }
    if (n > 0) s += lgRowAlpha - logGamma(rowAlpha + n);
  }
  return s;
}

function bicScore(counts: Float64Array, r: number, q: number): number {
  let ll = 0,
    total = 0;
  for (let j = 0; j < counts.length; j += r) {
    let n = 0;
    for (let k = 0; k < r; k++) n += counts[j + k]!;
    total += n;
    for (let k = 0; k < r; k++) {
      const c = counts[j + k]!;
      if (c > 0) ll += c * Math.log(c / n);
    }
  }
  return ll - 0.5 * Math.log(Math.max(total, 1)) * q * (r - 1);
}

/**
 * What a score-based search asks of a decomposable score: a family's score, the same with one
 * more parent, a hint that the families parents + x are about to be asked for, and a DAG's total.
 * ScoreCache (categorical data) and the Gaussian scores (gaussian/gaussianScore.ts) provide it.
 */
export interface FamilyScores {
  family(child: number, parents: readonly number[]): number;
  familyWith(child: number, parents: readonly number[], x: number): number;
  prefetch(child: number, parents: readonly number[], extras: readonly number[]): void;
  total(parents: readonly (readonly number[])[]): number;
}

/**
 * Family scores memoised by (child, parent set): searches ask for the same families again and
 * again. Counting runs over the data's distinct rows, weighted (or over the weighted rows given).
 */
/**
 * Families a ScoreCache keeps (a few hundred MB with string keys). A hill climb over the 3,000
 * columns of an 18 KB data block asks for millions of families a step: the cache grew without
 * bound (2 GB after 150 s) until the process was killed.
 */
export const MAX_CACHED_FAMILIES = 2_000_000;

export class ScoreCache implements FamilyScores {
  /** Per child, keyed by the parent set (see key()). */
  private readonly cache: Array<Map<number | string, number>>;
  private readonly counted: CategoricalDataset;
  /** No missing value anywhere: counting needs no test per row. */
  private readonly complete: boolean;
  /** 2^p per variable p, when parent sets are keyed by numbers (at most 53 variables). */
  private readonly bits: Float64Array | undefined;
  /** Families cached, in all the maps. */
  private entries = 0;
  constructor(
    readonly data: CategoricalDataset,
    readonly options: ScoreOptions,
    /** Past this many families the cache starts again (a budget: the scores are the same, recounted). */
    private readonly maxCached = MAX_CACHED_FAMILIES,
  ) {
    this.counted = data.weights ? data : distinctRows(data);
    this.cache = data.attributes.map(() => new Map());
    this.complete = this.counted.columns.every((col) => col.every((v) => v >= 0));
    const n = data.attributes.length;
    this.bits = n <= 53 ? Float64Array.from({ length: n }, (_, p) => 2 ** p) : undefined;
  }

  /**
   * Scores child's families `parents` + x for each x of `extras` not cached yet, counted over one
   * shared index of the parents' configurations: a climb asks for all of them after each move.
   * Same counts, in the same layout, as family() would count one by one.
   */
  prefetch(child: number, parents: readonly number[], extras: readonly number[]): void {
    const cache = this.cache[child]!,
      k = this.key(parents);
    const todo = this.uncached(child, parents, extras);
    if (todo.length < 2) return;
    const { columns, attributes } = this.counted;
    const card = (v: number) => attributes[v]!.values.length;
    const base = this.configurations(parents);
    const q = parents.reduce((n, p) => n * card(p), 1),
      rc = card(child),
      cc = columns[child]!;
    for (const x of todo) {
      const rx = card(x);
      const counts = new Float64Array(q * rx * rc);
      this.countInto(counts, base, columns[x]!, rx, cc, rc);
      this.remember(cache, this.keyWith(parents, x, k), scoreOfCounts(counts, rc, this.options));
    }
  }

  /** Per counted row, the parents' configuration (first parent slowest), or −1 when one is missing. */
  private configurations(parents: readonly number[]): Int32Array {
    const { columns, rowCount, attributes } = this.counted;
    const base = new Int32Array(rowCount);
    for (const p of parents) {
      const col = columns[p]!,
        r = attributes[p]!.values.length;
      if (this.complete) for (let i = 0; i < rowCount; i++) base[i] = base[i]! * r + col[i]!;
      else for (let i = 0; i < rowCount; i++) base[i] = base[i]! < 0 || col[i]! < 0 ? -1 : base[i]! * r + col[i]!;
    }
    return base;
  }

  /**
   * Adds each counted row's weight to counts[(configuration, x's state, child's state)]. The
   * loop is the search's hot spot: with no missing value it does no test per row.
   */
  private countInto(counts: Float64Array, base: Int32Array, cx: Int32Array, rx: number, cc: Int32Array, rc: number) {
    const { rowCount } = this.counted;
    const weights = this.counted.weights!; // the distinct rows, weighted (see the constructor)
    if (this.complete) {
      for (let i = 0; i < rowCount; i++) counts[(base[i]! * rx + cx[i]!) * rc + cc[i]!]! += weights[i]!;
      return;
    }
    for (let i = 0; i < rowCount; i++) {
      const b = base[i]!,
        s = cx[i]!,
        c = cc[i]!;
      if (b >= 0 && s >= 0 && c >= 0) counts[(b * rx + s) * rc + c]! += weights[i]!;
    }
  }

  /**
   * The cache key of a parent set within its child's map: Σ 2^p (exact below 2^53), else the
   * sorted list. A plain loop over a table of powers: a climb asks for keys once per move scored.
   */
  private key(parents: readonly number[]): number | string {
    const bits = this.bits;
    if (!bits) return [...parents].sort().join();
    let k = 0;
    for (let i = 0; i < parents.length; i++) k += bits[parents[i]!]!;
    return k;
  }

  /**
   * The key of parents + x (x not among them), without building the list when keys are numbers;
   * `k` is the parents' own key, when the caller asks for several x.
   */
  private keyWith(parents: readonly number[], x: number, k = this.key(parents)): number | string {
    return typeof k === 'number' ? k + this.bits![x]! : this.key([...parents, x]);
  }

  /** The extras x whose family parents + x is not cached yet. */
  private uncached(child: number, parents: readonly number[], extras: readonly number[]): number[] {
    const cache = this.cache[child]!,
      k = this.key(parents);
    return extras.filter((x) => !cache.has(this.keyWith(parents, x, k)));
  }

  /** family(child, parents + x), x not among them: what a climb asks for every addition and reversal. */
  familyWith(child: number, parents: readonly number[], x: number): number {
    return this.cache[child]!.get(this.keyWith(parents, x)) ?? this.family(child, [...parents, x]);
  }

  family(child: number, parents: readonly number[]): number {
    const key = this.key(parents);
    const cache = this.cache[child]!;
    let s = cache.get(key);
    if (s === undefined) {
      s = familyScore(this.counted, child, parents, this.options);
      this.remember(cache, key, s);
    }
    return s;
  }

  /** Families cached now (at most maxCached). */
  get size(): number {
    return this.entries;
  }

  private remember(cache: Map<number | string, number>, key: number | string, score: number): void {
    if (this.entries >= this.maxCached) {
      for (const m of this.cache) m.clear();
      this.entries = 0;
    }
    cache.set(key, score);
    this.entries++;
  }

  total(parents: readonly (readonly number[])[]): number {
    return parents.reduce((s, ps, v) => s + this.family(v, ps), 0);
  }
}

/**
 * What the arc from → to adds to the score of `to`'s family `parents` (which holds `from`):
 * negative when the data prefers the family without it — then no search under this score keeps
 * the arc, however many cases it is given. Explains a comparison arc by arc (Mitchell §6.11.6).
 */
export function arcScoreChange(
  scores: ScoreCache,
  [from, to]: readonly [number, number],
  parents: readonly number[],
): number {
  return (
    scores.family(to, parents) -
    scores.family(
      to,
      parents.filter((p) => p !== from),
    )
  );
}

/** Arcs [from, to] of a structure given as parent lists. */
export function arcsOf(parents: readonly (readonly number[])[]): Array<[number, number]> {
  return parents.flatMap((ps, v) => ps.map((p): [number, number] => [p, v]));
}

export interface StructureComparison {
  missing: Array<[number, number]>;
  extra: Array<[number, number]>;
  /** Learned arcs that point the other way in the reference. */
  reversed: Array<[number, number]>;
}

/** Differences between a learned and a reference structure, arc by arc. */
export function compareStructures(
  learned: readonly (readonly number[])[],
  reference: readonly (readonly number[])[],
): StructureComparison {
  const has = (ps: readonly (readonly number[])[], from: number, to: number) => ps[to]?.includes(from) ?? false;
  const out: StructureComparison = { missing: [], extra: [], reversed: [] };
  for (const [from, to] of arcsOf(learned)) {
    if (has(reference, from, to)) continue;
    if (has(reference, to, from)) out.reversed.push([from, to]);
    else out.extra.push([from, to]);
  }
  for (const [from, to] of arcsOf(reference)) {
    if (!has(learned, from, to) && !has(learned, to, from)) out.missing.push([from, to]);
  }
  return out;
}
