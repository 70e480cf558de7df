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
import {
  confinementOf,
  csvHeader,
  HEADER_BYTES,
  networkSymbols,
  nodeFiles,
  type NodeEnvironmentOptions,
} from './files.js';

type Kind = 'file' | 'folder' | 'csv' | 'bif' | 'text';

interface Fact {
  stamp: string;
  value: unknown;
}

/** An environment answering from the cache; `missed` are the questions it could not answer yet. */
export interface FactEnvironment extends CheckEnvironment {
  readonly asked: Set<string>;
  readonly missed: Set<string>;
  readonly scope: string;
  readonly files: Files;
}

const NOT_READ_YET = 'not read yet';
/** Answers kept before the oldest are dropped; texts (imported networks) are held to a total size too. */
const CAPACITY = 512;
const TEXT_BYTES = 128 << 20;

export class FileFacts {
  private readonly facts = new Map<string, Fact>();
  private readonly inflight = new Map<string, Promise<void>>();

  environment(options: NodeEnvironmentOptions): FactEnvironment {
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
      pathProblem,
      fileExists: (path) => pathProblem(path, 'file') === undefined,
    };
    if (options.restricted) return env;
    type Header = string[] | { error: string };
    env.readCsvHeader = (path) => (answer('csv', path)?.value as Header) ?? { error: NOT_READ_YET };
    type Symbols = ReturnType<typeof networkSymbols>;
    env.networkSymbols = (path) => (answer('bif', path)?.value as Symbols) ?? { error: NOT_READ_YET };
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
          pending = this.refresh(env.files, full, key).finally(() => this.inflight.delete(full));
          this.inflight.set(full, pending);
        }
        return pending;
      }),
    );
  }

  private async refresh(files: Files, full: string, key: string): Promise<void> {
    const [kind, path] = key.split('\0') as [Kind, string];
    if (kind === 'file' || kind === 'folder') {
      this.remember(full, { stamp: '', value: await files.problem(path, kind) });
      return;
    }
    let stamp: string;
    try {
      const st = await files.stamp(path);
      stamp = `${st.size}:${st.mtimeMs}`;
    } catch (e) {
      this.remember(full, { stamp: '', value: { error: reason(e) } });
      return;
    }
    if (this.facts.get(full)?.stamp === stamp) return;
    let value: unknown;
    try {
      if (kind === 'csv') value = csvHeader(await files.head(path, HEADER_BYTES + 1));
      else {
        const text = new TextDecoder().decode(await files.bytes(path));
        value = kind === 'bif' ? networkSymbols(path, text) : text;
      }
    } catch (e) {
      value = { error: reason(e) };
    }
    this.remember(full, { stamp, value });
  }

  private textBytes = 0;

  private remember(key: string, fact: Fact): void {
    this.forget(key);
    this.facts.set(key, fact);
    if (typeof fact.value === 'string') this.textBytes += fact.value.length;
    for (const oldest of this.facts.keys()) {
      if (this.facts.size <= CAPACITY && this.textBytes <= TEXT_BYTES) break;
      if (oldest !== key) this.forget(oldest);
    }
  }

  private forget(key: string): void {
    const value = this.facts.get(key)?.value;
    if (typeof value === 'string') this.textBytes -= value.length;
    this.facts.delete(key);
  }
}

/** Why a read failed: the rule it broke, or the system's reason (never the file's content). */
function reason(e: unknown): string {
  if (e instanceof FileRefusedError) return problemText(e.problem);
  const code = (e as { code?: string }).code;
  return code ? `the file cannot be read (${code})` : (e as Error).message;
}
