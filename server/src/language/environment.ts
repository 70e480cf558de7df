import type { Budgets } from '../engine/budget.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';

/** An imported network's variables: states, or `real` for a continuous one (Hugin NET `continuous node`). */
export type NetworkSymbols = { variables: { name: string; states: string[]; real?: true }[] } | { error: string };

/** The symbols of a network read for import: discrete variables with their states, then continuous ones. */
export function networkSymbolsOf(read: { network: BayesianNetwork; hybrid?: HybridNetwork }): NetworkSymbols {
  if (!read.hybrid) return { variables: read.network.variables.map((v) => ({ name: v.name, states: [...v.states] })) };
  return {
    variables: read.hybrid.variables.map((v) =>
      v.kind === 'continuous'
        ? { name: v.name, states: [], real: true as const }
        : { name: v.name, states: [...v.states] },
    ),
  };
}

/** What the checker may ask of the outside world; the CLI and the language server each provide one. */
export interface CheckEnvironment {
  /** Size limits checked before tables are allocated (defaults: engine/budget.ts). */
  budgets?: Budgets;
  /** Absolute path of the model file, or undefined for an unsaved buffer. */
  documentPath?: string;
  /** Folders a model may read from (the workspace folder, plus configured data roots). */
  allowedRoots: string[];
  fileExists(absolutePath: string): boolean;
  /**
   * What stops a file (or, for `folder`, a glob's folder) from being read — it is missing, its real
   * path (links followed) lies outside the roots, it is not a regular file, it is over the size
   * limit — or undefined when it may be read. Answered without reading the file.
   */
  pathProblem?(absolutePath: string, kind: 'file' | 'folder'): PathProblem | undefined;
  /** The size limits reads and archives are held to. */
  limits?: FileLimits;
  /** The column names of a CSV file's header row, or why it cannot be read. */
  readCsvHeader?(absolutePath: string): string[] | { error: string };
  /** The variables and states of a network file (continuous ones `real`), or why it cannot be read. */
  networkSymbols?(absolutePath: string): NetworkSymbols;
  /**
   * An imported network file, read and parsed (the language server reads large ones off its thread:
   * workspace/networkReads.ts); the network is shared, not to be changed. Where absent, imports are
   * parsed from `readText`.
   */
  readNetwork?(
    absolutePath: string,
  ): { network: BayesianNetwork; hybrid?: HybridNetwork } | { error: { line: number; message: string } };
  /** A file's text, for runs (data, imported networks). Absent where files may not be read (restricted mode). */
  readText?(absolutePath: string): string;
  /** A file's bytes (compressed corpora). */
  readBytes?(absolutePath: string): Uint8Array;
  /**
   * The regular files under a folder (recursively), as paths written under `absoluteFolder`, sorted;
   * FileRefusedError for a folder or link whose real path leaves the roots, a FIFO, device or socket
   * among them, or more files and folders together than `limits.maxArchiveEntries`.
   */
  listFiles?(absoluteFolder: string): string[];
}

/** Why a path a model names is not read. The message is worded with the path as the model writes it. */
export type PathProblem =
  | { rule: 'missing' }
  /** Its real path (symbolic links followed) lies outside the workspace and the data roots. */
  | { rule: 'outside' }
  /** Not a regular file: `kind` is 'a folder', 'a FIFO (named pipe)', 'a device', 'a socket'. */
  | { rule: 'not-regular'; kind: string }
  | { rule: 'too-big'; bytes: number; limit: number };

/** Budgets for what a model reads (settings bayes.maxFileMb, bayes.archive.*; CLI --max-file-mb). */
export interface FileLimits {
  /** A file a model names is not read when it is larger. */
  maxFileBytes: number;
  /** An archive is refused when its contents expand past this many bytes. */
  maxArchiveBytes: number;
  /** An archive is refused when it holds more entries. */
  maxArchiveEntries: number;
}

const MB = 1024 * 1024;

/**
 * The 20 Newsgroups archive is 14.5 MB and expands to 50 MB in 18,888 entries: the defaults give
 * it room four and five times over.
 */
export const DEFAULT_FILE_LIMITS: FileLimits = {
  maxFileBytes: 64 * MB,
  maxArchiveBytes: 256 * MB,
  maxArchiveEntries: 100_000,
};

/** A file was not read: the problem says which rule it broke (never anything of its content). */
export class FileRefusedError extends Error {
  constructor(
    readonly problem: PathProblem,
    path: string,
  ) {
    super(`${path}: ${problemText(problem)}`);
  }
}

/** The rule a problem broke, in words (after the path). */
export function problemText(problem: PathProblem): string {
  switch (problem.rule) {
    case 'missing':
      return 'there is no such file';
    case 'outside':
      return 'it leads (through a symbolic link) outside the workspace and the data roots';
    case 'not-regular':
      return `it is ${problem.kind}, not a regular file; only regular files are read`;
    case 'too-big':
      return (
        `it is ${megabytes(problem.bytes)}, over the ${megabytes(problem.limit)} limit for files a model reads` +
        ' (setting bayes.maxFileMb, --max-file-mb on the command line)'
      );
  }
}

export function megabytes(bytes: number): string {
  const mb = bytes / MB;
  return `${mb >= 10 ? Math.round(mb) : Number(mb.toPrecision(2))} MB`;
}

/** A file's size and modification time: what change detection compares before hashing. */
export interface FileStamp {
  size: number;
  mtimeMs: number;
}

/**
 * Confined, asynchronous file access (implemented for Node in workspace/files.ts). Every call
 * applies the rules first — real path inside the roots, a regular file, within the size limit —
 * and rejects with a FileRefusedError otherwise; nothing is opened for reading before that.
 */
export interface Files {
  readonly limits: FileLimits;
  /** What stops the file (or folder) from being read, if anything. Reads nothing. */
  problem(absolutePath: string, kind: 'file' | 'folder'): Promise<PathProblem | undefined>;
  /** Size and modification time; of a folder with kind 'folder' (a listing's stamp). */
  stamp(absolutePath: string, kind?: 'file' | 'folder'): Promise<FileStamp>;
  /** The file's bytes in chunks, as they are read. */
  chunks(absolutePath: string): AsyncIterable<Uint8Array>;
  /** At most `bytes` bytes from the start. */
  head(absolutePath: string, bytes: number): Promise<Uint8Array>;
  bytes(absolutePath: string): Promise<Uint8Array>;
  /** SHA-256 of the content (hex), read in chunks. */
  hash(absolutePath: string): Promise<string>;
  /** The regular files under a folder (links are not followed), with their stamps; at most maxArchiveEntries. */
  tree(absoluteFolder: string): Promise<Array<{ path: string } & FileStamp>>;
  /** The regular files under a folder as CheckEnvironment.listFiles lists them (a folder corpus). */
  list?(absoluteFolder: string): Promise<string[]>;
  /** Is there anything at this path (a link counts)? For choosing a new file's name. */
  exists(absolutePath: string): Promise<boolean>;
}
