/**
 * bayes/diagnosis and bayes/decisions run in the document's marginals worker, not on the server's
 * thread: while ANDES's diagnosis (222 eliminations pairs) runs, the server answers document
 * symbols and another document's click at once. The diagnosis alone now takes ~0.3 s, less than a
 * new worker's first click, so the network is named `test_spin_2000` (the worker's test hook: busy
 * 2 s before each request) to make the order deterministic, not a race between two speeds; a diagnosis past
 * bayes.run.timeoutSeconds (the worker's test hook: a network named `test_spin_30000` spins at
 * each request) answers with the limit's error and the document's next request gets a new worker.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri } from '../support/lspClient.js';
import { NO_SHARED, sharedFile } from '../support/shared.js';
import type { DecisionsReply, DiagnosisReply, MarginalsReply } from '../../server/src/protocol/messages.js';

type Ranked = Extract<DiagnosisReply, { ranking: unknown }>;

test("ANDES's diagnosis runs off the server's thread: symbols and another document's click answer meanwhile", async (t) => {
  const andesBif = sharedFile('bif', 'andes.bif');
  const asiaBif = sharedFile('bif', 'asia.bif');
  if (!andesBif || !asiaBif) return t.skip(NO_SHARED);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-panel-off-thread-'));
  try {
    copyFileSync(andesBif, join(dir, 'andes.bif'));
    copyFileSync(asiaBif, join(dir, 'asia.bif'));
    const andes = fileUri(join(dir, 'andes.bayes'));
    const asia = fileUri(join(dir, 'asia.bayes'));
    const lsp = await startLsp({ rootPath: dir, testHooks: true });
    try {
      await lsp.open(andes, 'import network test_spin_2000 from "andes.bif"\n');
      await lsp.open(asia, 'import network Asia from "asia.bif"\n');
      // The network compiled and sent to the worker once (a click), so the diagnosis is all worker time.
      const warm = await lsp.request<MarginalsReply>('bayes/marginals', {
        uri: andes,
        network: 'test_spin_2000',
        evidence: {},
      });
      assert.ok(!('error' in warm), JSON.stringify(warm));
      const target = Object.keys((warm as Extract<MarginalsReply, { marginals: unknown }>).marginals)[0]!;
      let done = 0;
      const started = Date.now();
      const ranking = lsp
        .request<DiagnosisReply>('bayes/diagnosis', { uri: andes, network: 'test_spin_2000', target, evidence: {} })
        .then((r) => {
          done = Date.now();
          return r;
        });
      await new Promise((r) => setTimeout(r, 200));
      const symbols = await lsp.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri: asia } });
      const click = await lsp.request<MarginalsReply>('bayes/marginals', {
        uri: asia,
        network: 'Asia',
        evidence: { smoke: 'yes' },
      });
      const answeredAt = Date.now();
      const diagnosisDone = done !== 0;
      assert.ok(Array.isArray(symbols) && symbols.length > 0);
      assert.ok(!('error' in click), JSON.stringify(click));
      const r = (await ranking) as Ranked;
      assert.ok(!('error' in r), JSON.stringify(r));
      assert.equal(r.ranking.length, 222);
      for (let i = 1; i < r.ranking.length; i++) assert.ok(r.ranking[i - 1]!.nats >= r.ranking[i]!.nats);
      assert.ok(
        !diagnosisDone,
        `the other requests (${answeredAt - started} ms) waited for the diagnosis (${done - started} ms)`,
      );
      t.diagnostic(
        `diagnosis ${r.elapsed.toFixed(0)} ms in the worker; other requests answered at ${answeredAt - started} ms`,
      );
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const SLOW = `network test_spin_30000 {
  variable A : bool
  variable B : bool
  P(A) = 0.3
  P(B | A) { true: 0.9, false: 0.2 }
}
network Quick {
  variable C : bool
  decision D : bool
  P(C | D) { true: 0.8, false: 0.1 }
  utility U(C) { true: 10, false: 0 }
}
`;

test('a diagnosis past the time limit is stopped with the reason; the next request (decisions) gets a new worker', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-panel-limits-'));
  try {
    const uri = fileUri(join(dir, 'slow.bayes'));
    const lsp = await startLsp({ rootPath: dir, testHooks: true, settings: { run: { timeoutSeconds: 3 } } });
    try {
      await lsp.open(uri, SLOW);
      const started = Date.now();
      const stuck = lsp.request<DiagnosisReply>('bayes/diagnosis', {
        uri,
        network: 'test_spin_30000',
        target: 'A',
        evidence: {},
      });
      await new Promise((r) => setTimeout(r, 300));
      const asked = Date.now();
      const symbols = await lsp.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
      assert.ok(Array.isArray(symbols) && symbols.length > 0);
      assert.ok(Date.now() - asked < 2500, 'symbols answered while the worker spins');
      const stopped = await stuck;
      assert.deepEqual(stopped, {
        error:
          "the diagnosis of 'test_spin_30000' took longer than 3 s and was stopped (setting bayes.run.timeoutSeconds)",
      });
      assert.ok(Date.now() - started < 15_000, 'stopped at its limit, not after the 30 s spin');
      // The next request of the document: a new worker solves the diagram, P(C) under D = true.
      const solved = (await lsp.request<DecisionsReply>('bayes/decisions', {
        uri,
        network: 'Quick',
        evidence: {},
      })) as Extract<DecisionsReply, { meu: number }>;
      assert.ok(!('error' in solved), JSON.stringify(solved));
      assert.ok(Math.abs(solved.meu - 8) < 1e-12);
      assert.deepEqual(solved.decisions[0]!.expectedUtility, [8, 1]);
      assert.ok(Math.abs(solved.marginals['C']![0]! - 0.8) < 1e-12, JSON.stringify(solved.marginals));
      assert.deepEqual(solved.marginals['D'], [1, 0]);
      assert.deepEqual(solved.utilities, [{ name: 'U', expected: 8 }]);
    } finally {
      await lsp.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
