/**
 * Influence diagrams in the results webview (headless Chromium): the wildcatter's graph draws
 * decisions as rectangles, utilities as diamonds and information arcs dashed; the results show
 * each decision's rule with the run's expected utilities.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkResult, PolicyResult } from '../../server/src/protocol/runResult.js';
import { CHROMIUM, panelHarness } from './support/harness.js';
import { runExample, runModel } from './support/fixtures.js';
import { repoRoot } from '../support/shared.js';
import { fileUri, startLsp } from '../support/lspClient.js';
import type { ExpectedUtilityResult } from '../../server/src/protocol/runResult.js';
import { relay } from './support/relay.js';
import { readFileSync } from 'node:fs';
import type { PanelPage } from './support/harness.js';

const ready = existsSync(CHROMIUM);
const harness = panelHarness(ready);

test('the oil wildcatter: decisions as rectangles, utilities as diamonds, the rules with their EUs', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('oil-wildcatter.bayes');
  const net = run.results.find((r): r is NetworkResult => r.kind === 'network' && r.network === 'Wildcatter')!;
  const policy = run.results.find((r): r is PolicyResult => r.kind === 'policy')!;
  const p = await harness.open('light');
  try {
    await p.show(run);
    await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
    const within = (sel: string) =>
      p.page.$$eval(`figure:has(svg[aria-label^="Network Wildcatter"]) ${sel}`, (gs) =>
        gs.map((g) => (g as SVGGElement).dataset.id).sort(),
      );
    assert.deepEqual(await within('g.node.decision'), ['Drill', 'Test']);
    assert.deepEqual(await within('g.node.utility'), ['Payoff', 'TestCost']);
    assert.equal(
      await p.page.locator('figure:has(svg[aria-label^="Network Wildcatter"]) g.node.utility polygon').count(),
      2,
    );
    // Decisions carry no marginal bars; chance nodes do.
    assert.equal(await p.page.locator('g.node.decision rect.bar').count(), 0);
    assert.ok((await p.page.locator('g.node[data-id="Oil"] rect.bar').count()) > 0);
    assert.equal(
      await p.page.locator('figure:has(svg[aria-label^="Network Wildcatter"]) polyline.edge.information').count(),
      net.decisions!.reduce((n, d) => n + d.information.length, 0),
    );
    await p.page.hover('g.node[data-id="Payoff"]');
    const utilities = await p.page.$$eval('.tooltip td.num', (tds) =>
      tds.map((td) => Number(td.getAttribute('data-value'))),
    );
    assert.deepEqual(
      utilities,
      net.utilities!.find((u) => u.name === 'Payoff')!.rows.map((r) => r.utility),
    );
    await p.screenshot('wildcatter-graph-light');
    await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'results' });
    // The first policy entry is `query policy Wildcatter` (the `expect policy` lines repeat it).
    const table = await p.page.$eval('table[aria-label="rule of Drill"]', (t) =>
      Array.from(t.querySelectorAll('tbody tr')).map((tr) =>
        Array.from(tr.querySelectorAll('td')).map((td) => td.getAttribute('data-value') ?? td.textContent),
      ),
    );
    const expected = policy.rules[1]!.rows.filter((r) => r.probability! > 0).map((r) => [
      r.given.Test!,
      r.given.Seismic!,
      String(r.expectedUtility!.yes),
      String(r.expectedUtility!.no),
      String(r.probability),
      r.choice,
    ]);
    assert.deepEqual(table, expected);
    await p.screenshot('wildcatter-results-light');
    assert.deepEqual(p.problems, [], 'no page errors, CSP violations or console errors');
  } finally {
    await p.close();
  }
});

test('the decision nodes show the expected utilities of `query eu` for the same evidence (1e-9), the best marked; evidence recomputes them', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const model = join(repoRoot, 'examples', 'oil-wildcatter.bayes');
  const text = readFileSync(model, 'utf8');
  const uri = fileUri(model);
  const lsp = await startLsp();
  await lsp.open(uri, text);
  /** `query eu D in Wildcatter [given e]` in the language, for both decisions. */
  const languageEu = (given: string) => {
    const run = runModel(
      'eu.bayes',
      `${text}\nquery eu Test in Wildcatter${given}\nquery eu Drill in Wildcatter${given}\n`,
    );
    return Object.fromEntries(
      run.results
        .filter((r): r is ExpectedUtilityResult => r.kind === 'expectedUtility')
        .slice(-2)
        .map((r) => [r.decision, r.expectedUtility]),
    );
  };
  const drawn = (p: PanelPage) =>
    p.page.$$eval('#net-Wildcatter g.node.decision text.line', (ts) => {
      const out: Record<string, Record<string, number>> = {};
      for (const t of ts) {
        const id = (t.closest('g.node') as SVGGElement).dataset.id!;
        (out[id] ??= {})[t.getAttribute('data-key')!] = Number(t.getAttribute('data-value'));
      }
      return out;
    });
  const best = (p: PanelPage) =>
    p.page.$$eval('#net-Wildcatter g.node.decision text.line.best', (ts) =>
      ts.map((t) => `${(t.closest('g.node') as SVGGElement).dataset.id}=${t.getAttribute('data-key')}`).sort(),
    );
  const close = (got: Record<string, Record<string, number>>, want: Record<string, Record<string, number>>) => {
    assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort());
    for (const [d, eus] of Object.entries(want))
      for (const [a, x] of Object.entries(eus))
        assert.ok(Math.abs(got[d]![a]! - x) <= 1e-9, `${d} = ${a}: ${got[d]![a]} vs ${x}`);
  };
  const run = runExample('oil-wildcatter.bayes');
  const p = await harness.open('light');
  const host = relay(p, lsp, uri);
  try {
    await p.show(run);
    await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
    const settled = () =>
      p.page.waitForFunction(() =>
        Array.from(document.querySelectorAll('#net-Wildcatter g.node.decision text.line')).every((t) =>
          t.hasAttribute('data-value'),
        ),
      );
    await settled();
    let want = languageEu('');
    close(await drawn(p), want);
    assert.deepEqual(await best(p), ['Drill=yes', 'Test=true']);
    assert.match(await p.page.locator('#net-Wildcatter .decision-status').innerText(), /MEU 22\.5 given the evidence/);
    // Evidence recomputes the policy: knowing the oil is wet.
    await p.page.click('#net-Wildcatter g.node[data-id="Oil"] rect.state-hit[data-state="wet"]');
    await p.page.waitForFunction(() =>
      /MEU 50 /.test(document.querySelector('#net-Wildcatter .decision-status')?.textContent ?? ''),
    );
    await settled();
    want = languageEu(' given Oil = wet');
    close(await drawn(p), want);
    // Knowing the oil, the test is worth nothing: not testing (saving 10) is best.
    assert.deepEqual(await best(p), ['Drill=yes', 'Test=false']);
    await p.screenshot('wildcatter-eu-oil-wet');
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
    await lsp.close();
  }
});
