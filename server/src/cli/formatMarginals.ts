/**
 * The fast path of `bayes marginals` for the interchange formats (BIF, XMLBIF, Hugin NET, UAI,
 * XDSL): its own bundle, dist/cli-network.cjs, holds the readers and the inference engine without
 * the language front end (the parser and its grammar, a third of the full command's bundle and
 * of its start). It answers exactly as the full command (the same functions, marginalsAnswer.ts);
 * for a `.bayes` model, or a command line with a usage mistake, it returns undefined before
 * printing anything and the dispatcher runs the full command, which reads it or reports.
 */
import { extname } from 'node:path';
import type { CliIO } from './command.js';
import { readFormatNetwork, readNetHybrid } from './networkFormatFile.js';
import { marginalsAnswer, marginalsRequest, type MarginalsRequest } from './marginalsAnswer.js';

export const formatMarginalsFastPath = {
  /** The exit code, or undefined when the full command must answer. */
  async run(args: string[], io: CliIO): Promise<number | undefined> {
    let request: MarginalsRequest;
    try {
      request = marginalsRequest(args);
    } catch {
      return undefined; // a usage mistake: the full command prints it with its usage
    }
    if (extname(request.file).toLowerCase() === '.bayes') return undefined;
    return marginalsAnswer.run(request, io, {
      network: (file, io, options) => readFormatNetwork(file, io, options)?.net,
      hybrid: readNetHybrid,
    });
  },
};
