/** `bayes marginals`, the full command: any network file, `.bayes` models included (the language front end). */
import type { CliCommand, CliIO } from './command.js';
import { readNetworkFile } from './networkFile.js';
import { readHybridNetworkFile } from './hybridNetworkFile.js';
import { MARGINALS_USAGE, marginalsAnswer, marginalsRequest } from './marginalsAnswer.js';

export { evidencePairs } from './evidencePairs.js';

export const marginalsCommand: CliCommand = {
  name: 'marginals',
  summary: 'posterior marginals of every variable of a network, given evidence',
  usage: MARGINALS_USAGE,
  run: (args: string[], io: CliIO) =>
    marginalsAnswer.run(marginalsRequest(args), io, { network: readNetworkFile, hybrid: readHybridNetworkFile }),
};
