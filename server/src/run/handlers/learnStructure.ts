/**
 * `learn structure S from D by k2|hillclimb|tabu { order, max_parents, score, … }` (Mitchell §6.11.6):
 * arcs by K2 (given a node order), hill climbing or tabu search (both with optional seeded random
 * restarts), scored by K2, BDeu or BIC. The structure
 * becomes the network S over D's columns, its CPTs by counting, for later `… in S` queries.
 */
import type * as A from '../../language/ast.js';
import { k2 } from '../../engine/structure/k2.js';
import { hillClimb, type HillClimbOptions } from '../../engine/structure/hillClimb.js';
import { STRUCTURE_METHODS } from '../../language/check/queries.js';
import { arcsOf, type ScoreName } from '../../engine/structure/structureScore.js';
import { networkFromStructure } from '../../engine/estimators/cptLearning.js';
import type { CategoricalDataset } from '../../engine/categoricalData.js';
import { CompileError } from '../../model/compileError.js';
import { type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { modelData, setLearnedNetwork } from '../modelInputs.js';
import { LearnOptions } from '../learnOptions.js';
import type { StructureResultEntry } from '../../protocol/runResult.js';
import { cptsToJson } from '../learningResults.js';

const SCORES: readonly ScoreName[] = ['k2', 'bdeu', 'bic'];

async function learnStructure(ctx: HandlerContext): Promise<HandlerOutput> {
  const s = ctx.statement as A.LearnStmt;
  if (!s.from) throw new CompileError(`say which data: learn structure ${s.model.text} from DATA by k2`, s.model.range);
  const method = s.method?.text ?? 'k2';
  if (!(STRUCTURE_METHODS as readonly string[]).includes(method))
    throw new CompileError(`a structure is learnt by ${STRUCTURE_METHODS.join(', ')}, not ${method}`, s.method!.range);
  const data = await modelData(ctx, s.from);
  const options = new LearnOptions(s.options);
  const diagnostics = options.unused(USED[method as keyof typeof USED], `structure learning by ${method}`);
  const names = data.attributes.map((a) => a.name);
  const score = options.choice('score', SCORES, method === 'k2' ? 'k2' : 'bic');
  const maxParents = options.number('max_parents', names.length - 1, { integer: true, min: 0 });
  const common = { score, maxParents, signal: ctx.signal };
  const found =
    method === 'k2'
      ? k2(data, { ...common, order: nodeOrder(options, data, s.from) })
      : hillClimb(data, { ...common, ...searchOptions(options, method === 'tabu') });
  const net = networkFromStructure(s.model.text, data, found.parents);
  setLearnedNetwork(ctx, s.model.text, net);
  const arcs = arcsOf(found.parents).map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  const result: StructureResultEntry = {
    kind: 'structure',
    method: method as StructureResultEntry['method'],
    score: found.score,
    scoreName: score,
    arcs,
    cpts: cptsToJson(net),
    range: s.range,
    source: ctx.source,
    headline: `${s.model.text} · ${arcs.length} arc${arcs.length === 1 ? '' : 's'} · ${score} score ${found.score.toFixed(4)}`,
  };
  return { results: [result], diagnostics };
}

const RESTART_OPTIONS = ['restarts', 'perturb', 'seed'];
/** The options each method takes. */
const USED = {
  k2: ['order', 'max_parents', 'score'],
  hillclimb: ['max_parents', 'score', ...RESTART_OPTIONS],
  tabu: ['max_parents', 'score', 'tabu', 'patience', ...RESTART_OPTIONS],
} as const;

/** Tabu list, patience and restarts for hillClimb (tabu 0: plain hill climbing). */
function searchOptions(options: LearnOptions, tabu: boolean): HillClimbOptions {
  return {
    tabu: tabu ? options.number('tabu', 10, { integer: true, min: 1 }) : 0,
    patience: options.number('patience', 10, { integer: true, min: 0 }),
    restarts: options.number('restarts', 0, { integer: true, min: 0 }),
    perturb: options.number('perturb', 5, { integer: true, min: 1 }),
    seed: options.number('seed', 1, { integer: true }),
  };
}

/** K2's order: every column once, causes first; default the data's column order. */
function nodeOrder(options: LearnOptions, data: CategoricalDataset, from: A.Name): number[] | undefined {
  const order = options.names('order');
  if (!order) return undefined;
  const names = data.attributes.map((a) => a.name);
  const indices = order.map((n) => {
    const i = names.indexOf(n.text);
    if (i < 0) throw new CompileError(`'${n.text}' is not a column of '${from.text}' (${names.join(', ')})`, n.range);
    return i;
  });
  const missing = names.filter((_, i) => !indices.includes(i));
  if (missing.length || new Set(indices).size !== indices.length) {
    throw new CompileError(
      `order must list every column of '${from.text}' once${missing.length ? `; missing: ${missing.join(', ')}` : ''}`,
      order[0]?.range ?? from.range,
    );
  }
  return indices;
}

export const learnStructureHandler: Handler = learnStructure;
