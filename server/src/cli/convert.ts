import { writeFileSync } from 'node:fs';
import { extname } from 'node:path';
import { parseArgs } from 'node:util';
import { writeBif } from '../model/bif.js';
import { PartlyUnknownTableError, writeBayesNetwork } from '../model/bayesWriter.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { NETWORK_FILE_USAGE, readNetworkFile } from './networkFile.js';

const OPTIONS = {
  network: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
} as const;

const WRITERS: Record<string, (net: Parameters<typeof writeBif>[0]) => string> = {
  '.bif': writeBif,
  '.bayes': writeBayesNetwork,
};

export const convertCommand: CliCommand = {
  name: 'convert',
  summary: 'convert a network between BIF and .bayes (by the file extensions)',
  usage: `bayes convert IN.bif|IN.bayes OUT.bayes|OUT.bif [options]

Reads a BIF network or a .bayes model's network and writes it as .bayes text or BIF.
OUT = '-' writes .bayes to stdout.

Options:
${NETWORK_FILE_USAGE}`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    if (positionals.length !== 2) throw new UsageError('give an input and an output file');
    const [input, output] = positionals as [string, string];
    const writer = output === '-' ? writeBayesNetwork : WRITERS[extname(output).toLowerCase()];
    if (!writer) throw new UsageError(`cannot write '${output}': use a .bayes or .bif extension`);
    const net = readNetworkFile(input, io, values);
    if (!net) return 1;
    let text: string;
    try {
      text = writer(net);
    } catch (e) {
      if (!(e instanceof PartlyUnknownTableError)) throw e;
      io.err(`bayes convert: ${e.message}\n`);
      return 1;
    }
    if (output === '-') {
      io.out(text);
      return 0;
    }
    try {
      writeFileSync(output, text);
    } catch (e) {
      io.err(`bayes: cannot write ${output}: ${(e as Error).message}\n`);
      return 1;
    }
    return 0;
  },
};
