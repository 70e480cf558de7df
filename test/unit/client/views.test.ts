/** The client's Markdown views and its contributions, without an editor. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { graphMarkdown, resultsMarkdown } from '../../../client/src/views.js';
import { repoRoot } from '../../support/shared.js';

const range = (line: number) => ({ start: { line, character: 0 }, end: { line, character: 10 } });

test('the results view lists each result at its line, marks expectations and lists problems', () => {
  const md = resultsMarkdown('cancer.bayes', {
    state: 'done', cached: true, current: false,
    result: {
      version: 1, file: 'file:///m/cancer.bayes', elapsedMs: 12.4,
      results: [
        { kind: 'posterior', range: range(18), source: 'query posterior Diagnosis', headline: 'healthy · 0.79', rows: [], evidence: 0.0376, evidencePossible: true, map: ['healthy'], ml: ['cancer'] },
        { kind: 'expect', range: range(25), source: 'expect map Diagnosis = cancer', headline: 'healthy', passed: false, actual: 'healthy', expected: '= cancer' },
      ],
      diagnostics: [{ severity: 'error', code: 'expect-failed', message: 'expected cancer, got healthy', range: range(25) }],
    },
  });
  assert.equal(md, [
    '# Results of cancer.bayes', '',
    'Run finished in 12 ms (cached) — the file has changed since.', '',
    '| line | statement | result |', '| ---: | --- | --- |',
    '| 19 | `query posterior Diagnosis` | healthy · 0.79 |',
    '| 26 | `expect map Diagnosis = cancer` | ✗ (actual healthy) healthy |', '',
    '## Problems', '', '- line 26, error: expected cancer, got healthy', '',
  ].join('\n'));
  assert.match(resultsMarkdown('m.bayes', null), /has not been run yet/);
});

test('the graph view draws each arc and tabulates parents', () => {
  const md = graphMarkdown('forest.bayes', [{
    name: 'Forest', source: 'file',
    variables: [{ name: 'Storm', states: ['true', 'false'], parents: [] }, { name: 'Lightning', states: ['true', 'false'], parents: ['Storm'] }],
  }]);
  assert.match(md, /```mermaid\ngraph TD\n {2}n_Storm\["Storm"\]\n {2}n_Storm\["Storm"\] --> n_Lightning\["Lightning"\]\n```/);
  assert.match(md, /\| Lightning \| true, false \| Storm \|/);
  assert.match(graphMarkdown('x.bayes', [], 'Nope'), /declares no network named Nope/);
});

test('every contributed command is registered by the client and every palette entry names one', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  const source = readFileSync(join(repoRoot, 'client', 'src', 'commands.ts'), 'utf8');
  const registered = [...source.matchAll(/register\('([\w.]+)'/g)].map((m) => m[1]).sort();
  const contributed = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(contributed, registered);
  for (const c of pkg.contributes.commands) assert.equal(c.category, 'Bayes');
  for (const entry of pkg.contributes.menus.commandPalette) assert.ok(contributed.includes(entry.command) && entry.when);
  assert.equal(pkg.capabilities.untrustedWorkspaces.supported, 'limited');
  const settings = Object.keys(pkg.contributes.configuration.properties).sort();
  assert.deepEqual(settings, ['bayes.dataRoots', 'bayes.run.memoryMb', 'bayes.run.timeoutSeconds', 'bayes.runOnSave', 'bayes.trace.server']);
  const snippets = JSON.parse(readFileSync(join(repoRoot, 'snippets', 'bayes.json'), 'utf8'));
  const prefixes = Object.values(snippets).map((s) => (s as { prefix: string }).prefix);
  for (const form of ['variable', 'hypotheses', 'P', 'network', 'import network', 'data', 'corpus', 'observe', 'learn', 'classifier', 'mixture', 'query posterior', 'expect']) {
    assert.ok(prefixes.includes(form), `a snippet for ${form}`);
  }
});
