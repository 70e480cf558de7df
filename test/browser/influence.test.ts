/**
 * Issue 31 in headless Chromium: strength of influence drawn as arc width (ALARM), and an
 * influence diagram in the panel as GeNIe shows it (the oil wildcatter, through the real language
 * server): chance nodes under the optimal strategy, each utility node's expected value, decisions
 * as alternatives with their expected utilities, and diagnosis by value of information — equal to
 * `query eu` / `query voi` of the language and to an enumeration over the tables, to 1e-9, and
 * recomputed when evidence is set.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type {
  ExpectedUtilityResult,
  NetworkResult,
  ValueOfInformationResult,
} from '../../server/src/protocol/runResult.js';
import { RUN_RESULT_VERSION } from '../../server/src/protocol/webviewMessages.js';
import { CHROMIUM, type PanelPage, panelHarness } from './support/harness.js';
import { runExample, runModel } from './support/fixtures.js';
import { repoRoot } from '../support/shared.js';
import { fileUri, startLsp } from '../support/lspClient.js';
import { relay } from './support/relay.js';

const ready = existsSync(CHROMIUM);
const harness = panelHarness(ready);

const near = (got: number, want: number, what: string) =>
  assert.ok(Math.abs(got - want) <= 1e-9, `${what}: ${got} vs ${want}`);

test('ALARM: every arc drawn 1 + 5·strength/ln|A| px wide, its number in data-strength and the tooltip; a legend', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('alarm.bayes');
  const net = run.results.find((r): r is NetworkResult => r.kind === 'network')!;
  assert.ok(net.arcs, 'the run sends the arcs’ strengths');
  assert.equal(
    net.arcs.length,
    net.variables.reduce((n, v) => n + v.parents.length, 0),
  );
  const p = await harness.open('light', undefined, { width: 800, height: 600 });
  try {
    await p.show(run);
    await p.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: `file:///models/${run.file}`, view: 'graph' });
    const drawn = await p.page.$$eval(`#net-${net.network} polyline.edge[data-strength]`, (ls) =>
      ls.map((l) => ({
        from: (l as SVGElement).dataset.from!,
        to: (l as SVGElement).dataset.to!,
        strength: Number((l as SVGElement).dataset.strength),
        width: Number((l as SVGElement).style.strokeWidth),
        title: l.querySelector('title')?.textContent ?? '',
      })),
    );
    assert.equal(drawn.length, net.arcs.length);
    const states = new Map(net.variables.map((v) => [v.name, v.states.length]));
    for (const a of net.arcs) {
      const d = drawn.find((x) => x.from === a.from && x.to === a.to)!;
      assert.ok(d, `${a.from} → ${a.to} drawn`);
      assert.equal(d.strength, a.strength);
      const share = Math.min(1, a.strength / Math.log(states.get(a.from)!));
      assert.ok(Math.abs(d.width - (1 + 5 * share)) < 0.006, `${a.from} → ${a.to}: ${d.width} px`);
      assert.match(d.title, /strength of influence [\d.e−-]+ nats/);
    }
    // The widths separate strong from weak arcs.
    const widths = drawn.map((d) => d.width);
    assert.ok(Math.max(...widths) > 4 && Math.min(...widths) < 1.5, `${Math.min(...widths)}–${Math.max(...widths)} px`);
    assert.match(
      await p.page.locator(`#net-${net.network} .graph-legend .key.strength`).innerText(),
      /strength of influence/,
    );
    await p.screenshot('alarm-arc-widths');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('the wildcatter in the panel: marginals under the optimal strategy, utility values, EUs and VOI equal the language and an enumeration (1e-9)', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const model = join(repoRoot, 'examples', 'oil-wildcatter.bayes');
  const text = readFileSync(model, 'utf8');
  const uri = fileUri(model);
  const lsp = await startLsp();
  await lsp.open(uri, text);
  const language = (given: string) => {
    const g = given ? ` given ${given}` : '';
    const run = runModel(
      'q.bayes',
      `${text}\nquery eu Test in Wildcatter${g}\nquery eu Drill in Wildcatter${g}\nquery voi Oil for Test in Wildcatter${g}\n`,
    );
    const eus = run.results.filter((r): r is ExpectedUtilityResult => r.kind === 'expectedUtility').slice(-2);
    const voi = run.results.filter((r): r is ValueOfInformationResult => r.kind === 'valueOfInformation').at(-1)!;
    return { eu: Object.fromEntries(eus.map((r) => [r.decision, r.expectedUtility])), voi: voi.voi };
  };
  const run = runExample('oil-wildcatter.bayes');
  const net = run.results.find((r): r is NetworkResult => r.kind === 'network' && r.network === 'Wildcatter')!;
  /** P(Seismic | Test = true) = Σ_oil P(oil) P(Seismic | oil, true), or given the oil: enumerated over the tables. */
  const seismic = (oil?: string): Record<string, number> => {
    const rows = net.variables.find((v) => v.name === 'Seismic')!.cpt.rows;
    const prior = net.variables.find((v) => v.name === 'Oil')!.cpt.rows[0]!.distribution;
    const out: Record<string, number> = {};
    for (const r of rows) {
      if (r.given.Test !== 'true' || (oil && r.given.Oil !== oil)) continue;
      const w = oil ? 1 : prior[r.given.Oil!]!;
      for (const [s, p] of Object.entries(r.distribution)) out[s] = (out[s] ?? 0) + w * p;
    }
    return out;
  };
  const p = await harness.open('light', undefined, { width: 800, height: 600 });
  const host = relay(p, lsp, uri);
  const root = '#net-Wildcatter';
  /** In the page as a string: tsx would wrap named functions in a helper the page does not have. */
  const read = (page: PanelPage) =>
    page.page.evaluate(`(() => {
      const r = ${JSON.stringify(root)};
      const value = (el) => (el && el.hasAttribute('data-value') ? Number(el.getAttribute('data-value')) : NaN);
      const list = (v) =>
        Object.fromEntries(
          Array.from(document.querySelectorAll(r + ' .marginal-row[data-variable="' + v + '"] button[data-state]')).map(
            (b) => [b.getAttribute('data-state'), value(b.querySelector('.num'))],
          ),
        );
      const utility = (u) => value(document.querySelector(r + ' g.node.utility[data-id="' + u + '"] text.line'));
      const voi = Object.fromEntries(
        Array.from(document.querySelectorAll(r + ' .diagnosis ol.voi li')).map((li) => [li.getAttribute('data-variable'), value(li)]),
      );
      return {
        oil: list('Oil'), seismic: list('Seismic'), test: list('Test'), drill: list('Drill'),
        payoff: utility('Payoff'), cost: utility('TestCost'), voi,
      };
    })()`) as Promise<{
      oil: Record<string, number>;
      seismic: Record<string, number>;
      test: Record<string, number>;
      drill: Record<string, number>;
      payoff: number;
      cost: number;
      voi: Record<string, number>;
    }>;
  const settled = (meu: string) =>
    p.page.waitForFunction(
      ([r, m]) => new RegExp(`MEU ${m} `).test(document.querySelector(`${r} .decision-status`)?.textContent ?? ''),
      [root, meu] as const,
    );
  try {
    await p.show(run);
    await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
    await settled('22.5');
    let got = await read(p);
    let want = language('');
    // Decisions are alternatives with expected utilities, never a 0.5/0.5 "marginal".
    for (const [a, x] of Object.entries(want.eu.Test!)) near(got.test[a]!, x, `EU(Test = ${a})`);
    for (const [a, x] of Object.entries(want.eu.Drill!)) near(got.drill[a]!, x, `EU(Drill = ${a})`);
    // Test, then drill unless diffuse: the test is always paid, the payoff is MEU + 10.
    near(got.cost, -10, 'E[TestCost]');
    near(got.payoff, 32.5, 'E[Payoff]');
    near(got.cost + got.payoff, 22.5, 'the utilities add up to the MEU');
    for (const [s, x] of Object.entries(seismic())) near(got.seismic[s]!, x, `P(Seismic = ${s})`);
    near(got.oil.dry!, 0.5, 'P(Oil = dry)');
    assert.deepEqual(Object.keys(got.voi), ['Oil']);
    near(got.voi.Oil!, want.voi, 'VOI(Oil before Test)');
    near(got.voi.Oil!, 32.5, 'VOI(Oil before Test) = 55 − 22.5');
    await p.screenshot('wildcatter-policy-light');

    // Evidence recomputes the strategy: the oil is wet, so testing is not worth 10.
    await p.page.click(`${root} .marginal-row[data-variable="Oil"] button[data-state="wet"]`);
    await settled('50');
    got = await read(p);
    want = language('Oil = wet');
    for (const [a, x] of Object.entries(want.eu.Test!)) near(got.test[a]!, x, `EU(Test = ${a} | wet)`);
    for (const [a, x] of Object.entries(want.eu.Drill!)) near(got.drill[a]!, x, `EU(Drill = ${a} | wet)`);
    near(got.cost, 0, 'E[TestCost | wet]');
    near(got.payoff, 50, 'E[Payoff | wet]');
    near(got.seismic.none!, 1, 'no test: Seismic = none');
    assert.deepEqual(got.voi, {}, 'the oil is known: nothing left to learn before Test');

    // Taking the test anyway (a decision fixed like evidence): Drill is the first free decision.
    await p.page.click(`${root} .marginal-row[data-variable="Test"] button[data-state="true"]`);
    await settled('40');
    got = await read(p);
    near(got.cost, -10, 'E[TestCost | wet, tested]');
    for (const [s, x] of Object.entries(seismic('wet'))) near(got.seismic[s]!, x, `P(Seismic = ${s} | wet, tested)`);
    const drill = language('Oil = wet, Test = true').eu.Drill!;
    for (const [a, x] of Object.entries(drill)) near(got.drill[a]!, x, `EU(Drill = ${a} | wet, tested)`);
    await p.screenshot('wildcatter-policy-evidence');
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
    await lsp.close();
  }
});
