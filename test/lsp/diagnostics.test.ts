import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLsp } from '../support/lspClient.js';

const uri = 'file:///virtual/model.bayes';

test('the server publishes the checker diagnostics as the document changes, over stdio', async () => {
  const lsp = await startLsp();
  try {
    const first = lsp.nextDiagnostics(uri);
    await lsp.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'bayes', version: 1, text: 'variable Test { pos, neg }\nobserve Tset = pos\n' },
    });
    const opened = await first;
    assert.equal(opened.diagnostics.length, 1);
    assert.match(opened.diagnostics[0]!.message, /Tset/);
    assert.deepEqual(opened.diagnostics[0]!.range, {
      start: { line: 1, character: 8 },
      end: { line: 1, character: 12 },
    });

    const second = lsp.nextDiagnostics(uri);
    await lsp.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 1, character: 8 }, end: { line: 1, character: 12 } }, text: 'Test' }],
    });
    assert.deepEqual((await second).diagnostics, []);
  } finally {
    await lsp.close();
  }
});
