/**
 * bayes/marginals (the results panel's clicked evidence) over LSP: a named network with soft and
 * virtual evidence, the default model, and an edit (a new document version) answered from the
 * edited text, each against closed forms worked by hand.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';
import type { MarginalsReply } from '../../server/src/protocol/messages.js';

type Answer = Extract<MarginalsReply, { marginals: unknown }>;
const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-12, `${what}: ${a} vs ${b}`);

test('named network Lab: hard, soft (Jeffrey) and virtual (Pearl) evidence match the closed forms', async () => {
  const path = join(repoRoot, 'examples', 'soft_evidence.bayes');
  const uri = fileUri(path);
  const lsp = await startLsp();
  try {
    await lsp.open(uri, readFileSync(path, 'utf8'));
    const ask = (p: object) =>
      lsp.request<MarginalsReply>('bayes/marginals', { uri, network: 'Lab', evidence: {}, ...p });
    const none = (await ask({})) as Answer;
    assert.equal(none.method, 'exact');
    near(none.marginals['Disease']![0]!, 0.1, 'P(D) without evidence');
    near(none.marginals['Test']![0]!, 0.27, 'P(Test = pos)');
    const hard = (await ask({ evidence: { Test: 'pos' } })) as Answer;
    near(hard.marginals['Disease']![0]!, 1 / 3, 'P(D | pos)');
    assert.deepEqual(hard.marginals['Test'], [1, 0]);
    const soft = (await ask({ soft: { Test: [0.7, 0.3] } })) as Answer;
    near(soft.marginals['Disease']![0]!, 0.7 / 3 + (0.3 * 0.01) / 0.73, 'Jeffrey');
    near(soft.marginals['Test']![0]!, 0.7, 'the soft finding holds exactly');
    const both = (await ask({ evidence: { Xray: 'spot' }, soft: { Test: [0.7, 0.3] } })) as Answer;
    near(both.marginals['Disease']![0]!, (0.7 * 7) / 9 + (0.3 * 0.007) / 0.079, 'Jeffrey with Xray = spot');
    const virtual = (await ask({ likelihoods: { Test: [0.8, 0.2] } })) as Answer;
    near(virtual.marginals['Disease']![0]!, 0.074 / 0.362, 'Pearl');
    // Only ratios matter.
    near(
      ((await ask({ likelihoods: { Test: [4, 1] } })) as Answer).marginals['Disease']![0]!,
      0.074 / 0.362,
      'Pearl 4:1',
    );
    assert.ok('error' in (await ask({ likelihoods: { Test: [0, 0] } })), 'an all-zero likelihood is an error');
    assert.ok('error' in (await ask({ likelihoods: { Test: [1, -1] } })), 'a negative likelihood is an error');
  } finally {
    await lsp.close();
  }
});

test('the default model answers as `default`, and an edit is answered from the new version', async () => {
  const path = join(repoRoot, 'examples', 'cancer.bayes');
  const uri = fileUri(path);
  const text = readFileSync(path, 'utf8');
  const lsp = await startLsp();
  try {
    await lsp.open(uri, text);
    const ask = async () =>
      (await lsp.request<MarginalsReply>('bayes/marginals', {
        uri,
        network: 'default',
        evidence: { Test: 'pos' },
      })) as Answer;
    const first = await ask();
    near(
      first.marginals['Diagnosis']![0]!,
      (0.008 * 0.98) / (0.008 * 0.98 + 0.992 * 0.03),
      'P(cancer | pos), Mitchell §6.2.1',
    );
    const edited = text.replace('cancer:  0.008', 'cancer:  0.1').replace('healthy: 0.992', 'healthy: 0.9');
    assert.notEqual(edited, text);
    const published = lsp.nextDiagnostics(uri);
    await lsp.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    await published;
    near((await ask()).marginals['Diagnosis']![0]!, (0.1 * 0.98) / (0.1 * 0.98 + 0.9 * 0.03), 'after the edit');
  } finally {
    await lsp.close();
  }
});
