/** The results panel's page: a strict CSP, nonce'd scripts, nothing remote. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeNonce, panelHtml } from '../../../client/src/panelHtml.js';
import { repoRoot } from '../../support/shared.js';

test("the panel HTML allows only its own resources and nonce'd scripts", () => {
  const nonce = makeNonce();
  const html = panelHtml({
    cspSource: 'vscode-webview://abc',
    nonce,
    scriptUri: 'vscode-webview://abc/dist/webview.js',
    styleUri: 'vscode-webview://abc/dist/webview.css',
    title: 'a <b> & "c"',
    preamble: 'window.x = 1;',
  });
  const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)![1]!;
  assert.deepEqual(csp.split('; '), [
    "default-src 'none'",
    'img-src vscode-webview://abc data:',
    'style-src vscode-webview://abc',
    'font-src vscode-webview://abc',
    `script-src 'nonce-${nonce}'`,
  ]);
  const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]);
  assert.equal(scripts.length, 2);
  for (const attrs of scripts) assert.match(attrs!, new RegExp(`nonce="${nonce}"`));
  assert.doesNotMatch(html, /https?:\/\//, 'no remote resources');
  assert.match(html, /<title>a &lt;b&gt; &amp; &quot;c&quot;<\/title>/);
  assert.notEqual(makeNonce(), nonce);
  assert.ok(nonce.length >= 24);
});

test('the package activates on a restored panel and ships the webview bundle', () => {
  const pkg = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
  assert.ok(pkg.activationEvents.includes('onWebviewPanel:bayes.results'));
  const ignore = readFileSync(join(repoRoot, '.vscodeignore'), 'utf8').split('\n');
  for (const f of ['!dist/webview.js', '!dist/webview.css']) assert.ok(ignore.includes(f), f);
});
