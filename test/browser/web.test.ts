/**
 * The web build (VS Code for the Web) in headless Chromium: dist/browser/server.js runs in a Web
 * Worker and is driven over the LSP from the page, which answers the server's file reads
 * (`bayes/readFile`) as the web client does with workspace.fs. A model and a data file: the
 * diagnostics, a hover and a run, with the numbers checked against Mitchell's and the data's.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { CHROMIUM, launchChromium } from '../support/chromium.js';
import { repoRoot } from '../support/shared.js';
import type { LastResult } from '../../server/src/protocol/messages.js';
import type { ExpectResult, PosteriorResult, RunResult } from '../../server/src/protocol/runResult.js';

const ready = existsSync(CHROMIUM);
const ROOT = '/ws';
let server: Server;
let browser: Browser;
let page: Page;
const problems: string[] = [];

before(async () => {
  if (!ready) return;
  const bundle = await esbuild.build({
    entryPoints: [join(repoRoot, 'test/browser/support/webLspPage.ts')],
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    logLevel: 'warning',
  });
  const pageJs = bundle.outputFiles[0].text;
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/')
      return void res.writeHead(200, { 'content-type': 'text/html' }).end('<script src="/page.js"></script>');
    if (path === '/page.js') return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(pageJs);
    if (path === '/dist/browser/server.js') {
      return void res.writeHead(200, { 'content-type': 'text/javascript' }).end(readFileSync(join(repoRoot, path)));
    }
    res.writeHead(path === '/favicon.ico' ? 204 : 404).end();
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  await page.goto(`http://127.0.0.1:${(server.address() as { port: number }).port}/`);
  await page.waitForFunction(() => (window as unknown as { lspReady?: boolean }).lspReady === true);
  await call('request', 'initialize', {
    processId: null,
    rootUri: `vscode-test-web://mount${ROOT}`,
    workspaceFolders: [{ uri: `vscode-test-web://mount${ROOT}`, name: 'ws' }],
    capabilities: { workspace: { configuration: true } },
    initializationOptions: { trusted: true },
  });
  await call('notify', 'initialized', {});
});

after(async () => {
  await browser?.close();
  server?.close();
});

/** Calls window.lsp[name](...args) in the page. */
function call<T = unknown>(name: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([n, a]) => {
      const lsp = (window as unknown as { lsp: Record<string, (...x: unknown[]) => unknown> }).lsp;
      return lsp[n as string](...(a as unknown[]));
    },
    [name, args] as const,
  ) as Promise<T>;
}

interface Diagnostic {
  message: string;
  severity: number;
  range: { start: { line: number } };
}

async function open(name: string, text: string): Promise<string> {
  const uri = `vscode-test-web://mount${ROOT}/${name}`;
  await call('notify', 'textDocument/didOpen', { textDocument: { uri, languageId: 'bayes', version: 1, text } });
  return uri;
}

async function diagnosticsOf(uri: string): Promise<Diagnostic[]> {
  for (let i = 0; i < 200; i++) {
    const all = await call<Array<{ uri: string; diagnostics: Diagnostic[] }>>('published');
    const mine = all.filter((p) => p.uri === uri);
    if (mine.length > 0) return mine[mine.length - 1].diagnostics;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`no diagnostics for ${uri}`);
}

async function run(uri: string): Promise<RunResult> {
  const state = await call('request', 'workspace/executeCommand', { command: 'bayes.server.run', arguments: [uri] });
  assert.equal(state, 'done');
  const last = await call<LastResult | null>('request', 'bayes/lastResult', { uri });
  assert.ok(last);
  return last.result;
}

test("cancer.bayes in the web worker: clean check, a hover with the prior, a run with Mitchell's posterior", async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const text = readFileSync(join(repoRoot, 'examples/cancer.bayes'), 'utf8');
  const uri = await open('cancer.bayes', text);
  const errors = (await diagnosticsOf(uri)).filter((d) => d.severity === 1);
  assert.deepEqual(errors, []);

  const lines = text.split('\n');
  const line = lines.findIndex((l) => l.includes('healthy: 0.992'));
  const hover = await call<{ contents: { value: string } } | null>('request', 'textDocument/hover', {
    textDocument: { uri },
    position: { line, character: lines[line].indexOf('healthy') + 2 },
  });
  assert.ok(hover, 'a hover on the hypothesis');
  assert.match(hover.contents.value, /0\.992/);

  const result = await run(uri);
  const failed = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(failed, [], 'every expect holds in the web worker');
  const expects = result.results.filter((r): r is ExpectResult => r.kind === 'expect');
  assert.equal(expects.length, 6);
  assert.ok(expects.every((e) => e.passed));
  const posterior = result.results.find((r): r is PosteriorResult => r.kind === 'posterior');
  assert.ok(posterior, 'the posterior query answered');
  // P(cancer | +) = .98 × .008 / (.98 × .008 + .03 × .992) (Mitchell §6.2.1)
  const exact = (0.98 * 0.008) / (0.98 * 0.008 + 0.03 * 0.992);
  const cancer = posterior.rows.find((r) => r.hypothesis === 'cancer');
  assert.ok(cancer?.posterior !== undefined);
  assert.ok(Math.abs(cancer.posterior - exact) < 1e-12, `${cancer.posterior} vs ${exact}`);
  assert.deepEqual(problems, []);
});

test('a classifier trained on one CSV and tested on another: the files come from the page', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  for (const name of ['fruit_train.csv', 'fruit_test.csv']) {
    await call('putFile', `${ROOT}/data/${name}`, readFileSync(join(repoRoot, 'examples/data', name), 'utf8'));
  }
  const text = readFileSync(join(repoRoot, 'examples/train_test_files.bayes'), 'utf8');
  const uri = await open('train_test_files.bayes', text);
  assert.deepEqual(
    (await diagnosticsOf(uri)).filter((d) => d.severity === 1),
    [],
  );
  const result = await run(uri);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  const expects = result.results.filter((r): r is ExpectResult => r.kind === 'expect');
  assert.equal(expects.length, 3);
  // P(apple | green, big) = 2/3 (worked in the example's comment) and accuracy 4/5 on the test file
  const [posterior, , accuracy] = expects;
  assert.ok(
    expects.every((e) => e.passed),
    JSON.stringify(expects.map((e) => [e.actual, e.expected])),
  );
  assert.ok(Math.abs(Number(posterior.actual) - 2 / 3) < 1e-12);
  assert.ok(Math.abs(Number(accuracy.actual) - 4 / 5) < 1e-12);
  const reads = await call<string[]>('reads');
  assert.ok(reads.includes(`${ROOT}/data/fruit_train.csv`) && reads.includes(`${ROOT}/data/fruit_test.csv`));
  assert.deepEqual(problems, []);
});

test('a missing file and a path outside the workspace folder: diagnostics on the path, nothing read outside', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  await call('putFile', '/secret.csv', 'A,B\nx,y\n');
  const text = 'data Missing from "data/nothing.csv"\ndata Outside from "../secret.csv"\n';
  const uri = await open('confined.bayes', text);
  const diagnostics = await diagnosticsOf(uri);
  const onLine = (line: number) => diagnostics.filter((d) => d.range.start.line === line && d.severity === 1);
  assert.equal(onLine(0).length, 1, JSON.stringify(diagnostics));
  assert.match(onLine(0)[0].message, /nothing\.csv/);
  assert.equal(onLine(1).length, 1, JSON.stringify(diagnostics));
  assert.match(onLine(1)[0].message, /outside/);
  const reads = await call<string[]>('reads');
  assert.ok(!reads.includes('/secret.csv'), 'the server never asks for a file outside the workspace folder');
  assert.deepEqual(problems, []);
});

test('a corpus archive, which the web build does not read: a diagnostic on the statement, not a crash', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  await call('putFile', `${ROOT}/news.tar.gz`, 'not read: the web build opens no archive');
  const text =
    'corpus News from "news.tar.gz" label folder\nclassifier NB = text_naive_bayes(News)\n' +
    'query evaluate NB split 1/2 { seed: 1 }\n';
  const uri = await open('corpora.bayes', text);
  await diagnosticsOf(uri);
  const result = await run(uri);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.match(errors[0].message, /cannot read archives/);
  assert.equal(errors[0].range.start.line, 0);
  assert.deepEqual(problems, []);
});

test("a run past bayes.run.timeoutSeconds stops in the worker by the engine's CancelSignal", async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  await call('setSettings', { run: { timeoutSeconds: 1 } });
  await call('notify', 'workspace/didChangeConfiguration', { settings: {} });
  const net = readFileSync(join(repoRoot, 'examples/cancer.bayes'), 'utf8').split('\nquery')[0];
  // 10^8 likelihood-weighting samples take 4 s in Node on this machine: the signal stops them after 1 s.
  const text = `${net}\nquery P(Diagnosis | Test = pos) using likelihood_weighting { samples: 100000000, seed: 1 }\n`;
  const uri = await open('slow.bayes', text);
  await diagnosticsOf(uri);
  const started = Date.now();
  const state = await call('request', 'workspace/executeCommand', { command: 'bayes.server.run', arguments: [uri] });
  const elapsed = Date.now() - started;
  await call('setSettings', null);
  await call('notify', 'workspace/didChangeConfiguration', { settings: {} });
  assert.equal(state, 'failed');
  assert.ok(elapsed < 3000, `stopped after ${elapsed} ms`);
  const last = await call<LastResult | null>('request', 'bayes/lastResult', { uri });
  assert.match(last!.result.diagnostics[0].message, /longer than 1 s/);
  assert.deepEqual(problems, []);
});
