/** `bayes structure FILE.csv`: a network structure from complete data by K2, hill climbing or tabu search. */
import { parseArgs } from 'node:util';
import { k2, type StructureResult } from '../engine/structure/k2.js';
import type { CategoricalDataset } from '../engine/categoricalData.js';
import type { ResultBase, StructureResultEntry } from '../protocol/runResult.js';
import { hillClimb } from '../engine/structure/hillClimb.js';
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
import { readNetworkFile } from './networkFile.js';
import { EngineError } from '../engine/engineError.js';

const USAGE = `bayes structure FILE.csv --method k2|hillclimb|tabu [options]

Learns a network structure from a data table whose header names the variables (rows with a
missing value are left out of the families they touch).

Options:
  --method M         k2 (Cooper & Herskovits, needs a node order), hillclimb (add/remove/reverse arcs
                     to a local maximum) or tabu (Bouckaert: goes on past it through structures not
                     recently visited, returns the best seen)
  --tabu N           tabu: how many recently visited structures may not be revisited (default 10)
  --patience N       tabu: steps allowed without a new best before stopping (default 10)
  --restarts N       hillclimb/tabu: N random restarts from the best so far, perturbed (default 0)
  --perturb K        random arc additions/removals/reversals before each restart (default 5)
  --seed S           seed of the perturbations (default 1)
  --order A,B,…      K2's node order, causes first (default: the column order)
  --max-parents N    at most N parents per node (default: no limit)
  --score S          k2, bdeu or bic (default: k2 for k2, bic for hillclimb and tabu)
  --ess N            BDeu's equivalent sample size (default 1)
  --prune            K2: drop parents whose removal raises the score after each node's search
  --reference NET.bif  report missing / extra / reversed arcs against NET's structure, each with
                     what it adds to its family's score (negative: the data does not support it)
  --prior P          prior of the CPTs written by --out (as bayes learn; default none)
  --out FILE         write the learned network (CPTs by counting): FILE.bayes as .bayes, otherwise BIF
  --json             {"arcs": [[FROM, TO], …], "score", …}`;

export const structureCommand: CliCommand = {
  name: 'structure',
  summary: 'learn a network structure from data (K2, hill climbing or tabu search with K2/BDeu/BIC)',
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
        perturb: { type: 'string' },
        seed: { type: 'string' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one data file');
    const method = values.method;
    if (method !== 'k2' && method !== 'hillclimb' && method !== 'tabu')
      throw new UsageError('--method must be k2, hillclimb or tabu');
    const misplaced = (method === 'tabu' ? [] : ['tabu', 'patience'])
      .concat(method === 'k2' ? ['restarts', 'perturb', 'seed'] : [])
      .filter((o) => values[o as keyof typeof values] !== undefined);
    if (misplaced.length) throw new UsageError(`--${misplaced[0]} does not apply to --method ${method}`);
    const score = (values.score ?? (method === 'k2' ? 'k2' : 'bic')) as ScoreName;
    if (!['k2', 'bdeu', 'bic'].includes(score)) throw new UsageError('--score must be k2, bdeu or bic');
    const ess = positiveOption('ess', values.ess, 1);
    const prior = parsePrior(values.prior);
    const reference = values.reference ? readNetworkFile(values.reference, io) : undefined;
    if (values.reference && !reference) return 1;
    try {
      const data = await readDataFile(positionals[0]!);
      const names = data.attributes.map((a) => a.name);
      const found = search(data, method, score, ess, values);
      const result: Omit<StructureResultEntry, keyof ResultBase> & { kind: 'structure' } = {
        kind: 'structure',
        method,
        score: found.score,
        scoreName: score,
        arcs: arcsOf(found.parents).map(([f, t]): [string, string] => [names[f]!, names[t]!]),
        ...(reference
          ? { comparison: compareWith(reference, found.parents, new ScoreCache(data, { score, ess })) }
          : {}),
      };
      if (values.out) writeNetworkFile(values.out, networkFromStructure('learned', data, found.parents, prior));
      io.out(values.json ? JSON.stringify(result, null, 2) + '\n' : summary(result, values.reference, values.out));
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

type SearchArgs = Partial<
  Record<'order' | 'max-parents' | 'tabu' | 'patience' | 'restarts' | 'perturb' | 'seed', string>
> & { prune?: boolean };

function search(
  data: CategoricalDataset,
  method: StructureResultEntry['method'],
  score: ScoreName,
  ess: number,
  values: SearchArgs,
): StructureResult {
  const names = data.attributes.map((a) => a.name);
  const maxParents = integerOption('max-parents', values['max-parents'], names.length - 1);
  if (method !== 'k2') {
    return hillClimb(data, {
      maxParents,
      score,
      ess,
      tabu: method === 'tabu' ? integerOption('tabu', values.tabu, 10, 1) : 0,
      patience: integerOption('patience', values.patience, 10),
      restarts: integerOption('restarts', values.restarts, 0),
      perturb: integerOption('perturb', values.perturb, 5, 1),
      seed: integerOption('seed', values.seed, 1),
    });
  }
  const order = values.order
    ?.split(',')
    .map((s) => s.trim())
    .map((name) => {
      const i = names.indexOf(name);
      if (i < 0) throw new UsageError(`--order names '${name}', which is not a column (${names.join(', ')})`);
      return i;
    });
  if (order && order.length !== names.length)
    throw new UsageError(`--order must list all ${names.length} columns once`);
  return k2(data, { order, maxParents, score, ess, prune: values.prune });
}

function summary(r: Omit<StructureResultEntry, keyof ResultBase>, reference?: string, out?: string): string {
  const lines = [
    `${r.arcs.length} arcs by ${r.method} (${r.scoreName} score ${r.score.toFixed(3)}):`,
    ...r.arcs.map(([f, t]) => `  ${f} -> ${t}`),
  ];
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
    if (scoreChange.extra.some((c) => c < 0))
      lines.push(
        '  an extra arc that lowers the score was chosen before the parents that made it redundant: --prune drops it',
      );
  }
  if (out) lines.push(`wrote ${out}`);
  return lines.join('\n') + '\n';
}

/** A score change with its sign, in the score's log units. */
function signed(x: number): string {
  return `${x >= 0 ? '+' : ''}${x.toFixed(2)}`;
}

function compareWith(
  reference: BayesianNetwork,
  parents: number[][],
  scores: ScoreCache,
): NonNullable<StructureResultEntry['comparison']> {
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
  const named = (a: Array<[number, number]>) => a.map(([f, t]): [string, string] => [names[f]!, names[t]!]);
  return {
    reference: reference.name,
    missing: named(diff.missing),
    extra: named(diff.extra),
    reversed: named(diff.reversed),
    scoreChange: {
      missing: diff.missing.map((arc) => arcScoreChange(scores, arc, refParents[arc[1]]!)),
      extra: diff.extra.map((arc) => arcScoreChange(scores, arc, parents[arc[1]]!)),
    },
  };
}
