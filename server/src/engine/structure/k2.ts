/**
 * K2 (Cooper & Herskovits 1992; Mitchell §6.11.6): given a node order, each node greedily takes
 * the predecessor that most raises its family score, until no candidate helps or it has
 * `maxParents` parents. The order makes every result acyclic.
 */
import { EngineError } from '../engineError.js';
import type { CategoricalDataset } from '../categoricalData.js';
import { ScoreCache, type ScoreOptions } from './structureScore.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import type { SearchProgress } from './searchProgress.js';
import type { BackgroundKnowledge } from './backgroundKnowledge.js';

/** Background knowledge K2's order cannot honour: a required arc against the order, too many required parents. */
export class K2KnowledgeError extends EngineError {}

export interface K2Options extends Partial<ScoreOptions> {
  /** Variable indices, causes before effects; default: the data's column order. */
  order?: number[];
  maxParents?: number;
  /**
   * After a node's greedy additions, drop any parent whose removal raises the family score.
   * Plain K2 never removes: a sibling chosen first (it carries both shared parents' signal)
   * stays even when the true parents, added later, make it worse than useless (on ALARM every
   * seed keeps three such arcs; npm run bench:k2).
   */
  prune?: boolean;
  signal?: CancelSignal;
  /** Required arcs are each node's first parents (they must follow the order); forbidden ones are never tried. */
  knowledge?: BackgroundKnowledge;
  /** Told after each node (searchProgress.ts). */
  progress?: SearchProgress;
}

export interface StructureResult {
  /** parents[v]: v's parents, in the order they were chosen. */
  parents: number[][];
  score: number;
}

export function k2(data: CategoricalDataset, options: K2Options = {}): StructureResult {
  const n = data.attributes.length;
  const order = options.order ?? Array.from({ length: n }, (_, i) => i);
  checkOrder(order, n);
  const maxParents = options.maxParents ?? n - 1;
  const scores = new ScoreCache(data, { score: options.score ?? 'k2', ess: options.ess });
  const bk = options.knowledge;
  const parents: number[][] = bk ? requiredInOrder(bk, order, maxParents, data) : Array.from({ length: n }, () => []);
  for (let i = 0; i < n; i++) {
    const v = order[i]!;
    const ps = parents[v]!;
    let current = scores.family(v, ps);
    while (ps.length < maxParents) {
      throwIfCancelled(options.signal);
      let best = -1,
        bestScore = current;
      for (const z of order.slice(0, i)) {
        if (ps.includes(z) || bk?.forbids(z, v)) continue;
        const s = scores.family(v, [...ps, z]);
        if (s > bestScore) {
          bestScore = s;
          best = z;
        }
      }
      if (best < 0) break;
      ps.push(best);
      current = bestScore;
    }
    if (options.prune) pruneParents(scores, v, ps, current, bk);
    if (options.progress?.node) options.progress.node(i + 1, n, scores.total(parents));
  }
  return { parents, score: scores.total(parents) };
}

/** Backward pass: repeatedly remove the parent whose removal most raises v's family score. */
function pruneParents(scores: ScoreCache, v: number, ps: number[], current: number, bk?: BackgroundKnowledge): void {
  for (;;) {
    let worst = -1,
      bestScore = current;
    for (const p of ps) {
      if (bk?.requires(p, v)) continue;
      const s = scores.family(
        v,
        ps.filter((q) => q !== p),
      );
      if (s > bestScore) {
        bestScore = s;
        worst = p;
      }
    }
    if (worst < 0) return;
    ps.splice(ps.indexOf(worst), 1);
    current = bestScore;
  }
}

/** The required parents of each node, checked against the order and maxParents. */
function requiredInOrder(
  bk: BackgroundKnowledge,
  order: number[],
  maxParents: number,
  data: CategoricalDataset,
): number[][] {
  const position = new Int32Array(order.length);
  order.forEach((v, i) => {
    position[v] = i;
  });
  const name = (v: number) => data.attributes[v]!.name;
  const parents = bk.requiredParents();
  parents.forEach((ps, v) => {
    const late = ps.find((p) => position[p]! > position[v]!);
    if (late !== undefined) {
      const arc = `${name(late)} -> ${name(v)}`;
      throw new K2KnowledgeError(`K2's order puts ${name(late)} after ${name(v)}, but ${arc} is required`);
    }
    if (ps.length > maxParents) {
      throw new K2KnowledgeError(`${name(v)} has ${ps.length} required parents, more than max_parents ${maxParents}`);
    }
  });
  return parents;
}

function checkOrder(order: number[], n: number): void {
  const seen = new Set(order);
  if (order.length !== n || seen.size !== n || order.some((v) => !(v >= 0 && v < n))) {
    throw new EngineError(`the node order must list each of the ${n} variables exactly once`);
  }
}
