/**
 * `bayes structure FILE.csv`: a network structure from complete data by PC-stable, K2, hill
 * climbing or tabu search, with background knowledge; or bootstrap arc strengths.
 */
import { parseArgs } from 'node:util';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { ResultBase, StructureResultEntry } from '../protocol/runResult.js';
import {
  SEARCH_METHODS,
  searchStructure,
  cpdagWithKnowledge,
  type SearchMethod,
  type SearchResult,
  type SearchSpec,
} from '../engine/structure/search.js';
import { BackgroundKnowledge, type BackgroundKnowledgeSpec } from '../engine/structure/backgroundKnowledge.js';
import { parallelBootstrap } from './parallelBootstrap.js';
import { interrupted, interruptible, startProgress } from './progress.js';
import { CancelledError } from '../engine/cancellation.js';
import { DEFAULT_CLIMBS } from '../engine/structure/hillClimb.js';
import { hammingDistance } from '../engine/structure/pdag.js';
import { arcStrengths, averagedNetwork, strengthThreshold } from '../engine/structure/bootstrap.js';
import {
  compareStructures,
  arcsOf,
  arcScoreChange,
  ScoreCache,
  type ScoreName,
} from '../engine/structure/structureScore.js';
import { networkFromStructure } from '../engine/estimators/cptLearning.js';
import type { BayesianNetwork } from '../engine/network.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import {
  InputError,
  integerOption,
  positiveOption,
  parsePrior,
  readDataFile,
  writeNetworkFile,
} from './learningInputs.js';
import { commandLineReads, MAX_FILE_USAGE } from './workspace.js';
import { readNetworkFile } from './networkFile.js';
import { EngineError } from '../engine/engineError.js';
import { gaussianStructure, isGaussianRequest, NOT_GAUSSIAN } from './gaussianStructure.js';
import { searchOnTerminal } from './searchProgress.js';

const USAGE = `bayes structure FILE.csv --method pc|k2|hillclimb|tabu [options]

Learns a network structure from a data table whose header names the variables (rows with a
missing value are left out of the families and tests they touch).
On a terminal a progress line on standard error shows the search's moves and score (K2: nodes;
PC: independence tests); Ctrl+C stops it within a second, exit 130, saying how far it got.

Options:
  --method M         pc (PC-stable: conditional-independence tests, then Meek's rules; a CPDAG),
                     k2 (Cooper & Herskovits, needs a node order), hillclimb (add/remove/reverse arcs
                     to a local maximum) or tabu (Bouckaert: goes on past it through structures not
                     recently visited, returns the best seen)
  --alpha A          pc: level of each independence test (default 0.05)
  --test T           pc: g2 (likelihood ratio, default) or x2 (Pearson); df adjusted for empty cells;
                     zf: Fisher's z of the partial correlation (continuous columns, bnlearn's zf)
  --max-conditioning N  pc: largest conditioning set (default: no limit)
  --require A->B,…   arcs that must be present (every method)
  --forbid A->B,…    arcs that must not be present (both ways: A->B,B->A)
  --tiers A,B;C;D    groups of variables, earliest first: no arc from a later tier to an earlier one
  --bootstrap R      arc strength over R bootstrap resamples (Friedman): per pair the fraction of
                     replicates' CPDAGs with the pair adjacent, and of those the fraction with each
                     direction; then the averaged network at the threshold estimated from them
                     (bnlearn's boot.strength, averaged.network); two worker threads. Each
                     hillclimb/tabu replicate also climbs once from the network learnt on all the
                     data and keeps that end when it scores higher on the replicate
  --tabu N           tabu: how many recently visited structures may not be revisited (default 10)
  --patience N       tabu: steps allowed without a new best before stopping (default 10)
  --climbs N         hillclimb/tabu: climbs from the start, the later ones picking at random among
                     equally good moves (score-equivalent arcs tie); the best is kept (default 8)
  --restarts N       hillclimb/tabu: N random restarts from the best so far, perturbed (default 0)
  --perturb K        random arc additions/removals/reversals before each restart (default 5)
  --seed S           seed of the climbs' ties, the perturbations and the bootstrap resamples (default 1)
  --order A,B,…      K2's node order, causes first (default: the column order)
  --max-parents N    at most N parents per node (default: no limit)
  --score S          k2, bdeu or bic (default: k2 for k2, bic otherwise; pc reports a DAG of its class's);
                     on continuous data bic-g (Gaussian network, every column continuous) or bic-cg
                     (conditional Gaussian: no arc from a continuous to a discrete node), bnlearn's
                     scores on its scale: log-likelihood − (k/2)·ln n, higher is better
  --continuous A,…   bic-g/bic-cg/zf: read these columns as continuous (every value a number); by
  --discrete A,…     default a column is continuous when every value in it is a number, and
                     --discrete keeps numeric codes discrete
  --ess N            BDeu's equivalent sample size (default 1)
  --prune            K2: drop parents whose removal raises the score after each node's search
  --reference NET.bif  report missing / extra / reversed arcs against NET's structure, each with
                     what it adds to its family's score (negative: the data does not support it),
                     and the structural Hamming distance between the two CPDAGs
  --prior P          prior of the CPTs written by --out (as bayes learn; default none)
  --out FILE         write the learned network (CPTs by counting) in the format of its extension
                     (.bayes, .xml, .net, .uai), otherwise BIF
  --json             {"arcs": [[FROM, TO], …], "score", …}; pc adds "edges" (undirected) and "tests";
                     --bootstrap gives {"strength": [{"from", "to", "strength", "direction"}, …],
                     "threshold", "arcs", "edges"}
${MAX_FILE_USAGE}`;

export const structureCommand: CliCommand = {
  name: 'structure',
  summary: 'learn a network structure from data (PC, K2, hill climbing or tabu search; bootstrap arc strength)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        method: { type: 'string' },
        order: { type: 'string' },
        'max-parents': { type: 'string' },
        score: { type: 'string' },
        ess: { type: 'string' },
        prune: { type: 'boolean' },
        reference: { type: 'string' },
        prior: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        tabu: { type: 'string' },
        patience: { type: 'string' },
        restarts: { type: 'string' },
        climbs: { type: 'string' },
        perturb: { type: 'string' },
        seed: { type: 'string' },
        'max-file-mb': { type: 'string' },
        alpha: { type: 'string' },
        test: { type: 'string' },
        'max-conditioning': { type: 'string' },
        require: { type: 'string' },
        forbid: { type: 'string' },
        tiers: { type: 'string' },
        bootstrap: { type: 'string' },
        continuous: { type: 'string' },
        discrete: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one data file');
    const method = values.method;
    if (!(SEARCH_METHODS as readonly (string | undefined)[]).includes(method)) {
      throw new UsageError('--method must be pc, k2, hillclimb or tabu');
    }
    const m = method as SearchMethod;
    if (isGaussianRequest(values.score, values.test)) return runGaussian(m, values, positionals[0]!, io);
    const typing = (['continuous', 'discrete'] as const).find((o) => values[o] !== undefined);
    if (typing) throw new UsageError(`--${typing} applies to --score bic-g or bic-cg and --test zf`);
    const bootstrap = integerOption('bootstrap', values.bootstrap, undefined, 1);
    const misplaced = (m === 'tabu' ? [] : ['tabu', 'patience'])
      .concat(m === 'k2' || m === 'pc' ? ['restarts', 'perturb', 'climbs'] : [])
      .concat(m === 'k2' ? [] : ['order', 'prune'])
      .concat(m === 'pc' ? ['max-parents'] : ['alpha', 'test', 'max-conditioning'])
      .concat((m === 'k2' || m === 'pc') && bootstrap === undefined ? ['seed'] : [])
      .filter((o) => values[o as keyof typeof values] !== undefined);
    if (misplaced.length) {
      const withBootstrap = bootstrap === undefined ? '' : ' with --bootstrap';
      throw new UsageError(`--${misplaced[0]} does not apply to --method ${m}${withBootstrap}`);
    }
    const notWithBootstrap = (['out', 'reference', 'prior'] as const).find((o) => values[o] !== undefined);
    if (bootstrap !== undefined && notWithBootstrap) {
      throw new UsageError(`--${notWithBootstrap} does not apply to --bootstrap (its answer is arc strengths)`);
    }
    const score = (values.score ?? (m === 'k2' ? 'k2' : 'bic')) as ScoreName;
    if (!['k2', 'bdeu', 'bic'].includes(score)) throw new UsageError('--score must be k2, bdeu or bic');
    const test = values.test ?? 'g2';
    if (test !== 'g2' && test !== 'x2') throw new UsageError('--test must be g2 (likelihood ratio) or x2 (Pearson)');
    const alpha = positiveOption('alpha', values.alpha, 0.05);
    if (alpha >= 1) throw new UsageError(`--alpha must be below 1, not '${values.alpha}'`);
    const ess = positiveOption('ess', values.ess, 1);
    const prior = parsePrior(values.prior);
    const reference = values.reference ? readNetworkFile(values.reference, io) : undefined;
    if (values.reference && !reference) return 1;
    try {
      const data = await readDataFile(commandLineReads(values), positionals[0]!);
      const names = data.attributes.map((a) => a.name);
      const knowledge = knowledgeOf(values, names);
      const spec: SearchSpec = {
        ...searchSpec(data, m, values),
        score,
        ess,
        alpha,
        test,
        knowledge: knowledge?.knowledge,
        maxConditioning: integerOption('max-conditioning', values['max-conditioning'], undefined),
      };
      if (bootstrap !== undefined) {
        const seed = integerOption('seed', values.seed, 1);
        const strength = await bootStrength(data, spec, knowledge?.spec, bootstrap, seed, io);
        if (typeof strength === 'number') return strength;
        io.out(values.json ? JSON.stringify(strength, null, 2) + '\n' : strengthSummary(strength));
        return 0;
      }
      const found = searchOnTerminal(io, m, (progress) => searchStructure(data, { ...spec, progress }));
      if (typeof found === 'number') return found;
      const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
      const pc = m === 'pc';
      const result: Omit<StructureResultEntry, keyof ResultBase> & { kind: 'structure' } = {
        kind: 'structure',
        method: m,
        score: found.score,
        scoreName: score,
        arcs: pc ? named(found.cpdag.arcs()) : named(arcsOf(found.parents)),
        ...(pc
          ? { edges: named(found.cpdag.edges()), tests: found.tests!, alpha, test, conflicts: found.conflicts! }
          : {}),
        ...(reference
          ? { comparison: compareWith(reference, found, new ScoreCache(data, { score, ess }), spec.knowledge) }
          : {}),
      };
      if (values.out) writeNetworkFile(values.out, networkFromStructure('learned', data, found.parents, prior));
      io.out(
        values.json
          ? JSON.stringify(result, null, 2) + '\n'
          : summary(result, values.reference, values.out, values.prune),
      );
      return 0;
    } catch (e) {
      if (e instanceof InputError || e instanceof EngineError) {
        io.err(`bayes structure: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
  },
};

type StructureValues = SearchArgs &
  Partial<
    Record<
      | 'score'
      | 'test'
      | 'alpha'
      | 'max-conditioning'
      | 'require'
      | 'forbid'
      | 'tiers'
      | 'continuous'
      | 'discrete'
      | 'json'
      | 'max-file-mb'
      | (typeof NOT_GAUSSIAN)[number],
      string | boolean
    >
  >;

/** --score bic-g|bic-cg, --test zf: continuous and mixed data (cli/gaussianStructure.ts). */
async function runGaussian(m: SearchMethod, values: StructureValues, file: string, io: CliIO): Promise<number> {
  const unsupported = NOT_GAUSSIAN.find((o) => values[o] !== undefined);
  if (unsupported)
    throw new UsageError(`--${unsupported} does not apply to continuous data (--score bic-g/bic-cg, --test zf)`);
  const text = (o: keyof StructureValues) => (typeof values[o] === 'string' ? (values[o] as string) : undefined);
  const alpha = positiveOption('alpha', text('alpha'), 0.05);
  if (alpha >= 1) throw new UsageError(`--alpha must be below 1, not '${text('alpha')}'`);
  if (m !== 'pc') {
    const misplaced = ['alpha', 'max-conditioning'].find((o) => values[o as keyof StructureValues] !== undefined);
    if (misplaced) throw new UsageError(`--${misplaced} does not apply to --method ${m}`);
  }
  try {
    const data = await readDataFile(commandLineReads({ 'max-file-mb': text('max-file-mb') }), file);
    const names = data.attributes.map((a) => a.name);
    const knowledge = knowledgeOf(values as Partial<Record<'require' | 'forbid' | 'tiers', string>>, names);
    const { maxParents, tabu, patience, climbs, restarts, perturb, seed } = searchSpec(data, m, values);
    const search = { maxParents, tabu, patience, climbs, restarts, perturb, seed };
    const result = searchOnTerminal(io, m, (progress) =>
      gaussianStructure(data, {
        method: m,
        score: text('score'),
        test: text('test'),
        alpha,
        maxConditioning: integerOption('max-conditioning', text('max-conditioning'), undefined),
        search,
        knowledge: knowledge?.spec,
        continuous: text('continuous'),
        discrete: text('discrete'),
        progress,
      }),
    );
    if (typeof result === 'number') return result;
    io.out(values.json ? JSON.stringify(result, null, 2) + '\n' : summary(result));
    return 0;
  } catch (e) {
    if (e instanceof InputError || e instanceof EngineError) {
      io.err(`bayes structure: ${e.message}\n`);
      return 1;
    }
    throw e;
  }
}

type SearchArgs = Partial<
  Record<'order' | 'max-parents' | 'tabu' | 'patience' | 'climbs' | 'restarts' | 'perturb' | 'seed', string>
> & { prune?: boolean };

/** The method's own options (order, tabu list, restarts, max parents). */
function searchSpec(data: CategoricalDataset, method: SearchMethod, values: SearchArgs): Omit<SearchSpec, 'score'> {
  const names = data.attributes.map((a) => a.name);
  const maxParents = integerOption('max-parents', values['max-parents'], names.length - 1);
  if (method === 'pc') return { method, maxParents };
  if (method !== 'k2') {
    return {
      method,
      maxParents,
      tabu: method === 'tabu' ? integerOption('tabu', values.tabu, 10, 1) : 0,
      patience: integerOption('patience', values.patience, 10),
      climbs: integerOption('climbs', values.climbs, DEFAULT_CLIMBS, 1),
      restarts: integerOption('restarts', values.restarts, 0),
      perturb: integerOption('perturb', values.perturb, 5, 1),
      seed: integerOption('seed', values.seed, 1),
    };
  }
  const order = values.order
    ?.split(',')
    .map((s) => s.trim())
    .map((name) => columnIndex(names, name, '--order'));
  if (order && order.length !== names.length)
    throw new UsageError(`--order must list all ${names.length} columns once`);
  return { method, order, maxParents, prune: values.prune };
}

function columnIndex(names: readonly string[], name: string, option: string): number {
  const i = names.indexOf(name);
  if (i < 0) throw new UsageError(`${option} names '${name}', which is not a column (${names.join(', ')})`);
  return i;
}

/** --require A->B,C->D  --forbid A->B  --tiers A,B;C;D,E (earliest first). */
function knowledgeOf(
  values: Partial<Record<'require' | 'forbid' | 'tiers', string>>,
  names: readonly string[],
): { knowledge: BackgroundKnowledge; spec: BackgroundKnowledgeSpec } | undefined {
  if (values.require === undefined && values.forbid === undefined && values.tiers === undefined) return undefined;
  const items = (text: string | undefined, sep: string) =>
    (text ?? '')
      .split(sep)
      .map((s) => s.trim())
      .filter(Boolean);
  const arcs = (option: 'require' | 'forbid') =>
    items(values[option], ',').map((text): [number, number] => {
      const parts = text.split(/->|→/).map((p) => p.trim());
      if (parts.length !== 2 || !parts[0] || !parts[1]) {
        throw new UsageError(`--${option} takes arcs FROM->TO separated by commas, not '${text}'`);
      }
      return [columnIndex(names, parts[0], `--${option}`), columnIndex(names, parts[1], `--${option}`)];
    });
  const tiers = values.tiers?.split(';').map((t) => items(t, ',').map((name) => columnIndex(names, name, '--tiers')));
  const spec: BackgroundKnowledgeSpec = {
    require: arcs('require'),
    forbid: arcs('forbid'),
    ...(tiers ? { tiers } : {}),
  };
  try {
    return { knowledge: new BackgroundKnowledge(names.length, spec, names), spec };
  } catch (e) {
    if (e instanceof EngineError) throw new UsageError(e.message);
    throw e;
  }
}

interface StrengthOutput {
  method: SearchMethod;
  replicates: number;
  seed: number;
  threshold: number;
  strength: Array<{ from: string; to: string; strength: number; direction: number }>;
  arcs: Array<[string, string]>;
  edges: Array<[string, string]>;
}

/** Bootstrap arc strengths (pairs never adjacent are left out) and the averaged network; two worker threads. */
async function bootStrength(
  data: CategoricalDataset,
  spec: SearchSpec,
  knowledge: BackgroundKnowledgeSpec | undefined,
  replicates: number,
  seed: number,
  io: CliIO,
): Promise<StrengthOutput | number> {
  const names = data.attributes.map((a) => a.name);
  const { knowledge: _instance, signal: _signal, ...plain } = spec;
  const progress = startProgress(io, 'bootstrap', { total: replicates, unit: 'replicates' });
  const interrupt = interruptible();
  let counts;
  try {
    counts = await parallelBootstrap(data, plain, knowledge, replicates, seed, {
      onProgress: (done) => progress.update(done),
      interrupt,
    });
  } catch (e) {
    if (!(e instanceof CancelledError)) throw e;
    progress.finish();
    return interrupted(
      io,
      'structure',
      `${progress.done} of ${replicates} bootstrap replicates; no arc strengths printed`,
    );
  } finally {
    progress.finish();
    interrupt.dispose();
  }
  const all = arcStrengths(counts);
  const threshold = strengthThreshold(all.map((s) => s.strength));
  const avg = averagedNetwork(names.length, all, threshold);
  const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  return {
    method: spec.method,
    replicates,
    seed,
    threshold,
    strength: all
      .filter((s) => s.strength > 0)
      .map((s) => ({ from: names[s.from]!, to: names[s.to]!, strength: s.strength, direction: s.direction })),
    arcs: named(avg.arcs),
    edges: named(avg.edges),
  };
}

function strengthSummary(r: StrengthOutput): string {
  const lines = [
    `arc strength over ${r.replicates} bootstrap replicates of ${r.method} (seed ${r.seed});` +
      ` threshold ${r.threshold.toFixed(3)}`,
  ];
  const shown = r.strength
    .filter((s) => s.direction >= 0.5)
    .sort((a, b) => b.strength - a.strength || b.direction - a.direction);
  for (const s of shown) {
    lines.push(`  ${s.from} -> ${s.to}  strength ${s.strength.toFixed(3)}  direction ${s.direction.toFixed(3)}`);
  }
  lines.push(`averaged network: ${r.arcs.length} arcs${r.edges.length ? `, ${r.edges.length} undirected edges` : ''}`);
  for (const [f, t] of r.arcs) lines.push(`  ${f} -> ${t}`);
  for (const [a, b] of r.edges) lines.push(`  ${a} - ${b}`);
  return lines.join('\n') + '\n';
}

function summary(
  r: Omit<StructureResultEntry, keyof ResultBase>,
  reference?: string,
  out?: string,
  pruned?: boolean,
): string {
  const lines = [
    `${r.arcs.length} arcs by ${r.method} (${r.scoreName} score ${r.score.toFixed(3)}):`,
    ...r.arcs.map(([f, t]) => `  ${f} -> ${t}`),
  ];
  if (r.edges) {
    lines.push(`${r.edges.length} undirected edges (either direction gives an equivalent network):`);
    lines.push(...r.edges.map(([a, b]) => `  ${a} - ${b}`));
    const conflicts = r.conflicts ? `; ${r.conflicts} conflicting v-structures left out` : '';
    lines.push(`${r.tests} independence tests (${r.test}, alpha ${r.alpha})${conflicts}`);
  }
  if (r.comparison) {
    const { missing, extra, reversed, scoreChange } = r.comparison;
    const show = (a: Array<[string, string]>, change?: number[]) =>
      a.map(([f, t], i) => `${f}->${t}${change ? ` (${signed(change[i]!)})` : ''}`).join(' ') || '-';
    lines.push(
      `against ${reference}: missing ${show(missing, scoreChange.missing)}; extra ${show(extra, scoreChange.extra)}; reversed ${show(reversed)}`,
    );
    lines.push(`  (in brackets: what each arc adds to its family's ${r.scoreName} score, log scale)`);
    if (scoreChange.missing.some((c) => c < 0))
      lines.push(
        '  a missing arc that lowers the score is one the data does not support: no search under this score finds it',
      );
    if (scoreChange.extra.some((c) => c < 0)) lines.push(`  ${extraArcNote(r.method, pruned)}`);
    const shd = r.comparison.shd;
    if (shd) lines.push(`structural Hamming distance between the CPDAGs: ${shd.cpdag} (skeleton ${shd.skeleton})`);
  }
  if (out) lines.push(`wrote ${out}`);
  return lines.join('\n') + '\n';
}

/**
 * Why an extra arc can lower the score, and only a remedy that this method takes: K2 without
 * --prune chose it before the parents that made it redundant; PC's tests kept it (no score is
 * used); a climb (or K2 with --prune) keeps one only when background knowledge requires it.
 */
function extraArcNote(method: string, pruned?: boolean): string {
  if (method === 'k2' && !pruned)
    return 'an extra arc that lowers the score was chosen before the parents that made it redundant: --prune drops it';
  if (method === 'pc')
    return 'an extra arc that lowers the score is one no independence test removed: PC does not use the score';
  return 'an extra arc that lowers the score is one the background knowledge (--require, --tiers) keeps';
}

/** A score change with its sign, in the score's log units. */
function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

function compareWith(
  reference: BayesianNetwork,
  found: SearchResult,
  scores: ScoreCache,
  knowledge?: BackgroundKnowledge,
): NonNullable<StructureResultEntry['comparison']> {
  const parents = found.parents;
  const names = scores.data.attributes.map((a) => a.name);
  const index = new Map(reference.variables.map((v, i) => [v.name, i]));
  if (index.size !== names.length || !names.every((n) => index.has(n))) {
    throw new InputError(`the reference network ${reference.name} must have exactly the data's columns as variables`);
  }
  // Re-express the reference's parent lists in the data's column order.
  const refParents = names.map((name) =>
    reference.cpts[index.get(name)!]!.parents.map((p) => names.indexOf(reference.variables[p]!.name)),
  );
  const diff = compareStructures(parents, refParents);
  const shd = hammingDistance(found.cpdag, cpdagWithKnowledge(refParents, knowledge));
  const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  return {
    reference: reference.name,
    missing: named(diff.missing),
    extra: named(diff.extra),
    reversed: named(diff.reversed),
    shd: { cpdag: shd.shd, skeleton: shd.skeleton },
    scoreChange: {
      missing: diff.missing.map((arc) => arcScoreChange(scores, arc, refParents[arc[1]]!)),
      extra: diff.extra.map((arc) => arcScoreChange(scores, arc, parents[arc[1]]!)),
    },
  };
}
