/** `bayes learn NET.bif --data FILE`: CPTs from data by counting, EM or gradient ascent. */
import { parseArgs } from 'node:util';
import { alignToNetwork } from '../engine/dataset.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { GradientOptions } from '../engine/estimators/gradientAscent.js';
import { hasMissing, learnParameters, PARAMETER_METHODS, type ParameterMethod } from '../run/learnNetwork.js';
import { meanTotalVariation } from '../engine/estimators/cptDistance.js';
import { learnedNetworkData } from '../run/learningResults.js';
import type { LearnedNetworkResult } from '../protocol/runResult.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import {
  InputError,
  integerOption,
  positiveOption,
  parsePrior,
  readDataFile,
  writeNetworkFile,
} from './learningInputs.js';
import { commandLineReads } from './workspace.js';
import { NETWORK_FILE_USAGE, readNetworkFile, readNetworkModel } from './networkFile.js';
import { EngineError } from '../engine/engineError.js';
import { startProgress, untilInterrupted } from './progress.js';
import { learnHybrid } from './gaussianLearn.js';
import { readHybridNetworkFile } from './hybridNetworkFile.js';
import { learnOverTime, namesNetworkOverTime } from './learnOverTime.js';

const METHODS = PARAMETER_METHODS;
type Method = ParameterMethod;

const USAGE = `bayes learn NET.bif|MODEL.bayes --data FILE [options]

A network over time (--network N of a .bayes model) learns from sequences by EM: see
docs/language.md, "Networks over time".

Learns the CPTs of NET's structure from a data table: a CSV whose header names the variables
(in any order; cells are matched to NET's states by name, and a cell outside them is an error),
or a headerless table with one column per variable in NET's order (space-separated, quoted, as
alarm-em's records.dat). '?' or an empty cell is missing; a variable with no column is hidden.
A .bayes model gives the structure by its tables (numbers, or a prior only: P(X | U) ~ Dirichlet(1))
and the priors it declares table by table apply unless --prior is given.

Options:
  --method M        counting (complete data), em (default when values are missing) or gradient
  --prior P         none (default), laplace, dirichlet=α, m=M (m-estimate, eq 6.22), bdeu=ESS
  --seed S          seed of the random starting CPTs of em/gradient (default 1): NET's own numbers are
                    not the start (a model's 'learn N by em' starts from them when every table has them)
  --iterations N    iteration cap for em/gradient (default 100)
  --tolerance T     stop when the log-likelihood per record improves by less (default 1e-6)
  --restarts N      random starts for em/gradient; the best is kept (default 1)
  --rate η          initial learning rate of gradient's natural-gradient step (default 1; a line search adapts it)
  --compare REF.bif print the mean total-variation distance of the learned CPTs to REF's
  --out FILE        write the learned network in the format of its extension (.bayes, .xml, .net,
                    .uai), otherwise BIF
  --progress        print each iteration's log-likelihood to stderr (em/gradient)
  --json            {"network","method","iterations","logLikelihood","cpts":{VAR:{"parents","rows"}}}

A Hugin NET network with continuous nodes (continuous node X { }) is learnt by least squares, one
regression per configuration of a node's discrete parents (variance RSS / n, maximum likelihood),
discrete tables by counting; --method em (the default when a Gaussian network's data miss values)
runs EM with exact conditional-normal E-steps; --prior nig=λ,a,b gives the posterior means under a
normal-inverse-gamma prior (slopes ~ N(0, σ²/λ), σ² ~ InvGamma(a, b), flat intercept); --out
writes .net; --json gives {"network","method","records","logLikelihood","nodes":{X:{"kind",
"parents","configurations":[{"given","intercept","coefficients","variance","rows"}]}}}.
${NETWORK_FILE_USAGE}`;

/** The reference must have the same variables, states and parents to compare tables entry by entry. */
function sameShape(ref: BayesianNetwork, net: BayesianNetwork, file: string): BayesianNetwork {
  const key = (n: BayesianNetwork) => JSON.stringify(n.cpts.map((c) => [n.variables[c.child], c.parents]));
  if (key(ref) !== key(net))
    throw new InputError(
      `${file}: its variables, states or parents differ from the learned network's; cannot compare CPTs`,
    );
  return ref;
}

const OPTIONS = {
  data: { type: 'string' },
  method: { type: 'string' },
  prior: { type: 'string' },
  seed: { type: 'string' },
  iterations: { type: 'string' },
  tolerance: { type: 'string' },
  restarts: { type: 'string' },
  rate: { type: 'string' },
  compare: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  progress: { type: 'boolean' },
  network: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
} as const;

type Values = ReturnType<typeof parseArgs<{ options: typeof OPTIONS }>>['values'];

/** The learning options; the prior only when --prior is given (a .bayes model's own priors apply otherwise). */
function learningOptions(values: Values): GradientOptions {
  const tolerance = positiveOption('tolerance', values.tolerance, 1e-6, true);
  const learningRate = positiveOption('rate', values.rate, 1);
  return {
    ...(values.prior !== undefined ? { prior: parsePrior(values.prior) } : {}),
    tolerance,
    learningRate,
    seed: integerOption('seed', values.seed, 1),
    maxIterations: integerOption('iterations', values.iterations, 100),
    restarts: integerOption('restarts', values.restarts, 1, 1),
  };
}

export const learnCommand: CliCommand = {
  name: 'learn',
  summary: 'learn the CPTs of a network from data (counting, EM or gradient ascent)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, allowPositionals: true, options: OPTIONS });
    if (positionals.length !== 1) throw new UsageError('give one network file');
    if (!values.data) throw new UsageError('give the data with --data FILE');
    // A network over time learns from sequences (cli/learnOverTime.ts).
    const file = positionals[0]!;
    if (namesNetworkOverTime(file, values.network, io.cwd)) return learnOverTime(file, values, io);
    const hybrid = readHybridNetworkFile(positionals[0]!, io, values);
    if (hybrid === null) return 1;
    if (hybrid) return learnHybrid(hybrid, positionals[0]!, values, io);
    if (values.method !== undefined && !METHODS.includes(values.method as Method))
      throw new UsageError(`--method must be one of ${METHODS.join(', ')}`);
    const options = learningOptions(values);
    // --progress: one line per iteration (a log); else, on a terminal, one updating line.
    const line = values.progress
      ? undefined
      : startProgress(io, `${values.method ?? 'em'} iteration`, { total: options.maxIterations! });
    const restarts = options.restarts ?? 1;
    let reached = 'the first iteration';
    options.onProgress = (p) => {
      const restart = restarts > 1 ? `restart ${p.restart + 1}/${restarts} · ` : '';
      reached = `${restart}${p.iteration} iterations (log-likelihood ${p.logLikelihood.toFixed(4)})`;
      if (values.progress)
        io.err(`restart ${p.restart + 1}, iteration ${p.iteration}: log-likelihood ${p.logLikelihood.toFixed(4)}\n`);
      else line!.update(p.iteration, `${restart}log-likelihood ${p.logLikelihood.toFixed(4)}`);
    };
    const model = readNetworkModel(positionals[0]!, io, { ...values, learning: true });
    const reference = values.compare ? readNetworkFile(values.compare, io) : undefined;
    if (!model || (values.compare && !reference)) return 1;
    const net = model.net;
    options.prior ??= model.prior;
    try {
      const table = await readDataFile(commandLineReads(values), values.data, net.variables);
      const aligned = alignToNetwork(net.variables, table);
      if ('error' in aligned) throw new InputError(`${values.data}: ${aligned.error}`);
      const data = aligned.data;
      const incomplete = hasMissing(data);
      const method: Method = (values.method as Method | undefined) ?? (incomplete ? 'em' : 'counting');
      if (method === 'counting' && incomplete) {
        io.err(
          `bayes learn: note: counting uses only the records where a family is fully observed; --method em uses them all\n`,
        );
      }
      // EM and gradient ascent are synchronous loops: Ctrl+C stops them (cli/progress.ts).
      const fit = untilInterrupted(
        io,
        'learn',
        () => `${reached}; nothing written`,
        () => learnParameters(net, data, method, options),
        () => [line],
      );
      if (typeof fit === 'number') return fit;
      const result = learnedNetworkData(method, data.rowCount, aligned.hidden, fit);
      const distance = reference
        ? meanTotalVariation(fit.network, sameShape(reference, net, values.compare!)).mean
        : undefined;
      if (values.out) writeNetworkFile(values.out, fit.network);
      if (values.json)
        io.out(
          JSON.stringify({ ...result, ...(distance !== undefined ? { meanTotalVariation: distance } : {}) }, null, 2) +
            '\n',
        );
      else io.out(summary(result, net, distance, values.compare, values.out));
      return 0;
    } catch (e) {
      line?.finish();
      if (e instanceof InputError || e instanceof EngineError) {
        io.err(`bayes learn: ${e.message}\n`);
        return 1;
      }
      throw e;
    }
  },
};

/** Why the log-likelihood is −∞: how many records score −∞, the first, and the rest's log-likelihood. */
export function impossibleLines(
  i: NonNullable<LearnedNetworkResult['impossible']>,
  records: number,
  remedy: string,
): string[] {
  return [
    `${i.records} of ${records} records (${i.patterns} distinct) ${i.records === 1 ? 'has' : 'have'} probability 0` +
      ' under the counted tables, so the log-likelihood is -∞;' +
      ` e.g. (${i.example}): ${i.reason}`,
    '  counting gives 0 to a value combination that no record with the family fully observed shows;' +
      ` ${remedy} gives every record a probability`,
    `log-likelihood of the other ${records - i.records} records ${i.otherLogLikelihood.toFixed(4)}`,
  ];
}

function summary(
  r: ReturnType<typeof learnedNetworkData>,
  net: BayesianNetwork,
  distance: number | undefined,
  compare?: string,
  out?: string,
): string {
  const lines = [
    `${net.name}: ${net.variables.length} CPTs learned by ${r.method} from ${r.records} records (${r.patterns} distinct)` +
      (r.hidden.length ? `, hidden: ${r.hidden.join(', ')}` : ''),
    `log-likelihood ${Number.isFinite(r.logLikelihood) ? r.logLikelihood.toFixed(4) : '-∞'}` +
      (r.method === 'counting' ? '' : ` after ${r.iterations} iterations${r.converged ? ' (converged)' : ''}`),
  ];
  if (r.impossible) lines.push(...impossibleLines(r.impossible, r.records, '--prior laplace (or --method em)'));
  if (distance !== undefined) lines.push(`mean total-variation distance to ${compare}: ${distance.toFixed(4)}`);
  if (out) lines.push(`wrote ${out}`);
  return lines.join('\n') + '\n';
}
