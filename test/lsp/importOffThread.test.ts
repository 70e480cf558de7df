/**
 * Network files a model imports are read and parsed off the language server's thread, within the
 * run's time and memory limits (workspace/networkReads.ts): while a slow import is processed,
 * another document's hover and completion answer, and the slow one ends as a clear diagnostic on
 * its path. A slow parse comes from the worker's test hook (`//! test: spin N`, BAYES_TEST_HOOKS),
 * a large one from a generated network of 400,000 table entries.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import type { NetworkSummary } from '../../server/src/protocol/messages.js';

const OTHER = 'variable Rain : bool\nP(Rain) = 0.2\nquery P(Rain)\n';
/** Generous: the bound says the server answers at all while the import is parsed (which takes 30 s). */
const ANSWER_WITHIN_MS = 5000;

/** A small network behind a comment that makes the file larger than the in-thread limit (1 MB). */
function slowBif(spinMs: number): string {
  const pad = `// ${'x'.repeat(1000)}\n`.repeat(1100);
  return `//! test: spin ${spinMs}\n${pad}network n {}\nvariable A {\n  type discrete [ 2 ] { a, b };\n}\nprobability ( A ) {\n  table 0.3, 0.7;\n}\n`;
}

/** X with `k` binary parents and 3 states: 3·2^k table entries, each row summing to 1. */
function bigBif(k: number): string {
  const parents = Array.from({ length: k }, (_, i) => `P${i}`);
  const lines = ['network big {}'];
  for (const p of parents) lines.push(`variable ${p} {\n  type discrete [ 2 ] { y, n };\n}`);
  lines.push('variable X {\n  type discrete [ 3 ] { lo, mid, hi };\n}');
  for (const p of parents) lines.push(`probability ( ${p} ) {\n  table 0.5, 0.5;\n}`);
  // BIF's flat `table` lists the child's first state for every parent row, then its second…
  const lo = Array.from({ length: 2 ** k }, (_, r) => ((r % 7) + 1) / 10);
  const rest = lo.map((a) => (1 - a) / 2);
  lines.push(`probability ( X | ${parents.join(', ')} ) {\n  table ${[...lo, ...rest, ...rest].join(', ')};\n}`);
  return lines.join('\n') + '\n';
}

async function timed<T>(work: Promise<T>): Promise<{ value: T; ms: number }> {
  const started = Date.now();
  const value = await work;
  return { value, ms: Date.now() - started };
}

test('a slow import: another document is hovered and completed meanwhile; the import stops at the time limit', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-slow-import-'));
  try {
    writeFileSync(join(dir, 'slow.bif'), slowBif(30_000));
    const model = fileUri(join(dir, 'model.bayes'));
    const other = fileUri(join(dir, 'other.bayes'));
    const lsp = await startLsp({ rootPath: dir, testHooks: true, settings: { run: { timeoutSeconds: 6 } } });
    try {
      await lsp.open(other, OTHER);
      const started = Date.now();
      const published = lsp.open(model, 'import network Slow from "slow.bif"\nquery P(A) in Slow\n');
      // The import is being read now (its worker spins for 30 s): the server still answers.
      await new Promise((r) => setTimeout(r, 500));
      const hover = await timed(
        lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
          textDocument: { uri: other },
          position: { line: 0, character: 10 },
        }),
      );
      assert.ok(hover.ms < ANSWER_WITHIN_MS, `hover took ${hover.ms} ms`);
      assert.match(hover.value?.contents.value ?? '', /variable \*\*Rain\*\*/);
      const completion = await timed(
        lsp.request<unknown>('textDocument/completion', {
          textDocument: { uri: other },
          position: { line: 2, character: 8 },
        }),
      );
      assert.ok(completion.ms < ANSWER_WITHIN_MS, `completion took ${completion.ms} ms`);
      assert.ok(Date.now() - started < 6000, 'both answered before the import was stopped');
      const diagnostics = (await published).diagnostics;
      const stopped = diagnostics.find((d) => /took longer than 6 s/.test(d.message));
      assert.ok(stopped, JSON.stringify(diagnostics));
      assert.match(stopped.message, /reading slow\.bif took longer than 6 s \(setting bayes\.run\.timeoutSeconds\)/);
      assert.equal(stopped.range.start.line, 0);
      assert.ok(Date.now() - started < 20_000, 'stopped at its limit, not after the 30 s spin');
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a large import is parsed in its worker: its variables check, and Show Network Graph lists them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-big-import-'));
  try {
    const text = bigBif(17);
    assert.ok(text.length > 2 << 20, `${text.length} bytes`);
    writeFileSync(join(dir, 'big.bif'), text);
    const model = fileUri(join(dir, 'model.bayes'));
    const lsp = await startLsp({ rootPath: dir });
    try {
      const published = await lsp.open(model, 'import network Big from "big.bif"\nquery P(X | P0 = y) in Big\n');
      assert.deepEqual(
        published.diagnostics.map((d) => d.message),
        [],
      );
      const nets = await lsp.request<NetworkSummary[]>('bayes/networks', { uri: model });
      const big = nets.find((n) => n.name === 'Big');
      assert.ok(big, JSON.stringify(nets.map((n) => n.name)));
      assert.equal(big.variables.length, 18);
      const x = big.variables.find((v) => v.name === 'X')!;
      assert.deepEqual(x.states, ['lo', 'mid', 'hi']);
      assert.equal(x.parents.length, 17);
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
