import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { PartlyUnknownTableError, writeBayesNetwork } from '../model/bayesWriter.js';
import { formatList, networkFormatOf } from '../model/networkFormats.js';
import { UnwritableNetworkError } from '../model/networkText.js';
import { writeUaiEvidence } from '../model/uai.js';
import { resolveEvidence } from '../run/namedEvidence.js';
import type { BayesianNetwork } from '../engine/network.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { NETWORK_FILE_USAGE, readNetworkFile } from './networkFile.js';
import { evidencePairs } from './marginals.js';
import { convertHybrid, readHybridNetworkFile } from './hybridNetworkFile.js';
import { readNetworkOverTime } from './dynamicFile.js';
import { integerOption } from './learningInputs.js';
import { unroll } from '../engine/dynamic/twoSliceNetwork.js';
import { unrollGaussian } from '../engine/dynamic/gaussianSlice.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { EngineError } from '../engine/engineError.js';
import { cliBudgets } from './limits.js';
import { writeOutputFileSync } from '../workspace/files.js';

/**
 * `--unroll T`: the network over time `--network N` of a .bayes model, as slices 0…T (a Gaussian
 * one as a network of continuous nodes: `{ hybrid }`).
 */
function readUnrolled(
  input: string,
  io: CliIO,
  values: { network?: string; unroll?: string; workspace?: string; 'data-root'?: string[] },
): BayesianNetwork | { hybrid: HybridNetwork } | undefined {
  if (!values.network) throw new UsageError('--unroll needs the network over time: --network N');
  const steps = integerOption('unroll', values.unroll, 0, 1);
  const read = readNetworkOverTime(input, io, { ...values, network: values.network });
  if (!read) return undefined;
  try {
    if (read.kind === 'gaussian') return { hybrid: unrollGaussian(read.net, steps, cliBudgets) };
    return unroll(read.dbn, steps, cliBudgets);
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.err(`bayes convert: ${e.message}\n`);
    return undefined;
  }
}

const OPTIONS = {
  network: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  evidence: { type: 'string', multiple: true, short: 'e' },
  unroll: { type: 'string' },
  'max-file-mb': { type: 'string' },
} as const;

function writerFor(output: string): ((net: BayesianNetwork) => string) | undefined {
  if (output === '-' || extname(output).toLowerCase() === '.bayes') return writeBayesNetwork;
  return networkFormatOf(output)?.write;
}

export const convertCommand: CliCommand = {
  name: 'convert',
  summary: 'convert a network between .bayes, BIF, XMLBIF, Hugin NET and UAI (by the file extensions)',
  usage: `bayes convert IN OUT [options]

Reads a network (a .bayes model's, or a .bif, .xml/.xmlbif, .net, .uai or .xdsl file) and writes it
in the format of OUT's extension: .bayes, .bif (BIF), .xml (XMLBIF 0.3), .net (Hugin NET) or .uai.
OUT = '-' writes .bayes to stdout. UAI has no names: variables are numbered in the network's order
(read back as X0, X1, … with states s0, s1, …). Only the probability network is written: a decision
becomes a chance variable with a uniform table and utilities are left out. A Hugin NET network with
continuous nodes (conditional linear Gaussian) is written to .net only: the other formats are
discrete, and converting to them is an error naming the continuous nodes.

Options:
  --evidence VAR=STATE  with a .uai OUT, also write the observations as the UAI evidence file
                        OUT.evid (repeatable)
  --unroll T            IN's network over time (--network N) unrolled for T steps: the plain
                        network of slices 0…T, variable X of slice t named X_t (X_0 is the prior
                        slice, X_1…X_T the steps bayes filter numbers 1…T); a network over time of
                        real variables is written with continuous nodes, to .net or .bayes only
${NETWORK_FILE_USAGE}`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    if (positionals.length !== 2) throw new UsageError('give an input and an output file');
    const [input, output] = positionals as [string, string];
    const writer = writerFor(output);
    if (!writer) throw new UsageError(`cannot write '${output}': write .bayes, ${formatList(true)}`);
    const evidence = values.evidence ?? [];
    if (evidence.length && extname(output).toLowerCase() !== '.uai') {
      throw new UsageError('--evidence is written only beside a .uai OUT');
    }
    const hybrid = values.unroll === undefined ? readHybridNetworkFile(input, io, values) : undefined;
    if (hybrid === null) return 1;
    if (hybrid) return convertHybrid(hybrid, output, io);
    const read = values.unroll === undefined ? readNetworkFile(input, io, values) : readUnrolled(input, io, values);
    if (!read) return 1;
    if ('hybrid' in read) return convertHybrid(read.hybrid, output, io);
    const net = read;
    let text: string;
    try {
      text = writer(net);
    } catch (e) {
      if (!(e instanceof PartlyUnknownTableError) && !(e instanceof UnwritableNetworkError)) throw e;
      io.err(`bayes convert: ${e.message}\n`);
      return 1;
    }
    if (output === '-') {
      io.out(text);
      return 0;
    }
    const files: [string, string][] = [[output, text]];
    if (evidence.length) {
      const resolved = resolveEvidence(net, evidencePairs(evidence));
      if ('error' in resolved) {
        io.err(`bayes convert: ${resolved.error}\n`);
        return 1;
      }
      const observed = [...resolved.evidence].map(([variable, state]) => ({ variable, state }));
      files.push([`${output}.evid`, writeUaiEvidence(observed)]);
    }
    for (const [file, content] of files) {
      try {
        writeOutputFileSync(file, content);
      } catch (e) {
        io.err(`bayes: cannot write ${file}: ${(e as Error).message}\n`);
        return 1;
      }
    }
    return 0;
  },
};
