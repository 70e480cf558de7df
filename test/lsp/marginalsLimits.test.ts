/**
 * bayes/marginals under the run's limits: a document's clicks have their own worker, so a slow
 * network (the worker's test hook: a network named `test_spin_30000` spins 30 s at each click, as
 * a runaway propagation would) never delays a click on asia in another document; past
 * bayes.run.timeoutSeconds the slow click answers with a clear error, and the next click of that
 * document is answered by a new worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { NO_SHARED, sharedFile } from '../support/shared.js';
import type { MarginalsReply } from '../../server/src/protocol/messages.js';

type Answer = Extract<MarginalsReply, { marginals: unknown }>;
/** Generous: the bound says asia answers while the slow click holds its worker for 30 s. */
const PROMPT_MS = 5000;

const SLOW = `network test_spin_30000 {
  variable A : bool
  P(A) = 0.3
}
network Quick {
  variable B : bool
  P(B) = 0.6
}
`;

test('a slow click never delays another document; past the time limit it answers with an error', async (t) => {
  const asiaBif = sharedFile('bif', 'asia.bif');
  if (!asiaBif) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-marginals-limits-'));
  try {
    copyFileSync(asiaBif, join(dir, 'asia.bif'));
    const slow = fileUri(join(dir, 'slow.bayes'));
    const asia = fileUri(join(dir, 'asia.bayes'));
    const lsp = await startLsp({ rootPath: dir, testHooks: true, settings: { run: { timeoutSeconds: 6 } } });
    try {
      await lsp.open(slow, SLOW);
      await lsp.open(asia, 'import network Asia from "asia.bif"\n');
      const started = Date.now();
      const stuck = lsp.request<MarginalsReply>('bayes/marginals', {
        uri: slow,
        network: 'test_spin_30000',
        evidence: {},
      });
      await new Promise((r) => setTimeout(r, 500));
      const asked = Date.now();
      const answer = (await lsp.request<MarginalsReply>('bayes/marginals', {
        uri: asia,
        network: 'Asia',
        evidence: { smoke: 'yes' },
      })) as Answer;
      const took = Date.now() - asked;
      assert.ok(took < PROMPT_MS, `asia took ${took} ms behind the slow click`);
      // asia.bif: P(lung = yes | smoke = yes) = 0.1, P(bronc = yes | smoke = yes) = 0.6.
      assert.ok(Math.abs(answer.marginals['lung']![0]! - 0.1) < 1e-12, JSON.stringify(answer.marginals['lung']));
      assert.ok(Math.abs(answer.marginals['bronc']![0]! - 0.6) < 1e-12, JSON.stringify(answer.marginals['bronc']));

      const stopped = await stuck;
      assert.ok('error' in stopped, JSON.stringify(stopped));
      assert.equal(
        stopped.error,
        "the marginals of 'test_spin_30000' took longer than 6 s and were stopped (setting bayes.run.timeoutSeconds)",
      );
      assert.ok(Date.now() - started < 20_000, 'stopped at its limit, not after the 30 s spin');
      // The document's next click: a new worker answers it.
      const quick = (await lsp.request<MarginalsReply>('bayes/marginals', {
        uri: slow,
        network: 'Quick',
        evidence: {},
      })) as Answer;
      assert.ok(Math.abs(quick.marginals['B']![0]! - 0.6) < 1e-12, JSON.stringify(quick.marginals['B']));
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
