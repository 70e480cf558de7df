/**
 * What `bayes predict` and `bayes validate` share: their common options, the network and target
 * set-up, the case file's streamed reads and errors, and the rows' progress line and Ctrl+C.
 */
import { resolve } from 'node:path';
import type { BayesianNetwork } from '../engine/network.js';
import { DataError } from '../model/dataTable.js';
import { readCases, type CaseHandler, type CaseLayout } from '../model/caseFile.js';
import { FileRefusedError, problemText } from '../language/environment.js';
import { UsageError, type CliIO } from './command.js';
import { commandLineReads } from './workspace.js';
import { EngineError } from '../engine/engineError.js';
import { CancelledError } from '../engine/cancellation.js';
import { readNetworkFile } from './networkFile.js';
import { formatDuration, interruptible, startProgress, type Interruptible, type Progress } from './progress.js';

/** The options both commands take (each adds its own). */
export const CASE_OPTIONS = {
  data: { type: 'string' },
  target: { type: 'string' },
  json: { type: 'boolean' },
  network: { type: 'string' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
} as const;

/** Their usage lines for --data and --target. */
export const CASE_USAGE = `  --data FILE       the rows (CSV with a header)
  --target X        the variable to predict`;

export interface CaseValues {
  data?: string;
  target?: string;
  network?: string;
  workspace?: string;
  'data-root'?: string[];
  'max-file-mb'?: string;
}

export interface CaseSetup {
  net: BayesianNetwork;
  target: number;
  /** The --data file, as given. */
  data: string;
}

/**
 * The command line's network file, --data and --target checked, the network read and the
 * target found; an exit code (the problem already reported) when one of them is wrong.
 */
export function openCases(command: string, values: CaseValues, positionals: string[], io: CliIO): CaseSetup | number {
  if (positionals.length !== 1) throw new UsageError('give one network file');
  if (!values.data) throw new UsageError('--data ROWS.csv is required');
  if (!values.target) throw new UsageError('--target X is required');
  const net = readNetworkFile(positionals[0]!, io, values);
  if (!net) return 1;
  const target = targetOf(net, values.target);
  if (typeof target === 'string') {
    io.err(`bayes ${command}: ${target}\n`);
    return 1;
  }
  return { net, target, data: values.data };
}

/** A problem with the case file, already located: `file:line:col: error: …`. */
export class CaseFileError extends Error {}

/** The target's index, or an error naming the network's variables. */
export function targetOf(net: BayesianNetwork, name: string): number | string {
  const t = net.variables.findIndex((v) => v.name === name);
  if (t >= 0) return t;
  const names = net.variables.map((v) => v.name);
  const shown = names.length > 12 ? [...names.slice(0, 12), '…'] : names;
  return `'${name}' is not a variable of ${net.name} (variables: ${shown.join(', ')})`;
}

/**
 * Streams the case file's records to `onCase` (see model/caseFile.ts); a bad file becomes a
 * CaseFileError with its location. `onLayout` runs when the header is read. With `watch`, each
 * row is counted on its progress line and Ctrl+C stops the read (CancelledError).
 */
export async function streamCaseFile(
  file: string,
  values: { 'max-file-mb'?: string },
  io: CliIO,
  net: BayesianNetwork,
  target: number,
  onCase: CaseHandler,
  onLayout?: (layout: CaseLayout) => void,
  watch?: RowWatch,
): Promise<{ layout: CaseLayout; rows: number }> {
  const files = commandLineReads(values);
  const path = resolve(io.cwd, file);
  try {
    if (!watch) return await readCases(files.chunks(path), net, target, onCase, onLayout);
    const { size } = await files.stamp(path);
    const watched: CaseHandler = (evidence, truth, line) => {
      watch.row();
      onCase(evidence, truth, line);
    };
    return await readCases(watch.counting(files.chunks(path), size), net, target, watched, onLayout);
  } catch (e) {
    if (e instanceof DataError) throw new CaseFileError(`${file}:${e.line}:1: error: ${withoutLine(e.message)}`);
    if (e instanceof EngineError) throw new CaseFileError(`${file}:1:1: error: ${e.message}`);
    if (e instanceof FileRefusedError) throw new CaseFileError(`bayes: cannot read ${file}: ${problemText(e.problem)}`);
    const code = (e as { code?: string }).code;
    if (code === 'ENOENT' || code === 'EACCES' || code === 'EISDIR')
      throw new CaseFileError(`bayes: cannot read ${file}: ${(e as Error).message}`);
    throw e;
  }
}

/** DataError's message begins `line N: `; the location goes in front instead. */
function withoutLine(message: string): string {
  return message.replace(/^line \d+: /, '');
}

/**
 * The rows of a streamed case file on the terminal: a progress line (rows, rate, the share of
 * the file read and the time left) and Ctrl+C: the SIGINT listener runs between slices of the
 * file (`counting`) and the next row sees the signal (cli/progress.ts).
 */
/** Bytes of the file between two turns of the event loop (about 900 ALARM rows). */
const SLICE = 1 << 16;

export class RowWatch {
  readonly interrupt: Interruptible = interruptible();
  private readonly line: Progress;
  private readonly started = performance.now();
  private bytes = 0;
  private size = 0;
  rows = 0;

  constructor(io: CliIO, label: string) {
    this.line = startProgress(io, label, { unit: 'rows' });
  }

  /** One more row: counted, and CancelledError once Ctrl+C was pressed. */
  row(): void {
    if (this.interrupt.signal.aborted) throw new CancelledError();
    if ((++this.rows & 255) === 0) this.line.update(this.rows, this.share());
  }

  /**
   * The file's chunks, their bytes counted for the share read, cut into SLICE-byte pieces with a
   * turn of the event loop before each: a 1 MB chunk is ~14,000 rows, seconds of prediction on
   * a busy machine, and the SIGINT listener only runs between them (the rows are processed in
   * microtasks, which do not let it in).
   */
  async *counting(chunks: AsyncIterable<Uint8Array>, size: number): AsyncGenerator<Uint8Array> {
    this.size = size;
    for await (const chunk of chunks) {
      for (let at = 0; at < chunk.length; at += SLICE) {
        await new Promise((turn) => setImmediate(turn));
        const piece = chunk.subarray(at, at + SLICE);
        this.bytes += piece.length;
        yield piece;
      }
    }
  }

  /** "37% of the file · 12s left", from the bytes read so far. */
  private share(): string {
    if (!(this.size > 0 && this.bytes > 0)) return '';
    const f = Math.min(this.bytes / this.size, 1);
    const left = (((performance.now() - this.started) / 1000) * (1 - f)) / f;
    return `${Math.floor(f * 100)}% of the file · ${formatDuration(left)} left`;
  }

  /** Clears the line (before the command's own output or summary). */
  finish(): void {
    this.line.finish();
  }

  /** Clears the line and removes the SIGINT listener (always, in a finally). */
  dispose(): void {
    this.line.finish();
    this.interrupt.dispose();
  }
}
