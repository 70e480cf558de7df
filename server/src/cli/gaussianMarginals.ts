/**
 * The fast path of `bayes marginals NET.net [-e VAR=VALUE …] [--json]` on a Hugin NET file with
 * continuous nodes (its own small bundle, dist/cli-gaussian.cjs: the NET reader and the hybrid
 * engine, without the language front end and the other commands, whose loading was most of the
 * command's time). It answers exactly as the full command (cli/marginals.ts → hybridMarginals.ts,
 * the same functions); anything else — another file, another option, a discrete network, a usage
 * mistake — returns undefined and the dispatcher runs the full command, which reports it.
 */
import { parseArgs } from 'node:util';
import { extname } from 'node:path';
import { readHuginHybrid } from '../model/hugin.js';
import type { CliIO } from './command.js';
import { cliBudgets } from './limits.js';
import { readCommandLineText } from './workspace.js';
import { evidencePairs } from './evidencePairs.js';
import { runHybridMarginals } from './hybridMarginals.js';

const OPTIONS = {
  evidence: { type: 'string', multiple: true, short: 'e' },
  json: { type: 'boolean' },
  'max-file-mb': { type: 'string' },
} as const;

export const gaussianFastPath = {
  /** The exit code, or undefined when the full command must answer. */
  async run(args: string[], io: CliIO): Promise<number | undefined> {
    let parsed;
    try {
      parsed = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    } catch {
      return undefined; // another option: the full command
    }
    const { values, positionals } = parsed;
    if (positionals.length !== 1 || extname(positionals[0]!).toLowerCase() !== '.net') return undefined;
    let named;
    try {
      named = evidencePairs(values.evidence ?? []);
    } catch {
      return undefined; // a usage error, printed by the full command with its usage
    }
    const file = positionals[0]!;
    const text = readCommandLineText(file, io, values['max-file-mb']);
    if (text === undefined) return 1;
    if (!/\bcontinuous\b/.test(text)) return undefined;
    const read = readHuginHybrid(text, cliBudgets);
    if ('error' in read) {
      io.err(`${file}:${read.error.line}:1: error: ${read.error.message}\n`);
      return 1;
    }
    if (!('hybrid' in read)) return undefined;
    return runHybridMarginals(read.hybrid, named, { json: values.json === true, refused: [] }, io);
  },
};
