/** Document highlight, workspace symbols, document links for data paths and range formatting, over LSP. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import { applyEdits, type TextEdit } from '../support/edits.js';

type Range = { start: { line: number; character: number }; end: { line: number; character: number } };
const textOf = (text: string, r: Range) => text.split('\n')[r.start.line]!.slice(r.start.character, r.end.character);

test('highlight, workspace symbols, links and range formatting', async () => {
  const lsp = await startLsp();
  try {
    const cancerPath = join(repoRoot, 'examples', 'cancer.bayes');
    const cancer = readFileSync(cancerPath, 'utf8');
    const cancerUri = fileUri(cancerPath);
    await lsp.open(cancerUri, cancer);
    const alarmPath = join(repoRoot, 'examples', 'alarm.bayes');
    const alarm = readFileSync(alarmPath, 'utf8');
    const alarmUri = fileUri(alarmPath);
    await lsp.open(alarmUri, alarm);

    // Highlight: every occurrence of Diagnosis, the declaration as a write.
    const line = cancer.split('\n').findIndex((l) => l.startsWith('query posterior Diagnosis'));
    const at = { line, character: cancer.split('\n')[line]!.indexOf('Diagnosis') + 2 };
    const highlights = await lsp.request<{ range: Range; kind: number }[]>('textDocument/documentHighlight', {
      textDocument: { uri: cancerUri },
      position: at,
    });
    const occurrences = cancer
      .split('\n')
      .reduce((n, l) => n + (l.replace(/\/\/.*$/, '').match(/\bDiagnosis\b/g) ?? []).length, 0);
    assert.equal(highlights.length, occurrences);
    for (const h of highlights) assert.equal(textOf(cancer, h.range), 'Diagnosis');
    assert.equal(highlights.filter((h) => h.kind === 3).length, 1, 'one declaration (write)');

    // Workspace symbols over the open models.
    const symbols = await lsp.request<{ name: string; location: { uri: string; range: Range } }[]>('workspace/symbol', {
      query: 'diag',
    });
    const diagnosis = symbols.find((s) => s.name === 'Diagnosis');
    assert.ok(diagnosis && diagnosis.location.uri === cancerUri, JSON.stringify(symbols));
    assert.equal(textOf(cancer, diagnosis.location.range), 'Diagnosis');
    const alarmSymbols = await lsp.request<{ name: string; location: { uri: string } }[]>('workspace/symbol', {
      query: 'alarm',
    });
    assert.ok(alarmSymbols.some((s) => s.name === 'Alarm' && s.location.uri === alarmUri));

    // A document link on the imported file's path.
    const links = await lsp.request<{ range: Range; target: string }[]>('textDocument/documentLink', {
      textDocument: { uri: alarmUri },
    });
    assert.equal(links.length, 1);
    assert.equal(textOf(alarm, links[0]!.range), 'data/alarm.bif');
    assert.equal(links[0]!.target, fileUri(join(repoRoot, 'examples', 'data', 'alarm.bif')));

    // Range formatting: only the lines of the range change.
    const messyUri = fileUri(join(repoRoot, 'examples', 'messy.bayes'));
    const messy = 'variable   Test{pos,neg}\nvariable  Other {a,b}\nquery P(Test|Other=a)\n';
    await lsp.open(messyUri, messy);
    const edits = await lsp.request<TextEdit[]>('textDocument/rangeFormatting', {
      textDocument: { uri: messyUri },
      range: { start: { line: 1, character: 0 }, end: { line: 2, character: 0 } },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.equal(applyEdits(messy, edits), 'variable   Test{pos,neg}\nvariable Other {a, b}\nquery P(Test|Other=a)\n');
  } finally {
    await lsp.close();
  }
});
