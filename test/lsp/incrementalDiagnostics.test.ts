/**
 * The server parses incrementally and replays checker findings for unchanged tables and data:
 * after each of a run of seeded edits (lines inserted and removed, statements broken and
 * repaired), the diagnostics it publishes must be those of the same text opened afresh.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { startLsp, type PublishedDiagnostics } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';

const examples = resolve(repoRoot, 'examples');

/** Seeded edits as an editor sends them: a range of the current text and its replacement. */
const edits = [
  { line: 3, from: 0, to: 0, text: '\n' }, // a new line: everything below moves
  { line: 10, from: 0, to: 0, text: '/// a note\n' },
  { line: 12, from: 2, to: 4, text: '' }, // break a statement…
  { line: 12, from: 2, to: 2, text: 'P(' },
  { line: 0, from: 0, to: 0, text: 'variable Extra { a, b }\n' },
  { line: 20, from: 0, to: 0, text: '}\n' }, // a stray brace
  { line: 20, from: 0, to: 1, text: '' },
];

for (const file of ['forest.bayes', 'playtennis.bayes', 'cancer.bayes']) {
  test(`incremental diagnostics equal a fresh check while ${file} is edited`, async () => {
    const lsp = await startLsp();
    try {
      const uri = `file:///virtual/${file}`;
      let text = readFileSync(resolve(examples, file), 'utf8');
      await lsp.open(uri, text);
      let errors = 0;
      for (const [i, e] of edits.entries()) {
        const lines = text.split('\n');
        const line = Math.min(e.line, lines.length - 1);
        const to = Math.min(e.to, lines[line].length);
        const from = Math.min(e.from, to);
        lines[line] = lines[line].slice(0, from) + e.text + lines[line].slice(to);
        text = lines.join('\n');
        const version = i + 2;
        const published = lsp.nextNotification<PublishedDiagnostics & { version?: number }>(
          'textDocument/publishDiagnostics',
          (p) => p.uri === uri && p.version === version,
        );
        await lsp.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri, version },
          contentChanges: [{ range: { start: { line, character: from }, end: { line, character: to } }, text: e.text }],
        });
        const incremental = await published;
        const fresh = await lsp.open(`file:///virtual/fresh${i}-${file}`, text);
        assert.deepEqual(incremental.diagnostics, fresh.diagnostics, `after edit ${i} of ${file}`);
        errors += fresh.diagnostics.filter((d) => d.severity === 1).length;
      }
      assert.ok(errors > 0, 'the edits break statements: some steps must have errors');
    } finally {
      await lsp.close();
    }
  });
}
