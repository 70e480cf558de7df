/**
 * An imported Hugin NET file with continuous nodes over the protocol: a file over 1 MB is read
 * in its worker (workspace/networkReads.ts), so while it is parsed another document's hover
 * answers; its continuous variables then check as `real` ones, a run answers `mean E`, its
 * hover shows the answer, and the panel's bayes/marginals answers with densities. A malformed
 * continuous part is an import-file error on the path.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import type { MarginalsReply } from '../../server/src/protocol/messages.js';

const OTHER = 'variable Rain : bool\nP(Rain) = 0.2\nquery P(Rain)\n';

const CLG = `net { name = "waste"; }
node W { states = ("industrial" "household"); }
continuous node E { }
continuous node D { }
potential ( W ) { data = ( 0.3 0.7 ); }
potential ( E | W ) { data = ( normal ( -3.2, 0.02 ) normal ( -0.5, 0.01 ) ); }
potential ( D | E ) { data = ( normal ( 6.5 + E, 0.03 ) ); }
`;

/** The network behind `%` comment lines that make the file larger than the in-thread limit (1 MB); a spin first. */
function bigNet(spinMs: number): string {
  return `%! test: spin ${spinMs}\n${`% ${'x'.repeat(1000)}\n`.repeat(1100)}${CLG}`;
}

test('a large CLG .net import is read off the server thread; its real variables check, run, hover and answer the panel', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-lsp-'));
  try {
    writeFileSync(join(dir, 'big.net'), bigNet(3000));
    const path = join(dir, 'model.bayes');
    const text = 'import network Waste from "big.net"\nobserve D = 3.5 in Waste\nquery mean E in Waste\n';
    writeFileSync(path, text);
    const model = fileUri(path);
    const other = fileUri(join(dir, 'other.bayes'));
    const lsp = await startLsp({ rootPath: dir, testHooks: true });
    try {
      await lsp.open(other, OTHER);
      let read = false;
      const published = lsp.open(model, text).then((p) => {
        read = true;
        return p;
      });
      await new Promise((r) => setTimeout(r, 300));
      const hover = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: other },
        position: { line: 0, character: 10 },
      });
      assert.match(hover?.contents.value ?? '', /variable \*\*Rain\*\*/);
      assert.equal(read, false, 'the hover was answered while the import was still being read (a 3 s spin)');
      assert.deepEqual(
        (await published).diagnostics.map((d) => d.message),
        [],
      );
      // A run (on save) answers the query; hovering its line shows the answer.
      const finished = lsp.nextNotification<{ uri: string }>('bayes/runResult', (p) => p.uri === model);
      await lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri: model } });
      await finished;
      const answer = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: model },
        position: { line: 2, character: 3 },
      });
      // Given D = 3.5, E's posterior is the mixture's industrial component, ≈ −3.
      const shown = answer?.contents.value ?? '';
      assert.match(shown, /mean E/, shown);
      const panel = await lsp.request<MarginalsReply>('bayes/marginals', {
        uri: model,
        network: 'Waste',
        evidence: { D: '3.5' },
      });
      assert.ok(!('error' in panel), JSON.stringify(panel));
      const e = panel.continuous?.E;
      assert.ok(e, JSON.stringify(panel));
      // Closed form for W = industrial: E ~ N(−3.2, 0.02), D | E ~ N(6.5 + E, 0.03).
      const industrialMean = -3.2 + (0.02 / 0.05) * (3.5 - 3.3);
      assert.ok(Math.abs(panel.marginals.W![0]! - 1) < 1e-6, JSON.stringify(panel.marginals));
      assert.ok(Math.abs(e.mean - industrialMean) < 1e-6, `${e.mean} vs ${industrialMean}`);
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a malformed continuous part over the protocol: an import-file error on the path', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-import-clg-lsp-'));
  try {
    writeFileSync(join(dir, 'bad.net'), CLG.replace('normal ( 6.5 + E, 0.03 )', 'normal ( 6.5 + E, -0.03 )'));
    const lsp = await startLsp({ rootPath: dir });
    try {
      const published = await lsp.open(
        fileUri(join(dir, 'model.bayes')),
        'import network Bad from "bad.net"\nquery mean E in Bad\n',
      );
      const errors = published.diagnostics.filter((d) => d.severity === 1);
      assert.equal(errors.length, 1, JSON.stringify(published.diagnostics));
      assert.equal(errors[0]!.code, 'import-file');
      assert.match(errors[0]!.message, /line 7: the variance of 'D' must be > 0, found -0\.03/);
      assert.deepEqual(errors[0]!.range.start, { line: 0, character: 24 });
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
