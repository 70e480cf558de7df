/**
 * Change detection without reading on every save: the run cache compares a data file's size and
 * modification time and hashes its content (streamed, through the confined reads) only when they
 * changed; the server's file answers (FileFacts) are read again only when a file's stamp changes,
 * and the confinement is judged again every time (a link retargeted outside is refused at once).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { RunCache } from '../../../server/src/run/runCache.js';
import { FileFacts } from '../../../server/src/workspace/fileFacts.js';
import { nodeFiles } from '../../../server/src/workspace/files.js';
import { checkText } from '../../../server/src/run/pipeline.js';
import type { Files } from '../../../server/src/language/environment.js';

function countingFiles(files: Files): Files & { hashes: number; reads: number } {
  const counted = Object.create(files) as Files & { hashes: number; reads: number };
  counted.hashes = 0;
  counted.reads = 0;
  counted.hash = (p) => {
    counted.hashes++;
    return files.hash(p);
  };
  counted.head = (p, n) => {
    counted.reads++;
    return files.head(p, n);
  };
  counted.bytes = (p) => {
    counted.reads++;
    return files.bytes(p);
  };
  return counted;
}

test('run cache: size + mtime first, the content hashed only when they change', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-change-'));
  try {
    const csv = join(dir, 'd.csv');
    writeFileSync(csv, 'a,b\n1,2\n');
    const documentPath = join(dir, 'm.bayes');
    const text = 'variable a, b : real\ndata D from "d.csv"\n';
    const ast = checkText(text, { allowedRoots: [dir], fileExists: () => true }).parse.ast;
    const files = countingFiles(nodeFiles({ documentPath, workspaceRoot: dir }));
    const cache = new RunCache();
    const key = () => cache.key(text, ast, documentPath, [dir], '', files);
    const first = await key();
    assert.equal(files.hashes, 1);
    assert.equal(await key(), first, 'unchanged: the same key');
    assert.equal(files.hashes, 1, 'unchanged: not hashed again');
    const later = new Date(Date.now() + 5000);
    utimesSync(csv, later, later);
    assert.equal(await key(), first, 'touched, same content: the same key');
    assert.equal(files.hashes, 2, 'touched: hashed again');
    writeFileSync(csv, 'a,b\n1,3\n');
    utimesSync(csv, later, later); // same size, same mtime: the client's change notice is what tells
    cache.fileChanged(csv);
    assert.notEqual(await key(), first, 'new content: a new key');
    writeFileSync(csv, 'a,b\n1,2\n5,6\n');
    assert.notEqual(await key(), first, 'new size: a new key');
    assert.equal(files.hashes, 4);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run cache: hashing a 48 MB file streams in chunks and leaves the event loop free', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-change-'));
  try {
    writeFileSync(join(dir, 'big.csv'), Buffer.alloc(48 << 20, 'a,b\n1,2\n'));
    const documentPath = join(dir, 'm.bayes');
    const text = 'variable a, b : real\ndata D from "big.csv"\n';
    const ast = checkText(text, { allowedRoots: [dir], fileExists: () => true }).parse.ast;
    // Turns of the event loop while the key is computed: a synchronous hash of the whole file
    // would allow none; a streamed one yields between its 1 MiB chunks (48 of them).
    let turns = 0;
    let running = true;
    const spin = () => {
      turns++;
      if (running) setImmediate(spin);
    };
    setImmediate(spin);
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    await new RunCache().key(text, ast, documentPath, [dir], '', nodeFiles({ documentPath, workspaceRoot: dir }));
    running = false;
    histogram.disable();
    assert.ok(turns >= 24, `the event loop turned ${turns} times while hashing`);
    // Loose under a loaded machine; hashing 48 MB in one call takes about as long as the whole key.
    assert.ok(
      histogram.max / 1e6 < 1000,
      `the event loop was blocked for ${(histogram.max / 1e6).toFixed(0)} ms at once`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('file facts: read again only when the stamp changes; the root rule judged on every check', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-facts-'));
  const outside = mkdtempSync(join(tmpdir(), 'bayes-facts-out-'));
  try {
    writeFileSync(join(dir, 'good.csv'), 'a,b\n1,2\n');
    writeFileSync(join(outside, 'secret.csv'), 'x,y\n1,2\n');
    symlinkSync(join(dir, 'good.csv'), join(dir, 'link.csv'));
    const options = { documentPath: join(dir, 'm.bayes'), workspaceRoot: dir };
    const text = 'variable a, b : real\ndata D from "link.csv"\nquery P(a)\n';
    const facts = new FileFacts();
    const files = countingFiles(nodeFiles(options));
    let asked: string[] = [];
    const check = async () => {
      const env = Object.assign(facts.environment(options), { files });
      await facts.fetch(env, asked);
      let result = checkText(text, env);
      if (env.missed.size > 0) {
        await facts.fetch(env, [...env.missed]);
        env.missed.clear();
        result = checkText(text, env);
      }
      asked = [...env.asked];
      return result.diagnostics.filter((d) => d.range.start.line === 1).map((d) => d.code);
    };
    assert.deepEqual(await check(), []);
    assert.equal(files.reads, 1, 'the header was read once');
    assert.deepEqual(await check(), []);
    assert.equal(files.reads, 1, 'unchanged: not read again');
    writeFileSync(join(dir, 'good.csv'), 'a,c\n1,2\n');
    assert.deepEqual(await check(), ['undeclared-column']);
    assert.equal(files.reads, 2, 'changed: read again');
    unlinkSync(join(dir, 'link.csv'));
    symlinkSync(join(outside, 'secret.csv'), join(dir, 'link.csv'));
    assert.deepEqual(await check(), ['file-outside-roots']);
    assert.equal(files.reads, 2, 'retargeted outside: refused, not read');
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  }
});
