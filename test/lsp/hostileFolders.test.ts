/**
 * A corpus folder of 3,000 empty sub-folders in the language server (issue #28): with
 * bayes.archive.maxEntries at 1,000 the check ends in an error on the path, edits are checked
 * again without waiting on the tree (its listing is kept: test/unit/workspace/folderListing.test.ts
 * counts the work), and another document's hover answers meanwhile. The tree is generated.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';

const OTHER = 'variable Rain : bool\nP(Rain) = 0.2\nquery P(Rain)\n';
const MODEL = 'corpus C from "news" label folder\nclassifier NB = text_naive_bayes(C)\n';

test('3,000 empty sub-folders: an error on the corpus path, edits checked again, hovers answered', async () => {
  const root = mkdtempSync(join(tmpdir(), 'bayes-lsp-folders-'));
  try {
    mkdirSync(join(root, 'news', 'sport'), { recursive: true });
    writeFileSync(join(root, 'news', 'sport', '1.txt'), 'the team won');
    for (let i = 0; i < 3_000; i++) mkdirSync(join(root, 'news', `empty${i}`));
    const lsp = await startLsp({ rootPath: root, settings: { archive: { maxEntries: 1000 } } });
    try {
      const other = fileUri(join(root, 'other.bayes'));
      const model = fileUri(join(root, 'm.bayes'));
      await lsp.open(other, OTHER);
      const published = await lsp.open(model, MODEL);
      const hover = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: other },
        position: { line: 0, character: 10 },
      });
      assert.match(hover?.contents.value ?? '', /variable \*\*Rain\*\*/);
      const error = published.diagnostics.find((d) => /more than 1,000/.test(d.message))!;
      assert.equal(
        error.message,
        '"news": it holds more than 1,000 files and folders (setting bayes.archive.maxEntries)',
      );
      assert.deepEqual(error.range, { start: { line: 0, character: 14 }, end: { line: 0, character: 20 } });
      // Edits: each is checked again and still refused; the server answers between them.
      for (let version = 2; version <= 4; version++) {
        await lsp.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: model, version },
          contentChanges: [{ text: MODEL + '// edit '.repeat(version) + '\n' }],
        });
        const h = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
          textDocument: { uri: other },
          position: { line: 0, character: 10 },
        });
        assert.match(h?.contents.value ?? '', /variable \*\*Rain\*\*/);
      }
      const last = await lsp.request<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: model },
        position: { line: 1, character: 12 },
      });
      assert.ok(last !== undefined); // the edited model's document answers too
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
