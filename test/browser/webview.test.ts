/**
 * The results webview in headless Chromium, fed RunResults the CLI produced at test time, in light
 * and dark themes: the DOM must show exactly the run's numbers. Screenshots go to test/screenshots/.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NetworkResult, RunResult, StructureResultEntry, LearnedNetworkResult, MixtureResult } from '../../server/src/run/runResult.js';
import { CHROMIUM, Harness, type PanelPage, type Theme } from './support/harness.js';
import { learningRun, networkRun, runExample } from './support/fixtures.js';
import { NO_SHARED, repoRoot, sharedFile } from '../support/shared.js';

const ready = existsSync(CHROMIUM) && sharedFile('bif', 'asia.bif') !== undefined;
const why = existsSync(CHROMIUM) ? NO_SHARED : `no Chromium at ${CHROMIUM}`;
let harness: Harness;

before(async () => {
  if (!ready) return;
  mkdirSync(join(repoRoot, 'test', 'screenshots'), { recursive: true });
  harness = await Harness.start();
});
after(async () => { await harness?.close(); });

async function withPanel(theme: Theme, body: (p: PanelPage) => Promise<void>): Promise<void> {
  const p = await harness.open(theme);
  try {
    await body(p);
    assert.deepEqual(p.problems, [], 'no page errors, CSP violations or console errors');
  } finally {
    await p.close();
  }
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));

for (const theme of ['light', 'dark'] as const) {
  describe(`results webview (${theme})`, () => {
    test('asia with evidence: every node, arc, evidence mark and marginal bar equals the RunResult; click reveals, hover shows the CPT', async (t) => {
      if (!ready) return t.skip(why);
      const run = networkRun('asia', { asia: 'yes', xray: 'yes' });
      const net = run.results[0] as NetworkResult;
      await withPanel(theme, async (p) => {
        await p.show(run);
        await p.post({ type: 'focus', version: run.version, view: 'graph' });
        const nodes = await p.page.$$eval('g.node', (gs) => gs.map((g) => (g as SVGGElement).dataset.id));
        assert.deepEqual(nodes.sort(), net.variables.map((v) => v.name).sort());
        assert.equal(await p.page.locator('polyline.edge').count(), net.variables.reduce((s, v) => s + v.parents.length, 0));
        const evidence = await p.page.$$eval('g.node.evidence', (gs) => gs.map((g) => (g as SVGGElement).dataset.id).sort());
        assert.deepEqual(evidence, ['asia', 'xray']);
        for (const v of net.variables) {
          const bars = await p.page.$$eval(`g.node[data-id="${v.name}"] rect.bar`, (rs) => rs.map((r) => [r.getAttribute('data-state'), Number(r.getAttribute('data-value'))] as [string, number]));
          assert.deepEqual(bars.map((b) => b[0]), v.states);
          bars.forEach(([, value], i) => assert.ok(close(value, v.marginal[i]!), `${v.name}: bar ${value} = marginal ${v.marginal[i]}`));
        }
        // Evidence is certain: the observed state's marginal is 1.
        assert.equal(net.variables.find((v) => v.name === 'xray')!.marginal[net.variables.find((v) => v.name === 'xray')!.states.indexOf('yes')], 1);
        await p.page.hover('g.node[data-id="either"]');
        const tooltip = await p.page.$$eval('.tooltip td.num', (tds) => tds.map((td) => Number(td.getAttribute('data-value'))));
        const cpt = net.variables.find((v) => v.name === 'either')!.cpt;
        assert.deepEqual(tooltip, cpt.rows.flatMap((r) => net.variables.find((v) => v.name === 'either')!.states.map((s) => r.distribution[s]!)));
        await p.screenshot(`asia-${theme}`);
        await p.page.click('g.node[data-id="lung"]');
        const reveal = (await p.posted()).filter((m) => m.type === 'reveal');
        assert.deepEqual(reveal, [{ type: 'reveal', network: 'asia', variable: 'lung' }]);
        await p.page.focus('g.node[data-id="tub"]');
        await p.page.keyboard.press('Enter');
        assert.deepEqual((await p.posted()).filter((m) => m.type === 'reveal').at(-1), { type: 'reveal', network: 'asia', variable: 'tub' });
      });
    });
  });
}
