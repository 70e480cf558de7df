/**
 * V8 code caches for the CLI's command bundles (dist/cli-*.cjs): compiling an 800 KB bundle is
 * 20–30 ms of a command's start, most of what a small `bayes marginals` does. The build
 * (esbuild.mjs) runs a few commands with BAYES_WRITE_CODE_CACHE=1, which writes beside each bundle
 * they loaded a `.cache` file: V8's code cache taken at exit, so it holds the functions those
 * commands compiled, not only the top level. A later command loads the bundle through
 * `loadBundle`, which hands the cache to V8 instead of compiling.
 *
 * V8 itself checks only its version, its flags and the source's length: a cache of another bundle
 * of the same length, or a damaged one, would be accepted and run. So the cache is ours to check,
 * as Python checks a .pyc: its header holds the bundle's size and modification time, and the
 * length of what follows; anything else (a rebuilt bundle, a truncated or foreign file, a cache V8
 * rejects) is ignored and the bundle compiled as without a cache. The file is written whole
 * (a temporary file renamed), so a reader never sees half of one.
 */
import { readFileSync, renameSync, statSync, writeFileSync, type Stats } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { keepYoungGenerationSmall } from './youngGeneration.js';

const MAGIC = 'BAYESCC1';
/** MAGIC, then the bundle's size, its mtimeMs and the payload's length, as float64 LE. */
const HEADER_BYTES = 32;

/** What happened to a bundle's cache: the reason a cache was not used is for tests and `bayes doctor`. */
export type CodeCacheStatus = 'used' | 'missing' | 'stale' | 'corrupt' | 'rejected' | 'writing';

/** Status of every bundle loaded through `loadBundle` in this process, by file name. */
export const codeCacheStatus = new Map<string, CodeCacheStatus>();

export function codeCacheFileOf(bundle: string): string {
  return `${bundle}.cache`;
}

/** The V8 data of `bundle`'s cache when its header matches the bundle as it is now. */
export function readCodeCache(bundle: string, stats: Stats): { data?: Buffer; status: CodeCacheStatus } {
  let file: Buffer;
  try {
    file = readFileSync(codeCacheFileOf(bundle));
  } catch {
    return { status: 'missing' };
  }
  if (file.length < HEADER_BYTES || file.toString('latin1', 0, MAGIC.length) !== MAGIC) return { status: 'corrupt' };
  const size = file.readDoubleLE(8),
    mtimeMs = file.readDoubleLE(16),
    length = file.readDoubleLE(24);
  if (size !== stats.size || mtimeMs !== stats.mtimeMs) return { status: 'stale' };
  if (length !== file.length - HEADER_BYTES || length === 0) return { status: 'corrupt' };
  return { data: file.subarray(HEADER_BYTES), status: 'used' };
}

/** Writes `script`'s code cache for `bundle` (as it was when `stats` were taken), whole or not at all. */
export function writeCodeCache(bundle: string, stats: Stats, script: Script): void {
  const data = script.createCachedData();
  const header = Buffer.alloc(HEADER_BYTES);
  header.write(MAGIC, 0, 'latin1');
  header.writeDoubleLE(stats.size, 8);
  header.writeDoubleLE(stats.mtimeMs, 16);
  header.writeDoubleLE(data.length, 24);
  const file = codeCacheFileOf(bundle);
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, Buffer.concat([header, data]));
  renameSync(temporary, file);
}

const bundlesToWrite: Array<{ bundle: string; stats: Stats; script: Script }> = [];

/**
 * Loads the CommonJS bundle `filename` into `module` as Node's loader would (the same wrapper and
 * `require`), compiled from its code cache when there is a valid one. With
 * BAYES_WRITE_CODE_CACHE=1 (the build's training runs), the cache is written at the process's exit.
 */
export function loadBundle(module: Module, filename: string): void {
  const stats = statSync(filename);
  const source = readFileSync(filename, 'utf8');
  const write = process.env.BAYES_WRITE_CODE_CACHE === '1';
  const cache = write ? { status: 'writing' as const } : readCodeCache(filename, stats);
  const script = new Script(Module.wrap(source), { filename, cachedData: cache.data });
  codeCacheStatus.set(filename, cache.data && script.cachedDataRejected ? 'rejected' : cache.status);
  if (write) {
    if (bundlesToWrite.length === 0) process.on('exit', writeCachesAtExit);
    bundlesToWrite.push({ bundle: filename, stats, script });
  }
  const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => void;
  wrapper.call(module.exports, module.exports, createRequire(filename), module, filename, dirname(filename));
}

function writeCachesAtExit(): void {
  for (const { bundle, stats, script } of bundlesToWrite) {
    try {
      writeCodeCache(bundle, stats, script);
    } catch (e) {
      process.stderr.write(`bayes: no code cache written for ${bundle}: ${(e as Error).message}\n`);
    }
  }
}

type Loader = (module: Module, filename: string) => void;

/**
 * From now on, `require` of a `.cjs` file in `folder` (the CLI's command bundles beside
 * dist/cli.cjs) goes through `loadBundle`; every other file loads as before. A command's process
 * keeps its young generation small (cli/youngGeneration.ts), set here first: V8 rejects a cache
 * made under other flags, so the process that writes the caches and every one that reads them
 * must run with the same ones.
 */
export function useCodeCaches(folder: string): void {
  keepYoungGenerationSmall();
  const extensions = (Module as unknown as { _extensions: Record<string, Loader> })._extensions;
  const plain = extensions['.cjs'] ?? extensions['.js']!;
  extensions['.cjs'] = (module, filename) =>
    dirname(filename) === folder && filename.endsWith('.cjs') ? loadBundle(module, filename) : plain(module, filename);
}
