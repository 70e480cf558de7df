/**
 * The run lifecycle over the protocol: run on save and on the command, `bayes/runResult`,
 * progress with cancellation, a newer save cancelling an older run, crashes, memory and time
 * limits, the result cache and its invalidation by data files, restricted mode. Slow, crashing
 * and memory-hungry runs come from the worker's test hooks (BAYES_TEST_HOOKS=1).
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLsp, fileUri, type LspSession } from '../support/lspClient.js';

interface RunStateMessage {
  uri: string;
  state: string;
  queries?: number;
  failures?: number;
  cached?: boolean;
}
interface RunResultMessage {
  uri: string;
  state: string;
  cached: boolean;
  result: { diagnostics: { code: string; message: string }[] };
}
interface ProgressMessage {
  token: string | number;
  value: { kind: string; cancellable?: boolean; title?: string };
}

const MODEL = 'variable Test { pos, neg }\nobserve Test = pos\n';
const RUN = 'bayes.server.run';

describe('runs', () => {
  let lsp: LspSession;
  let dir: string;
  before(async () => {
    // The time limit leaves the out-of-memory run time to reach 96 MB on a loaded machine (at load 17
    // it hit a 3 s limit first); the spin run stops at it.
    dir = mkdtempSync(join(tmpdir(), 'bayes-runs-'));
    lsp = await startLsp({ rootPath: dir, testHooks: true, settings: { run: { memoryMb: 96, timeoutSeconds: 8 } } });
  });
  after(async () => {
    await lsp.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const model = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return { path, uri: fileUri(path) };
  };
  const finished = (uri: string) => lsp.nextNotification<RunResultMessage>('bayes/runResult', (p) => p.uri === uri);
  const state = (uri: string, s: string) =>
    lsp.nextNotification<RunStateMessage>('bayes/runState', (p) => p.uri === uri && p.state === s);
  const save = (uri: string) => lsp.connection.sendNotification('textDocument/didSave', { textDocument: { uri } });
  const change = (uri: string, version: number, text: string) =>
    lsp.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });

  test('saving runs the model in a worker and pushes bayes/runResult; the same text again comes from the cache', async () => {
    const { uri } = model('save.bayes', MODEL);
    await lsp.open(uri, MODEL);
    const first = finished(uri);
    await save(uri);
    const result = await first;
    assert.equal(result.state, 'done');
    assert.equal(result.cached, false);
    const second = finished(uri);
    assert.equal(await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] }), 'done');
    assert.equal((await second).cached, true);
    const last = await lsp.request<{ state: string; current: boolean } | null>('bayes/lastResult', { uri });
    assert.equal(last?.state, 'done');
    assert.equal(last?.current, true);
  });

  test('"Run Model" on an unchanged file says it reused the last results; a fresh run skips the cache', async () => {
    const text = 'variable Reused { a, b }\nobserve Reused = a\n';
    const { uri } = model('reuse.bayes', text);
    await lsp.open(uri, text);
    const first = finished(uri);
    const ask = (options: object) =>
      lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri, options] });
    assert.equal(await ask({ reportReuse: true }), 'done');
    assert.equal((await first).cached, false);
    const reused = finished(uri);
    assert.equal(await ask({ reportReuse: true }), 'reused');
    assert.equal((await reused).cached, true);
    const fresh = finished(uri);
    assert.equal(await ask({ fresh: true, reportReuse: true }), 'done');
    assert.equal((await fresh).cached, false, 'a fresh run ran the model again');
  });

  test('a newer save cancels a running run within 500 ms; a long run reports cancellable progress', async () => {
    const { uri } = model('slow.bayes', '//! test: spin 20000\n' + MODEL);
    await lsp.open(uri, '//! test: spin 20000\n' + MODEL);
    const running = state(uri, 'running');
    const begun = lsp.nextNotification<ProgressMessage>('$/progress', (p) => p.value.kind === 'begin');
    await save(uri);
    await running;
    const progress = await begun;
    assert.equal(progress.value.cancellable, true);
    assert.match(progress.value.title ?? '', /running/);

    await change(uri, 2, MODEL);
    const cancelled = state(uri, 'cancelled');
    const ended = lsp.nextNotification<ProgressMessage>(
      '$/progress',
      (p) => p.token === progress.token && p.value.kind === 'end',
    );
    const newer = finished(uri);
    const savedAt = performance.now();
    await save(uri);
    await cancelled;
    assert.ok(performance.now() - savedAt < 500, `cancelled after ${(performance.now() - savedAt).toFixed(0)} ms`);
    await ended;
    assert.equal((await newer).state, 'done');
  });

  test('window/workDoneProgress/cancel stops the run', async () => {
    const { uri } = model('cancel.bayes', '//! test: spin 20000\n' + MODEL);
    await lsp.open(uri, '//! test: spin 20000\n' + MODEL);
    const begun = lsp.nextNotification<ProgressMessage>('$/progress', (p) => p.value.kind === 'begin');
    const run = lsp.request<string>('workspace/executeCommand', { command: RUN, arguments: [uri] });
    const { token } = await begun;
    const asked = performance.now();
    await lsp.connection.sendNotification('window/workDoneProgress/cancel', { token });
    assert.equal(await run, 'cancelled');
    assert.ok(performance.now() - asked < 500);
  });

  test('a crashing run ends with a diagnostic and the server keeps answering', async () => {
    const text = '//! test: crash\n' + MODEL;
    const { uri } = model('crash.bayes', text);
    await lsp.open(uri, text);
    const diagnostics = lsp.nextNotification<{ uri: string; diagnostics: { code: string; message: string }[] }>(
      'textDocument/publishDiagnostics',
      (p) => p.uri === uri && p.diagnostics.some((d) => d.code === 'run-failed'),
    );
    assert.equal(await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] }), 'failed');
    assert.match((await diagnostics).diagnostics[0].message, /the run crashed/);
    const symbols = await lsp.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      symbols.map((s) => s.name),
      ['Test', 'observe Test = pos'],
    );
  });

  test('a run over the memory limit is stopped with a diagnostic', async () => {
    const text = '//! test: oom\n' + MODEL;
    const { uri } = model('oom.bayes', text);
    await lsp.open(uri, text);
    const done = finished(uri);
    assert.equal(await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] }), 'failed');
    assert.match((await done).result.diagnostics[0].message, /ran out of memory \(limit 96 MB/);
  });

  test('a run over bayes.run.timeoutSeconds is stopped with a diagnostic', async () => {
    const text = '//! test: spin 60000\n' + MODEL;
    const { uri } = model('timeout.bayes', text);
    await lsp.open(uri, text);
    const done = finished(uri);
    assert.equal(await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] }), 'failed');
    assert.match((await done).result.diagnostics[0].message, /longer than 8 s/);
  });

  test('editing a data file the model reads invalidates the cached result', async () => {
    const csv = join(dir, 'days.csv');
    writeFileSync(csv, 'Test\npos\n');
    const text = 'variable Test { pos, neg }\ndata Days from "days.csv"\n';
    const { uri } = model('data.bayes', text);
    await lsp.open(uri, text);
    const run = async () => {
      const done = finished(uri);
      await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] });
      return (await done).cached;
    };
    assert.equal(await run(), false);
    assert.equal(await run(), true);
    writeFileSync(csv, 'Test\npos\nneg\n');
    await lsp.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: fileUri(csv), type: 2 }],
    });
    assert.equal(await run(), false);
  });
});

describe('restricted mode', () => {
  test('an untrusted workspace is checked but never run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'bayes-untrusted-'));
    const lsp = await startLsp({ rootPath: dir, initializationOptions: { trusted: false } });
    try {
      const uri = fileUri(join(dir, 'm.bayes'));
      const published = await lsp.open(uri, 'variable Test { pos, neg }\nobserve Tset = pos\n');
      assert.match(published.diagnostics[0].message, /Tset/);
      assert.equal(await lsp.request('workspace/executeCommand', { command: RUN, arguments: [uri] }), 'untrusted');
      assert.equal(lsp.notifications.filter((n) => n.method.startsWith('bayes/run')).length, 0);
    } finally {
      await lsp.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
