/**
 * The results webview in headless Chromium, fed RunResults the CLI produced at test time, in light
 * and dark themes: the DOM must show exactly the run's numbers. Screenshots go to test/screenshots/.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type {
  NetworkResult,
  RunResult,
  StructureResultEntry,
  LearnedNetworkResult,
} from '../../server/src/protocol/runResult.js';
import type { WebviewMessage } from '../../server/src/protocol/webviewMessages.js';
import { CHROMIUM, type PanelPage, type Theme, panelHarness } from './support/harness.js';
import { learningRun, networkRun, runExample, runModel } from './support/fixtures.js';
import { NO_SHARED, repoRoot, sharedFile } from '../support/shared.js';

const ready = existsSync(CHROMIUM) && sharedFile('bif', 'asia.bif') !== undefined;
const why = existsSync(CHROMIUM) ? NO_SHARED : `no Chromium at ${CHROMIUM}`;
// Started with Chromium alone: the Object-member and Mitchell tests below need no shared files.
const harness = panelHarness(existsSync(CHROMIUM));

async function withPanel(theme: Theme, body: (p: PanelPage) => Promise<void>, restore?: unknown): Promise<void> {
  const p = await harness.open(theme, restore);
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
        await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
        const nodes = await p.page.$$eval('g.node', (gs) => gs.map((g) => (g as SVGGElement).dataset.id));
        assert.deepEqual(nodes.sort(), net.variables.map((v) => v.name).sort());
        assert.equal(
          await p.page.locator('polyline.edge').count(),
          net.variables.reduce((s, v) => s + v.parents.length, 0),
        );
        const evidence = await p.page.$$eval('g.node.evidence', (gs) =>
          gs.map((g) => (g as SVGGElement).dataset.id).sort(),
        );
        assert.deepEqual(evidence, ['asia', 'xray']);
        for (const v of net.variables) {
          const bars = await p.page.$$eval(`g.node[data-id="${v.name}"] rect.bar`, (rs) =>
            rs.map((r) => [r.getAttribute('data-state'), Number(r.getAttribute('data-value'))] as [string, number]),
          );
          assert.deepEqual(
            bars.map((b) => b[0]),
            v.states,
          );
          bars.forEach(([, value], i) =>
            assert.ok(close(value, v.marginal[i]!), `${v.name}: bar ${value} = marginal ${v.marginal[i]}`),
          );
        }
        // Evidence is certain: the observed state's marginal is 1.
        assert.equal(
          net.variables.find((v) => v.name === 'xray')!.marginal[
            net.variables.find((v) => v.name === 'xray')!.states.indexOf('yes')
          ],
          1,
        );
        await p.page.hover('g.node[data-id="either"]');
        const tooltip = await p.page.$$eval('.tooltip td.num', (tds) =>
          tds.map((td) => Number(td.getAttribute('data-value'))),
        );
        const cpt = net.variables.find((v) => v.name === 'either')!.cpt;
        assert.deepEqual(
          tooltip,
          cpt.rows.flatMap((r) =>
            net.variables.find((v) => v.name === 'either')!.states.map((s) => r.distribution[s]!),
          ),
        );
        // docs/images/results-network-asia-light.png is this picture (README)
        await p.screenshot(`asia-${theme}`, theme === 'light' ? 'results-network-asia-light' : undefined);
        // A click or Enter opens the node's details in the panel; the editor is asked only on Ctrl/Cmd+click.
        await p.page.click('g.node[data-id="lung"] text.name');
        assert.equal(await p.page.locator('.node-detail select').inputValue(), 'lung');
        await p.page.focus('g.node[data-id="tub"]');
        await p.page.keyboard.press('Enter');
        assert.equal(await p.page.locator('.node-detail select').inputValue(), 'tub');
        assert.deepEqual(
          (await p.posted()).filter((m) => m.type === 'reveal'),
          [],
        );
        await p.page.click('g.node[data-id="lung"] text.name', { modifiers: ['Control'] });
        assert.deepEqual(
          (await p.posted()).filter((m) => m.type === 'reveal'),
          [{ type: 'reveal', network: 'asia', variable: 'lung' }],
        );
      });
    });

    test('alarm (37 nodes): readable graph with all nodes and arcs; search marks matches', async (t) => {
      if (!ready) return t.skip(why);
      const run = networkRun('alarm', { HRBP: 'HIGH', CO: 'LOW' });
      const net = run.results[0] as NetworkResult;
      await withPanel(theme, async (p) => {
        await p.show(run);
        // Keyboard: the tab list switches views with the arrow keys.
        await p.page.getByRole('tab', { name: 'Results' }).focus();
        await p.page.keyboard.press('ArrowRight');
        assert.equal(await p.page.getByRole('tab', { name: 'Network graph' }).getAttribute('aria-selected'), 'true');
        assert.equal(await p.page.locator('g.node').count(), 37);
        assert.equal(
          await p.page.locator('polyline.edge').count(),
          net.variables.reduce((s, v) => s + v.parents.length, 0),
        );
        assert.equal(await p.page.locator('g.node.evidence').count(), 2);
        // Expanded (bars shown) at 37 nodes.
        assert.equal(
          await p.page.locator('g.node rect.bar').count(),
          net.variables.reduce((s, v) => s + Math.min(v.states.length, 5), 0),
        );
        // docs/images/results-network-alarm-dark.png is this picture (README)
        await p.screenshot(`alarm-${theme}`, theme === 'dark' ? 'results-network-alarm-dark' : undefined);
        await p.page.locator('vscode-textfield.search input').fill('HR');
        const matches = await p.page.$$eval('g.node.match', (gs) =>
          gs.map((g) => (g as SVGGElement).dataset.id).sort(),
        );
        assert.deepEqual(
          matches,
          net.variables
            .map((v) => v.name)
            .filter((n) => n.toLowerCase().includes('hr'))
            .sort(),
        );
      });
    });

    test('learning: learned structure against the reference, EM trace', async (t) => {
      if (!ready) return t.skip(why);
      const run = learningRun();
      const [structure, learned] = run.results as [StructureResultEntry, LearnedNetworkResult];
      await withPanel(theme, async (p) => {
        await p.show(run);
        const dots = await p.page.$$eval('.kind-learnedNetwork circle.dot', (cs) =>
          cs.map((c) => Number(c.getAttribute('data-y'))),
        );
        assert.deepEqual(dots, learned.trace);
        // EM never lowers the log-likelihood.
        for (let i = 1; i < dots.length; i++) assert.ok(dots[i]! >= dots[i - 1]! - 1e-9);
        await p.screenshot(`learning-${theme}`);
        await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
        const c = structure.comparison!;
        for (const kind of ['extra', 'reversed', 'missing'] as const) {
          const drawn = await p.page.$$eval(`polyline.edge.${kind}`, (es) =>
            es.map((e) => `${e.getAttribute('data-from')}>${e.getAttribute('data-to')}`).sort(),
          );
          assert.deepEqual(drawn, c[kind].map(([a, b]) => `${a}>${b}`).sort(), kind);
        }
        assert.equal(
          await p.page.locator('polyline.edge.matched').count(),
          structure.arcs.length - c.extra.length - c.reversed.length,
        );
        // Each wrong arc's tooltip says what it adds to its family's score, as the CLI computed it.
        for (const kind of ['extra', 'missing'] as const) {
          const titles = await p.page.$$eval(`polyline.edge.${kind}`, (es) =>
            es.map(
              (e) =>
                `${e.getAttribute('data-from')}>${e.getAttribute('data-to')}|${e.querySelector('title')?.textContent ?? ''}`,
            ),
          );
          c[kind].forEach(([a, b], i) => {
            const title = titles.find((t) => t.startsWith(`${a}>${b}|`)) ?? '';
            const x = c.scoreChange[kind][i]!;
            assert.ok(
              title.includes(
                `adds ${x >= 0 ? '+' : ''}${Number(x.toFixed(4))} to its family's ${structure.scoreName} score`,
              ),
              title,
            );
          });
        }
        // docs/images/results-structure-dark.png is this picture (README)
        await p.screenshot(`structure-${theme}`, theme === 'dark' ? 'results-structure-dark' : undefined);
      });
    });
  });
}

/** Every example model, run by `bayes run --json`. */
const EXAMPLES = readdirSync(join(repoRoot, 'examples'))
  .filter((f) => f.endsWith('.bayes'))
  .map((f) => f.slice(0, -'.bayes'.length))
  .sort();

describe('results webview: the example models', () => {
  test("every entry bayes run produces gets a card, every problem is listed, and the drawn numbers are the run's", async (t) => {
    if (!ready) return t.skip(why);
    await withPanel('light', async (p) => {
      for (const name of EXAMPLES) {
        const run = runExample(`${name}.bayes`);
        await p.show(run);
        const kinds = await p.page.$$eval('section.card[data-kind]', (cs) =>
          cs.map((c) => (c as HTMLElement).dataset.kind),
        );
        assert.deepEqual(
          kinds,
          run.results.map((e) => e.kind),
          name,
        );
        const problems = run.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
        assert.equal(await p.page.locator('section.problems li').count(), problems.length, `${name}: problems listed`);
        await assertNumbersDrawn(p, run);
        await p.screenshot(`example-${name}`);
      }
    });
  });
});

describe('results webview: names that are also Object members', () => {
  test('hypotheses and variables named constructor, __proto__ and toString are drawn, marked and clickable', async (t) => {
    if (!existsSync(CHROMIUM)) return t.skip(`no Chromium at ${CHROMIUM}`);
    const hypotheses = runModel(
      'object_hypotheses.bayes',
      `variable T { pos, neg }
hypotheses H { constructor: 0.2, __proto__: 0.3, toString: 0.5 }
P(T | H) { constructor: [0.9, 0.1], __proto__: [0.5, 0.5], toString: [0.1, 0.9] }
observe T = pos
query posterior H
`,
    );
    const network = runModel(
      'object_network.bayes',
      'network N {\n  variable __proto__, constructor : bool\n  P(__proto__) = 0.3\n' +
        '  P(constructor | __proto__) { true: 0.9, false: 0.2 }\n}\n',
    );
    for (const run of [hypotheses, network]) assert.deepEqual(run.diagnostics, []);
    await withPanel('light', async (p) => {
      await p.show(hypotheses);
      await assertNumbersDrawn(p, hypotheses);
      // P(h | pos) ∝ 0.18, 0.15, 0.05 and P(pos | h) = 0.9, 0.5, 0.1: constructor is both MAP and ML.
      const marks = await p.page
        .locator('section.card[data-kind="posterior"] table tbody tr')
        .evaluateAll((rows) => rows.map((r) => [r.children[0]?.textContent, r.lastElementChild?.textContent]));
      assert.deepEqual(marks, [
        ['constructor', 'MAP ML'],
        ['__proto__', ''],
        ['toString', ''],
      ]);
      // Clicking a state of the variable named __proto__ observes it: the panel asks for the marginals given it.
      await p.show(network);
      await p.post({ type: 'focus', version: network.version, uri: `file:///models/${network.file}`, view: 'graph' });
      // Read as JSON, as the host passes it on to the language server (Playwright's own copy drops `__proto__`).
      const posted = async () =>
        JSON.parse(
          await p.page.evaluate(() => JSON.stringify((window as unknown as { __posted: unknown[] }).__posted)),
        ) as WebviewMessage[];
      const before = (await posted()).length;
      await p.page.click('g.node[data-id="__proto__"] rect.state-hit[data-state="true"]');
      const asked = (await posted()).slice(before).find((m) => m.type === 'marginals');
      assert.ok(asked?.type === 'marginals', 'a marginals request');
      assert.deepEqual(Object.entries(asked.evidence), [['__proto__', 'true']]);
    });
  });
});

describe('results webview: Mitchell fig. 6.1', () => {
  test('two_tests: P(cancer) drawn .008 → .2085 → .8959 as the two positive tests arrive', async (t) => {
    if (!existsSync(CHROMIUM)) return t.skip(`no Chromium at ${CHROMIUM}`);
    await withPanel('dark', async (p) => {
      const run = runExample('two_tests.bayes');
      const posterior = run.results.find((e) => e.kind === 'posterior');
      assert.ok(posterior?.kind === 'posterior' && posterior.sequence?.length === 2);
      await p.show(run);
      const chart = p.page.locator('section.card[data-kind="posterior"] .small-multiples svg').first();
      assert.equal(await chart.getAttribute('aria-label'), 'P(cancer | data seen)');
      const ys = await chart.locator('circle.dot').evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('data-y'))));
      assert.deepEqual(ys, [0.008, ...posterior.sequence.map((s) => s.posterior[0])]);
      assert.deepEqual(
        ys.map((y) => Number(y.toFixed(4))),
        [0.008, 0.2085, 0.8959],
      );
      await p.screenshot('fig-6-1-two-tests');
    });
  });
});

/** Bars, marks and tables of the kinds with charts carry exactly the entry's numbers, in order. */
async function assertNumbersDrawn(p: PanelPage, run: RunResult): Promise<void> {
  const cards = p.page.locator('section.card[data-kind]');
  for (const [i, e] of run.results.entries()) {
    const values = (selector: string) =>
      cards
        .nth(i)
        .locator(selector)
        .evaluateAll((els) => els.map((el) => el.getAttribute('data-value')));
    const numbers = (xs: Array<number | undefined>) => xs.map((x) => (x === undefined ? '' : String(x)));
    if (e.kind === 'posterior') {
      assert.deepEqual(await values('rect.bar.posterior'), numbers(e.rows.map((r) => r.posterior)));
      assert.deepEqual(await values('rect.bar.prior'), numbers(e.rows.map((r) => r.prior)));
      const marked = await cards
        .nth(i)
        .locator('text.mark')
        .evaluateAll((ts) => ts.map((t) => t.textContent));
      for (const h of e.map)
        assert.ok(
          marked.some((m) => m?.includes('MAP')),
          `MAP ${h} marked`,
        );
      // Fig. 6.1: one chart per hypothesis, its dots at the prior then the posterior after each datum.
      const charts = cards.nth(i).locator('.small-multiples svg');
      assert.equal(await charts.count(), e.sequence?.length ? e.rows.length : 0);
      for (const [j, r] of (e.sequence?.length ? e.rows : []).entries()) {
        const ys = await charts
          .nth(j)
          .locator('circle.dot')
          .evaluateAll((cs) => cs.map((c) => Number(c.getAttribute('data-y'))));
        assert.deepEqual(ys, [r.prior, ...e.sequence!.map((s) => s.posterior[j])], `${r.hypothesis} datum by datum`);
      }
    } else if (e.kind === 'mdl') {
      assert.deepEqual(await values('rect.bar'), numbers(e.rows.flatMap((r) => [r.hypothesisBits, r.dataBits])));
    } else if (e.kind === 'classify' && e.classes.some((c) => c.posterior !== undefined)) {
      assert.deepEqual(await values('rect.bar.posterior'), numbers(e.classes.map((c) => c.posterior)));
    } else if (e.kind === 'evaluation') {
      assert.deepEqual(await values('table.confusion td'), numbers(e.confusion.flat()));
    } else if (e.kind === 'validation') {
      // The ROC chart, then the calibration chart: the first state's dots are its curve's points.
      const dots = (chart: number, axis: 'data-x' | 'data-y') =>
        cards
          .nth(i)
          .locator('figure')
          .nth(chart)
          .locator('circle.dot.c0')
          .evaluateAll((cs, a) => cs.map((c) => Number(c.getAttribute(a))), axis);
      const state = Object.keys(e.calibration)[0]!;
      const roc = e.roc[state]!;
      assert.deepEqual(await dots(0, 'data-x'), roc.fpr);
      assert.deepEqual(await dots(0, 'data-y'), roc.tpr);
      assert.deepEqual(await dots(1, 'data-x'), e.calibration[state]!.meanPredicted);
      assert.deepEqual(await dots(1, 'data-y'), e.calibration[state]!.fractionPositive);
      assert.deepEqual(await values('table.confusion td'), numbers(e.confusion.matrix.flat()));
    } else if (e.kind === 'learnedNetwork' && e.trace.length > 1) {
      assert.deepEqual(
        (
          await cards
            .nth(i)
            .locator('circle.dot')
            .evaluateAll((cs) => cs.map((c) => c.getAttribute('data-y')))
        ).map(Number),
        e.trace,
      );
    } else if (e.kind === 'mixture') {
      const table = await cards
        .nth(i)
        .locator('table[aria-label="mixture components"] tbody tr')
        .evaluateAll((rows) =>
          rows.map((r) => Array.from(r.querySelectorAll('td')).map((td) => Number(td.getAttribute('data-value')))),
        );
      assert.deepEqual(
        table.map((r) => r[1]),
        e.weights,
      );
      assert.deepEqual(
        table.map((r) => r.slice(2, 2 + e.dimensions.length)),
        e.means,
      );
    }
    if (e.kind === 'mixture' && e.points) {
      // Every data point is drawn: in the histogram's bins (1-D) or as a dot (2-D).
      if (e.dimensions.length === 1) {
        const counts = (await values('rect.hist')).map(Number);
        assert.equal(
          counts.reduce((a, b) => a + b, 0),
          e.points.length,
        );
      } else if (e.dimensions.length === 2) {
        assert.equal(await cards.nth(i).locator('circle.point').count(), e.points.length);
      }
    } else if (e.kind === 'estimate') {
      assert.deepEqual(await values('span.num'), [String(e.value)]);
    }
  }
}

describe('results webview: behaviour', () => {
  test('andes (223 nodes): compact by default, expands, search focuses a node, fit restores the view', async (t) => {
    if (!ready || !sharedFile('bif', 'andes.bif')) return t.skip(why);
    const run = networkRun('andes');
    await withPanel('dark', async (p) => {
      await p.show(run);
      await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
      assert.equal(await p.page.locator('g.node').count(), 223);
      assert.equal(await p.page.locator('g.node rect.bar').count(), 0, 'compact: no bars');
      const scrolled = () => p.page.$eval('.graph-viewport', (v) => [v.scrollLeft, v.scrollTop]);
      const before = await scrolled();
      await p.page.locator('vscode-textfield.search input').fill('SNode_10');
      await p.page.locator('vscode-textfield.search input').press('Enter');
      assert.equal(
        await p.page.evaluate(() => (document.activeElement as SVGGElement | null)?.dataset?.id),
        'SNode_10',
        'the match has the focus',
      );
      assert.notDeepEqual(await scrolled(), before, 'scrolled to the match');
      const inView = await p.page.evaluate(() => {
        const v = document.querySelector('.graph-viewport')!.getBoundingClientRect();
        const n = document.querySelector('g.node[data-id="SNode_10"]')!.getBoundingClientRect();
        return n.left >= v.left && n.right <= v.right && n.top >= v.top && n.bottom <= v.bottom;
      });
      assert.ok(inView, 'the match is in view');
      await p.screenshot('andes-search');
      await p.page.getByRole('button', { name: 'Fit graph to view' }).click();
      const fitted = await p.page.$eval('.graph-viewport', (v) => [
        v.scrollWidth <= v.clientWidth + 1,
        v.scrollHeight <= v.clientHeight + 1,
      ]);
      assert.deepEqual(fitted, [true, true], 'fit: the whole graph in view');
      await p.screenshot('andes-fit');
      await p.page.getByRole('button', { name: /Collapse or expand/ }).click();
      assert.ok((await p.page.locator('g.node rect.bar').count()) >= 2 * 223, 'expanded: bars on every node');
    });
  });

  test('pigs (441 nodes): laid out on request, then every node drawn', async (t) => {
    if (!ready || !sharedFile('bif', 'pigs.bif')) return t.skip(why);
    const run = networkRun('pigs');
    await withPanel('light', async (p) => {
      await p.show(run);
      await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
      assert.equal(await p.page.locator('g.node').count(), 0);
      await p.page.getByRole('button', { name: 'Lay out the graph of 441 nodes' }).click();
      assert.equal(await p.page.locator('g.node').count(), 441);
      assert.equal(
        await p.page.locator('polyline.edge').count(),
        (run.results[0] as NetworkResult).variables.reduce((s, v) => s + v.parents.length, 0),
      );
    });
  });

  test('a run with errors keeps the last good render and says so; a newer schema version is refused', async (t) => {
    if (!ready) return t.skip(why);
    const good = networkRun('asia');
    await withPanel('light', async (p) => {
      await p.show(good);
      const broken: RunResult = {
        ...good,
        results: [],
        diagnostics: [{ severity: 'error', code: 'syntax', message: "expected '}'", range: good.results[0]!.range }],
      };
      await p.show(broken, 'failed');
      assert.match(await p.page.locator('.banner').innerText(), /last run failed: showing the last good results/);
      assert.equal(await p.page.locator('section.kind-network').count(), 1);
      await p.show(good);
      assert.equal(await p.page.locator('.banner').count(), 0);
      await p.post({ type: 'problems', version: good.version, errors: 2 });
      assert.match(await p.page.locator('.banner').innerText(), /The file has 2 errors/);
      // A run whose own errors are what the editor shows (a failed expect) is current: no banner.
      const expectFailed = {
        severity: 'error' as const,
        code: 'expect-failed',
        message: 'expected 0.5',
        range: good.results[0]!.range,
      };
      await p.show({ ...good, diagnostics: [expectFailed] });
      await p.post({ type: 'problems', version: good.version, errors: 1 });
      assert.equal(await p.page.locator('.banner').count(), 0, 'no "last good results" banner for current results');
      await p.post({ type: 'problems', version: good.version, errors: 2 });
      assert.match(await p.page.locator('.banner').innerText(), /showing the last good results/);
      await p.post({
        type: 'show',
        version: 999,
        uri: 'file:///models/x',
        model: 'x',
        state: 'done',
        cached: false,
        result: good,
      });
      assert.match(await p.page.locator('#app').innerText(), /reads results of version 1, the server sent version 999/);
    });
  });

  test('charts save as SVG and PNG, tables copy their exact numbers, and the panel is restored from its saved state after a reload', async (t) => {
    if (!ready) return t.skip(why);
    const run = networkRun('asia', { smoke: 'yes' });
    const net = run.results[0] as NetworkResult;
    let state: unknown;
    await withPanel('light', async (p) => {
      await p.show(run);
      await p.post({ type: 'focus', version: run.version, uri: `file:///models/${run.file}`, view: 'graph' });
      await p.page.getByRole('button', { name: 'Save network-asia as SVG' }).click();
      await p.page.getByRole('button', { name: 'Save network-asia as PNG' }).click();
      await p.page.waitForFunction(
        () =>
          (window as unknown as { __posted: Array<{ type: string }> }).__posted.filter((m) => m.type === 'save')
            .length === 2,
      );
      const saves = (await p.posted()).filter((m) => m.type === 'save');
      const svg = saves.find((m) => m.format === 'svg')!;
      assert.match(svg.data, /^<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
      assert.equal((svg.data.match(/class="node/g) ?? []).length, 0, 'classes replaced by inline styles');
      assert.match(svg.data, /fill:\s*rgb\(/);
      const png = Buffer.from(saves.find((m) => m.format === 'png')!.data, 'base64');
      assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
      await p.page.locator('details.marginals summary').click();
      await p.page.getByRole('button', { name: 'Copy marginals of asia' }).click();
      const copy = (await p.posted()).find((m) => m.type === 'copy')!;
      const lines = copy.text.trim().split('\n');
      assert.equal(lines.length, 1 + net.variables.reduce((s, v) => s + v.states.length, 0));
      const lung = net.variables.find((v) => v.name === 'lung')!;
      assert.ok(lines.includes(`lung\tyes\t${lung.marginal[0]}\t`), 'exact value, full precision');
      state = await p.state();
      assert.equal(
        (state as { uri: string }).uri,
        'file:///models/asia.bayes',
        'the serializer learns whose panel it is',
      );
    });
    // After a window reload VS Code hands the saved state back: the panel draws it before any message.
    await withPanel(
      'dark',
      async (p) => {
        assert.equal(await p.page.locator('g.node').count(), net.variables.length);
        assert.equal(await p.page.locator('g.node.evidence').getAttribute('data-id'), 'smoke');
      },
      state,
    );
  });
});
