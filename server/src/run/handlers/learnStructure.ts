/**
 * `learn structure S from D by k2|hillclimb|tabu|pc { order, max_parents, score, alpha, require, … }`
 * (Mitchell §6.11.6): arcs by K2 (given a node order), hill climbing or tabu search (both with
 * optional seeded random restarts), scored by K2, BDeu or BIC; or by PC-stable (independence
 * tests at level alpha, then Meek's rules: a CPDAG, of which S takes one DAG). Background
 * knowledge (`require`, `forbid`, `tiers`) holds for every method. The structure
 * becomes the network S over D's columns, its CPTs by counting, for later `… in S` queries.
 */
import type * as A from '../../language/ast.js';
import { DEFAULT_CLIMBS, type HillClimbOptions } from '../../engine/structure/hillClimb.js';
import { searchStructure, type SearchMethod } from '../../engine/structure/search.js';
import { BackgroundKnowledge } from '../../engine/structure/backgroundKnowledge.js';
import { K2KnowledgeError } from '../../engine/structure/k2.js';
import { EngineError } from '../../engine/engineError.js';
import { KNOWLEDGE_OPTIONS, optionsOf, STRUCTURE_METHODS } from '../../language/learnMethods.js';
import { arcsOf, type ScoreName } from '../../engine/structure/structureScore.js';
import { networkFromStructure } from '../../engine/estimators/cptLearning.js';
import type { CategoricalDataset } from '../../engine/categoricalData.js';
import { CompileError } from '../../model/compileError.js';
import { type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { modelData, setLearnedNetwork } from '../modelInputs.js';
import { LearnOptions, MAX_ITERATIONS, MAX_RESTARTS } from '../learnOptions.js';
import type { StructureResultEntry } from '../../protocol/runResult.js';
import { cptsToJson } from '../learningResults.js';

export const SCORES: readonly ScoreName[] = ['k2', 'bdeu', 'bic'];

async function learnStructure(ctx: HandlerContext): Promise<HandlerOutput> {
  const s = ctx.statement as A.LearnStmt;
  if (!s.from) throw new CompileError(`say which data: learn structure ${s.model.text} from DATA by k2`, s.model.range);
  const method = s.method?.text ?? 'k2';
  if (!(STRUCTURE_METHODS as readonly string[]).includes(method))
    throw new CompileError(`a structure is learnt by ${STRUCTURE_METHODS.join(', ')}, not ${method}`, s.method!.range);
  const data = await modelData(ctx, s.from);
  const options = new LearnOptions(s.options);
  const diagnostics = options.unused(optionsOf(method), `structure learning by ${method}`);
  const names = data.attributes.map((a) => a.name);
  const score = options.choice('score', SCORES, method === 'k2' ? 'k2' : 'bic');
  const maxParents = options.number('max_parents', names.length - 1, { integer: true, min: 0 });
  const knowledge = backgroundKnowledge(s.options, data);
  const m = method as SearchMethod;
  const order = m === 'k2' ? { order: nodeOrder(options, data, s.from) } : {};
  const found = knowledgeOnOption(s.options, () =>
    searchStructure(data, {
      method: m,
      score,
      ess: options.number('ess', 1, { positive: true }),
      maxParents,
      signal: ctx.signal,
      knowledge,
      ...order,
      ...(m === 'hillclimb' || m === 'tabu' ? searchOptions(options, m === 'tabu') : {}),
      ...(m === 'pc' ? pcOptions(options) : {}),
    }),
  );
  const net = networkFromStructure(s.model.text, data, found.parents);
  setLearnedNetwork(ctx, s.model.text, net);
  const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  const arcs = m === 'pc' ? named(found.cpdag.arcs()) : named(arcsOf(found.parents));
  const edges = m === 'pc' ? named(found.cpdag.edges()) : [];
  const plural = (k: number, what: string) => `${k} ${what}${k === 1 ? '' : 's'}`;
  const result: StructureResultEntry = {
    kind: 'structure',
    method: m,
    score: found.score,
    scoreName: score,
    arcs,
    cpts: cptsToJson(net),
    ...(m === 'pc'
      ? {
          edges,
          tests: found.tests!,
          conflicts: found.conflicts!,
          alpha: pcOptions(options).alpha,
          test: pcOptions(options).test,
        }
      : {}),
    range: s.range,
    source: ctx.source,
    headline:
      m === 'pc'
        ? `${s.model.text} · ${plural(arcs.length, 'arc')}, ${plural(edges.length, 'undirected edge')}` +
          ` · ${plural(found.tests!, 'test')}`
        : `${s.model.text} · ${plural(arcs.length, 'arc')} · ${score} score ${found.score.toFixed(4)}`,
  };
  return { results: [result], diagnostics };
}

/** PC's level, test and largest conditioning set. */
export function pcOptions(options: LearnOptions): { alpha: number; test: 'g2' | 'x2'; maxConditioning?: number } {
  const alpha = options.number('alpha', 0.05, { positive: true });
  if (alpha >= 1) throw new CompileError(`alpha: must be below 1, not ${alpha}`, options.valueRange('alpha')!);
  const maxConditioning = options.number('max_conditioning', -1, { integer: true, min: 0 });
  const test = options.choice('test', ['g2', 'x2'] as const, 'g2');
  return { alpha, test, ...(maxConditioning >= 0 ? { maxConditioning } : {}) };
}

/** `require: [A -> B]`, `forbid: [A -> B]`, `tiers: [[A, B], [C]]` over the data's columns. */
export function backgroundKnowledge(
  options: A.Options | undefined,
  data: CategoricalDataset,
): BackgroundKnowledge | undefined {
  const entries = (options?.entries ?? []).filter((e) => KNOWLEDGE_OPTIONS.includes(e.name?.text ?? ''));
  if (!entries.length) return undefined;
  const names = data.attributes.map((a) => a.name);
  const column = (n: A.Name) => {
    const i = names.indexOf(n.text);
    if (i < 0) throw new CompileError(`'${n.text}' is not a column of the data (${names.join(', ')})`, n.range);
    return i;
  };
  type Arcs = Array<[number, number]>;
  const spec: { require: Arcs; forbid: Arcs; tiers: number[][] } = { require: [], forbid: [], tiers: [] };
  for (const e of entries) {
    const key = e.name!.text as 'require' | 'forbid' | 'tiers';
    const bad = (range: A.Expr['range']) =>
      new CompileError(
        `${key}: must be ${
          key === 'tiers' ? 'a list of groups of columns, e.g. [[A, B], [C]]' : 'a list of arcs, e.g. [A -> B, C -> D]'
        }`,
        range,
      );
    if (e.value.kind !== 'list') throw bad(e.value.range);
    for (const item of e.value.items) {
      if (key === 'tiers') {
        if (item.kind !== 'list' || item.items.some((i) => i.kind !== 'ref')) throw bad(item.range);
        spec.tiers.push(item.items.map((i) => column((i as A.Ref).name)));
      } else {
        if (item.kind !== 'arc') throw bad(item.range);
        spec[key].push([column(item.from), column(item.to)]);
      }
    }
  }
  try {
    return new BackgroundKnowledge(names.length, spec, names);
  } catch (e) {
    if (e instanceof EngineError) throw new CompileError(e.message, entries[0]!.range);
    throw e;
  }
}

/**
 * Knowledge K2 cannot honour (a required arc against `order`, more required parents than
 * `max_parents`) is an error on the option that says it, as contradictory knowledge is.
 */
function knowledgeOnOption<T>(options: A.Options | undefined, search: () => T): T {
  try {
    return search();
  } catch (e) {
    if (!(e instanceof K2KnowledgeError)) throw e;
    const entries = options?.entries ?? [];
    const on = (name: string) => entries.find((entry) => entry.name?.text === name);
    const entry = on('order') ?? on('require') ?? on('tiers');
    if (!entry) throw e;
    throw new CompileError(e.message, entry.range);
  }
}

/** Tabu list, patience, climbs and restarts for hillClimb (tabu 0: plain hill climbing). */
export function searchOptions(options: LearnOptions, tabu: boolean): HillClimbOptions {
  return {
    tabu: tabu ? options.number('tabu', 10, { integer: true, min: 1, max: MAX_ITERATIONS }) : 0,
    patience: options.number('patience', 10, { integer: true, min: 0, max: MAX_ITERATIONS }),
    climbs: options.number('climbs', DEFAULT_CLIMBS, { integer: true, min: 1, max: MAX_RESTARTS }),
    restarts: options.number('restarts', 0, { integer: true, min: 0, max: MAX_RESTARTS }),
    perturb: options.number('perturb', 5, { integer: true, min: 1, max: MAX_RESTARTS }),
    seed: options.number('seed', 1, { integer: true }),
  };
}

/** K2's order: every column once, causes first; default the data's column order. */
export function nodeOrder(options: LearnOptions, data: CategoricalDataset, from: A.Name): number[] | undefined {
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
