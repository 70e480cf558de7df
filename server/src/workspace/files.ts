/**
 * The file system as models see it, for Node hosts (CLI, server, run worker): the one place under
 * server/src (with cli/) that touches node:fs. Every path a model names is confined here:
 *  - its real path (symbolic links followed) must lie inside the workspace folder or a data root;
 *  - only regular files are read: folders, FIFOs, devices and sockets are refused from their
 *    stat, before anything is opened for reading; files are opened O_NONBLOCK | O_NOFOLLOW and
 *    checked again on the open descriptor, so a swap after the check is caught too;
 *  - the size limit is checked before reading, and no more than the checked size is ever read.
 * Refusals are FileRefusedErrors naming the rule, never anything of the file's content.
 *
 * Files the CLI writes (a converted or learned network) go through writeOutputFileSync: never
 * through a link to outside the target's folder, never over a folder or a device, and atomically.
 *
 * Two faces: nodeEnvironment (synchronous: the CLI and the run worker, off the LSP thread) and
 * nodeFiles (asynchronous: the language server's thread, through workspace/fileFacts.ts).
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
  type Stats,
} from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import type { CheckEnvironment } from '../language/index.js';
import type { Budgets } from '../engine/budget.js';
import {
  DEFAULT_FILE_LIMITS,
  FileRefusedError,
  problemText,
  type FileLimits,
  type Files,
  type FileStamp,
  type PathProblem,
  networkSymbolsOf,
  type NetworkSymbols,
} from '../language/environment.js';
import { isInside } from '../language/paths.js';
import { formatList, networkFormatOf, readImportedNetworkText } from '../model/networkFormats.js';
import { CsvSplitter, HEADER_BYTES } from '../model/csvSplitter.js';
import { columnNames, EMPTY_TABLE, HEADER_TOO_LONG } from '../model/dataTable.js';

export interface NodeEnvironmentOptions {
  documentPath?: string;
  /** The workspace folder; defaults to the folder of the document. */
  workspaceRoot?: string;
  /** More folders models may read data from (setting `bayes.dataRoots`, CLI `--data-root`). */
  dataRoots?: string[];
  /** Restricted mode (untrusted workspace): check, but read no data and run nothing. */
  restricted?: boolean;
  /** Size budgets; defaults DEFAULT_FILE_LIMITS. */
  limits?: Partial<FileLimits>;
}

/** O_NONBLOCK: opening a FIFO never waits for a writer. O_NOFOLLOW: the checked real path is not a link now. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);
const CHUNK = 1 << 20;

/**
 * node:fs/promises and node:crypto serve only the asynchronous face (the language server): the CLI,
 * which reads synchronously, does not load them at start (a few ms of every command's start).
 */
const promises = () => import('node:fs/promises');

/** A path that passed the rules: its real path and what its stat said. */
interface Inspected {
  real: string;
  size: number;
  mtimeMs: number;
}

const MISSING: PathProblem = { rule: 'missing' };
const OUTSIDE: PathProblem = { rule: 'outside' };

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a plain file';
}

/** The kind and size rules, on a stat of the real path (or of an open descriptor). */
function judge(st: Stats, kind: 'file' | 'folder', limits: FileLimits): PathProblem | undefined {
  if (kind === 'folder') return st.isDirectory() ? undefined : { rule: 'not-regular', kind: kindOf(st) };
  if (!st.isFile()) return { rule: 'not-regular', kind: kindOf(st) };
  if (st.size > limits.maxFileBytes) return { rule: 'too-big', bytes: st.size, limit: limits.maxFileBytes };
  return undefined;
}

export function fileLimits(partial?: Partial<FileLimits>): FileLimits {
  const given = Object.entries(partial ?? {}).filter(([, v]) => v !== undefined);
  return { ...DEFAULT_FILE_LIMITS, ...Object.fromEntries(given) };
}

/**
 * The roots reads are confined to (undefined: none, for paths typed on the command line) and the
 * limits. Roots are compared by real path too, so a workspace reached through a link still holds
 * its files.
 */
class Confinement {
  private realRoots?: string[];
  constructor(
    readonly roots: string[] | undefined,
    readonly limits: FileLimits,
  ) {}

  private allowed(real: string, realRoots: string[]): boolean {
    return this.roots === undefined || [...this.roots, ...realRoots].some((root) => isInside(root, real));
  }

  inspectSync(path: string, kind: 'file' | 'folder'): Inspected | PathProblem {
    let real: string;
    try {
      real = realpathSync(path);
    } catch {
      return MISSING;
    }
    this.realRoots ??= (this.roots ?? []).map((r) => {
      try {
        return realpathSync(r);
      } catch {
        return r;
      }
    });
    if (!this.allowed(real, this.realRoots)) return OUTSIDE;
    let st: Stats;
    try {
      st = statSync(real);
    } catch {
      return MISSING;
    }
    return judge(st, kind, this.limits) ?? { real, size: st.size, mtimeMs: st.mtimeMs };
  }

  async inspect(path: string, kind: 'file' | 'folder'): Promise<Inspected | PathProblem> {
    let real: string;
    try {
      real = await (await promises()).realpath(path);
    } catch {
      return MISSING;
    }
    const { realpath } = await promises();
    this.realRoots ??= await Promise.all((this.roots ?? []).map((r) => realpath(r).catch(() => r)));
    if (!this.allowed(real, this.realRoots)) return OUTSIDE;
    let st: Stats;
    try {
      st = await (await promises()).stat(real);
    } catch {
      return MISSING;
    }
    return judge(st, kind, this.limits) ?? { real, size: st.size, mtimeMs: st.mtimeMs };
  }

  /**
   * The regular files under a folder, synchronously (the CLI and the run worker), as paths written
   * under `folder`. A link is followed only when its real path stays inside the roots; anything
   * that is not a folder or a regular file is refused with its path, as is a tree of more than
   * `maxArchiveEntries` files. A folder reached twice (a link cycle) is walked once.
   */
  listSync(folder: string): string[] {
    const top = this.inspectSync(folder, 'folder');
    if ('rule' in top) throw new FileRefusedError(top, folder);
    const files: string[] = [];
    const seen = new Set<string>([top.real]);
    const max = this.limits.maxArchiveEntries;
    let entries = 0;
    for (const pending = [folder]; pending.length > 0;) {
      const dir = pending.pop()!;
      listingWork.listings += dir === folder ? 1 : 0;
      for (const name of readdirSync(dir)) {
        listingWork.entries++;
        const path = join(dir, name);
        let st = lstatSync(path);
        if (st.isSymbolicLink()) {
          const found = this.inspectSync(path, 'folder');
          if ('rule' in found && found.rule !== 'not-regular') throw new FileRefusedError(found, path);
          st = statSync(path);
          if (st.isDirectory() && 'real' in found) {
            if (seen.has(found.real)) continue;
            seen.add(found.real);
          }
        } else if (st.isDirectory()) {
          seen.add(realpathSync(path));
        }
        if (++entries > max) throw new Error(tooManyEntries(max));
        if (st.isDirectory()) pending.push(path);
        else if (st.isFile()) files.push(path);
        else throw new FileRefusedError({ rule: 'not-regular', kind: kindOf(st) }, path);
      }
    }
    return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /** Reads the whole file (up to the size its descriptor's stat gives), synchronously. */
  readSync(path: string, maxBytes = Infinity): Buffer {
    const found = this.inspectSync(path, 'file');
    if ('rule' in found) throw new FileRefusedError(found, path);
    const fd = openSync(found.real, OPEN_FLAGS);
    try {
      const st = fstatSync(fd);
      const problem = judge(st, 'file', this.limits);
      if (problem) throw new FileRefusedError(problem, path);
      const size = Math.min(st.size, maxBytes);
      const buffer = Buffer.allocUnsafe(size);
      let n = 0;
      while (n < size) {
        const k = readSync(fd, buffer, n, size - n, n);
        if (k === 0) break;
        n += k;
      }
      return buffer.subarray(0, n);
    } finally {
      closeSync(fd);
    }
  }
}

/**
 * Entries (files and folders) a listing visited, and listings begun: tests hold a listing to the
 * cap and check that a cached listing is not walked again.
 */
export const listingWork = { entries: 0, listings: 0 };

/**
 * Folders count against the cap as files do: a corpus folder of 200,000 empty sub-folders was
 * walked whole at every check (25–30 s an edit).
 */
function tooManyEntries(max: number): string {
  return `it holds more than ${max.toLocaleString('en-US')} files and folders (setting bayes.archive.maxEntries)`;
}

function problemOf(found: Inspected | PathProblem): PathProblem | undefined {
  return 'rule' in found ? found : undefined;
}

/** The roots a document's model may read from, and the document's resolved path. */
export function confinementOf(options: NodeEnvironmentOptions): {
  documentPath?: string;
  allowedRoots: string[];
  limits: FileLimits;
} {
  const documentPath = options.documentPath ? resolve(options.documentPath) : undefined;
  const workspace = options.workspaceRoot ?? (documentPath ? dirname(documentPath) : process.cwd());
  const allowedRoots = [resolve(workspace), ...(options.dataRoots ?? []).map((r) => resolve(r))];
  return { documentPath, allowedRoots, limits: fileLimits(options.limits) };
}

/** What the checker reads from files, kept until the file's size or modification time changes. */
const stamped = new Map<string, { stamp: string; value: unknown }>();

function cachedByStamp<T>(kind: string, path: string, confinement: Confinement, read: () => T): T | { error: string } {
  try {
    const found = confinement.inspectSync(path, 'file');
    if ('rule' in found) throw new FileRefusedError(found, path);
    const stamp = `${found.real}:${found.size}:${found.mtimeMs}`;
    const key = `${kind}:${path}`;
    const cached = stamped.get(key);
    if (cached?.stamp === stamp) return cached.value as T;
    const value = read();
    stamped.set(key, { stamp, value });
    return value;
  } catch (e) {
    return { error: e instanceof FileRefusedError ? problemText(e.problem) : (e as Error).message };
  }
}

/**
 * The synchronous environment: the CLI, and runs in their worker thread. `budgets` (from the
 * memory setting, the CLI's --max-memory) hold for every read of an imported network, the
 * checker's as the run's; without them, the defaults.
 */
export function nodeEnvironment(options: NodeEnvironmentOptions, budgets?: Budgets): CheckEnvironment {
  const { documentPath, allowedRoots, limits } = confinementOf(options);
  const confinement = new Confinement(allowedRoots, limits);
  const env: CheckEnvironment = {
    documentPath,
    allowedRoots,
    limits,
    ...(budgets ? { budgets } : {}),
    fileExists: (p) => !('rule' in confinement.inspectSync(p, 'file')),
    pathProblem: (p, kind) => problemOf(confinement.inspectSync(p, kind)),
  };
  if (options.restricted) return env;
  env.readText = (p) => confinement.readSync(p).toString('utf8');
  env.readBytes = (p) => confinement.readSync(p);
  env.listFiles = (p) => confinement.listSync(p);
  env.readCsvHeader = (p) =>
    cachedByStamp('csv', p, confinement, () => csvHeader(confinement.readSync(p, HEADER_BYTES + 1)));
  // Keyed by the memory budget too: a run worker keeps the cache while the setting changes.
  env.networkSymbols = (p) =>
    cachedByStamp(`bif:${budgets?.memoryBytes ?? ''}`, p, confinement, () =>
      networkSymbols(p, confinement.readSync(p).toString('utf8'), budgets),
    );
  return env;
}

/** The variables and states of a network file's text (its format by the path's extension), or where it fails. */
export function networkSymbols(path: string, text: string, budgets?: Budgets): NetworkSymbols {
  if (!networkFormatOf(path)) return { error: `networks are read from ${formatList()} files` };
  const read = readImportedNetworkText(path, text, budgets);
  return 'error' in read ? { error: `line ${read.error.line}: ${read.error.message}` } : networkSymbolsOf(read);
}

/**
 * The header row of a CSV file from its first bytes (x1, x2, … when the first row is all numbers).
 * `head` holds at most HEADER_BYTES + 1 bytes: more than HEADER_BYTES means the file goes on.
 */
export function csvHeader(head: Uint8Array): string[] | { error: string } {
  const complete = head.length <= HEADER_BYTES;
  let header: string[] | undefined;
  const splitter = new CsvSplitter(',', (cells) => {
    header ??= columnNames(cells.map((h) => h.trim())).names;
  });
  splitter.push(new TextDecoder().decode(head.subarray(0, HEADER_BYTES)));
  if (!header && complete) {
    splitter.end();
    // An empty file (or blank lines only) has no header; it is not a long one.
    if (!header) return { error: EMPTY_TABLE };
  }
  if (!header) return { error: HEADER_TOO_LONG };
  // As the run refuses it (dataTable.ts): the checker said nothing and the run failed.
  const seen = new Set<string>();
  for (const name of header) {
    if (seen.has(name)) return { error: `column '${name}' appears twice in the header` };
    seen.add(name);
  }
  return header;
}

export { HEADER_BYTES };

/** Confined asynchronous access for the language server's thread (and for paths the CLI is given). */
class NodeFiles implements Files {
  constructor(private readonly confinement: Confinement) {}

  get limits(): FileLimits {
    return this.confinement.limits;
  }

  async problem(path: string, kind: 'file' | 'folder'): Promise<PathProblem | undefined> {
    return problemOf(await this.confinement.inspect(path, kind));
  }

  async stamp(path: string, kind: 'file' | 'folder' = 'file'): Promise<FileStamp> {
    const found = await this.confinement.inspect(path, kind);
    if ('rule' in found) throw new FileRefusedError(found, path);
    return { size: found.size, mtimeMs: found.mtimeMs };
  }

  /** Opens the checked real path and checks the descriptor again. */
  private async openChecked(path: string): Promise<{ handle: FileHandle; size: number }> {
    const found = await this.confinement.inspect(path, 'file');
    if ('rule' in found) throw new FileRefusedError(found, path);
    const handle = await (await promises()).open(found.real, OPEN_FLAGS);
    try {
      const st = await handle.stat();
      const problem = judge(st, 'file', this.limits);
      if (problem) throw new FileRefusedError(problem, path);
      return { handle, size: st.size };
    } catch (e) {
      await handle.close();
      throw e;
    }
  }

  async *chunks(path: string): AsyncGenerator<Uint8Array> {
    const { handle, size } = await this.openChecked(path);
    try {
      for (let position = 0; position < size;) {
        const buffer = Buffer.allocUnsafe(Math.min(CHUNK, size - position));
        const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) break;
        position += bytesRead;
        yield buffer.subarray(0, bytesRead);
      }
    } finally {
      await handle.close();
    }
  }

  async head(path: string, bytes: number): Promise<Uint8Array> {
    const { handle, size } = await this.openChecked(path);
    try {
      const buffer = Buffer.allocUnsafe(Math.min(bytes, size));
      let n = 0;
      while (n < buffer.length) {
        const { bytesRead } = await handle.read(buffer, n, buffer.length - n, n);
        if (bytesRead === 0) break;
        n += bytesRead;
      }
      return buffer.subarray(0, n);
    } finally {
      await handle.close();
    }
  }

  async bytes(path: string): Promise<Uint8Array> {
    return this.head(path, Infinity);
  }

  async hash(path: string): Promise<string> {
    const hash = (await import('node:crypto')).createHash('sha256');
    for await (const chunk of this.chunks(path)) hash.update(chunk);
    return hash.digest('hex');
  }

  async tree(folder: string): Promise<Array<{ path: string } & FileStamp>> {
    const found = await this.confinement.inspect(folder, 'folder');
    if ('rule' in found) throw new FileRefusedError(found, folder);
    const files: Array<{ path: string } & FileStamp> = [];
    const max = this.limits.maxArchiveEntries;
    const { readdir, lstat } = await promises();
    for (const pending = [found.real]; pending.length > 0;) {
      const dir = pending.pop()!;
      for (const entry of await readdir(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory())
          pending.push(path); // a link to a folder is not followed
        else if (entry.isFile()) {
          const st = await lstat(path);
          files.push({ path, size: st.size, mtimeMs: st.mtimeMs });
          if (files.length > max) {
            throw new Error(`${folder} holds more than ${max} files (setting bayes.archive.maxEntries)`);
          }
        }
      }
    }
    return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** The regular files under a folder, as Confinement.listSync lists them, read asynchronously. */
  async list(folder: string): Promise<string[]> {
    const top = await this.confinement.inspect(folder, 'folder');
    if ('rule' in top) throw new FileRefusedError(top, folder);
    const files: string[] = [];
    const seen = new Set<string>([top.real]);
    const { readdir, lstat, stat, realpath } = await promises();
    const max = this.limits.maxArchiveEntries;
    let entries = 0;
    for (const pending = [folder]; pending.length > 0;) {
      const dir = pending.pop()!;
      listingWork.listings += dir === folder ? 1 : 0;
      for (const name of await readdir(dir)) {
        listingWork.entries++;
        const path = join(dir, name);
        let st = await lstat(path);
        if (st.isSymbolicLink()) {
          const found = await this.confinement.inspect(path, 'folder');
          if ('rule' in found && found.rule !== 'not-regular') throw new FileRefusedError(found, path);
          st = await stat(path);
          if (st.isDirectory() && 'real' in found) {
            if (seen.has(found.real)) continue;
            seen.add(found.real);
          }
        } else if (st.isDirectory()) {
          seen.add(await realpath(path));
        }
        if (++entries > max) throw new Error(tooManyEntries(max));
        if (st.isDirectory()) pending.push(path);
        else if (st.isFile()) files.push(path);
        else throw new FileRefusedError({ rule: 'not-regular', kind: kindOf(st) }, path);
      }
    }
    return files.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  async exists(path: string): Promise<boolean> {
    return (await promises()).lstat(path).then(
      () => true,
      () => false,
    );
  }
}

/** Confined asynchronous file access for a document's model. */
export function nodeFiles(options: NodeEnvironmentOptions): Files {
  const { allowedRoots, limits } = confinementOf(options);
  return new NodeFiles(new Confinement(allowedRoots, limits));
}

/**
 * Reads a file named on the command line, synchronously, by the rules of commandLineFiles: no
 * roots, but only a regular file (a FIFO named x.bif is not waited on, a link to /dev/zero not
 * read) within the size limit; a FileRefusedError names the rule otherwise.
 */
export function readCommandLineFileSync(path: string, limits?: Partial<FileLimits>): Buffer {
  return new Confinement(undefined, fileLimits(limits)).readSync(path);
}

/** For paths given on the command line: no roots (the user named them), but the kind and size rules hold. */
export function commandLineFiles(limits?: Partial<FileLimits>): Files {
  return new NodeFiles(new Confinement(undefined, fileLimits(limits)));
}

/** An output file was not written: the message says which rule its path broke (after the path). */
export class WriteRefusedError extends Error {}

/** Numbers this process's temporary files (with its pid, a name no other writer uses at once). */
let outputWrites = 0;

/** Writing: O_EXCL, so the temporary name is ours alone; O_NOFOLLOW, so it is not a link planted there. */
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

/**
 * Writes a file the user named (`bayes convert`'s OUT, `bayes learn --out`): into a temporary file
 * beside it, flushed, then renamed over it, so a write that fails midway (a full disk, a file size
 * limit) leaves the old file as it was and no half file. An existing file is replaced keeping its
 * permissions. Refused with a WriteRefusedError: a path that is a folder, a FIFO, device or socket,
 * or a symbolic link whose real path leaves the folder it is in (or leads nowhere).
 */
export function writeOutputFileSync(path: string, content: string | Uint8Array): void {
  const { real, mode } = outputDestination(resolve(path));
  const temp = join(dirname(real), `.${basename(real)}.${process.pid}.${++outputWrites}.tmp`);
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const fd = openSync(temp, WRITE_FLAGS, 0o666);
  try {
    try {
      if (mode !== undefined) fchmodSync(fd, mode);
      for (let n = 0; n < bytes.length;) n += writeSync(fd, bytes, n, bytes.length - n);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, real);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // Already renamed or never made: nothing is left behind either way.
    }
    throw e;
  }
}

/** Where a write to `target` lands (its real path) and the permissions an existing file has. */
function outputDestination(target: string): { real: string; mode?: number } {
  let folder: string;
  try {
    folder = realpathSync(dirname(target));
  } catch {
    throw new WriteRefusedError(`there is no folder ${dirname(target)}`);
  }
  if (!statSync(folder).isDirectory()) throw new WriteRefusedError(`${dirname(target)} is not a folder`);
  let st: Stats;
  try {
    st = lstatSync(target);
  } catch {
    return { real: join(folder, basename(target)) }; // a new file
  }
  let real = join(folder, basename(target));
  if (st.isSymbolicLink()) {
    try {
      real = realpathSync(target);
    } catch {
      throw new WriteRefusedError('it is a symbolic link to a file that does not exist; it is not written through');
    }
    if (!isInside(folder, real)) {
      throw new WriteRefusedError('it is a symbolic link to outside its folder; it is not written through');
    }
    st = statSync(real);
  }
  if (!st.isFile()) throw new WriteRefusedError(`it is ${kindOf(st)}, not a regular file; it is not overwritten`);
  return { real, mode: st.mode & 0o7777 };
}
