/**
 * The PC algorithm (Spirtes, Glymour & Scheines), in the order-independent "stable" variant of
 * Colombo & Maathuis (2014), as bnlearn's `pc.stable`:
 *  1. Skeleton. Start from the complete undirected graph. For ℓ = 0, 1, 2, …: fix every node's
 *     adjacency set a(X) as it stands at the start of the level; for each edge X − Y test
 *     X ⊥ Y | S for the subsets S ⊆ a(X) \ {Y} of size ℓ (then those of a(Y) \ {X}); at the first
 *     test with p-value > α remove the edge and record S as its separating set. Removals within
 *     a level do not shrink the a(·) used by that level, so the result does not depend on the
 *     order of the variables. Stop when no a(X) \ {Y} has ℓ members.
 *  2. V-structures. For each unshielded triple X − Z − Y (X, Y not adjacent) with Z outside
 *     sepset(X, Y), orient X → Z ← Y. Triples are taken in decreasing order of the p-value that
 *     separated X and Y (the most certain independence first); one that would reverse an arc
 *     already oriented, or close a directed cycle, is left out and counted as a conflict.
 *  3. Meek's rules orient what the v-structures imply: the result is a CPDAG.
 * Background knowledge: an edge forbidden both ways is never there; a required arc is never
 * tested away and is oriented as required; an edge forbidden one way is oriented the other way.
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { EngineError } from '../engineError.js';
import { independenceTest, type IndependenceTestName } from './independenceTests.js';
import { Pdag, meekRules } from './pdag.js';
import { BackgroundKnowledge } from './backgroundKnowledge.js';
import type { SearchProgress } from './searchProgress.js';

export interface PcOptions {
  /** Level of each test: p-value > alpha means independent (default 0.05). */
  alpha?: number;
  test?: IndependenceTestName;
  /** Largest conditioning set (default: no limit). */
  maxConditioning?: number;
  knowledge?: BackgroundKnowledge;
  signal?: CancelSignal;
  /** Told after each test (searchProgress.ts). */
  progress?: SearchProgress;
}

export interface PcResult {
  graph: Pdag;
  /** Separating sets of removed edges, keyed `min|max`. */
  sepsets: Map<string, { set: number[]; pValue: number }>;
  tests: number;
  /** V-structures left out because they contradicted ones already oriented (or the knowledge). */
  conflicts: number;
}

export function pcStable(data: CategoricalDataset, options: PcOptions = {}): PcResult {
  const test = options.test ?? 'g2';
  return pcStableWith(data.attributes.length, (x, y, s) => independenceTest(data, x, y, s, test).pValue, options);
}

/** X ⊥ Y | S: the test's p-value (large: independent). */
export type IndependencePValue = (x: number, y: number, s: readonly number[]) => number;

/**
 * PC-stable over n variables with any conditional-independence test (Fisher's z on continuous
 * data gives its own, gaussian/fisherZ.ts); options.test is the categorical one and is not read here.
 */
export function pcStableWith(n: number, pValueOf: IndependencePValue, options: PcOptions = {}): PcResult {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new EngineError(`alpha must be between 0 and 1, not ${alpha}`);
  const maxLevel = options.maxConditioning ?? n;
  const bk = options.knowledge ?? new BackgroundKnowledge(n);
  if (bk.n !== n) throw new EngineError(`background knowledge over ${bk.n} variables for ${n} columns`);
  const g = new Pdag(n);
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) if (!(bk.forbids(i, j) && bk.forbids(j, i))) g.setEdge(i, j);
  }
  const sepsets = new Map<string, { set: number[]; pValue: number }>();
  let tests = 0;
  for (let level = 0; level <= maxLevel; level++) {
    const adjacency = Array.from({ length: n }, (_, v) => g.neighbours(v));
    if (!adjacency.some((a) => a.length - 1 >= level)) break;
    for (let x = 0; x < n; x++) {
      for (const y of adjacency[x]!) {
        if (y < x || !g.adjacent(x, y) || bk.requires(x, y) || bk.requires(y, x)) continue;
        // Conditioning sets from a(x) \ {y}, then from a(y) \ {x} (both fixed for the level).
        const tried = new Set<string>();
        for (const side of [adjacency[x]!, adjacency[y]!]) {
          const pool = side.filter((v) => v !== x && v !== y);
          if (pool.length < level) continue;
          for (const s of subsets(pool, level)) {
            const key = s.join(',');
            if (tried.has(key)) continue;
            tried.add(key);
            throwIfCancelled(options.signal);
            const pValue = pValueOf(x, y, s);
            tests++;
            options.progress?.test?.(tests, level);
            if (pValue > alpha) {
              g.remove(x, y);
              sepsets.set(`${x}|${y}`, { set: s, pValue });
              break;
            }
          }
          if (!g.adjacent(x, y)) break;
        }
      }
    }
  }
  const conflicts = orient(g, sepsets, bk);
  return { graph: g, sepsets, tests, conflicts };
}

/** Steps 2 and 3 with the knowledge's orientations; returns the number of conflicts. */
function orient(g: Pdag, sepsets: PcResult['sepsets'], bk: BackgroundKnowledge): number {
  const n = g.n;
  let conflicts = 0;
  const skeleton = g.clone();
  const fixed = (a: number, b: number) => {
    if (g.isArc(b, a) || (g.isUndirected(a, b) && g.directedPath(b, a))) {
      conflicts++;
      return false;
    }
    g.setArc(a, b);
    return true;
  };
  // Knowledge first: it is certain, the tests are not.
  for (let a = 0; a < n; a++) {
    for (let b = 0; b < n; b++) {
      if (a === b || !skeleton.adjacent(a, b)) continue;
      if (bk.requires(a, b) || (bk.forbids(b, a) && !bk.forbids(a, b))) fixed(a, b);
    }
  }
  const triples: Array<{ x: number; z: number; y: number; pValue: number }> = [];
  for (let x = 0; x < n; x++) {
    for (let y = x + 1; y < n; y++) {
      if (skeleton.adjacent(x, y)) continue;
      const sep = sepsets.get(`${x}|${y}`);
      if (!sep) continue; // removed by the knowledge, not by a test: no separating set to read
      for (let z = 0; z < n; z++) {
        if (!skeleton.adjacent(x, z) || !skeleton.adjacent(y, z) || sep.set.includes(z)) continue;
        triples.push({ x, z, y, pValue: sep.pValue });
      }
    }
  }
  triples.sort((a, b) => b.pValue - a.pValue || a.x - b.x || a.y - b.y || a.z - b.z);
  for (const { x, z, y } of triples) {
    const ok = (a: number) => !g.isArc(z, a) && !bk.forbids(a, z);
    if (!ok(x) || !ok(y)) {
      conflicts++;
      continue;
    }
    const snapshot = g.mark.slice();
    if (!(g.isArc(x, z) || fixed(x, z)) || !(g.isArc(y, z) || fixed(y, z))) g.mark.set(snapshot);
  }
  meekRules(g);
  return conflicts;
}

/** The k-subsets of `items`, each in the items' order, in lexicographic order of positions. */
export function* subsets(items: readonly number[], k: number): Generator<number[]> {
  const idx = Array.from({ length: k }, (_, i) => i);
  if (k > items.length) return;
  for (;;) {
    yield idx.map((i) => items[i]!);
    let i = k - 1;
    while (i >= 0 && idx[i] === items.length - k + i) i--;
    if (i < 0) return;
    idx[i]!++;
    for (let j = i + 1; j < k; j++) idx[j] = idx[j - 1]! + 1;
  }
}
