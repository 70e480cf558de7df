/**
 * The packaged extension in a real VS Code (code-server), driven through headless Chromium as a
 * user would: open a model, see the checker's error, hover for a posterior, save for inlay
 * hints, open the network graph, read the status bar. `npm run test:e2e` packages bayes.vsix first.
 * Screenshots of every step land in test/screenshots/e2e/.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { repoRoot } from '../support/shared.js';
import { close } from '../support/close.js';
import { CHROMIUM, launchChromium } from '../support/chromium.js';
import { checkText } from '../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../server/src/workspace/files.js';
import { ensureCodeServer, installExtension, startCodeServer, type RunningCodeServer } from './codeServer.js';
import { clean, UI_TIMEOUT, Workbench } from './workbench.js';

// BAYES_E2E_VSIX tests another build of the extension (e.g. a branch's package) with this harness.
const vsix = process.env.BAYES_E2E_VSIX ?? join(repoRoot, 'bayes.vsix');
const shotDir = join(repoRoot, 'test', 'screenshots', 'e2e');

// A copy of cancer.bayes whose priors no longer sum to 1: the checker's error, not a parse error.
const cancerText = readFileSync(join(repoRoot, 'examples', 'cancer.bayes'), 'utf8');
const brokenText = cancerText.replace('healthy: 0.992', 'healthy: 0.9');
// A model with one expectation that holds and one that fails, for the Test Explorer.
const trustText = `variable Rain { yes, no }
P(Rain) { yes: 0.2, no: 0.8 }
expect P(Rain = yes) ≈ 0.2
expect P(Rain = no) ≈ 0.5 ± 0.01
`;

describe('Bayes in VS Code (code-server + Chromium)', { timeout: 5 * 60_000 }, () => {
  let temp: string;
  let workspace: string;
  let server: RunningCodeServer | undefined;
  let browser: Browser | undefined;
  let wb: Workbench;

  before(async () => {
    // Missing pieces fail loudly: this test exists to show the editor works, a skip would hide it.
    assert.ok(existsSync(vsix), `${vsix} is missing: run \`npm run test:e2e\` (it packages the extension first)`);
    assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's chromium (or set BAYES_CHROMIUM)`);
    ensureCodeServer();
    temp = mkdtempSync(join(tmpdir(), 'bayes-e2e-'));
    workspace = join(temp, 'examples');
    cpSync(join(repoRoot, 'examples'), workspace, { recursive: true });
    writeFileSync(join(workspace, 'broken.bayes'), brokenText);
    writeFileSync(join(workspace, 'trust.bayes'), trustText);
    const dirs = { home: temp, userDataDir: join(temp, 'user-data'), extensionsDir: join(temp, 'extensions') };
    writeUserSettings(dirs.userDataDir);
    installExtension(vsix, dirs);
    server = await startCodeServer(workspace, dirs, join(temp, 'code-server.log'));
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(UI_TIMEOUT);
    rmSync(shotDir, { recursive: true, force: true });
    wb = new Workbench(page, shotDir);
    await wb.open(server.url, workspace);
    await wb.shot('workbench');
  });

  /** A test that leaves a screenshot of the editor as the step ended, passed or failed. */
  const step = (name: string, shot: string, fn: () => Promise<void>) =>
    test(name, async () => {
      try {
        await fn();
      } finally {
        await wb.shot(shot);
      }
    });

  after(async () => {
    await browser?.close().catch(() => undefined);
    await server?.stop();
    // Logs beside the screenshots for a failed run: code-server's own, and VS Code's (extension
    // host, the Bayes output channels) from the user-data folder.
    if (server) cpSync(server.logFile, join(shotDir, 'code-server.log'));
    if (temp && existsSync(join(temp, 'user-data', 'logs')))
      cpSync(join(temp, 'user-data', 'logs'), join(shotDir, 'logs'), { recursive: true });
    if (temp) rmSync(temp, { recursive: true, force: true });
  });

  step('the getting-started walkthrough opens on the first activation after install', 'walkthrough', async () => {
    // The workspace holds .bayes files, so the extension activates at start-up and opens it once.
    const walkthrough = wb.page.locator('.gettingStartedContainer', { hasText: 'Get started with Bayes' });
    await walkthrough.waitFor({ timeout: 60_000 });
    await walkthrough.getByText('Open an example', { exact: false }).first().waitFor();
    await wb.shot('walkthrough-open');
    await wb.page.keyboard.press('Escape');
    await wb.runCommand('View: Close All Editors');
    await walkthrough.waitFor({ state: 'detached' });
  });

  step('opens cancer.bayes as a Bayes model', 'cancer-open', async () => {
    await wb.openFile('cancer.bayes', 'hypotheses Diagnosis');
    // The language mode in the status bar comes from the installed extension's contribution.
    await wb.statusItem(/^Bayes$/).waitFor();
  });

  step('a broken copy shows the checker error as a squiggle and in the Problems panel', 'broken-problems', async () => {
    const expected = checkText(
      brokenText,
      nodeEnvironment({ documentPath: join(workspace, 'broken.bayes') }),
    ).diagnostics.find((d) => d.severity === 'error');
    assert.ok(expected, 'the broken copy should have a checker error');
    assert.match(expected.message, /0\.908/);
    await wb.openFile('broken.bayes', 'hypotheses Diagnosis');
    await wb.activeEditor().locator('.squiggly-error').first().waitFor();
    const rows = await wb.problems();
    const row = rows.filter({ hasText: expected.message }).first();
    await row.waitFor();
    // Problems shows "[Ln 8, Col 12]": 1-based, from the diagnostic's 0-based range.
    const { line, character } = expected.range.start;
    assert.match(await row.innerText(), new RegExp(`Ln ${line + 1}, Col ${character + 1}`));
  });

  step('saving runs the model and shows inlay hints', 'inlay-hints', async () => {
    await wb.closePanel();
    await wb.openFile('cancer.bayes', 'hypotheses Diagnosis');
    await wb.activeEditor().locator('.view-lines').click();
    await wb.page.keyboard.press('Control+S');
    // The posterior query's hint names the MAP hypothesis with its posterior 1 - 0.2085 = 0.7915.
    const query = wb.activeEditor().locator('.view-line', { hasText: 'query posterior Diagnosis' }).first();
    await assertEventually(
      async () => /⇒.*healthy.*0\.7915/.test(clean(await query.innerText())),
      'an inlay hint ⇒ healthy 0.7915 after the posterior query',
      () => query.innerText(),
    );
    const expectLine = wb
      .activeEditor()
      .locator('.view-line', { hasText: 'expect P(Diagnosis = cancer | Test = pos)' })
      .first();
    await assertEventually(
      async () => (await expectLine.innerText()).includes('✓'),
      'a ✓ inlay hint after the passing expect',
      () => expectLine.innerText(),
    );
  });

  step('hovering cancer shows its posterior 0.2085', 'hover-cancer', async () => {
    // Hover reads the last run, which the save above started; hover the hypothesis where the
    // hypothesis space declares it (with its prior 0.008).
    const text = await wb.hover(/^\s*cancer:\s+0\.008/, 'cancer');
    assert.match(text, /0\.2085/, `hover text: ${text}`);
  });

  step('the status bar item shows the run', 'status-bar', async () => {
    // One result per query and expect statement (3 + 6 in cancer.bayes); none failing.
    const statements = cancerText.split('\n').filter((l) => /^(query|expect)\b/.test(l)).length;
    const item = wb.statusItem(/Bayes: \d+ results/);
    await item.waitFor();
    const text = clean(await item.innerText());
    assert.match(text, new RegExp(`Bayes: ${statements} results`), `status bar: ${text}`);
    assert.doesNotMatch(text, /failures/, `status bar: ${text}`);
  });

  step('"Bayes: Show Network Graph" opens the graph with the nodes and marginals', 'network-graph', async () => {
    await wb.openFile('cancer.bayes', 'hypotheses Diagnosis');
    await wb.runCommand('Bayes: Show Network Graph');
    const graph = (await wb.webviewFrame('svg.network')).locator('svg.network');
    const nodes = await graph
      .locator('g.node')
      .evaluateAll((gs) => gs.map((g) => (g as SVGGElement).dataset.id).sort());
    assert.deepEqual(nodes, ['Diagnosis', 'Test']);
    // No evidence in cancer.bayes, so the marginals are the priors: P(cancer) = 0.008 and
    // P(Test = pos) = P(pos | cancer) P(cancer) + P(pos | healthy) P(healthy) = 0.98·0.008 + 0.03·0.992.
    const marginal = async (node: string, state: string) =>
      Number(
        await graph.locator(`g.node[data-id="${node}"] rect.bar[data-state="${state}"]`).getAttribute('data-value'),
      );
    close(await marginal('Diagnosis', 'cancer'), 0.008, 1e-9);
    close(await marginal('Diagnosis', 'healthy'), 0.992, 1e-9);
    close(await marginal('Test', 'pos'), 0.98 * 0.008 + 0.03 * 0.992, 1e-9);
    close(await marginal('Test', 'neg'), 0.02 * 0.008 + 0.97 * 0.992, 1e-9);
    // What the user reads beside the bars.
    assert.match(clean((await graph.textContent()) ?? ''), /0\.0376/);
  });

  step(
    'clicking a state in the panel sets it as evidence: P(cancer | Test = pos) = 0.2085',
    'panel-click',
    async () => {
      const frame = await wb.webviewFrame('svg.network');
      const graph = frame.locator('svg.network');
      await graph.locator('g.node[data-id="Test"] rect.state-hit[data-state="pos"]').click();
      const cancer = graph.locator('g.node[data-id="Diagnosis"] rect.bar[data-state="cancer"]');
      // Bayes' rule: 0.98·0.008 / (0.98·0.008 + 0.03·0.992) = 0.2085.
      const want = (0.98 * 0.008) / (0.98 * 0.008 + 0.03 * 0.992);
      await assertEventually(
        async () => Math.abs(Number(await cancer.getAttribute('data-value')) - want) < 1e-9,
        `P(cancer | pos) = ${want} on the graph`,
        async () => `${await cancer.getAttribute('data-value')}`,
      );
      assert.match(clean((await frame.locator('.evidence-chips').innerText()) ?? ''), /Test = pos/);
    },
  );

  step(
    'the Test Explorer lists the models and runs their expect lines: one passes, one fails',
    'test-explorer',
    async () => {
      await wb.openFile('trust.bayes', 'variable Rain');
      await wb.runCommand('Testing: Focus on Test Explorer View');
      const rows = wb.page.locator('.test-explorer .monaco-list-row');
      // Discovered: every .bayes file of the workspace is an item (cancer.bayes among them).
      await rows.filter({ hasText: 'cancer.bayes' }).first().waitFor();
      const file = rows.filter({ hasText: 'trust.bayes' }).first();
      await file.waitFor();
      if ((await file.getAttribute('aria-expanded')) !== 'true') await file.locator('.monaco-tl-twistie').click();
      // Run the file's tests from its row in the Testing view, as a user does.
      await rows.filter({ hasText: 'expect P(Rain = yes)' }).first().waitFor();
      await file.hover();
      await file.locator('.codicon-testing-run-icon').first().click();
      const state = async (label: string) => {
        const row = rows.filter({ hasText: label }).first();
        const aria = (await row.getAttribute('aria-label')) ?? '';
        const icons = await row.locator('.codicon').evaluateAll((els) => els.map((e) => e.className).join(' '));
        return `${aria} ${icons}`;
      };
      await assertEventually(
        async () => /passed/i.test(await state('expect P(Rain = yes)')),
        'expect P(Rain = yes) ≈ 0.2 shown as passed',
        () => state('expect P(Rain = yes)'),
      );
      await assertEventually(
        async () => /failed/i.test(await state('expect P(Rain = no)')),
        'expect P(Rain = no) ≈ 0.5 ± 0.01 shown as failed',
        () => state('expect P(Rain = no)'),
      );
    },
  );

  step(
    '"Bayes: Open Example…" lists each model with a line and opens it from a folder in the Explorer',
    'example',
    async () => {
      await wb.runCommand('Bayes: Open Example');
      // The list is read from the shipped files: type only once it is up.
      await wb.page.locator('.quick-input-widget', { hasText: 'Bayes: open an example model' }).waitFor();
      const row = wb.page.locator('.quick-input-list .monaco-list-row', { hasText: 'forest.bayes' }).first();
      await wb.page.keyboard.type('forest.bayes');
      await row.waitFor();
      // Its description line: the model's doc comment.
      assert.match(clean(await row.innerText()), /the forest-fire belief network/);
      await wb.shot('example-list');
      await row.click();
      await wb.page.locator('.tabs-container .tab.active', { hasText: 'forest.bayes' }).waitFor();
      await wb.runCommand('View: Show Explorer');
      // Opened from bayes-examples/ in the workspace: the Explorer shows the folder.
      await wb.page
        .locator('.explorer-folders-view .monaco-list-row', { hasText: 'bayes-examples' })
        .first()
        .waitFor({ timeout: UI_TIMEOUT });
      assert.ok(existsSync(join(workspace, 'bayes-examples', 'forest.bayes')), 'the copy is in the workspace folder');
      // The editor's breadcrumbs show where it came from (two groups are open: the active one is the pick's).
      const crumbs = clean(await wb.editorArea().locator('.breadcrumbs-control').first().innerText());
      assert.match(crumbs, /bayes-examples/, `breadcrumbs: ${crumbs}`);
    },
  );
});

function writeUserSettings(userDataDir: string): void {
  mkdirSync(join(userDataDir, 'User'), { recursive: true });
  const settings = {
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'security.workspace.trust.enabled': false,
    'extensions.ignoreRecommendations': true,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'editor.inlayHints.enabled': 'on',
    'editor.hover.delay': 200,
    'chat.disableAIFeatures': true,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
  };
  writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

/** Polls until `ok` holds; on timeout fails with `what` and what was last seen. */
async function assertEventually(
  ok: () => Promise<boolean>,
  what: string,
  seen: () => Promise<string>,
  timeoutMs = UI_TIMEOUT,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await ok().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  assert.fail(`expected ${what}; saw: ${clean(await seen().catch((e: Error) => e.message))}`);
}
