/**
 * A file nested 100,000 deep, opened in the server: it publishes the nesting diagnostic (it
 * used to publish nothing, its check having overflowed the stack) and answers every request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startLsp } from '../support/lspClient.js';

const DEPTH = 100_000;
const files = {
  calls: `variable A : bool\nclassifier C = ${'f('.repeat(DEPTH)}${')'.repeat(DEPTH)}\n`,
  tree: `variable A : bool\nhypotheses H {\n  h: tree { ${'if A = true { '.repeat(DEPTH)}P(A = true) = 1/2${' }'.repeat(DEPTH)} }\n}\n`,
  networks: `${Array.from({ length: DEPTH }, (_, i) => `network N${i} {\n`).join('')}variable A : bool\n${'}\n'.repeat(DEPTH)}`,
};

test('the server publishes a nesting diagnostic for files nested 100,000 deep and answers every request', async () => {
  const lsp = await startLsp();
  try {
    for (const [name, text] of Object.entries(files)) {
      const uri = `file:///virtual/deep-${name}.bayes`;
      const published = await lsp.open(uri, text);
      assert.ok(
        published.diagnostics.some((d) => d.code === 'nesting-too-deep'),
        `${name}: ${published.diagnostics
          .map((d) => d.message)
          .slice(0, 3)
          .join('; ')}`,
      );
      const textDocument = { uri };
      const position = { line: 1, character: 30 };
      await lsp.request('textDocument/semanticTokens/full', { textDocument });
      await lsp.request('textDocument/foldingRange', { textDocument });
      await lsp.request('textDocument/documentSymbol', { textDocument });
      await lsp.request('textDocument/hover', { textDocument, position });
      await lsp.request('textDocument/completion', { textDocument, position });
      await lsp.request('textDocument/formatting', { textDocument, options: { tabSize: 2, insertSpaces: true } });
    }
  } finally {
    await lsp.close();
  }
});
