/**
 * "Import BIF…": the line the command inserts (client/src/importPath.ts) names the file relative
 * to the model and checks clean; a file outside the workspace is an error whose quick fix adds
 * its folder to bayes.dataRoots, after which the same line checks clean.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { importLine } from '../../client/src/importPath.js';
import { repoRoot } from '../support/shared.js';

const alarm = join(repoRoot, 'examples', 'data', 'alarm.bif');

test('the inserted path is relative to the model and checks clean', async () => {
  assert.equal(importLine('/w/models/m.bayes', '/w/data/alarm.bif'), 'import network Alarm from "../data/alarm.bif"');
  assert.equal(importLine('/w/m.bayes', '/w/alarm.bif'), 'import network Alarm from "alarm.bif"');
  assert.equal(importLine('/w/m.bayes', '/w/nets/9lives.bif'), 'import network Imported from "nets/9lives.bif"');
  const workspace = mkdtempSync(join(tmpdir(), 'bayes-import-'));
  try {
    mkdirSync(join(workspace, 'models'));
    mkdirSync(join(workspace, 'data'));
    copyFileSync(alarm, join(workspace, 'data', 'alarm.bif'));
    const model = join(workspace, 'models', 'm.bayes');
    const text = importLine(model, join(workspace, 'data', 'alarm.bif')) + '\nquery P(HR) in Alarm\n';
    assert.match(text, /from "\.\.\/data\/alarm\.bif"/);
    const lsp = await startLsp({ rootPath: workspace });
    try {
      const published = await lsp.open(fileUri(model), text);
      assert.deepEqual(
        published.diagnostics.map((d) => d.message),
        [],
      );
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
  }
});

test('a file outside the workspace: the quick fix adds its folder to bayes.dataRoots, which makes it check clean', async () => {
  const workspace = mkdtempSync(join(tmpdir(), 'bayes-ws-'));
  const elsewhere = mkdtempSync(join(tmpdir(), 'bayes-elsewhere-'));
  try {
    copyFileSync(alarm, join(elsewhere, 'alarm.bif'));
    const model = join(workspace, 'm.bayes');
    const uri = fileUri(model);
    const text = importLine(model, join(elsewhere, 'alarm.bif')) + '\n';
    const lsp = await startLsp({ rootPath: workspace });
    let folder: string;
    try {
      const published = await lsp.open(uri, text);
      const outside = published.diagnostics.find((d) => d.code === 'file-outside-roots');
      assert.ok(outside, JSON.stringify(published.diagnostics));
      const actions = await lsp.request<{ title: string; command?: { command: string; arguments: unknown[] } }[]>(
        'textDocument/codeAction',
        { textDocument: { uri }, range: outside.range, context: { diagnostics: [outside] } },
      );
      const add = actions.find((a) => a.command?.command === 'bayes.addDataRoot');
      assert.ok(add, JSON.stringify(actions));
      assert.equal(add.title, `Add ${elsewhere} to the data roots (bayes.dataRoots)`);
      assert.deepEqual(add.command!.arguments, [uri, elsewhere]);
      folder = add.command!.arguments[1] as string;
    } finally {
      await lsp.close();
    }
    // What the client's bayes.addDataRoot writes: the same model now checks clean.
    const fixed = await startLsp({ rootPath: workspace, settings: { dataRoots: [folder] } });
    try {
      assert.deepEqual(
        (await fixed.open(uri, text)).diagnostics.map((d) => d.message),
        [],
      );
    } finally {
      await fixed.close();
    }
  } finally {
    rmSync(workspace, { recursive: true, force: true });
    rmSync(elsewhere, { recursive: true, force: true });
  }
});
