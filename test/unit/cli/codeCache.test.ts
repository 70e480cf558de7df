/**
 * The command bundles' V8 code caches (server/src/cli/codeCache.ts): a valid cache is used and the
 * bundle runs as compiled; a stale one (the bundle rebuilt, even to the same length, which V8
 * alone would accept), a truncated or foreign one, and one V8 rejects are ignored and the bundle
 * runs as it is now. Then the built CLI: the build wrote the caches, `bayes marginals` uses them,
 * and its answer is the same with every cache removed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { codeCacheFileOf, codeCacheStatus, loadBundle, writeCodeCache } from '../../../server/src/cli/codeCache.js';
import { repoRoot } from '../../support/shared.js';

/** A bundle whose answer depends on code in a function V8 compiles lazily. */
const bundleText = (factor: number) =>
  `"use strict";\nfunction scaled(x) { return x * ${factor} + require('node:path').sep.length; }\n` +
  `module.exports = { answer: scaled(10), filename: __filename };\n`;

function fresh(): { dir: string; bundle: string } {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-code-cache-'));
  const bundle = join(dir, 'cli-example.cjs');
  writeFileSync(bundle, bundleText(3));
  return { dir, bundle };
}

/** Writes the cache as the build's training run does: compiled, run, then taken. */
function train(bundle: string): void {
  const script = new Script(Module.wrap(readFileSync(bundle, 'utf8')), { filename: bundle });
  const module = { exports: {} };
  (script.runInThisContext() as (...a: unknown[]) => void).call(
    module.exports,
    module.exports,
    createRequire(bundle),
    module,
  );
  writeCodeCache(bundle, statSync(bundle), script);
}

function load(bundle: string): { answer: number; filename: string } {
  const module = new Module(bundle);
  loadBundle(module, bundle);
  return module.exports as { answer: number; filename: string };
}

test('a valid code cache is used, and the bundle runs with its own __filename and require', () => {
  const { dir, bundle } = fresh();
  try {
    train(bundle);
    assert.ok(existsSync(codeCacheFileOf(bundle)));
    const exports = load(bundle);
    assert.equal(codeCacheStatus.get(bundle), 'used');
    assert.equal(exports.answer, 31);
    assert.equal(exports.filename, bundle);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a stale cache (the bundle rebuilt to the same length) is ignored: the new code runs', () => {
  const { dir, bundle } = fresh();
  try {
    train(bundle);
    const before = statSync(bundle);
    writeFileSync(bundle, bundleText(7)); // same length, other code: V8's own check would accept the cache
    utimesSync(bundle, before.atime, new Date(before.mtimeMs + 5000));
    assert.equal(statSync(bundle).size, before.size);
    assert.equal(load(bundle).answer, 71);
    assert.equal(codeCacheStatus.get(bundle), 'stale');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing, truncated or foreign cache file is ignored', () => {
  const { dir, bundle } = fresh();
  try {
    assert.equal(load(bundle).answer, 31);
    assert.equal(codeCacheStatus.get(bundle), 'missing');
    train(bundle);
    const whole = readFileSync(codeCacheFileOf(bundle));
    writeFileSync(codeCacheFileOf(bundle), whole.subarray(0, whole.length - 16));
    assert.equal(load(bundle).answer, 31);
    assert.equal(codeCacheStatus.get(bundle), 'corrupt');
    writeFileSync(codeCacheFileOf(bundle), Buffer.from('not a code cache at all, just text\n'));
    assert.equal(load(bundle).answer, 31);
    assert.equal(codeCacheStatus.get(bundle), 'corrupt');
    writeFileSync(codeCacheFileOf(bundle), whole.subarray(0, 10));
    assert.equal(load(bundle).answer, 31);
    assert.equal(codeCacheStatus.get(bundle), 'corrupt');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a cache whose header matches but whose V8 data is of another source is rejected by V8 and ignored', () => {
  const { dir, bundle } = fresh();
  const other = join(dir, 'other.cjs');
  try {
    writeFileSync(other, bundleText(3) + '// a longer source\n');
    train(other);
    // The other bundle's V8 data under this bundle's header.
    const data = readFileSync(codeCacheFileOf(other)).subarray(32);
    const script = { createCachedData: () => data } as unknown as Script;
    writeCodeCache(bundle, statSync(bundle), script);
    assert.equal(load(bundle).answer, 31);
    assert.equal(codeCacheStatus.get(bundle), 'rejected');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** `bayes marginals` through the built CLI in `dist`, its JSON without the timings. */
function marginals(dist: string): unknown {
  const r = spawnSync(
    process.execPath,
    [join(dist, 'cli.cjs'), 'marginals', join(repoRoot, 'examples/data/asia.xml'), '-e', 'xray=yes', '--json'],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(r.status, 0, r.stderr);
  const answer = JSON.parse(r.stdout) as { timings?: unknown };
  delete answer.timings;
  return answer;
}

test('the build writes the command bundles’ caches, bayes marginals uses them, and answers the same without', () => {
  const dist = join(repoRoot, 'dist');
  for (const bundle of [
    'cli-network.cjs',
    'cli-marginals.cjs',
    'cli-gaussian.cjs',
    'cli-check.cjs',
    'cli-commands.cjs',
  ])
    assert.ok(existsSync(codeCacheFileOf(join(dist, bundle))), `the build wrote ${bundle}.cache`);
  const probe = spawnSync(
    process.execPath,
    [
      '-e',
      `const cli = require(${JSON.stringify(join(dist, 'cli.cjs'))});
       cli.useCodeCaches(${JSON.stringify(dist)});
       require(${JSON.stringify(join(dist, 'cli-marginals.cjs'))});
       process.stdout.write(cli.codeCacheStatus.get(${JSON.stringify(join(dist, 'cli-marginals.cjs'))}));`,
    ],
    { encoding: 'utf8', timeout: 60_000 },
  );
  assert.equal(probe.stdout, 'used', probe.stderr);
  const copy = mkdtempSync(join(tmpdir(), 'bayes-dist-'));
  try {
    cpSync(dist, copy, { recursive: true, filter: (f) => !f.endsWith('.cache') });
    assert.deepEqual(marginals(copy), marginals(dist));
  } finally {
    rmSync(copy, { recursive: true, force: true });
  }
});
