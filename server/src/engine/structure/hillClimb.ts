/**
 * Score-based structure search by greedy hill climbing over DAGs: at each step apply the single
 * arc addition, removal or reversal that most raises the (decomposable) score, keeping the graph
 * acyclic. Each move changes one or two families, so its gain is a difference of cached family
 * scores. Plain hill climbing stops at the first local maximum; two ways past it, as bnlearn's
 * `tabu` and `hc(restart, perturb)`:
 *  - tabu search (Bouckaert): at a local maximum keep taking the best move whose resulting
 *    structure is not among the last `tabu` structures visited, for at most `patience` steps
 *    without a new best, and return the best seen. The tabu list holds structures, not moves:
 *    forbidding only the undo of a recent move still lets two moves walk back to a structure
 *    just left, while a visited structure is exactly what must not be revisited. Structures are
 *    keyed by a Zobrist hash (XOR of a random code per arc), so a move's resulting key is one or
 *    two XORs, not a copy of the parent lists.
 *  - several climbs from the start (`climbs`): the first takes the first of equally good moves in
 *    a fixed order, each later one picks among them at random (seeded), and the best end wins.
 *    Ties are the rule, not the exception: BIC, BDeu and the likelihood are score-equivalent, so
 *    adding X→Y or Y→X to two families alike gains the same, and the orientation chosen early
 *    decides which v-structures the climb can reach later. On ALARM (10,000 records) single
 *    climbs that differ only in their ties end 2,000 nats of BIC apart; the best of 8 gains
 *    ≈ 300 nats over the first, at about twice its cost, since the climbs share the cached
 *    family scores.
 *  - random restarts: from the best structure so far apply `perturb` random legal moves (seeded),
 *    climb again, keep the better.
 * Until the first local maximum every move is improving, so no structure repeats and the tabu
 * list forbids nothing: tabu search and restarts can only end at or above plain hill climbing.
 */
import type { CategoricalDataset } from '../categoricalData.js';
import { EngineError } from '../engineError.js';
import { requireWithin } from '../budget.js';
import { ScoreCache, type FamilyScores, type ScoreOptions } from './structureScore.js';
import type { StructureResult } from './k2.js';
import { createRng, type Rng } from '../random.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import type { BackgroundKnowledge } from './backgroundKnowledge.js';
import type { SearchProgress } from './searchProgress.js';

export interface HillClimbOptions extends Partial<ScoreOptions> {
  maxParents?: number;
  /** Start from these parent lists (default: no arcs). */
  start?: number[][];
  /** Most moves in all, over every climb and restart. */
  maxSteps?: number;
  signal?: CancelSignal;
  /** Tabu list length: structures recently visited that may not be revisited (0: plain hill climbing). */
  tabu?: number;
  /** Tabu search: non-improving steps allowed without a new best before stopping (default 10). */
  patience?: number;
  /** Random restarts after the first climb (default 0). */
  restarts?: number;
  /** Random moves applied to the best structure before each restart (default 5). */
  perturb?: number;
  /** Climbs from the start, the later ones breaking ties at random; the best is kept (default 8). */
  climbs?: number;
  /** Seed of the climbs' tie-breaking and the restarts' perturbations (default 1). */
  seed?: number;
  /**
   * One more climb, from this DAG, after the others; its end is kept if it scores higher. The
   * bootstrap passes the network learnt from all the data (see replicateSearch in bootstrap.ts).
   */
  alsoFrom?: number[][];
  /** Required arcs are in the start and never removed or reversed; forbidden ones are never added. */
  knowledge?: BackgroundKnowledge;
  /** Told after each move (searchProgress.ts). */
  progress?: SearchProgress;
}

interface Move {
  kind: 'add' | 'remove' | 'reverse';
  from: number;
  to: number;
  gain: number;
}

/** What a climb needs besides the structure: scores, limits, and the tabu hashing. */
interface Search {
  scores: FamilyScores;
  maxParents: number;
  maxSteps: number;
  steps: number;
  signal?: CancelSignal;
  tabu: number;
  patience: number;
  codes: Float64Array;
  knowledge?: BackgroundKnowledge;
  progress?: SearchProgress;
  /** Picks among equally good moves; absent: the first in legalMoves' order. */
  ties?: Rng;
}

/** Climbs from the start unless told otherwise: see the head comment. */
export const DEFAULT_CLIMBS = 8;
/** Gains this close (relative) are equal: score-equivalent moves differ only by rounding. */
const TIE = 1e-9;

/** Candidate moves a hill-climbing or tabu step may consider (n(n − 1) for n variables: 1,415 variables). */
export const MAX_MOVES = 2_000_000;

export function hillClimb(
  data: CategoricalDataset,
  options: HillClimbOptions = {},
): StructureResult & { steps: number } {
  const scores = new ScoreCache(data, { score: options.score ?? 'bic', ess: options.ess });
  return hillClimbWith(scores, data.attributes.length, options);
}

/**
 * Hill climbing over n variables under any decomposable score (the Gaussian BICs give theirs);
 * the options' score and ess are the categorical ScoreCache's and are not read here.
 */
export function hillClimbWith(
  scores: FamilyScores,
  n: number,
  options: HillClimbOptions = {},
): StructureResult & { steps: number } {
  // Each step lists and scores every legal move, n(n − 1) of them: 3,000 columns (an 18 KB data
  // block) made 9,000,000 move tuples a step and grew past 2 GB before a step finished.
  requireWithin(`a climb over ${n} variables`, n * (n - 1), MAX_MOVES, 'candidate moves a step');
  const search: Search = {
    scores,
    maxParents: options.maxParents ?? n - 1,
    maxSteps: options.maxSteps ?? 10_000,
    steps: 0,
    signal: options.signal,
    tabu: options.tabu ?? 0,
    patience: options.patience ?? 10,
    codes: arcCodes(n),
    knowledge: options.knowledge,
    progress: options.progress,
  };
  const empty = () => options.knowledge?.requiredParents() ?? Array.from({ length: n }, () => [] as number[]);
  const start = () => (options.start ? checkedStart(options.start, n) : empty());
  const alsoFrom = options.alsoFrom && checkedStart(options.alsoFrom, n);
  let best = climb(start(), search);
  /** Climb again from `parents`, keeping the end if it beats the best so far, while steps remain. */
  const climbAgain = (parents: () => number[][]) => {
    if (search.steps >= search.maxSteps) return;
    const next = climb(parents(), search);
    if (next.score > best.score + 1e-9) best = next;
  };
  const rng = createRng(options.seed ?? 1);
  search.ties = rng;
  for (let c = 1; c < (options.climbs ?? DEFAULT_CLIMBS); c++) climbAgain(start);
  search.ties = undefined;
  if (alsoFrom) climbAgain(() => alsoFrom);
  for (let r = 0; r < (options.restarts ?? 0); r++) {
    climbAgain(() => {
      const from = best.parents.map((ps) => [...ps]);
      perturb(from, options.perturb ?? 5, search.maxParents, rng, options.knowledge);
      return from;
    });
  }
  return { parents: best.parents, score: search.scores.total(best.parents), steps: search.steps };
}

/**
 * Climb from `parents` (changed in place): best moves while they improve; then, with a tabu list,
 * best non-tabu moves until `patience` steps pass without a new best. Returns the best structure seen.
 */
function climb(parents: number[][], s: Search): { parents: number[][]; score: number } {
  let hash = structureHash(parents, s.codes),
    score = s.scores.total(parents);
  let best = { parents: parents.map((ps) => [...ps]), score };
  const visited: number[] = [hash];
  let sinceBest = 0;
  while (s.steps < s.maxSteps) {
    throwIfCancelled(s.signal);
    const allowed = s.tabu > 0 ? (m: Move) => !visited.includes(moveHash(hash, m, s.codes)) : undefined;
    const move = bestMove(parents, s.scores, s.maxParents, allowed, s.knowledge, s.ties);
    if (!move || (move.gain <= 1e-9 && (s.tabu === 0 || sinceBest >= s.patience))) break;
    apply(parents, move);
    hash = moveHash(hash, move, s.codes);
    score += move.gain;
    s.steps++;
    s.progress?.move?.(s.steps, score);
    visited.push(hash);
    if (visited.length > s.tabu) visited.shift();
    if (score > best.score + 1e-9) {
      best = { parents: parents.map((ps) => [...ps]), score };
      sinceBest = 0;
    } else sinceBest++;
  }
  return best;
}

/** A random 52-bit code per ordered pair (from, to), from a fixed seed: the same structure always hashes alike. */
function arcCodes(n: number): Float64Array {
  const rng = createRng(0x7ab0);
  return Float64Array.from(
    { length: n * n },
    () => Math.floor(rng.next() * 2 ** 26) * 2 ** 26 + Math.floor(rng.next() * 2 ** 26),
  );
}

/** XOR of two non-negative integers below 2^52 (JS bitwise operators stop at 32 bits). */
function xor52(a: number, b: number): number {
  const hi = (Math.floor(a / 2 ** 26) ^ Math.floor(b / 2 ** 26)) >>> 0,
    lo = ((a % 2 ** 26) ^ (b % 2 ** 26)) >>> 0;
  return hi * 2 ** 26 + lo;
}

function structureHash(parents: number[][], codes: Float64Array): number {
  const n = parents.length;
  return parents.reduce((h, ps, to) => ps.reduce((g, from) => xor52(g, codes[from * n + to]!), h), 0);
}

/** The hash of the structure `m` leads to: its arcs' codes toggled. */
function moveHash(hash: number, m: Move, codes: Float64Array): number {
  const n = Math.sqrt(codes.length);
  const h = xor52(hash, codes[m.from * n + m.to]!);
  return m.kind === 'reverse' ? xor52(h, codes[m.to * n + m.from]!) : h;
}

/** Apply `count` moves drawn uniformly from the legal ones (acyclic, within maxParents). */
function perturb(parents: number[][], count: number, maxParents: number, rng: Rng, bk?: BackgroundKnowledge): void {
  for (let i = 0; i < count; i++) {
    const moves: Move[] = [];
    legalMoves(parents, maxParents, (kind, from, to) => moves.push({ kind, from, to, gain: 0 }), bk);
    if (!moves.length) return;
    apply(parents, moves[rng.int(moves.length)]!);
  }
}

/** A copy of the starting parent lists, which must form a DAG over the n variables. */
function checkedStart(start: number[][], n: number): number[][] {
  const parents = start.map((ps) => [...ps]);
  const valid =
    parents.length === n &&
    parents.every((ps, v) => ps.every((p) => Number.isInteger(p) && p >= 0 && p < n && p !== v));
  if (!valid || parents.some((ps, v) => ps.some((p) => reaches(parents, v, p)))) {
    throw new EngineError(`the starting structure must be a DAG over the ${n} variables`);
  }
  return parents;
}

function bestMove(
  parents: number[][],
  scores: FamilyScores,
  maxParents: number,
  allowed?: (m: Move) => boolean,
  bk?: BackgroundKnowledge,
  ties?: Rng,
): Move | undefined {
  const current = parents.map((ps, v) => scores.family(v, ps));
  let best: Move | undefined,
    tied = 0;
  const moves: Array<[Move['kind'], number, number]> = [];
  legalMoves(parents, maxParents, (kind, from, to) => moves.push([kind, from, to]), bk);
  // The new families a move makes are `to`'s parents plus one (an addition) or `from`'s (a
  // reversal): count each child's at once, over one index of its current parents.
  const extras = parents.map(() => [] as number[]);
  for (const [kind, from, to] of moves) {
    if (kind === 'add') extras[to]!.push(from);
    else if (kind === 'reverse') extras[from]!.push(to);
  }
  extras.forEach((xs, v) => scores.prefetch(v, parents[v]!, xs));
  for (const [kind, from, to] of moves) {
    const ps = parents[to]!;
    let gain =
      (kind === 'add'
        ? scores.familyWith(to, ps, from)
        : scores.family(
            to,
            ps.filter((p) => p !== from),
          )) - current[to]!;
    if (kind === 'reverse') gain += scores.familyWith(from, parents[from]!, to) - current[from]!;
    const tol = TIE * Math.max(1, Math.abs(gain));
    if (best && gain < best.gain - tol) continue;
    const m: Move = { kind, from, to, gain };
    if (allowed && !allowed(m)) continue;
    if (!best || gain > best.gain + tol) {
      best = m;
      tied = 1;
    } else if (ties && ties.int(++tied) === 0) best = m; // uniform among the tied (reservoir sampling)
  }
  return best;
}

/** Every move that keeps the graph acyclic and within maxParents, in a fixed order. */
function legalMoves(
  parents: number[][],
  maxParents: number,
  visit: (kind: Move['kind'], from: number, to: number) => void,
  bk?: BackgroundKnowledge,
): void {
  const n = parents.length;
  for (let to = 0; to < n; to++) {
    for (let from = 0; from < n; from++) {
      if (from === to) continue;
      const ps = parents[to]!;
      if (ps.includes(from)) {
        if (bk?.requires(from, to)) continue;
        visit('remove', from, to);
        if (bk?.forbids(to, from)) continue;
        // Reversal: the other way must keep the graph acyclic once from→to is gone.
        if (parents[from]!.length < maxParents && !reaches(parents, from, to, [from, to])) visit('reverse', from, to);
      } else if (
        ps.length < maxParents &&
        !parents[from]!.includes(to) &&
        !bk?.forbids(from, to) &&
        !reaches(parents, to, from)
      ) {
        visit('add', from, to);
      }
    }
  }
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
      if (!seen[p]) {
        seen[p] = 1;
        stack.push(p);
      }
    }
  }
  return false;
}

function apply(parents: number[][], m: Move): void {
  parents[m.to] = parents[m.to]!.filter((p) => p !== m.from);
  if (m.kind === 'add') parents[m.to]!.push(m.from);
  if (m.kind === 'reverse') parents[m.from]!.push(m.to);
}
