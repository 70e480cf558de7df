/**
 * `bayes structure` on continuous and mixed data: `--score bic-g|bic-cg` (hill climbing, tabu)
 * and `--method pc --test zf`. Columns are typed by engine/gaussian/hybridData.ts (every value a
 * number → continuous) unless `--continuous` / `--discrete` say otherwise.
 */
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { BackgroundKnowledgeSpec } from '../engine/structure/backgroundKnowledge.js';
import { arcsOf } from '../engine/structure/structureScore.js';
import { typeColumns } from '../engine/gaussian/hybridData.js';
import { searchGaussianStructure, type GaussianSearchSpec } from '../engine/gaussian/gaussianSearch.js';
import type { SearchProgress } from '../engine/structure/searchProgress.js';
import type { GaussianScoreName } from '../engine/gaussian/gaussianScore.js';
import type { ResultBase, StructureResultEntry } from '../protocol/runResult.js';
import { UsageError } from './command.js';

/** The scores and test that route `bayes structure` here. */
export const GAUSSIAN_SCORES = ['bic-g', 'bic-cg'] as const;

export function isGaussianRequest(score: string | undefined, test: string | undefined): boolean {
  return (GAUSSIAN_SCORES as readonly (string | undefined)[]).includes(score) || test === 'zf';
}

/** Options of bayes structure that the Gaussian searches do not take. */
export const NOT_GAUSSIAN = ['bootstrap', 'reference', 'prior', 'out', 'ess', 'order', 'prune'] as const;

export interface GaussianStructureArgs {
  method: 'k2' | 'hillclimb' | 'tabu' | 'pc';
  score?: string;
  test?: string;
  alpha: number;
  maxConditioning?: number;
  /** The method's own options (max parents, tabu, climbs, restarts, perturb, seed). */
  search: Omit<GaussianSearchSpec, 'method' | 'score'>;
  knowledge?: BackgroundKnowledgeSpec;
  continuous?: string;
  discrete?: string;
  /** Told as the search goes (cli/searchProgress.ts). */
  progress?: SearchProgress;
}

export type GaussianStructureResult = Omit<StructureResultEntry, keyof ResultBase> & { kind: 'structure' };

export function gaussianStructure(data: CategoricalDataset, a: GaussianStructureArgs): GaussianStructureResult {
  if (a.method === 'k2') throw new UsageError('--method k2 does not take a Gaussian score: use hillclimb, tabu or pc');
  const pc = a.method === 'pc';
  if (pc && a.test !== 'zf') throw new UsageError('--method pc on continuous data takes --test zf');
  if (!pc && a.test !== undefined) throw new UsageError(`--test does not apply to --method ${a.method}`);
  const score = (a.score ?? 'bic-g') as GaussianScoreName;
  if (!(GAUSSIAN_SCORES as readonly string[]).includes(score)) {
    throw new UsageError(`--score ${score} is for discrete data: --test zf scores with bic-g or bic-cg`);
  }
  const list = (text?: string) =>
    text
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  const hybrid = typeColumns(data, { continuous: list(a.continuous), discrete: list(a.discrete) });
  const found = searchGaussianStructure(hybrid, {
    ...a.search,
    method: a.method,
    score,
    alpha: a.alpha,
    maxConditioning: a.maxConditioning,
    knowledge: a.knowledge,
    progress: a.progress,
  });
  const names = hybrid.columns.map((c) => c.name);
  const named = (arcs: Array<[number, number]>) => arcs.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  return {
    kind: 'structure',
    method: a.method,
    score: found.score,
    scoreName: score,
    arcs: pc ? named(found.cpdag.arcs()) : named(arcsOf(found.parents)),
    ...(pc
      ? {
          edges: named(found.cpdag.edges()),
          tests: found.tests!,
          alpha: a.alpha,
          test: 'zf',
          conflicts: found.conflicts!,
        }
      : {}),
  };
}
