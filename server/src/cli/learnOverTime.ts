/**
 * `bayes learn MODEL.bayes --network N --data SEQS.csv` when N is a network over time: EM on
 * sequences (engine/dynamic/sequenceEm.ts; counting when nothing is hidden or missing). The CSV
 * has a header of observed variables and one row per step; an optional column `sequence` starts a
 * new sequence whenever its value changes (without it, the file is one sequence).
 */
import { resolve } from 'node:path';
import type * as A from '../language/ast.js';
import { learnSequences } from '../engine/dynamic/sequenceEm.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import { EngineError } from '../engine/engineError.js';
import { readObservationSequence } from '../model/observationSequence.js';
import { writeTwoSlice } from '../model/dynamicWriter.js';
import { isNetworkOverTime } from '../language/check/dynamic.js';
import { parseDocument } from '../language/index.js';
import type { CliIO } from './command.js';
import { readDynamicNetwork } from './dynamicFile.js';
import { integerOption, positiveOption } from './learningInputs.js';
import { cliBudgets } from './limits.js';
import { readCommandLineText } from './workspace.js';
import { readCommandLineFileSync, writeOutputFileSync } from '../workspace/files.js';

interface Values {
  network?: string;
  data?: string;
  seed?: string;
  iterations?: string;
  tolerance?: string;
  out?: string;
  json?: boolean;
  workspace?: string;
  'data-root'?: string[];
  'max-file-mb'?: string;
}

/** Whether `--network` of this .bayes file names a network over time (parsed, not checked). */
export function namesNetworkOverTime(file: string, network: string | undefined, cwd: string): boolean {
  if (!network || !file.toLowerCase().endsWith('.bayes')) return false;
  let text: string;
  try {
    text = readCommandLineFileSync(resolve(cwd, file)).toString('utf8');
  } catch {
    return false; // the ordinary path reports the unreadable file
  }
  return parseDocument(text).ast.statements.some(
    (s): s is A.NetworkDecl => s.kind === 'network' && s.name.text === network && isNetworkOverTime(s),
  );
}

export function learnOverTime(file: string, values: Values, io: CliIO): number {
  const dbn = readDynamicNetwork(file, io, { ...values, network: values.network! });
  if (!dbn) return 1;
  const content = readCommandLineText(values.data!, io, values['max-file-mb']);
  if (content === undefined) return 1;
  const sequences = splitSequences(content);
  const found: StepFindings[][] = [];
  for (const { text, firstLine } of sequences) {
    const r = readObservationSequence(text, dbn.variables);
    if ('error' in r) {
      const line = r.error.line === 1 ? 1 : r.error.line + firstLine - 2;
      io.err(`${values.data}:${line}:${r.error.column}: error: ${r.error.message}\n`);
      return 1;
    }
    if (r.findings.length) found.push(r.findings);
  }
  try {
    const fit = learnSequences(dbn, found, {
      seed: values.seed === undefined ? undefined : integerOption('seed', values.seed, 0),
      maxIterations: integerOption('iterations', values.iterations, 200, 1),
      tolerance: positiveOption('tolerance', values.tolerance, 1e-8, true),
      maxEntries: cliBudgets.maxTotalEntries,
    });
    const text = writeTwoSlice(fit.dbn);
    if (values.out) {
      try {
        writeOutputFileSync(values.out, text);
      } catch (e) {
        io.err(`bayes learn: cannot write ${values.out}: ${(e as Error).message}\n`);
        return 1;
      }
    }
    const logLikelihood = fit.logLikelihoods[fit.logLikelihoods.length - 1]!;
    if (values.json)
      io.out(
        JSON.stringify({
          network: dbn.name,
          sequences: found.length,
          iterations: fit.iterations,
          logLikelihood,
          logLikelihoods: fit.logLikelihoods,
          model: text,
        }) + '\n',
      );
    else
      io.out(
        `${dbn.name}: ${found.length} sequences, ${fit.iterations} EM iterations, log-likelihood ${logLikelihood.toFixed(6)}\n${values.out ? '' : text}`,
      );
    return 0;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.err(`bayes learn: ${e.message}\n`);
    return 1;
  }
}

/** The CSV as one text per sequence (the header repeated, the `sequence` column dropped). */
function splitSequences(content: string): { text: string; firstLine: number }[] {
  const lines = content.split(/\r?\n/);
  const header = lines[0]!.split(',').map((c) => c.trim());
  const col = header.indexOf('sequence');
  if (col < 0) return [{ text: content, firstLine: 2 }];
  const keep = (line: string) =>
    line
      .split(',')
      .filter((_, j) => j !== col)
      .join(',');
  const out: { text: string; firstLine: number }[] = [];
  let current: string | undefined;
  for (let i = 1; i < lines.length; i++) {
    if (lines[i]!.trim() === '') continue;
    const id = lines[i]!.split(',')[col]?.trim();
    if (id !== current || out.length === 0) {
      out.push({ text: keep(lines[0]!), firstLine: i + 1 });
      current = id;
    }
    out[out.length - 1]!.text += '\n' + keep(lines[i]!);
  }
  return out;
}
