/** `bayes learn NET.bif --data FILE`: CPTs from data by counting, EM or gradient ascent. */
import { parseArgs } from 'node:util';
import { alignToNetwork } from '../engine/dataset.js';
import type { BayesianNetwork } from '../engine/network.js';
import { learnCpts } from '../engine/cptLearning.js';
import { networkEm, type NetworkEmResult } from '../engine/networkEm.js';
import { gradientAscent } from '../engine/gradientAscent.js';
import { ExpectationStep } from '../engine/expectedCounts.js';
import { meanTotalVariation } from '../engine/cptDistance.js';
import { cptsToJson } from '../run/learningResults.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { InputError, integerOption, parsePrior, readDataFile, readNetworkFile, writeNetworkFile } from './learnOptions.js';
import { EngineError } from '../engine/engineError.js';

const METHODS = ['counting', 'em', 'gradient'] as const;
type Method = (typeof METHODS)[number];

const USAGE = `bayes learn NET.bif --data FILE [options]

Learns the CPTs of NET's structure from a data table: a CSV whose header names the variables,
or a headerless table with one column per variable in NET's order (space-separated, quoted, as
alarm-em's records.dat). '?' or an empty cell is missing; a variable with no column is hidden.
(.bayes networks come with the .bayes parser glue.)

Options:
  --method M        counting (complete data), em (default when values are missing) or gradient
  --prior P         none (default), laplace, dirichlet=α, m=M (m-estimate, eq 6.22), bdeu=ESS
  --seed S          seed of the random starting CPTs (default 1)
  --iterations N    iteration cap for em/gradient (default 100)
  --tolerance T     stop when the log-likelihood per record improves by less (default 1e-6)
  --restarts N      random starts for em/gradient; the best is kept (default 1)
  --rate η          initial learning rate for gradient (default 0.05)
  --compare REF.bif print the mean total-variation distance of the learned CPTs to REF's
  --out FILE        write the learned network: FILE.bayes as .bayes text, otherwise BIF
  --json            {"network","method","iterations","logLikelihood","cpts":{VAR:{"parents","rows"}}}`;

/** The reference must have the same variables, states and parents to compare tables entry by entry. */
function sameShape(ref: BayesianNetwork, net: BayesianNetwork, file: string): BayesianNetwork {
  const key = (n: BayesianNetwork) => JSON.stringify(n.cpts.map((c) => [n.variables[c.child], c.parents]));
  if (key(ref) !== key(net)) throw new InputError(`${file}: its variables, states or parents differ from the learned network's; cannot compare CPTs`);
  return ref;
}

export const learnCommand: CliCommand = {
  name: 'learn',
  summary: 'learn the CPTs of a network from data (counting, EM or gradient ascent)',
  usage: USAGE,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({
      args, allowPositionals: true,
      options: {
        data: { type: 'string' }, method: { type: 'string' }, prior: { type: 'string' }, seed: { type: 'string' },
        iterations: { type: 'string' }, tolerance: { type: 'string' }, restarts: { type: 'string' }, rate: { type: 'string' },
        compare: { type: 'string' }, out: { type: 'string' }, json: { type: 'boolean' },
      },
    });
    if (positionals.length !== 1) throw new UsageError('give one network file');
    if (!values.data) throw new UsageError('give the data with --data FILE');
    if (values.method !== undefined && !METHODS.includes(values.method as Method)) throw new UsageError(`--method must be one of ${METHODS.join(', ')}`);
    const prior = parsePrior(values.prior);
    const tolerance = values.tolerance === undefined ? 1e-6 : Number(values.tolerance);
    const rate = values.rate === undefined ? 0.05 : Number(values.rate);
    if (!(tolerance >= 0) || !(rate > 0)) throw new UsageError('--tolerance must be ≥ 0 and --rate > 0');
    const options = {
      prior, tolerance, learningRate: rate,
      seed: integerOption('seed', values.seed, 1), maxIterations: integerOption('iterations', values.iterations, 100),
      restarts: integerOption('restarts', values.restarts, 1, 1),
    };
    try {
      const net = readNetworkFile(positionals[0]!);
      const aligned = alignToNetwork(net.variables, await readDataFile(values.data, net.variables));
      if ('error' in aligned) throw new InputError(`${values.data}: ${aligned.error}`);
      const data = aligned.data;
      const incomplete = data.columns.some((c) => c.includes(-1));
      const method: Method = (values.method as Method | undefined) ?? (incomplete ? 'em' : 'counting');
      if (method === 'counting' && incomplete) {
        io.err(`bayes learn: note: counting uses only the records where a family is fully observed; --method em uses them all\n`);
      }
      const estep = new ExpectationStep(net, data);
      let fit: Pick<NetworkEmResult, 'network' | 'iterations' | 'converged' | 'trace' | 'runs' | 'logLikelihood'>;
      if (method === 'counting') {
        const network = learnCpts(net, data, prior);
        fit = { network, iterations: 0, converged: true, trace: [], runs: [], logLikelihood: estep.run(network.cpts.map((c) => c.table)).logLikelihood };
      } else {
        fit = (method === 'em' ? networkEm : gradientAscent)(net, data, options);
      }
      const comparison = values.compare ? meanTotalVariation(fit.network, sameShape(readNetworkFile(values.compare), net, values.compare)) : undefined;
      if (values.out) writeNetworkFile(values.out, fit.network);
      if (values.json) {
        io.out(JSON.stringify({
          network: net.name, method, records: data.rowCount, patterns: estep.patterns, hidden: aligned.hidden,
          iterations: fit.iterations, converged: fit.converged, logLikelihood: fit.logLikelihood, trace: fit.trace, runs: fit.runs,
          ...(comparison ? { meanTotalVariation: comparison.mean } : {}),
          cpts: cptsToJson(fit.network),
        }, null, 2) + '\n');
      } else {
        io.out(`${net.name}: ${net.variables.length} CPTs learned by ${method} from ${data.rowCount} records (${estep.patterns} distinct)` +
          (aligned.hidden.length ? `, hidden: ${aligned.hidden.join(', ')}` : '') + '\n');
        io.out(`log-likelihood ${fit.logLikelihood.toFixed(4)}` + (method === 'counting' ? '' : ` after ${fit.iterations} iterations${fit.converged ? ' (converged)' : ''}`) + '\n');
        if (comparison) io.out(`mean total-variation distance to ${values.compare}: ${comparison.mean.toFixed(4)}\n`);
        if (values.out) io.out(`wrote ${values.out}\n`);
      }
      return 0;
    } catch (e) {
      if (e instanceof InputError || e instanceof EngineError) { io.err(`bayes learn: ${e.message}\n`); return 1; }
      throw e;
    }
  },
};
