/**
 * Influence diagrams in the results webview (headless Chromium): the wildcatter's graph draws
 * decisions as rectangles, utilities as diamonds and information arcs dashed; the results show
 * each decision's rule with the run's expected utilities.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkResult, PolicyResult } from '../../server/src/protocol/runResult.js';
import { CHROMIUM, Harness } from './support/harness.js';
import { runExample } from './support/fixtures.js';
import { repoRoot } from '../support/shared.js';

const ready = existsSync(CHROMIUM);
let harness: Harness;

before(async () => {
  if (!ready) return;
  mkdirSync(join(repoRoot, 'test', 'screenshots'), { recursive: true });
  harness = await Harness.start();
});
after(async () => {
  await harness?.close();
});

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
