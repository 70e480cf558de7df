/**
 * Partially directed graphs over variables 0..n−1, the output of constraint-based search and the
 * form in which Markov-equivalent DAGs are compared: an arc i → j, an undirected edge i − j, or
 * nothing. `meekRules` orients what the v-structures (and background knowledge) imply; the
 * CPDAG (completed partially directed graph, the essential graph) of a DAG is its skeleton with
 * its v-structures, closed under Meek's rules (Meek 1995), and two DAGs are Markov equivalent
 * exactly when their CPDAGs are equal.
 */
export class Pdag {
  /** mark[i·n + j] = 1 when i → j is allowed: an arc i → j, or (with mark[j·n + i]) an edge i − j. */
  readonly mark: Uint8Array;
  constructor(readonly n: number) {
    this.mark = new Uint8Array(n * n);
  }

  static fromParents(parents: readonly (readonly number[])[]): Pdag {
    const g = new Pdag(parents.length);
    parents.forEach((ps, v) => ps.forEach((p) => g.setArc(p, v)));
    return g;
  }

  clone(): Pdag {
    const g = new Pdag(this.n);
    g.mark.set(this.mark);
    return g;
  }
  adjacent(i: number, j: number): boolean {
    return this.mark[i * this.n + j] === 1 || this.mark[j * this.n + i] === 1;
  }
  /** i → j (directed). */
  isArc(i: number, j: number): boolean {
    return this.mark[i * this.n + j] === 1 && this.mark[j * this.n + i] === 0;
  }
  isUndirected(i: number, j: number): boolean {
    return this.mark[i * this.n + j] === 1 && this.mark[j * this.n + i] === 1;
  }
  setEdge(i: number, j: number): void {
    this.mark[i * this.n + j] = 1;
    this.mark[j * this.n + i] = 1;
  }
  setArc(i: number, j: number): void {
    this.mark[i * this.n + j] = 1;
    this.mark[j * this.n + i] = 0;
  }
  remove(i: number, j: number): void {
    this.mark[i * this.n + j] = 0;
    this.mark[j * this.n + i] = 0;
  }

  neighbours(i: number): number[] {
    const out: number[] = [];
    for (let j = 0; j < this.n; j++) if (j !== i && this.adjacent(i, j)) out.push(j);
    return out;
  }

  /** Directed arcs [from, to], by from then to. */
  arcs(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.n; i++) for (let j = 0; j < this.n; j++) if (this.isArc(i, j)) out.push([i, j]);
    return out;
  }

  /** Undirected edges [a, b] with a < b. */
  edges(): Array<[number, number]> {
    const out: Array<[number, number]> = [];
    for (let i = 0; i < this.n; i++) for (let j = i + 1; j < this.n; j++) if (this.isUndirected(i, j)) out.push([i, j]);
    return out;
  }

  /** Is there a directed path from → … → to along arcs only (used before orienting to keep it acyclic)? */
  directedPath(from: number, to: number): boolean {
    const seen = new Uint8Array(this.n);
    const stack = [from];
    seen[from] = 1;
    while (stack.length) {
      const v = stack.pop()!;
      if (v === to) return true;
      for (let w = 0; w < this.n; w++)
        if (!seen[w] && this.isArc(v, w)) {
          seen[w] = 1;
          stack.push(w);
        }
    }
    return false;
  }
}

/**
 * Meek's orientation rules applied until none fires (in place); returns how many edges they
 * oriented. For an undirected edge a − b:
 *  R1  c → a, c and b not adjacent                               ⇒ a → b  (else a new v-structure)
 *  R2  a → c → b                                                ⇒ a → b  (else a cycle)
 *  R3  a − c → b and a − d → b, c and d not adjacent             ⇒ a → b
 *  R4  a − c (or a → c, c → a), c → d → b, a adjacent to d, c and b not adjacent ⇒ a → b
 * R1–R3 complete a pattern of v-structures; R4 is needed once background knowledge has fixed
 * arcs that are not v-structures (Meek 1995, Theorems 2–4).
 */
export function meekRules(g: Pdag): number {
  const n = g.n;
  let oriented = 0,
    changed = true;
  while (changed) {
    changed = false;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        if (a === b || !g.isUndirected(a, b)) continue;
        if (rule1(g, a, b) || rule2(g, a, b) || rule3(g, a, b) || rule4(g, a, b)) {
          g.setArc(a, b);
          oriented++;
          changed = true;
        }
      }
    }
  }
  return oriented;
}

function rule1(g: Pdag, a: number, b: number): boolean {
  for (let c = 0; c < g.n; c++) if (c !== b && g.isArc(c, a) && !g.adjacent(c, b)) return true;
  return false;
}

function rule2(g: Pdag, a: number, b: number): boolean {
  for (let c = 0; c < g.n; c++) if (g.isArc(a, c) && g.isArc(c, b)) return true;
  return false;
}

function rule3(g: Pdag, a: number, b: number): boolean {
  const cs: number[] = [];
  for (let c = 0; c < g.n; c++) if (c !== b && g.isUndirected(a, c) && g.isArc(c, b)) cs.push(c);
  for (let i = 0; i < cs.length; i++) {
    for (let j = i + 1; j < cs.length; j++) if (!g.adjacent(cs[i]!, cs[j]!)) return true;
  }
  return false;
}

function rule4(g: Pdag, a: number, b: number): boolean {
  for (let d = 0; d < g.n; d++) {
    if (d === a || d === b || !g.isArc(d, b) || !g.adjacent(a, d)) continue;
    for (let c = 0; c < g.n; c++) {
      if (c !== a && c !== b && g.isArc(c, d) && g.adjacent(a, c) && !g.adjacent(c, b)) return true;
    }
  }
  return false;
}

/** The CPDAG of a DAG given as parent lists: skeleton, v-structures, Meek's rules R1–R3. */
export function cpdagOf(parents: readonly (readonly number[])[]): Pdag {
  const n = parents.length;
  const g = new Pdag(n);
  parents.forEach((ps, v) => ps.forEach((p) => g.setEdge(p, v)));
  parents.forEach((ps, v) => {
    for (let i = 0; i < ps.length; i++) {
      for (let j = i + 1; j < ps.length; j++) {
        const x = ps[i]!,
          y = ps[j]!;
        if (!parentsInclude(parents, x, y)) {
          g.setArc(x, v);
          g.setArc(y, v);
        }
      }
    }
  });
  meekRules(g);
  return g;
}

function parentsInclude(parents: readonly (readonly number[])[], x: number, y: number): boolean {
  return parents[y]!.includes(x) || parents[x]!.includes(y);
}

export interface HammingDistance {
  /** Pairs adjacent in one graph and not the other. */
  skeleton: number;
  /** Pairs that differ at all: missing or extra adjacency, or a different mark (→, ←, −). */
  shd: number;
}

/**
 * Structural Hamming distance between two partially directed graphs over the same variables
 * (bnlearn's `shd` when both are CPDAGs): each pair of variables counts once if its edge differs.
 */
export function hammingDistance(learned: Pdag, truth: Pdag): HammingDistance {
  let skeleton = 0,
    shd = 0;
  for (let i = 0; i < learned.n; i++) {
    for (let j = i + 1; j < learned.n; j++) {
      const a = learned.adjacent(i, j),
        b = truth.adjacent(i, j);
      if (a !== b) {
        skeleton++;
        shd++;
        continue;
      }
      if (a && (learned.isArc(i, j) !== truth.isArc(i, j) || learned.isArc(j, i) !== truth.isArc(j, i))) shd++;
    }
  }
  return { skeleton, shd };
}

/**
 * A DAG in the equivalence class of a PDAG (Dor & Tarsi 1992), as parent lists: repeatedly take a
 * node x with no arc out of it whose undirected neighbours are each adjacent to all of x's other
 * neighbours, point its undirected edges into x and set it aside. A PDAG with conflicting
 * orientations may have no such extension; then the edges left are pointed from the lower
 * variable index to the higher unless that closes a cycle (`extended` false).
 */
export function dagExtension(pdag: Pdag): { parents: number[][]; extended: boolean } {
  const n = pdag.n,
    g = pdag.clone();
  const parents: number[][] = Array.from({ length: n }, () => []);
  const removed = new Uint8Array(n);
  const live = (v: number) => !removed[v];
  for (let left = n; left > 0;) {
    let sink = -1;
    for (let x = 0; x < n && sink < 0; x++) {
      if (removed[x]) continue;
      let ok = true;
      const around: number[] = [];
      for (let y = 0; y < n && ok; y++) {
        if (y === x || !live(y) || !g.adjacent(x, y)) continue;
        if (g.isArc(x, y)) ok = false;
        around.push(y);
      }
      if (!ok) continue;
      for (const y of around) {
        if (!g.isUndirected(x, y)) continue;
        if (around.some((z) => z !== y && !g.adjacent(y, z))) {
          ok = false;
          break;
        }
      }
      if (ok) sink = x;
    }
    if (sink < 0) break;
    for (let y = 0; y < n; y++) if (y !== sink && live(y) && g.adjacent(sink, y)) parents[sink]!.push(y);
    removed[sink] = 1;
    left--;
  }
  const extended = removed.every((r) => r === 1);
  if (!extended) {
    // Arcs among the remaining nodes as they stand, then their undirected edges low → high, skipping cycles.
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) if (!removed[a] && !removed[b] && g.isArc(a, b)) parents[b]!.push(a);
    }
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) {
        if (removed[a] || removed[b] || !g.isUndirected(a, b)) continue;
        if (!ancestor(parents, b, a)) parents[b]!.push(a);
        else parents[a]!.push(b);
      }
    }
  }
  parents.forEach((ps) => ps.sort((x, y) => x - y));
  return { parents, extended };
}

/** Is `a` an ancestor of `b` in the parent lists? */
function ancestor(parents: readonly (readonly number[])[], a: number, b: number): boolean {
  const seen = new Uint8Array(parents.length),
    stack = [b];
  while (stack.length) {
    const v = stack.pop()!;
    if (v === a) return true;
    for (const p of parents[v]!)
      if (!seen[p]) {
        seen[p] = 1;
        stack.push(p);
      }
  }
  return false;
}
