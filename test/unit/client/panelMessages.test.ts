/**
 * The panel's messages to the extension are checked before the host acts on them
 * (protocol/webviewMessageCheck.ts): unknown or ill-typed messages are dropped with a log line.
 */
import '../../support/vscode/register.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { checkWebviewMessage } from '../../../server/src/protocol/webviewMessageCheck.js';
import { repoRoot } from '../../support/shared.js';

const { ResultsPanel } = await import('../../../client/src/resultsPanel.js');
const { fake, Uri } = await import('../../support/vscode/fake.js');

const range = { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } };
const GOOD = [
  { type: 'ready' },
  { type: 'reveal', network: 'n', variable: 'A' },
  { type: 'reveal', network: 'n', variable: 'A', range },
  { type: 'save', name: 'chart', format: 'svg', data: '<svg/>' },
  { type: 'copy', text: 'a\t1\n' },
  { type: 'marginals', id: 3, network: 'n', evidence: { A: 'a' }, likelihoods: { B: [1, 2] }, soft: {} },
  { type: 'writeObserve', network: 'n', lines: ['observe A = a'] },
  { type: 'decisions', id: 4, network: 'n', evidence: { A: 'a' } },
  { type: 'diagnosis', id: 5, network: 'n', target: 'A', evidence: {} },
];
const BAD: [unknown, RegExp][] = [
  [null, /not a message with a type/],
  ['copy', /not a message with a type/],
  [{ text: 'x' }, /not a message with a type/],
  [{ type: 'runShell', command: 'calc' }, /unknown message type 'runShell'/],
  [{ type: '__proto__' }, /unknown message type '__proto__'/],
  [{ type: 'toString' }, /unknown message type 'toString'/],
  [{ type: 'copy', text: 5 }, /'copy' message with a bad field: text \(a string\)/],
  [{ type: 'save', name: 'c', format: 'exe', data: '' }, /format \('svg' or 'png'\)/],
  [{ type: 'reveal', network: 'n', variable: 'A', range: { start: 1 } }, /range \(a range\)/],
  [{ type: 'marginals', id: 1.5, network: 'n', evidence: {}, likelihoods: {}, soft: {} }, /id \(an integer\)/],
  [{ type: 'marginals', id: 1, network: 'n', evidence: { A: 1 }, likelihoods: {}, soft: {} }, /evidence/],
  [{ type: 'marginals', id: 1, network: 'n', evidence: {}, likelihoods: { B: ['1'] }, soft: {} }, /likelihoods/],
  [{ type: 'marginals', id: 1, network: 'n', evidence: {}, likelihoods: {}, soft: { B: [NaN] } }, /soft/],
  [{ type: 'writeObserve', network: 'n', lines: 'observe A = a' }, /lines \(a list of strings\)/],
  [{ type: 'decisions', id: 1, network: 'n', evidence: { D: ['go'] } }, /evidence/],
  [{ type: 'diagnosis', id: 1, network: 'n', evidence: {} }, /target \(a string\)/],
];

test('every message type the host knows passes, well typed', () => {
  for (const m of GOOD) assert.deepEqual(checkWebviewMessage(m), { message: m }, JSON.stringify(m));
});

test('unknown types and ill-typed fields are refused with the reason', () => {
  for (const [m, why] of BAD) {
    const checked = checkWebviewMessage(m);
    assert.ok('invalid' in checked, JSON.stringify(m));
    assert.match(checked.invalid, why);
  }
});

test('the panel host drops a bad message with a log line and acts on a good one', async () => {
  const lines: string[] = [];
  const host = { extensionUri: Uri.file('/ext'), client: () => undefined, log: (l: string) => lines.push(l) };
  const model = Uri.file(join(repoRoot, 'examples', 'cancer.bayes'));
  (ResultsPanel as unknown as { createOrShow(h: unknown, m: unknown, v: string): void }).createOrShow(
    host,
    model,
    'results',
  );
  const panel = fake.panels.at(-1)!;
  fake.clipboard = 'before';
  panel.webview.received.fire({ type: 'copy', text: { toString: () => 'x' } });
  panel.webview.received.fire({ type: 'evil', text: 'x' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fake.clipboard, 'before');
  assert.deepEqual(lines, [
    "Bayes results panel: dropped a message: 'copy' message with a bad field: text (a string)",
    "Bayes results panel: dropped a message: unknown message type 'evil'",
  ]);
  panel.webview.received.fire({ type: 'copy', text: 'ok\n' });
  await new Promise((r) => setTimeout(r, 10));
  assert.equal(fake.clipboard, 'ok\n');
  panel.dispose();
});
