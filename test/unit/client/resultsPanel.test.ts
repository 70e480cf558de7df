/**
 * The results panel host against a fake `vscode` (test/support/vscode/fake.ts): one panel per
 * model, its page and options, the ready handshake, runs routed to their model's panel, and what
 * the webview asks for (reveal a table, save a chart, copy numbers).
 */
import '../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/shared.js';
import { runExample } from '../../browser/support/fixtures.js';

const { ResultsPanel } = await import('../../../client/src/resultsPanel.js');
const { fake, FakePanel, Uri, Selection, DiagnosticSeverity } = await import('../../support/vscode/fake.js');

const model = Uri.file(join(repoRoot, 'examples', 'forest.bayes'));
const other = Uri.file(join(repoRoot, 'examples', 'cancer.bayes'));
fake.documents.set(model.toString(), readFileSync(model.path, 'utf8'));
const host = { extensionUri: Uri.file('/ext'), client: () => undefined };
// The host's API takes vscode's types; the fake has the same shape.
const panels = ResultsPanel as unknown as {
  createOrShow(h: unknown, m: unknown, v: string, n?: string): void;
  revive(p: unknown, h: unknown, s: unknown): void;
  runFinished(m: unknown): void;
  problemsChanged(u: unknown[]): void;
};
const ready = async (i: number) => {
  fake.panels[i]!.webview.received.fire({ type: 'ready' });
  await new Promise((r) => setImmediate(r));
};
const posted = (i: number) => fake.panels[i]!.webview.posted as Array<{ type: string; [k: string]: unknown }>;

test('one panel per model: strict page, resources from dist/ only, runs routed by URI, requests served', async () => {
  panels.createOrShow(host, model, 'graph', 'Forest');
  panels.createOrShow(host, model, 'results');
  assert.equal(fake.panels.length, 1, 'the second command brings the same panel forward');
  const panel = fake.panels[0]!;
  assert.equal(panel.viewType, 'bayes.results');
  assert.equal(panel.reveals, 1);
  assert.deepEqual(
    (panel.options as { localResourceRoots: Array<{ path: string }> }).localResourceRoots.map((u) => u.path),
    ['/ext/dist'],
  );
  assert.match(panel.webview.html, /default-src 'none'/);
  assert.match(panel.webview.html, /<script nonce="[^"]+" src="vscode-webview:\/\/fake\/ext\/dist\/webview\.js">/);
  assert.equal(posted(0).length, 0, 'nothing is posted before the page is ready');

  await ready(0);
  assert.deepEqual(
    posted(0).map((m) => m.type),
    ['problems', 'focus'],
  );
  assert.deepEqual(posted(0)[1], {
    type: 'focus',
    version: 1,
    uri: model.toString(),
    view: 'results',
    network: undefined,
  });

  const run = runExample('forest.bayes');
  panels.runFinished({ uri: other.toString(), state: 'done', cached: false, result: run });
  assert.equal(posted(0).length, 2, "another model's run is not shown here");
  panels.runFinished({ uri: model.toString(), state: 'done', cached: true, result: run });
  assert.deepEqual(posted(0)[2], {
    type: 'show',
    version: 1,
    uri: model.toString(),
    model: 'forest.bayes',
    state: 'done',
    cached: true,
    result: run,
    precision: 4,
  });

  fake.diagnostics.set(model.toString(), [
    { severity: DiagnosticSeverity.Error },
    { severity: DiagnosticSeverity.Warning },
    { severity: DiagnosticSeverity.Error },
  ]);
  panels.problemsChanged([model]);
  assert.deepEqual(posted(0)[3], { type: 'problems', version: 1, errors: 2 });

  // A reloaded page gets the last run again.
  await ready(0);
  assert.deepEqual(
    posted(0)
      .slice(4)
      .map((m) => m.type),
    ['show', 'problems', 'focus'],
  );

  const declared = new Selection(12, 2, 17, 3);
  panel.webview.received.fire({
    type: 'reveal',
    network: 'Forest',
    variable: 'Campfire',
    range: { start: { line: 12, character: 2 }, end: { line: 17, character: 3 } },
  });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(fake.editor!.selection, declared);
  panel.webview.received.fire({ type: 'reveal', network: 'Forest', variable: 'Lightning' });
  await new Promise((r) => setTimeout(r, 10));
  const text = fake.documents.get(model.toString())!;
  const line = text.split('\n').findIndex((l) => l.includes('P(Lightning | Storm)'));
  assert.deepEqual({ ...fake.editor!.selection!.start }, { line, character: 2 });
  // Focus stays in the panel: a key pressed there must never type over the selected table (issue 27).
  assert.deepEqual(
    fake.shown.map((o) => o.preserveFocus),
    [true, true],
  );
  // An imported network's variable: a notification, and no editor opened or moved (the panel keeps its size).
  panel.webview.received.fire({ type: 'reveal', network: 'Imported', variable: 'NoSuchTable' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fake.shown.length, 2, 'no editor shown for a variable without a table');
  assert.equal(fake.messages.at(-1), 'Bayes: NoSuchTable has no table in this file (network Imported is imported).');

  fake.saveTarget = Uri.file('/out/chart.png');
  panel.webview.received.fire({
    type: 'save',
    name: 'chart',
    format: 'png',
    data: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'),
  });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual([...fake.written.get('file:///out/chart.png')!], [0x89, 0x50, 0x4e, 0x47]);
  fake.saveTarget = Uri.file('/out/chart.svg');
  panel.webview.received.fire({ type: 'save', name: 'chart', format: 'svg', data: '<svg/>' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(new TextDecoder().decode(fake.written.get('file:///out/chart.svg')), '<svg/>');
  assert.deepEqual(fake.messages.slice(-2), [
    'Bayes: saved the chart to /out/chart.png.',
    'Bayes: saved the chart to /out/chart.svg.',
  ]);

  // Clicked evidence without a server: the page is told why, by request id.
  panel.webview.received.fire({
    type: 'marginals',
    id: 7,
    network: 'Forest',
    evidence: { Storm: 'true' },
    likelihoods: {},
    soft: {},
  });
  await new Promise((r) => setTimeout(r, 10));
  assert.deepEqual(posted(0).at(-1), {
    type: 'marginals',
    version: 1,
    id: 7,
    network: 'Forest',
    reply: { error: 'the language server is not running' },
  });
  // "Write evidence as observe lines": the expect lines on Forest are listed first, and nothing is
  // written unless the user says yes; then one edit at the end of the model.
  const before = fake.documents.get(model.toString())!;
  const write = {
    type: 'writeObserve',
    network: 'Forest',
    lines: ['observe Storm = true in Forest', 'observe Lightning = false in Forest'],
  };
  panel.webview.received.fire(write);
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fake.documents.get(model.toString()), before, 'cancelled: the file is unchanged');
  const expects = before.split('\n').filter((l) => /^expect\b.*\bin Forest\b/.test(l.replace(/\/\/.*/, '')));
  assert.ok(expects.length >= 5);
  const asked = fake.modals.at(-1)!;
  assert.match(
    asked.detail,
    new RegExp(
      `^2 observe lines at the end of forest\\.bayes become evidence for every query on Forest: ${expects.length} expect lines may no longer hold\\.`,
    ),
  );
  assert.match(asked.detail, /line 37: expect P\(Campfire = true \| Storm = true, BusTourGroup = true\) in Forest/);
  fake.modalAnswer = 'Write';
  panel.webview.received.fire(write);
  await new Promise((r) => setTimeout(r, 10));
  fake.modalAnswer = undefined;
  const after = fake.documents.get(model.toString())!;
  assert.equal(
    after,
    `${before}${before.endsWith('\n') ? '' : '\n'}observe Storm = true in Forest\nobserve Lightning = false in Forest\n`,
  );
  assert.equal(fake.messages.at(-1), 'Bayes: wrote 2 observe lines into forest.bayes.');
  fake.documents.set(model.toString(), before);
  panel.webview.received.fire({ type: 'copy', text: 'a\t0.703133\n' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fake.clipboard, 'a\t0.703133\n');

  panel.dispose();
  panels.createOrShow(host, model, 'results');
  assert.equal(fake.panels.length, 2, 'a closed panel is opened afresh');
});

test('the serializer revives a panel for the model its state names, and drops one without', () => {
  const before = fake.panels.length;
  const restored = new FakePanel('bayes.results', 'x', {});
  panels.revive(restored, host, { uri: other.toString(), view: 'graph' });
  assert.match(restored.webview.html, /Bayes: cancer\.bayes/);
  assert.deepEqual(
    (restored.webview.options as { localResourceRoots: Array<{ path: string }> }).localResourceRoots.map((u) => u.path),
    ['/ext/dist'],
  );
  let disposed = false;
  const orphan = new FakePanel('bayes.results', 'y', {});
  orphan.onDidDispose(() => {
    disposed = true;
  });
  panels.revive(orphan, host, undefined);
  assert.ok(disposed);
  assert.equal(fake.panels.length, before);
});
