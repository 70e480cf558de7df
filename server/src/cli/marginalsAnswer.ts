/**
 * `bayes marginals`: the command line read and checked, the network read by the readers it is
 * given, the answer printed. Shared by the full command (cli/marginals.ts) and its fast path for the
 * interchange formats (cli/formatMarginals.ts), so both answer alike.
 */
import { parseArgs } from 'node:util';
import type { BayesianNetwork } from '../engine/network.js';
import { readUaiEvidence } from '../model/uai.js';
import { posteriorMarginals, DEFAULT_BUDGET, type MarginalsOptions } from '../engine/inference/marginals.js';
import { namedTables, resolveEvidence, resolveFindings } from '../run/namedEvidence.js';
import type { NamedEvidence } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';
import { UsageError, type CliIO } from './command.js';
import { DEFAULT_BUDGETS } from '../engine/budget.js';
import { cliBudgets } from './limits.js';
import { integerOption } from './numberOptions.js';
import { NETWORK_FILE_USAGE, type NetworkFileOptions } from './networkFormatFile.js';
import { readCommandLineText } from './workspace.js';
import { runHybridMarginals, type HybridMarginalsOptions } from './hybridMarginals.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { inferOnTerminal } from './samplingProgress.js';
import { evidencePairs } from './evidencePairs.js';

export { evidencePairs };

/**
 * How the command reads its network file: the full command (cli/marginals.ts) reads `.bayes`
 * models too; its fast path (cli/formatMarginals.ts) only the interchange formats, without the
 * language front end.
 */
export interface MarginalsReaders {
  network(file: string, io: CliIO, options: NetworkFileOptions): BayesianNetwork | undefined;
  /** A network with continuous nodes; undefined when the file has none, null after an error. */
  hybrid(file: string, io: CliIO, options: NetworkFileOptions): HybridNetwork | undefined | null;
}

const OPTIONS = {
  evidence: { type: 'string', multiple: true, short: 'e' },
  'evidence-file': { type: 'string' },
  likelihood: { type: 'string', multiple: true },
  soft: { type: 'string', multiple: true },
  method: { type: 'string' },
  samples: { type: 'string' },
  seed: { type: 'string' },
  budget: { type: 'string' },
  json: { type: 'boolean' },
  network: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
} as const;

export const MARGINALS_USAGE = `bayes marginals NET|MODEL.bayes [options]   (NET: .bif, .xml, .net, .uai or .xdsl)

Options:
  --evidence VAR=STATE   an observation (repeatable)
  --evidence-file F      observations from a UAI evidence file (F.evid: variables and states by
                         their index in the network)
  --likelihood VAR=L1,L2,…  virtual evidence: λ per state of VAR in its state order (ratios
                         matter; repeatable)
  --soft VAR=P1,P2,…     soft evidence (Jeffrey's rule): VAR's posterior becomes this
                         distribution, in its state order (repeatable)
  --method M             auto (default: exact while the junction tree fits half the memory
                         budget of --max-memory, default 2048 MB; else likelihood weighting),
                         exact, lw (likelihood weighting), gibbs or rejection (Poole §8.6)
  --samples N            samples for lw / gibbs / rejection (default 20000)
  --seed S               seed for the samplers (default 1)
                         (on a terminal a progress line counts the samples; Ctrl+C stops
                         the sampler, exit 130, saying how many were drawn)
  --budget N             decide on the largest clique table instead: exact while it has at most
                         N entries (${DEFAULT_BUDGET} was the old default)
  --json                 {"network", "evidence", "likelihood"?, "soft"?, "method",
                         "marginals": {VAR: {STATE: p}}, "stderr"?, "timings"}
                         timings (discrete networks): where the time went, in ms: {"parse" (reading the
                         file), "triangulate" (elimination order, cliques), "compile" (the
                         tables), "propagate" (evidence, message passing, the marginals;
                         or the eliminations, or the sampling)}
Continuous nodes (Hugin NET \`continuous node\`s, or .bayes \`real\` variables with
\`~ Normal(…)\` tables): observe them with --evidence VAR=NUMBER; each
prints as {"mean", "variance"} (with "components": [{"weight", "mean", "variance"}] when the
network also has discrete nodes), and "logEvidence" is the log density of the evidence. They are
answered exactly while the configurations of the continuous nodes' discrete parents × the Gaussian
joint fit the budget, else (or with --method lw) by likelihood weighting with exact Gaussian parts,
with "stderr" (per state; for a continuous node, of its mean). --likelihood and --soft take the
discrete nodes of such a network (a continuous node is observed with a number).
${NETWORK_FILE_USAGE}`;

export type MarginalsRequest = ReturnType<typeof marginalsRequest>;

/** The command line read and checked (before any file is): a UsageError when it is wrong. */
export function marginalsRequest(args: string[]) {
  const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError('give one network file');
  return {
    file: positionals[0]!,
    values,
    options: inferenceOptions(values),
    named: evidencePairs(values.evidence ?? []),
    likelihood: vectorPairs('likelihood', values.likelihood ?? []),
    soft: vectorPairs('soft', values.soft ?? []),
  };
}

export const marginalsAnswer = {
  /** Reads the network with `readers` and prints its marginals; the exit code. */
  async run(request: MarginalsRequest, io: CliIO, readers: MarginalsReaders): Promise<number> {
    const { file, values, options, named, likelihood, soft } = request;
    const hybrid = readers.hybrid(file, io, values);
    if (hybrid === null) return 1;
    if (hybrid) return runHybridMarginals(hybrid, named, { ...hybridOptions(values, options), likelihood, soft }, io);
    const parseStart = performance.now();
    const net = readers.network(file, io, values);
    const parseMs = performance.now() - parseStart;
    if (!net) return 1;
    if (values['evidence-file'] && !addEvidenceFile(values['evidence-file'], net, named, io, values['max-file-mb']))
      return 1;
    const resolved = resolveEvidence(net, named);
    if ('error' in resolved) {
      io.err(`bayes marginals: ${resolved.error}\n`);
      return 1;
    }
    const withFindings = resolveFindings(net, resolved.evidence, likelihood, soft);
    if ('error' in withFindings) {
      io.err(`bayes marginals: ${withFindings.error}\n`);
      return 1;
    }
    const answer = inferOnTerminal(io, options.method, (onSamples) =>
      posteriorMarginals(withFindings.net, withFindings.evidence, { ...options, onSamples }),
    );
    if (typeof answer === 'number') return answer;
    if (!answer.ok) {
      io.err(`bayes marginals: ${answer.message}\n`);
      return 1;
    }
    if (answer.note) io.err(`bayes marginals: warning: ${answer.note}\n`);
    const marginals = namedTables(net, answer.marginals);
    const stderr = answer.stderr ? namedTables(net, answer.stderr) : undefined;
    if (values.json) {
      io.out(
        JSON.stringify(
          {
            network: net.name,
            evidence: named,
            ...(Object.keys(likelihood).length ? { likelihood } : {}),
            ...(Object.keys(soft).length ? { soft } : {}),
            method: answer.method,
            marginals,
            ...(stderr ? { stderr, samples: answer.samples, seed: answer.seed } : { logEvidence: answer.logEvidence }),
            ...(answer.accepted !== undefined
              ? {
                  accepted: answer.accepted,
                  acceptanceRate: answer.acceptanceRate,
                  acceptanceStderr: answer.acceptanceStderr,
                }
              : {}),
            cost: answer.cost,
            budget: answer.budget,
            ...(answer.note ? { note: answer.note } : {}),
            ...(answer.reason ? { reason: answer.reason } : {}),
            timings: { parse: parseMs, ...answer.timings },
          },
          null,
          1,
        ) + '\n',
      );
      return 0;
    }
    io.out(
      `${net.name}: ${answer.method}${answer.samples ? ` (${answer.samples} samples, seed ${answer.seed})` : ''}\n`,
    );
    if (answer.accepted !== undefined) {
      io.out(
        `accepted ${answer.accepted} of ${answer.samples} samples: ` +
          `acceptance rate ${answer.acceptanceRate!.toFixed(6)} ±${answer.acceptanceStderr!.toFixed(6)}` +
          ' (an estimate of P(evidence))\n',
      );
    }
    for (const [v, dist] of Object.entries(marginals)) {
      const cells = Object.entries(dist).map(
        ([s, p]) => `${s} ${p.toFixed(6)}${stderr ? ` ±${stderr[v]![s]!.toFixed(6)}` : ''}`,
      );
      const mark = Object.hasOwn(named, v)
        ? ' (observed)'
        : Object.hasOwn(soft, v)
          ? ' (soft evidence)'
          : Object.hasOwn(likelihood, v)
            ? ' (virtual evidence)'
            : '';
      io.out(`${v}${mark}: ${cells.join('  ')}\n`);
    }
    return 0;
  },
};

/** `bayes marginals` options for a network with continuous nodes: those it has no use for are refused by name. */
function hybridOptions(values: Record<string, unknown>, options: MarginalsOptions): HybridMarginalsOptions {
  const refused = ['evidence-file', 'budget'].filter((o) => values[o] !== undefined).map((o) => `--${o}`);
  const method = options.method ?? 'auto';
  if (method === 'gibbs' || method === 'rejection') refused.push(`--method ${method}`);
  return {
    json: values.json === true,
    refused,
    method: method === 'gibbs' || method === 'rejection' ? undefined : method,
    samples: options.samples,
    seed: options.seed,
  };
}

/** Adds a UAI evidence file's observations (by index) to the named ones; false after reporting an error. */
function addEvidenceFile(
  file: string,
  net: BayesianNetwork,
  named: NamedEvidence,
  io: CliIO,
  maxFileMb: string | undefined,
): boolean {
  const text = readCommandLineText(file, io, maxFileMb);
  if (text === undefined) return false;
  const read = readUaiEvidence(text, net);
  if ('error' in read) {
    io.err(`${file}:${read.error.line}:1: error: ${read.error.message}\n`);
    return false;
  }
  for (const { variable, state } of read.evidence) {
    const v = net.variables[variable]!;
    if (Object.hasOwn(named, v.name) && named[v.name] !== v.states[state]) {
      io.err(`bayes marginals: ${file} observes ${v.name}=${v.states[state]}, --evidence ${v.name}=${named[v.name]}\n`);
      return false;
    }
    setOwn(named, v.name, v.states[state]!);
  }
  return true;
}

/** `VAR=STATE` pairs; the same pair may repeat, a second state for VAR is refused. */

/** `VAR=n1,n2,…` → VAR → numbers (checked against VAR's states once the network is read). */
function vectorPairs(option: string, items: string[]): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (const item of items) {
    const eq = item.indexOf('=');
    const numbers = item
      .slice(eq + 1)
      .split(',')
      .map((x) => x.trim());
    if (eq <= 0 || numbers.some((x) => x === '' || !Number.isFinite(Number(x)))) {
      const want = "VAR=N1,N2,… (one number per state, in the variable's state order)";
      throw new UsageError(`--${option} wants ${want}, got '${item}'`);
    }
    const name = item.slice(0, eq);
    // As for --evidence: a second vector for the same variable would silently replace the first.
    if (Object.hasOwn(out, name) && out[name]!.join() !== numbers.map(Number).join()) {
      throw new UsageError(`--${option} gives '${name}' twice: give one vector per variable`);
    }
    setOwn(out, name, numbers.map(Number));
  }
  return out;
}

function inferenceOptions(values: {
  method?: string;
  samples?: string;
  seed?: string;
  budget?: string;
}): MarginalsOptions {
  const method = values.method ?? 'auto';
  if (!['auto', 'exact', 'lw', 'gibbs', 'rejection'].includes(method)) {
    throw new UsageError(`--method must be auto, exact, lw, gibbs or rejection, not '${method}'`);
  }
  return {
    method: method as MarginalsOptions['method'],
    samples: integerOption('samples', values.samples, undefined, 1, DEFAULT_BUDGETS.maxSamples),
    seed: integerOption('seed', values.seed, undefined, 0),
    budget: integerOption('budget', values.budget, undefined, 1),
    // cliBudgets' total-entries budget is a quarter of --max-memory, in 8-byte entries.
    memoryBytes: cliBudgets.memoryBytes,
  };
}
