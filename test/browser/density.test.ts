/**
 * Continuous variables in the results panel (headless Chromium), issue 29: a Gaussian network's
 * nodes draw their densities (prior dashed, posterior solid) with the posterior mean and variance,
 * equal to the closed form of Gaussian conditioning to 1e-9 (read from the drawing's data
 * attributes); a number typed as evidence in a node's detail view (Enter) goes to the real
 * language server (`bayes/marginals`, the hybrid engine in the marginals worker) and every density
 * is redrawn conditioned on it; the chip, the header and the node show it, and Clear removes it.
 * A conditional linear Gaussian network (Hugin NET, the waste incinerator) draws a mixture and
 * lists its components, equal to `bayes marginals --json`; axe-core finds no serious violation in
 * a continuous node's detail view.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunResult } from '../../server/src/protocol/runResult.js';
import type { MarginalsParams, MarginalsReply } from '../../server/src/protocol/messages.js';
import type { MarginalsRequestMessage, WebviewMessage } from '../../server/src/protocol/webviewMessages.js';
import { RUN_RESULT_VERSION } from '../../server/src/protocol/webviewMessages.js';
import { readHuginHybrid } from '../../server/src/model/hugin.js';
import { DEFAULT_BUDGETS } from '../../server/src/engine/budget.js';
import { hybridNetworkEntry } from '../../server/src/run/hybridNetworkResult.js';
import { interactiveHybridMarginals } from '../../server/src/run/hybridAnswers.js';
import { CHROMIUM, type PanelPage, panelHarness } from './support/harness.js';
import { cli, runModel } from './support/fixtures.js';
import { fileUri, startLsp, type LspSession } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';

const ready = existsSync(CHROMIUM);
const harness = panelHarness(ready);
let lsp: LspSession;

const MODEL = `network Body {
  variable Height, Weight, Fat : real

  P(Height) ~ Normal(mean: 170, variance: 49)
  P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)
  P(Fat | Weight) ~ Normal(mean: 2, Weight: 0.1, variance: 1)
}
`;
const dir = mkdtempSync(join(tmpdir(), 'bayes-density-'));
const modelPath = join(dir, 'body.bayes');
writeFileSync(modelPath, MODEL);
const uri = fileUri(modelPath);

/** The chain's joint: means and covariances from the regressions (closed form). */
const vH = 49,
  vW = 0.25 * vH + 4,
  vF = 0.01 * vW + 1;
const mu: Record<string, number> = { Height: 170, Weight: 75, Fat: 2 + 0.1 * 75 };
const cov: Record<string, Record<string, number>> = {
  Height: { Height: vH, Weight: 0.5 * vH, Fat: 0.05 * vH },
  Weight: { Height: 0.5 * vH, Weight: vW, Fat: 0.1 * vW },
  Fat: { Height: 0.05 * vH, Weight: 0.1 * vW, Fat: vF },
};
const prior = (x: string) => ({ mean: mu[x]!, variance: cov[x]![x]! });
/** x | Weight = w by the Schur complement. */
const givenWeight = (x: string, w: number) =>
  x === 'Weight'
    ? { mean: w, variance: 0 }
    : {
        mean: mu[x]! + (cov[x]!.Weight! / vW) * (w - mu.Weight!),
        variance: cov[x]![x]! - cov[x]!.Weight! ** 2 / vW,
      };

before(async () => {
  if (!ready) return;
  lsp = await startLsp();
  await lsp.open(uri, MODEL);
});
after(async () => {
  await lsp?.close();
});

/** Answers the page's `marginals` requests with `answer`, as client/src/resultsPanel.ts relays them to the server. */
function fakeHost(p: PanelPage, answer: (m: MarginalsParams) => Promise<MarginalsReply>): { stop(): void } {
  let seen = 0;
  let running = true;
  void (async () => {
    while (running) {
      const posted = await p.posted().catch(() => [] as WebviewMessage[]);
      for (const m of posted.slice(seen).filter((x): x is MarginalsRequestMessage => x.type === 'marginals')) {
        const reply = await answer({
          uri,
          network: m.network,
          evidence: m.evidence,
          likelihoods: m.likelihoods,
          soft: m.soft,
        });
        await p
          .post({ type: 'marginals', version: RUN_RESULT_VERSION, id: m.id, network: m.network, reply })
          .catch(() => undefined);
      }
      seen = posted.length;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return { stop: () => void (running = false) };
}

async function openGraph(run: RunResult): Promise<PanelPage> {
  const p = await harness.open('dark');
  await p.show(run);
  await p.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: `file:///models/${run.file}`, view: 'graph' });
  return p;
}

type Moments = Record<string, { mean: number; variance: number; prior: number; posterior: number }>;

/** Each continuous node's drawn posterior mean and variance (data attributes) and its curves. */
function drawnMoments(p: PanelPage): Promise<Moments> {
  return p.page.evaluate(() => {
    const out: Record<string, { mean: number; variance: number; prior: number; posterior: number }> = {};
    for (const g of Array.from(document.querySelectorAll('g.node')) as SVGGElement[]) {
      const t = g.querySelector('text.moments') as SVGTextElement | null;
      if (!t) continue;
      out[g.dataset.id!] = {
        mean: Number(t.dataset.mean),
        variance: Number(t.dataset.variance),
        prior: g.querySelectorAll('.density.prior').length,
        posterior: g.querySelectorAll('.density.posterior').length,
      };
    }
    return out;
  });
}

function assertMoments(got: Moments, want: (x: string) => { mean: number; variance: number }, what: string) {
  assert.deepEqual(Object.keys(got).sort(), ['Fat', 'Height', 'Weight'], what);
  for (const [x, m] of Object.entries(got)) {
    assert.ok(Math.abs(m.mean - want(x).mean) <= 1e-9, `${what}: mean of ${x} ${m.mean} vs ${want(x).mean}`);
    assert.ok(Math.abs(m.variance - want(x).variance) <= 1e-9, `${what}: variance of ${x} ${m.variance}`);
    assert.deepEqual([m.prior, m.posterior], [1, 1], `${what}: ${x} draws its prior and its posterior`);
  }
}

async function settled(p: PanelPage, requests: number): Promise<void> {
  await p.page.waitForFunction(
    (n) =>
      (window as unknown as { __posted: WebviewMessage[] }).__posted.filter((m) => m.type === 'marginals').length >= n,
    requests,
  );
  await p.page.waitForFunction(() =>
    /exact \(Gaussian conditioning\) in|Cannot use/.test(document.querySelector('.evidence-status')?.textContent ?? ''),
  );
}

test('a Gaussian network: densities drawn, mean and variance = the closed form; a number as evidence conditions them', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runModel('body.bayes', MODEL);
  const p = await openGraph(run);
  const host = fakeHost(p, (m) => lsp.request<MarginalsReply>('bayes/marginals', m));
  try {
    assertMoments(await drawnMoments(p), prior, 'no evidence');
    // The prior curve is dashed, the posterior solid (the stylesheet's, as drawn).
    const dash = await p.page.$eval(
      'g.node[data-id="Height"] path.density.prior',
      (e) => getComputedStyle(e).strokeDasharray,
    );
    assert.notEqual(dash, 'none');
    await p.screenshot('density-gaussian-prior');

    // Weight's detail view: Enter on the number sets it as evidence.
    await p.page.click('g.node[data-id="Weight"]');
    const input = p.page.getByLabel('Observed value of Weight:');
    await input.fill('80');
    await input.press('Enter');
    await settled(p, 1);
    assertMoments(await drawnMoments(p), (x) => givenWeight(x, 80), 'Weight = 80');
    assert.deepEqual(await p.page.$$eval('.evidence-chips .chip', (cs) => cs.map((c) => c.firstChild!.textContent)), [
      'Weight = 80',
    ]);
    assert.match(await p.page.locator('.network-summary').innerText(), /evidence in force: 1 observed/);
    assert.equal(await p.page.locator('g.node.evidence').getAttribute('data-id'), 'Weight');
    assert.match((await p.page.locator('g.node[data-id="Weight"]').getAttribute('aria-label'))!, /observed 80/);
    // The list and the detail view say the same numbers.
    const height = givenWeight('Height', 80);
    assert.equal(
      Number(await p.page.locator('.marginal-row[data-variable="Height"] [data-mean]').getAttribute('data-mean')),
      height.mean,
    );
    await p.page.click('g.node[data-id="Height"]');
    const detailMean = Number(await p.page.locator('.node-detail .posterior-mean').getAttribute('data-value'));
    assert.ok(Math.abs(detailMean - height.mean) <= 1e-9);
    await p.screenshot('density-gaussian-weight-80');

    // Another value, then the keyboard's way to the Set button; then Clear.
    await p.page.click('g.node[data-id="Weight"]');
    await p.page.getByLabel('Observed value of Weight:').fill('62.5');
    await p.page.getByLabel('Set the observed value of Weight').click();
    await settled(p, 2);
    assertMoments(await drawnMoments(p), (x) => givenWeight(x, 62.5), 'Weight = 62.5');
    await p.page.getByLabel('Clear the observed value of Weight').click();
    await p.page.waitForFunction(() => document.querySelectorAll('g.node.evidence').length === 0);
    assertMoments(await drawnMoments(p), prior, 'cleared');
    // Written back as the language reads it.
    await p.page.getByLabel('Observed value of Weight:').fill('71');
    await p.page.getByLabel('Observed value of Weight:').press('Enter');
    await settled(p, 3);
    await p.page.click('.evidence-write');
    const write = (await p.posted()).filter((m) => m.type === 'writeObserve');
    assert.deepEqual(
      write.map((m) => (m as { lines: string[] }).lines),
      [['observe Weight = 71 in Body']],
    );
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
  }
});

test('a CLG network (waste.net): a node draws its mixture; the detail view lists the components of `bayes marginals`', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const file = join(repoRoot, 'examples', 'data', 'waste.net');
  const read = readHuginHybrid(readFileSync(file, 'utf8'), DEFAULT_BUDGETS);
  assert.ok('hybrid' in read);
  const net = read.hybrid;
  const at = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const entry = hybridNetworkEntry(net, {}, DEFAULT_BUDGETS, { name: 'waste', range: at, source: 'waste.net' });
  const run: RunResult = { version: RUN_RESULT_VERSION, file: 'waste.bayes', diagnostics: [], results: [entry] };
  const p = await openGraph(run);
  const host = fakeHost(p, (m) => Promise.resolve(interactiveHybridMarginals(net, m)));
  type Cli = { marginals: Record<string, { components: Array<{ weight: number; mean: number; variance: number }> }> };
  const components = async () =>
    p.page.$$eval('.node-detail tr.component', (rows) =>
      rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => Number((td as HTMLElement).dataset.value))),
    );
  const want = (args: string[]) =>
    (JSON.parse(cli(['marginals', file, '--json', ...args])) as Cli).marginals['D']!.components.map((c) => [
      c.weight,
      c.mean,
      c.variance,
    ]);
  const same = (got: number[][], expected: number[][], what: string) => {
    assert.equal(got.length, expected.length, what);
    got.forEach((row, i) => row.forEach((x, j) => assert.ok(Math.abs(x - expected[i]![j]!) <= 1e-9, `${what}: ${x}`)));
  };
  try {
    await p.page.click('g.node[data-id="D"]');
    const none = await components();
    assert.ok(none.length > 1, 'D is a mixture');
    same(none, want([]), 'no evidence');
    assert.equal(await p.page.locator('g.node[data-id="D"] path.density.posterior').count(), 1);
    // A discrete state clicked in the graph, and a number on a continuous node: the mixture given both.
    await p.page.click('g.node[data-id="B"] rect.state-hit[data-state="stable"]');
    await settled(p, 1);
    await p.page.click('g.node[data-id="L"]');
    await p.page.getByLabel('Observed value of L:').fill('1.1');
    await p.page.getByLabel('Observed value of L:').press('Enter');
    await settled(p, 2);
    await p.page.click('g.node[data-id="D"]');
    same(await components(), want(['-e', 'B=stable', '-e', 'L=1.1']), 'B = stable, L = 1.1');
    await p.screenshot('density-clg-waste');

    // axe-core on a continuous node's detail view and the graph.
    assert.deepEqual(await p.seriousViolations(), []);
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
  }
});
