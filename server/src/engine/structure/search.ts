/**
 * One entry to every structure search, for the CLI, the language and the bootstrap: K2, hill
 * climbing and tabu search (score-based, a DAG) or PC-stable (constraint-based, a CPDAG). Each
 * answer comes both as a DAG (parent lists; for PC a DAG in the class found) and as the CPDAG
 * of its Markov equivalence class, the form in which structures are compared.
 */
import { expandRows, type CategoricalDataset } from '../categoricalData.js';
import type { CancelSignal } from '../cancellation.js';
import { k2 } from './k2.js';
import { hillClimb } from './hillClimb.js';
import { ScoreCache, type ScoreName } from './structureScore.js';
import { pcStable } from './pcStable.js';
import type { IndependenceTestName } from './independenceTests.js';
import { Pdag, cpdagOf, dagExtension, meekRules } from './pdag.js';
import type { BackgroundKnowledge } from './backgroundKnowledge.js';
import type { SearchProgress } from './searchProgress.js';

export const SEARCH_METHODS = ['k2', 'hillclimb', 'tabu', 'pc'] as const;
export type SearchMethod = (typeof SEARCH_METHODS)[number];

export interface SearchSpec {
  method: SearchMethod;
  score: ScoreName;
  ess?: number;
  maxParents?: number;
  /** k2 */
  order?: number[];
  prune?: boolean;
  /** hillclimb, tabu */
  tabu?: number;
  patience?: number;
  climbs?: number;
  restarts?: number;
  perturb?: number;
  seed?: number;
  /** hillclimb, tabu: one more climb from this DAG, kept if it ends higher (see hillClimb). */
  alsoFrom?: number[][];
  /** pc */
  alpha?: number;
  test?: IndependenceTestName;
  maxConditioning?: number;
  knowledge?: BackgroundKnowledge;
  signal?: CancelSignal;
  /** Told as the search goes (the CLI's progress line). */
  progress?: SearchProgress;
}

export interface SearchResult {
  parents: number[][];
  cpdag: Pdag;
  /** The DAG's score under spec.score (for PC: of the DAG chosen from the class). */
  score: number;
  /** pc: independence tests run, and v-structures left out as conflicting. */
  tests?: number;
  conflicts?: number;
}

export function searchStructure(data: CategoricalDataset, spec: SearchSpec): SearchResult {
  const n = data.attributes.length;
  const { score, ess, signal, knowledge, progress } = spec;
  const common = { score, ess, maxParents: spec.maxParents ?? n - 1, signal, knowledge, progress };
  if (spec.method === 'pc') {
    const { alpha, test, maxConditioning } = spec;
    // The independence tests count rows themselves: weighted rows (a bootstrap replicate) are expanded.
    const r = pcStable(expandRows(data), { alpha, test, maxConditioning, knowledge, signal, progress });
    const { parents } = dagExtension(r.graph);
    const score = new ScoreCache(data, { score: spec.score, ess: spec.ess }).total(parents);
    return { parents, cpdag: r.graph, score, tests: r.tests, conflicts: r.conflicts };
  }
  const found =
    spec.method === 'k2'
      ? k2(data, { ...common, order: spec.order, prune: spec.prune })
      : hillClimb(data, {
          ...common,
          tabu: spec.method === 'tabu' ? (spec.tabu ?? 10) : 0,
          patience: spec.patience,
          climbs: spec.climbs,
          restarts: spec.restarts,
          perturb: spec.perturb,
          seed: spec.seed,
          alsoFrom: spec.alsoFrom,
        });
  const cpdag = cpdagWithKnowledge(found.parents, knowledge);
  return { parents: found.parents, cpdag, score: found.score };
}

/**
 * The CPDAG of a DAG, with the arcs the background knowledge fixes (required, or forbidden the
 * other way) kept directed and Meek's rules applied again: bnlearn's `cpdag(wlbl = TRUE)`.
 */
export function cpdagWithKnowledge(parents: readonly (readonly number[])[], bk?: BackgroundKnowledge): Pdag {
  const g = cpdagOf(parents);
  if (!bk || bk.empty) return g;
  let fixed = false;
  parents.forEach((ps, v) =>
    ps.forEach((p) => {
      if (g.isUndirected(p, v) && (bk.requires(p, v) || bk.forbids(v, p))) {
        g.setArc(p, v);
        fixed = true;
      }
    }),
  );
  if (fixed) meekRules(g);
  return g;
}
