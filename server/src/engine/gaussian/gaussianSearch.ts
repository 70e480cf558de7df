/**
 * Structure learning for Gaussian and conditional Gaussian networks with the discrete searches'
 * own machinery: hill climbing / tabu (hillClimb.ts) under bic-g or bic-cg, PC-stable
 * (pcStable.ts) with Fisher's z test. A CG network allows no arc from a continuous to a discrete
 * node, so those arcs join the background knowledge as forbidden (bnlearn blacklists them alike).
 */
import type { CancelSignal } from '../cancellation.js';
import { EngineError } from '../engineError.js';
import { BackgroundKnowledge, type BackgroundKnowledgeSpec } from '../structure/backgroundKnowledge.js';
import { hillClimbWith } from '../structure/hillClimb.js';
import type { SearchProgress } from '../structure/searchProgress.js';
import { pcStableWith } from '../structure/pcStable.js';
import { dagExtension } from '../structure/pdag.js';
import { cpdagWithKnowledge, type SearchResult } from '../structure/search.js';
import { FisherZ } from './fisherZ.js';
import { checkScoreData, clgForbidden, GaussianScoreCache, type GaussianScoreName } from './gaussianScore.js';
import type { HybridDataset } from './hybridData.js';

export interface GaussianSearchSpec {
  method: 'hillclimb' | 'tabu' | 'pc';
  score: GaussianScoreName;
  maxParents?: number;
  tabu?: number;
  patience?: number;
  climbs?: number;
  restarts?: number;
  perturb?: number;
  seed?: number;
  /** pc: level of Fisher's z test (default 0.05). */
  alpha?: number;
  maxConditioning?: number;
  knowledge?: BackgroundKnowledgeSpec;
  signal?: CancelSignal;
  /** Told as the search goes (the CLI's progress line). */
  progress?: SearchProgress;
}

export function searchGaussianStructure(data: HybridDataset, spec: GaussianSearchSpec): SearchResult {
  if (spec.method === 'pc') {
    const discrete = data.columns.find((c) => c.kind === 'discrete');
    if (discrete) throw new EngineError(`Fisher's z tests continuous columns, but '${discrete.name}' is not numeric`);
  }
  checkScoreData(data, spec.score);
  const n = data.columns.length;
  const names = data.columns.map((c) => c.name);
  const user = spec.knowledge ?? {};
  const knowledge = new BackgroundKnowledge(
    n,
    { ...user, forbid: [...(user.forbid ?? []), ...clgForbidden(data)] },
    names,
  );
  const scores = new GaussianScoreCache(data);
  if (spec.method === 'pc') {
    const fisher = new FisherZ(data);
    const r = pcStableWith(n, (x, y, s) => fisher.test(x, y, s).pValue, {
      alpha: spec.alpha,
      maxConditioning: spec.maxConditioning,
      knowledge,
      signal: spec.signal,
      progress: spec.progress,
    });
    const { parents } = dagExtension(r.graph);
    return { parents, cpdag: r.graph, score: scores.total(parents), tests: r.tests, conflicts: r.conflicts };
  }
  const found = hillClimbWith(scores, n, {
    maxParents: spec.maxParents ?? n - 1,
    tabu: spec.method === 'tabu' ? (spec.tabu ?? 10) : 0,
    patience: spec.patience,
    climbs: spec.climbs,
    restarts: spec.restarts,
    perturb: spec.perturb,
    seed: spec.seed,
    knowledge,
    signal: spec.signal,
    progress: spec.progress,
  });
  return { parents: found.parents, cpdag: cpdagWithKnowledge(found.parents, knowledge), score: found.score };
}
