/**
 * The file system as the checker and the run pipeline see it, for Node hosts (CLI, server).
 * Reads are confined to the allowed roots: a model may not read outside its workspace. Imported
 * networks are cached by path, size and modification time, because the checker asks for their
 * variables on every keystroke.
 */
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { resolve, dirname } from 'node:path';
import type { CheckEnvironment } from '../language/index.js';
import { isInside } from '../language/paths.js';
import { readBif } from '../model/bif.js';
import { CsvSplitter } from '../model/csvSplitter.js';
import { columnNames } from '../model/dataTable.js';

export interface NodeEnvironmentOptions {
  documentPath?: string;
  /** The workspace folder; defaults to the folder of the document. */
  workspaceRoot?: string;
  /** More folders models may read data from (setting `bayes.dataRoots`, CLI `--data-root`). */
  dataRoots?: string[];
  /** Restricted mode (untrusted workspace): check, but read no data and run nothing. */
  restricted?: boolean;
}

type NetworkSymbols = { variables: { name: string; states: string[] }[] } | { error: string };

const networkCache = new Map<string, { stamp: string; symbols: NetworkSymbols }>();

export function nodeEnvironment(options: NodeEnvironmentOptions): CheckEnvironment {
  const documentPath = options.documentPath ? resolve(options.documentPath) : undefined;
  const workspace = options.workspaceRoot ?? (documentPath ? dirname(documentPath) : process.cwd());
  const allowedRoots = [resolve(workspace), ...(options.dataRoots ?? []).map((r) => resolve(r))];
  const allowed = (p: string) => allowedRoots.some((root) => isInside(root, p));
  const guard = (p: string) => {
    if (!allowed(p)) throw new Error(`${p} is outside the workspace and the data roots`);
    return p;
  };
  const env: CheckEnvironment = {
    documentPath,
    allowedRoots,
    fileExists: (p) => existsSync(p) && statSync(p).isFile(),
  };
  if (options.restricted) return env;
  env.readText = (p) => readFileSync(guard(p), 'utf8');
  env.readBytes = (p) => readFileSync(guard(p));
  env.readCsvHeader = (p) => readCsvHeader(guard(p));
  env.networkSymbols = (p) => networkSymbols(guard(p));
  return env;
}

function stampOf(path: string): string {
  const st = statSync(path);
  return `${st.size}:${st.mtimeMs}`;
}

function networkSymbols(path: string): NetworkSymbols {
  try {
    const stamp = stampOf(path);
    const cached = networkCache.get(path);
    if (cached?.stamp === stamp) return cached.symbols;
    const read = readBif(readFileSync(path, 'utf8'));
    const symbols: NetworkSymbols = 'error' in read
      ? { error: `line ${read.error.line}: ${read.error.message}` }
      : { variables: read.network.variables.map((v) => ({ name: v.name, states: [...v.states] })) };
    networkCache.set(path, { stamp, symbols });
    return symbols;
  } catch (e) {
    return { error: (e as Error).message };
  }
}

/** The header row only (x1, x2, … when the first row is all numbers): reads the first 64 KiB, not the whole file. */
function readCsvHeader(path: string): string[] | { error: string } {
  try {
    const fd = openSync(path, 'r');
    try {
      const buffer = Buffer.alloc(65536);
      const n = readSync(fd, buffer, 0, buffer.length, 0);
      let header: string[] | undefined;
      const splitter = new CsvSplitter(',', (cells) => { header ??= columnNames(cells.map((h) => h.trim())).names; });
      splitter.push(buffer.subarray(0, n).toString('utf8'));
      if (!header && n < buffer.length) splitter.end();
      return header ?? { error: 'the header row is longer than 64 KiB' };
    } finally {
      closeSync(fd);
    }
  } catch (e) {
    return { error: (e as Error).message };
  }
}
