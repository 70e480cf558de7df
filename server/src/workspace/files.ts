/**
 * The file system as the checker and the run pipeline see it, for Node hosts (CLI, server).
 * Reads are confined to the allowed roots: a model may not read outside its workspace. Imported
 * networks' variables and CSV headers are cached by path, size and modification time, because
 * the checker asks for them on every keystroke.
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

/** What the checker reads from files, kept until the file's size or modification time changes. */
const stamped = new Map<string, { stamp: string; value: unknown }>();

function cachedByStamp<T>(kind: string, path: string, read: (path: string) => T): T | { error: string } {
  try {
    const st = statSync(path);
    const stamp = `${st.size}:${st.mtimeMs}`;
    const key = `${kind}:${path}`;
    const cached = stamped.get(key);
    if (cached?.stamp === stamp) return cached.value as T;
    const value = read(path);
    stamped.set(key, { stamp, value });
    return value;
  } catch (e) {
    return { error: (e as Error).message };
  }
}

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
  env.readCsvHeader = (p) => cachedByStamp('csv', guard(p), readCsvHeader);
  env.networkSymbols = (p) => cachedByStamp('bif', guard(p), networkSymbols);
  return env;
}

function networkSymbols(path: string): NetworkSymbols {
  const read = readBif(readFileSync(path, 'utf8'));
  return 'error' in read
    ? { error: `line ${read.error.line}: ${read.error.message}` }
    : { variables: read.network.variables.map((v) => ({ name: v.name, states: [...v.states] })) };
}

/** The header row only (x1, x2, … when the first row is all numbers): reads the first 64 KiB, not the whole file. */
function readCsvHeader(path: string): string[] | { error: string } {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(65536);
    const n = readSync(fd, buffer, 0, buffer.length, 0);
    let header: string[] | undefined;
    const splitter = new CsvSplitter(',', (cells) => {
      header ??= columnNames(cells.map((h) => h.trim())).names;
    });
    splitter.push(buffer.subarray(0, n).toString('utf8'));
    if (!header && n < buffer.length) splitter.end();
    return header ?? { error: 'the header row is longer than 64 KiB' };
  } finally {
    closeSync(fd);
  }
}
