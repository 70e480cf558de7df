/**
 * Results cached by what they depend on: the model text plus the content of every data file it
 * reads. A file's size and mtime are compared first (one stat); its content is hashed only when
 * they changed (or the client reports the file changed), so an edited CSV invalidates the result
 * and a touched one does not. Hashing streams the file through the confined reads of
 * workspace/files.ts: asynchronous, a chunk at a time, never the whole file in one synchronous
 * call on the server's thread; a file the rules refuse is keyed by the rule, never read.
 * Corpus globs (thousands of files) are keyed by each file's path, size and mtime instead.
 */
import { createHash } from 'node:crypto';
import type { BayesFile, StringLit } from '../language/index.js';
import { FileRefusedError, type Files } from '../language/environment.js';
import { dirnameOf, globBase, isInside, resolvePath } from '../language/paths.js';
import type { RunResult } from '../protocol/runResult.js';

/** The quoted file names a model reads: data CSVs, corpus globs, imported networks. */
export function dataSources(file: BayesFile): StringLit[] {
  const found: StringLit[] = [];
  const visit = (statements: BayesFile['statements']) => {
    for (const s of statements) {
      if (s.kind === 'data' && s.source) found.push(s.source);
      else if (s.kind === 'corpus') found.push(s.source);
      else if (s.kind === 'import') found.push(s.path);
      else if (s.kind === 'network') visit(s.statements);
    }
  };
  visit(file.statements);
  return found;
}

interface FileHash {
  mtimeMs: number;
  size: number;
  hash: string;
}

export class RunCache {
  private readonly fileHashes = new Map<string, FileHash>();
  private readonly results = new Map<string, RunResult>();
  /** Results kept; older ones are dropped first (Map keeps insertion order). */
  private readonly capacity = 64;

  /**
   * The cache key of a run of `text` (located at `documentPath`) with these settings. Only files
   * inside `allowedRoots` are read: the run refuses the others, and so does the cache.
   */
  async key(
    text: string,
    ast: BayesFile,
    documentPath: string | undefined,
    allowedRoots: string[],
    settingsKey: string,
    files: Files,
  ): Promise<string> {
    const h = createHash('sha256').update(text).update('\0').update(settingsKey);
    const base = documentPath ? dirnameOf(documentPath) : undefined;
    for (const source of dataSources(ast)) {
      if (!base) continue;
      const glob = globBase(source.value);
      const path = resolvePath(base, glob ?? source.value);
      const stamp = !allowedRoots.some((root) => isInside(root, path))
        ? 'outside'
        : await (glob === undefined ? this.contentHash(files, path) : this.treeStamp(files, path)).catch(refusal);
      h.update('\0').update(path).update('\0').update(stamp);
    }
    return h.digest('hex');
  }

  get(key: string): RunResult | undefined {
    return this.results.get(key);
  }

  set(key: string, result: RunResult): void {
    this.results.delete(key);
    this.results.set(key, result);
    if (this.results.size > this.capacity) this.results.delete(this.results.keys().next().value!);
  }

  /** A data file changed on disk (workspace/didChangeWatchedFiles): forget its hash. */
  fileChanged(path: string): void {
    this.fileHashes.delete(path);
  }

  private async contentHash(files: Files, path: string): Promise<string> {
    const stat = await files.stamp(path);
    const known = this.fileHashes.get(path);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.hash;
    const hash = await files.hash(path);
    this.fileHashes.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, hash });
    return hash;
  }

  /** Path, size and mtime of every file under a folder: cheap, and changes when any file does. */
  private async treeStamp(files: Files, folder: string): Promise<string> {
    const h = createHash('sha256');
    for (const f of await files.tree(folder)) h.update(`${f.path}\0${f.size}\0${f.mtimeMs}\n`);
    return h.digest('hex');
  }
}

/** A file the rules refuse (or that is missing) is keyed by the rule; other failures are never cached alike. */
function refusal(e: unknown): string {
  if (e instanceof FileRefusedError) return `refused:${JSON.stringify(e.problem)}`;
  return `unreadable:${Math.random()}`;
}
