/**
 * The checker's questions about files, answered on the language server's thread without a
 * synchronous read. The checker is synchronous: it reads answers from this cache, and a question
 * not in it yet is noted as missed. The session then reads what was missed asynchronously
 * (confined, through workspace/files.ts) and checks again; before each check the answers the
 * previous check used are brought up to date (a stat each; files are read again only when their
 * size or modification time changed).
 */
import type { CheckEnvironment } from '../language/index.js';
import { FileRefusedError, problemText, type Files, type PathProblem } from '../language/environment.js';
import { confinementOf, csvHeader, HEADER_BYTES, nodeFiles, type NodeEnvironmentOptions } from './files.js';
import type { NetworkReadReply } from '../run/networkReadWorker.js';
import type { Limits } from '../run/limitedWorker.js';
import { heldBytes, readNetworkFile, symbolsOf } from './networkReads.js';
import { readFailure as reason } from './readFailure.js';

type Kind = 'file' | 'folder' | 'csv' | 'bif' | 'text' | 'list';

interface Fact {
  stamp: string;
  value: unknown;
  /** When a folder was listed (Date.now()): a listing is trusted for LISTING_MAX_AGE_MS. */
  listedAt?: number;
}

/**
 * A folder corpus's listing is kept between checks (walking a tree of 20,000 folders at every
 * keystroke took seconds) and walked again only when (1) the folder's own modification time
 * changed (a file or folder added, removed or renamed directly in it: one stat a check), (2) the
 * client reported a change under it (workspace/didChangeWatchedFiles: FileFacts.changed), or
 * (3) the listing is older than this — a document added deep in a sub-folder changes only that
 * sub-folder's time, which the top folder's stat does not see.
 */
export const LISTING_MAX_AGE_MS = 30_000;

/** An environment answering from the cache; `missed` are the questions it could not answer yet. */
export interface FactEnvironment extends CheckEnvironment {
  readonly asked: Set<string>;
  readonly missed: Set<string>;
  readonly scope: string;
  readonly files: Files;
  readonly options: NodeEnvironmentOptions;
  /** The run's limits, which a large imported network is read and parsed within (networkReads.ts). */
  readonly runLimits?: Limits;
}

const NOT_READ_YET = 'not read yet';
/** Answers kept before the oldest are dropped; texts and imported networks are held to a total size too. */
const CAPACITY = 512;
const HELD_BYTES = 128 << 20;

export class FileFacts {
  private readonly facts = new Map<string, Fact>();
  private readonly inflight = new Map<string, Promise<void>>();

  constructor(private readonly networkWorker?: string) {}

  environment(options: NodeEnvironmentOptions, runLimits?: Limits): FactEnvironment {
    const { documentPath, allowedRoots, limits } = confinementOf(options);
    const scope = JSON.stringify({ allowedRoots, limits });
    const asked = new Set<string>();
    const missed = new Set<string>();
    const answer = (kind: Kind, path: string): Fact | undefined => {
      const key = `${kind}\0${path}`;
      asked.add(key);
      const fact = this.facts.get(`${scope}\0${key}`);
      if (!fact) missed.add(key);
      return fact;
    };
    const pathProblem = (path: string, kind: 'file' | 'folder') => answer(kind, path)?.value as PathProblem | undefined;
    const env: FactEnvironment = {
      documentPath,
      allowedRoots,
      limits,
      asked,
      missed,
      scope,
      files: nodeFiles(options),
      options,
      runLimits,
      pathProblem,
      fileExists: (path) => pathProblem(path, 'file') === undefined,
    };
    if (options.restricted) return env;
    type Header = string[] | { error: string };
    env.readCsvHeader = (path) => (answer('csv', path)?.value as Header) ?? { error: NOT_READ_YET };
    // One read of an imported network answers both the checker (its symbols) and the editor's
    // requests (the network: Show Network Graph, Export, the panel's clicks).
    const network = (path: string) => answer('bif', path)?.value as NetworkReadReply | undefined;
    env.networkSymbols = (path) => {
      const read = network(path);
      return read ? symbolsOf(read) : { error: NOT_READ_YET };
    };
    env.readNetwork = (path) => {
      const read = network(path);
      if (!read) throw new Error(NOT_READ_YET);
      if ('unread' in read) throw new Error(read.unread);
      return read;
    };
    env.listFiles = (path) => {
      type Listed = { files: string[] } | { refused: PathProblem; at: string } | { error: string };
      const value = answer('list', path)?.value as Listed | undefined;
      if (value === undefined) throw new Error(NOT_READ_YET);
      if ('refused' in value) throw new FileRefusedError(value.refused, value.at);
      if ('error' in value) throw new Error(value.error);
      return value.files;
    };
    env.readText = (path) => {
      const value = answer('text', path)?.value as string | { error: string } | undefined;
      if (value === undefined) throw new Error(NOT_READ_YET);
      if (typeof value !== 'string') throw new Error(value.error);
      return value;
    };
    return env;
  }

  /** Answers (or brings up to date) these questions of `env`'s scope. */
  async fetch(env: FactEnvironment, keys: Iterable<string>): Promise<void> {
    await Promise.all(
      [...keys].map((key) => {
        const full = `${env.scope}\0${key}`;
        let pending = this.inflight.get(full);
        if (!pending) {
          pending = this.refresh(env, full, key).finally(() => this.inflight.delete(full));
          this.inflight.set(full, pending);
        }
        return pending;
      }),
    );
  }

  private async refresh(env: FactEnvironment, full: string, key: string): Promise<void> {
    const files = env.files;
    const [kind, path] = key.split('\0') as [Kind, string];
    if (kind === 'list') {
      let stamp = '';
      try {
        stamp = String((await files.stamp(path, 'folder')).mtimeMs);
      } catch {
        // Missing or refused: listing again says why.
      }
      const kept = this.facts.get(full);
      const fresh = kept?.listedAt !== undefined && Date.now() - kept.listedAt < LISTING_MAX_AGE_MS;
      if (stamp && kept?.stamp === stamp && fresh) return;
      let value: unknown;
      try {
        value = { files: await files.list!(path) };
      } catch (e) {
        value =
          e instanceof FileRefusedError
            ? { refused: e.problem, at: e.message.slice(0, e.message.length - problemText(e.problem).length - 2) }
            : { error: reason(e) };
      }
      this.remember(full, { stamp, value, listedAt: Date.now() });
      return;
    }
    if (kind === 'file' || kind === 'folder') {
      this.remember(full, { stamp: '', value: await files.problem(path, kind) });
      return;
    }
    let stamp: string;
    let size: number;
    try {
      const st = await files.stamp(path);
      // A network is read within the memory setting's budgets: read again when the setting changes.
      stamp = `${st.size}:${st.mtimeMs}${kind === 'bif' ? `:${env.runLimits?.memoryMb ?? ''}` : ''}`;
      size = st.size;
    } catch (e) {
      this.remember(full, { stamp: '', value: { error: reason(e) } });
      return;
    }
    if (this.facts.get(full)?.stamp === stamp) return;
    if (kind === 'bif') {
      const how = { options: env.options, limits: env.runLimits, workerPath: this.networkWorker };
      this.remember(full, { stamp, value: await readNetworkFile(files, path, size, how) });
      return;
    }
    let value: unknown;
    try {
      if (kind === 'csv') value = csvHeader(await files.head(path, HEADER_BYTES + 1));
      else value = new TextDecoder().decode(await files.bytes(path));
    } catch (e) {
      value = { error: reason(e) };
    }
    this.remember(full, { stamp, value });
  }

  /**
   * A file changed on disk (workspace/didChangeWatchedFiles): listings of folders holding it are
   * dropped, so the next check lists them again.
   */
  changed(path: string): void {
    for (const key of [...this.facts.keys()]) {
      const [, kind, folder] = key.split('\0') as [string, string, string];
      if (kind === 'list' && (path === folder || path.startsWith(folder.endsWith('/') ? folder : folder + '/')))
        this.forget(key);
    }
  }

  private held = 0;

  private remember(key: string, fact: Fact): void {
    this.forget(key);
    this.facts.set(key, fact);
    this.held += size(key, fact.value);
    for (const oldest of this.facts.keys()) {
      if (this.facts.size <= CAPACITY && this.held <= HELD_BYTES) break;
      if (oldest !== key) this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const fact = this.facts.get(key);
    if (fact) this.held -= size(key, fact.value);
    this.facts.delete(key);
  }
}

/** The bytes an answer holds: a text's characters, a network's tables. */
function size(key: string, value: unknown): number {
  if (typeof value === 'string') return value.length;
  return key.includes('\0bif\0') ? heldBytes(value as NetworkReadReply) : 0;
}
