/**
 * A Content-Length 10 bytes off (either way) on `bayes lsp --stdio`: that message is dropped
 * (cli/framing.ts) and the next request is answered — without the guard vscode-jsonrpc would read
 * every later frame out of step and the server would answer nothing until killed.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';

/** Generous: "answers at all". */
const WITHIN_MS = 5000;

test('a message 10 bytes too long, then one 10 bytes too short: the hovers after each are answered', async () => {
  const uri = fileUri(join(repoRoot, 'examples', 'framing-test.bayes'));
  const lsp = await startLsp();
  try {
    await lsp.open(uri, 'variable Rain : bool\nP(Rain) = 0.2\n');
    const hover = async () => {
      const started = Date.now();
      const answer = await Promise.race([
        lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
          textDocument: { uri },
          position: { line: 0, character: 10 },
        }),
        new Promise<'stalled'>((r) => setTimeout(() => r('stalled'), WITHIN_MS)),
      ]);
      assert.notEqual(answer, 'stalled', 'the server stopped answering');
      assert.match((answer as { contents: { value: string } }).contents.value, /variable \*\*Rain\*\*/);
      assert.ok(Date.now() - started < WITHIN_MS);
    };
    for (const delta of [+10, -10]) {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: `off-by-${delta}`,
        method: 'textDocument/hover',
        params: { textDocument: { uri }, position: { line: 0, character: 10 } },
      });
      lsp.process.stdin!.write(`Content-Length: ${Buffer.byteLength(body) + delta}\r\n\r\n${body}`);
      await hover();
    }
  } finally {
    await lsp.close();
  }
});
