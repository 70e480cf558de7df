/**
 * Results cached by what they depend on: the model text plus the content of every data file it
 * reads. File hashes are kept with the file's mtime and size and recomputed when either
 * changes (or the client reports the file changed), so an edited CSV invalidates the result.
 * Corpus globs (thousands of files) are keyed by each file's path, size and mtime instead.
 */
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { BayesFile, StringLit } from '../language/index.js';
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
  key(
    text: string,
    ast: BayesFile,
    documentPath: string | undefined,
    allowedRoots: string[],
    settingsKey: string,
  ): string {
    const h = createHash('sha256').update(text).update('\0').update(settingsKey);
    const base = documentPath ? dirnameOf(documentPath) : undefined;
    for (const source of dataSources(ast)) {
      if (!base) continue;
      const glob = globBase(source.value);
      const path = resolvePath(base, glob ?? source.value);
      const stamp = !allowedRoots.some((root) => isInside(root, path))
        ? 'outside'
        : glob === undefined
          ? this.contentHash(path)
          : this.treeStamp(path);
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

  private contentHash(path: string): string {
    let stat;
    try {
      stat = statSync(path);
    } catch {
      return 'missing';
    }
    const known = this.fileHashes.get(path);
    if (known && known.mtimeMs === stat.mtimeMs && known.size === stat.size) return known.hash;
    const hash = createHash('sha256').update(readFileSync(path)).digest('hex');
    this.fileHashes.set(path, { mtimeMs: stat.mtimeMs, size: stat.size, hash });
    return hash;
  }

  /** Path, size and mtime of every file under a folder: cheap, and changes when any file does. */
  private treeStamp(folder: string): string {
    const h = createHash('sha256');
    const walk = (dir: string) => {
      let entries;
      try {
        entries = readdirSync(dir, { withFileTypes: true });
      } catch {
        h.update('missing');
        return;
      }
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const p = join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.isFile()) {
          const s = statSync(p);
          h.update(`${p}\0${s.size}\0${s.mtimeMs}\n`);
        }
      }
    };
    walk(folder);
    return h.digest('hex');
  }
}
