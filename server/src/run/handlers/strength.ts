/**
 * `query strength N from D { replicates: 200, seed: 1, method: hillclimb, … }`: bootstrap arc
 * strength (Friedman; bnlearn's `boot.strength`): the structure search (`method`, default
 * hillclimb, with its own options and background knowledge) on `replicates` resamples of D's
 * rows drawn with `seed`; each pair's strength and direction; and the averaged network at the
 * threshold estimated from the strengths, which becomes the network N (a DAG of it, tables
 * counted from D) for later `… in N` queries. The value is the averaged network's number of
 * arcs and undirected edges.
 */
import type * as A from '../../language/ast.js';
import { searchStructure, type SearchMethod, type SearchSpec } from '../../engine/structure/search.js';
import {
  arcStrengths,
  averagedNetwork,
  bootstrapCounts,
  replicateSearch,
  strengthThreshold,
} from '../../engine/structure/bootstrap.js';
import { Pdag, dagExtension } from '../../engine/structure/pdag.js';
import { ScoreCache } from '../../engine/structure/structureScore.js';
import { networkFromStructure } from '../../engine/estimators/cptLearning.js';
import { optionsOf, STRUCTURE_METHODS, STRUCTURE_OPTIONS } from '../../language/learnMethods.js';
import { queryOf, type Handler, type HandlerContext, type HandlerOutput } from '../handlerContext.js';
import { modelData, setLearnedNetwork } from '../modelInputs.js';
import { LearnOptions, MAX_REPLICATES } from '../learnOptions.js';
import type { StructureResultEntry } from '../../protocol/runResult.js';
import { cptsToJson } from '../learningResults.js';
import { SCORES, backgroundKnowledge, nodeOrder, pcOptions, searchOptions } from './learnStructure.js';

async function strength(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.StrengthQuery>(ctx);
  const data = await modelData(ctx, q.from);
  const options = new LearnOptions(q.options);
  const method = options.choice('method', STRUCTURE_METHODS, 'hillclimb') as SearchMethod;
  const used = [...new Set<string>(['replicates', 'method', 'seed', ...optionsOf(method)])];
  const diagnostics = options.unused(used, `bootstrap arc strength by ${method}`, [
    'replicates',
    'method',
    ...STRUCTURE_OPTIONS,
  ]);
  const names = data.attributes.map((a) => a.name);
  const replicates = options.number('replicates', 200, { integer: true, min: 1, max: MAX_REPLICATES });
  const seed = options.number('seed', 1, { integer: true });
  const score = options.choice('score', SCORES, method === 'k2' ? 'k2' : 'bic');
  const spec: SearchSpec = {
    method,
    score,
    ess: options.number('ess', 1, { positive: true }),
    maxParents: options.number('max_parents', names.length - 1, { integer: true, min: 0 }),
    knowledge: backgroundKnowledge(q.options, data),
    signal: ctx.signal,
    ...(method === 'k2' ? { order: nodeOrder(options, data, q.from) } : {}),
    ...(method === 'hillclimb' || method === 'tabu' ? searchOptions(options, method === 'tabu') : {}),
    ...(method === 'pc' ? pcOptions(options) : {}),
  };
  const perReplicate = replicateSearch(data, spec);
  const { counts } = bootstrapCounts(data, (sample) => searchStructure(sample, perReplicate).cpdag, {
    replicates,
    seed,
    signal: ctx.signal,
    progress: (done) => ctx.onProgress?.(done / replicates, `bootstrap replicate ${done} of ${replicates}`),
  });

  const all = arcStrengths(counts);
  const threshold = strengthThreshold(all.map((s) => s.strength));
  const avg = averagedNetwork(names.length, all, threshold);
  const graph = new Pdag(names.length);
  avg.arcs.forEach(([a, b]) => graph.setArc(a, b));
  avg.edges.forEach(([a, b]) => graph.setEdge(a, b));
  const { parents } = dagExtension(graph);
  const net = networkFromStructure(q.model.text, data, parents);
  setLearnedNetwork(ctx, q.model.text, net);
  const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  const total = new ScoreCache(data, { score }).total(parents);
  const result: StructureResultEntry = {
    kind: 'structure',
    method,
    score: total,
    scoreName: score,
    arcs: named(avg.arcs),
    edges: named(avg.edges),
    cpts: cptsToJson(net),
    strength: all
      .filter((s) => s.strength > 0)
      .map((s) => ({ from: names[s.from]!, to: names[s.to]!, strength: s.strength, direction: s.direction })),
    threshold,
    replicates,
    range: q.range,
    source: ctx.source,
    headline:
      `${q.model.text} · ${avg.arcs.length} arcs` +
      `${avg.edges.length ? `, ${avg.edges.length} undirected edges` : ''} ` +
      `with strength > ${threshold.toFixed(3)} over ${replicates} replicates of ${method}`,
  };
  if (avg.dropped.length) {
    diagnostics.push({
      severity: 'information',
      code: 'averaged-cycle',
      range: q.range,
      message:
        'left out of the averaged network, closing a cycle: ' +
        named(avg.dropped)
          .map(([f, t]) => `${f} -> ${t}`)
          .join(', '),
    });
  }
  return { results: [result], diagnostics, value: avg.arcs.length + avg.edges.length };
}

export const strengthHandler: Handler = strength;
