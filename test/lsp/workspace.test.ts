/** Workspace folders and settings decide which files a model may read; changes re-check open models. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';

test('adding the workspace folder that holds a data file lets the model read it', async () => {
  const top = mkdtempSync(join(tmpdir(), 'bayes-folders-'));
  const other = join(top, 'other');
  mkdirSync(join(other, 'models'), { recursive: true });
  writeFileSync(join(other, 'days.csv'), 'Test\npos\n');
  const lsp = await startLsp({ rootPath: join(top) + '/none' });
  try {
    const uri = fileUri(join(other, 'models', 'm.bayes'));
    const before = await lsp.open(uri, 'variable Test { pos, neg }\ndata Days from "../days.csv"\n');
    assert.deepEqual(
      before.diagnostics.map((d) => d.code),
      ['file-outside-roots'],
    );
    const after = lsp.nextDiagnostics(uri);
    await lsp.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: fileUri(other), name: 'other' }], removed: [] },
    });
    assert.deepEqual(
      (await after).diagnostics.filter((d) => d.severity === 1),
      [],
    );
  } finally {
    await lsp.close();
    rmSync(top, { recursive: true, force: true });
  }
});

test('the bayes.dataRoots setting, read for the model (workspace/configuration), allows a folder', async () => {
  const top = mkdtempSync(join(tmpdir(), 'bayes-roots-'));
  mkdirSync(join(top, 'data'));
  mkdirSync(join(top, 'models'));
  writeFileSync(join(top, 'data', 'days.csv'), 'Test\npos\n');
  const lsp = await startLsp({ rootPath: join(top, 'models'), settings: { dataRoots: [join(top, 'data')] } });
  try {
    const published = await lsp.open(
      fileUri(join(top, 'models', 'm.bayes')),
      'variable Test { pos, neg }\ndata Days from "../data/days.csv"\n',
    );
    assert.deepEqual(
      published.diagnostics.filter((d) => d.severity === 1),
      [],
    );
  } finally {
    await lsp.close();
    rmSync(top, { recursive: true, force: true });
  }
});
