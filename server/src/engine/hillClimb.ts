/**
 * Score-based structure search by greedy hill climbing over DAGs: at each step apply the single
 * arc addition, removal or reversal that most raises the (decomposable) score, keeping the graph
 * acyclic; stop at a local maximum. Each move changes one or two families, so its gain is a
 * difference of cached family scores.
 */
import type { CategoricalDataset } from './categoricalData.js';
import { EngineError } from './engineError.js';
import { ScoreCache, type ScoreOptions } from './structureScore.js';
import type { StructureResult } from './k2.js';
import type { CancelSignal } from './junctionTree.js';

export interface HillClimbOptions extends Partial<ScoreOptions> {
  maxParents?: number;
  /** Start from these parent lists (default: no arcs). */
  start?: number[][];
  maxSteps?: number;
  signal?: CancelSignal;
}

interface Move { kind: 'add' | 'remove' | 'reverse'; from: number; to: number; gain: number }

export function hillClimb(data: CategoricalDataset, options: HillClimbOptions = {}): StructureResult & { steps: number } {
  const n = data.attributes.length;
  const maxParents = options.maxParents ?? n - 1;
  const scores = new ScoreCache(data, { score: options.score ?? 'bic', ess: options.ess });
  const parents = options.start ? checkedStart(options.start, n) : Array.from({ length: n }, () => [] as number[]);
  const maxSteps = options.maxSteps ?? 10_000;
  let steps = 0, cancelled = false;
  while (steps < maxSteps) {
    if (options.signal?.aborted) { cancelled = true; break; }
    const move = bestMove(parents, scores, maxParents);
    if (!move || move.gain <= 1e-9) break;
    apply(parents, move);
    steps++;
  }
  return { parents, score: scores.total(parents), cancelled, steps };
}

/** A copy of the starting parent lists, which must form a DAG over the n variables. */
function checkedStart(start: number[][], n: number): number[][] {
  const parents = start.map((ps) => [...ps]);
  const valid = parents.length === n && parents.every((ps, v) => ps.every((p) => Number.isInteger(p) && p >= 0 && p < n && p !== v));
  if (!valid || parents.some((ps, v) => ps.some((p) => reaches(parents, v, p)))) {
    throw new EngineError(`the starting structure must be a DAG over the ${n} variables`);
  }
  return parents;
}

function bestMove(parents: number[][], scores: ScoreCache, maxParents: number): Move | undefined {
  const n = parents.length;
  const current = parents.map((ps, v) => scores.family(v, ps));
  let best: Move | undefined;
  const consider = (m: Move) => { if (!best || m.gain > best.gain) best = m; };
  for (let to = 0; to < n; to++) {
    for (let from = 0; from < n; from++) {
      if (from === to) continue;
      const ps = parents[to]!;
      if (ps.includes(from)) {
        const without = ps.filter((p) => p !== from);
        const removeGain = scores.family(to, without) - current[to]!;
        consider({ kind: 'remove', from, to, gain: removeGain });
        // Reversal: the other way must keep the graph acyclic once from→to is gone.
        if (parents[from]!.length < maxParents && !reaches(parents, from, to, [from, to])) {
          const gain = removeGain + scores.family(from, [...parents[from]!, to]) - current[from]!;
          consider({ kind: 'reverse', from, to, gain });
        }
      } else if (ps.length < maxParents && !parents[from]!.includes(to) && !reaches(parents, to, from)) {
        consider({ kind: 'add', from, to, gain: scores.family(to, [...ps, from]) - current[to]! });
      }
    }
  }
  return best;
}

/** Is there a directed path start ⇝ goal (optionally ignoring one arc [from, to])? */
function reaches(parents: number[][], start: number, goal: number, ignore?: [number, number]): boolean {
  // Walk parent links backwards from goal: start ⇝ goal iff start is an ancestor of goal.
  const seen = new Uint8Array(parents.length);
  const stack = [goal];
  while (stack.length) {
    const v = stack.pop()!;
    for (const p of parents[v]!) {
      if (ignore && p === ignore[0] && v === ignore[1]) continue;
      if (p === start) return true;
      if (!seen[p]) { seen[p] = 1; stack.push(p); }
    }
  }
  return false;
}

function apply(parents: number[][], m: Move): void {
  parents[m.to] = parents[m.to]!.filter((p) => p !== m.from);
  if (m.kind === 'add') parents[m.to]!.push(m.from);
  if (m.kind === 'reverse') parents[m.from]!.push(m.to);
}
