/**
 * The network workbench in the results panel (issue 31, issue 27 item 1), in headless Chromium at
 * the size of a panel beside the editor (800×600): no key or click in the panel moves focus out
 * of it or asks the editor to select anything (a key would then type over the table); the graph
 * is one tab stop whose arrow keys move between nodes along the layout; node text is readable at
 * the default view (ALARM, hepar2, an influence diagram); the view survives a re-run and a reload;
 * search goes to the exact name first; soft and virtual evidence are marked on their nodes; and
 * axe-core finds no serious or critical accessibility violation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LearnedNetworkResult, RunResult } from '../../server/src/protocol/runResult.js';
import { RUN_RESULT_VERSION, type WebviewMessage } from '../../server/src/protocol/webviewMessages.js';
import { CHROMIUM, type PanelPage, panelHarness } from './support/harness.js';
import { learningRun, networkRun, runExample, runModel } from './support/fixtures.js';
import { repoRoot, sharedFile } from '../support/shared.js';
import { fileUri, startLsp } from '../support/lspClient.js';
import { relay } from './support/relay.js';
import { readBif } from '../../server/src/model/bif.js';
import { informationRanking } from '../../server/src/engine/inference/valueOfInformation.js';
import { dataConflict } from '../../server/src/engine/inference/dataConflict.js';

const ready = existsSync(CHROMIUM);
const PANEL = { width: 800, height: 600 };
const harness = panelHarness(ready);

async function openGraph(run: RunResult, restore?: unknown): Promise<PanelPage> {
  const p = await harness.open('dark', restore, PANEL);
  await p.show(run);
  await p.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: `file:///models/${run.file}`, view: 'graph' });
  return p;
}

/** Messages that would move the editor (select a table, take focus) or edit the document. */
const editorMoves = (ms: WebviewMessage[]) => ms.filter((m) => m.type === 'reveal' || m.type === 'writeObserve');

const focusedNode = (p: PanelPage) =>
  p.page.evaluate(() => (document.activeElement?.closest?.('g.node') as SVGGElement | null)?.dataset.id ?? null);

/** Tabs from the graph's last toolbar control until focus lands in the SVG; returns the focused node. */
async function tabIntoGraph(p: PanelPage): Promise<string | null> {
  await p.page.locator('.graph .toolbar vscode-button').last().focus();
  await p.page.keyboard.press('Tab');
  return focusedNode(p);
}

test('issue 27: a keyboard user on forest.bayes — Tab to Campfire, Enter, Space — never sends the editor anything', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('forest.bayes');
  const p = await openGraph(run);
  try {
    assert.ok(await tabIntoGraph(p), 'Tab reaches a node of the graph');
    // Arrow keys along the layout to Campfire (a breadth-first walk over the arrow moves).
    const seen = new Set<string>();
    for (let i = 0; i < 40 && (await focusedNode(p)) !== 'Campfire'; i++) {
      const at = (await focusedNode(p))!;
      seen.add(at);
      for (const key of ['ArrowDown', 'ArrowRight', 'ArrowLeft', 'ArrowUp']) {
        await p.page.keyboard.press(key);
        const now = (await focusedNode(p))!;
        if (now === 'Campfire' || (now !== at && !seen.has(now))) break;
      }
    }
    assert.equal(await focusedNode(p), 'Campfire', 'the arrow keys reach Campfire');
    await p.page.keyboard.press('Enter');
    assert.equal(await focusedNode(p), 'Campfire', 'Enter keeps the focus on the node');
    assert.match(
      await p.page.locator('.node-detail select').inputValue(),
      /^Campfire$/,
      "Enter opens Campfire's details in the panel",
    );
    await p.page.keyboard.press('Space');
    assert.equal(await focusedNode(p), 'Campfire', 'Space keeps the focus on the node');
    // Every other key a user might press on a node: none asks the editor for anything.
    for (const key of ['Delete', 'Backspace', 'a', 'x', 'Tab', 'Shift+Tab', 'Escape', 'Enter', 'Space'])
      await p.page.keyboard.press(key);
    assert.deepEqual(editorMoves(await p.posted()), [], 'no reveal (select + focus) and no edit');
    // A click on a node opens its details, not the editor.
    await p.page.click('g.node[data-id="Lightning"] text.name');
    assert.deepEqual(editorMoves(await p.posted()), []);
    assert.equal(await focusedNode(p), 'Lightning');
    // The table in the editor is an explicit action: the details' button, or Ctrl+click.
    await p.page.click('.node-detail .open-table');
    await p.page.click('g.node[data-id="Storm"] text.name', { modifiers: ['Control'] });
    assert.deepEqual(
      editorMoves(await p.posted()).map((m) => (m as { variable: string }).variable),
      ['Lightning', 'Storm'],
    );
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('the graph is one tab stop with a role tree: application, nodes as buttons labelled with their marginals', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = networkRun('alarm');
  const p = await openGraph(run);
  try {
    const stops = await p.page.$$eval('svg.network [tabindex="0"], svg.network[tabindex="0"]', (xs) => xs.length);
    assert.equal(stops, 1, 'one tab stop in the graph (roving tabindex), not one per node and state');
    const first = await tabIntoGraph(p);
    assert.ok(first);
    await p.page.keyboard.press('Tab');
    assert.equal(await focusedNode(p), null, 'the next Tab leaves the graph');
    const svg = p.page.locator('svg.network');
    assert.equal(await svg.getAttribute('role'), 'application');
    const keysId = (await svg.getAttribute('aria-describedby'))!;
    assert.match(await p.page.locator(`#${keysId}`).innerText(), /arrow keys move between nodes.*Enter.*Space/s);
    const hr = run.results[0]!.kind === 'network' ? run.results[0]!.variables.find((v) => v.name === 'HR')! : undefined;
    const label = (await p.page.locator('g.node[data-id="HR"]').getAttribute('aria-label'))!;
    assert.equal(await p.page.locator('g.node[data-id="HR"]').getAttribute('role'), 'button');
    for (const [i, s] of hr!.states.entries())
      assert.ok(label.includes(`${s} ${String(Number(hr!.marginal[i]!.toPrecision(4)))}`), label);
    // No interactive element inside a node button: the state rows are for the mouse.
    assert.equal(await p.page.locator('g.node [role], g.node [tabindex]').count(), 0);

    // Arrow keys: the nearest node in that direction, checked against the drawn boxes.
    const boxes = await p.page.$$eval('g.node', (gs) =>
      gs.map((g) => {
        const r = g.getBoundingClientRect();
        return { id: (g as SVGGElement).dataset.id!, x: r.x + r.width / 2, y: r.y + r.height / 2 };
      }),
    );
    const want = (from: string, dx: number, dy: number) => {
      const a = boxes.find((b) => b.id === from)!;
      let best: string | undefined,
        score = Infinity;
      for (const b of boxes) {
        const along = (b.x - a.x) * dx + (b.y - a.y) * dy;
        const across = Math.abs((b.x - a.x) * dy - (b.y - a.y) * dx);
        if (b.id === from || along <= 0 || across > along * Math.sqrt(3)) continue;
        if (along + 2 * across < score) [best, score] = [b.id, along + 2 * across];
      }
      return best;
    };
    let at = first!;
    let moves = 0;
    for (const [key, dx, dy] of [
      ['ArrowDown', 0, 1],
      ['ArrowDown', 0, 1],
      ['ArrowRight', 1, 0],
      ['ArrowDown', 0, 1],
      ['ArrowLeft', -1, 0],
      ['ArrowUp', 0, -1],
    ] as const) {
      const expected = want(at, dx, dy) ?? at;
      await svg.locator(`g.node[data-id="${at}"]`).focus();
      await p.page.keyboard.press(key);
      assert.equal(await focusedNode(p), expected, `${key} from ${at}`);
      if (expected !== at) moves++;
      at = expected;
    }
    assert.ok(moves >= 4, 'the walk moved');
    // Space toggles the node's state under the cursor (Shift+↓ moves the cursor).
    await svg.locator('g.node[data-id="HR"]').focus();
    await p.page.keyboard.press('Shift+ArrowDown');
    await p.page.keyboard.press('Space');
    const asked = (await p.posted()).filter((m) => m.type === 'marginals');
    assert.deepEqual((asked.at(-1) as { evidence: Record<string, string> }).evidence, { HR: hr!.states[1] });
    assert.equal(await focusedNode(p), 'HR');
    assert.deepEqual(editorMoves(await p.posted()), []);
  } finally {
    await p.close();
  }
});

/** The rendered size of node names, in CSS pixels (font size × the SVG's scale on screen). */
async function nameSizes(p: PanelPage): Promise<number[]> {
  return p.page.$$eval('g.node text.name', (ts) =>
    ts.map((t) => parseFloat(getComputedStyle(t).fontSize) * (t as SVGTextElement).getScreenCTM()!.a),
  );
}

for (const [name, make] of [
  ['alarm', () => networkRun('alarm')],
  ['hepar2', () => networkRun('hepar2')],
  ['oil-wildcatter', () => runExample('oil-wildcatter.bayes')],
] as const) {
  test(`${name} in an 800×600 panel: node names ≥ 11 CSS px at the default view, the graph scrolls, an overview`, async (t) => {
    if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
    if (name === 'hepar2' && !sharedFile('bif', 'hepar2.bif')) return t.skip('no hepar2.bif in ../shared');
    const p = await openGraph(make());
    try {
      const sizes = await nameSizes(p);
      assert.ok(sizes.length > 0);
      const smallest = Math.min(...sizes);
      assert.ok(smallest >= 11, `smallest node name ${smallest.toFixed(2)} px`);
      const scroll = await p.page.$eval('.graph-viewport', (s) => [
        s.scrollWidth > s.clientWidth || s.scrollHeight > s.clientHeight,
      ]);
      if (name !== 'oil-wildcatter') {
        assert.deepEqual(scroll, [true], 'a large network scrolls instead of shrinking');
        assert.ok(await p.page.locator('svg.minimap:not(.hidden)').isVisible(), 'the overview shows');
      }
      await p.screenshot(`workbench-${name}-800x600`);
      // "Fit" is a button: the whole graph in view, then "1:1" back to readable text.
      await p.page.getByRole('button', { name: 'Fit graph to view' }).first().click();
      const fitted = await p.page.$eval('.graph-viewport', (s) => s.scrollWidth <= s.clientWidth + 1);
      assert.ok(fitted, 'fit: no horizontal scrolling');
      await p.page
        .getByRole('button', { name: /actual size/i })
        .first()
        .click();
      assert.ok(Math.min(...(await nameSizes(p))) >= 11);
      assert.deepEqual(p.problems, []);
    } finally {
      await p.close();
    }
  });
}

test('the view (zoom, scroll, focused node, open details) is kept across a re-run and a reload, per model', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = networkRun('alarm');
  const p = await openGraph(run);
  const view = (q: PanelPage) =>
    q.page.evaluate(() => {
      const s = document.querySelector('.graph-viewport') as HTMLElement;
      return {
        zoom: (document.querySelector('svg.network') as SVGSVGElement).dataset.zoom,
        left: s.scrollLeft,
        top: s.scrollTop,
        tabStop: (document.querySelector('svg.network g.node[tabindex="0"]') as SVGGElement).dataset.id,
        detail: (document.querySelector('.node-detail select') as HTMLSelectElement).value,
      };
    });
  try {
    await p.page.locator('svg.network g.node[data-id="VENTLUNG"]').focus();
    await p.page.keyboard.press('Enter');
    await p.page.keyboard.press('-');
    await p.page.$eval('.graph-viewport', (s) => {
      s.scrollLeft = 137;
      s.scrollTop = 211;
    });
    await p.page.waitForTimeout(50);
    const before = await view(p);
    assert.equal(before.detail, 'VENTLUNG');
    assert.equal(before.tabStop, 'VENTLUNG');
    assert.notEqual(before.zoom, '1');
    await p.show(run); // a re-run of the same model (auto-save)
    assert.deepEqual(await view(p), before, 'after a re-run');
    assert.equal(await focusedNode(p), 'VENTLUNG', 'the focus stays where it was');
    const state = await p.state();
    const reloaded = await harness.open('dark', state, PANEL);
    try {
      await reloaded.page.waitForSelector('svg.network');
      await reloaded.page.evaluate(() => new Promise((ok) => requestAnimationFrame(() => ok(null))));
      const after = await view(reloaded);
      // Scroll offsets come back to the device pixel.
      assert.ok(
        Math.abs(after.left - before.left) <= 1 && Math.abs(after.top - before.top) <= 1,
        JSON.stringify(after),
      );
      assert.deepEqual({ ...after, left: before.left, top: before.top }, before, 'after a reload');
    } finally {
      await reloaded.close();
    }
    // Another model starts from its own (default) view.
    const other = await harness.open('dark', { ...(state as object), uri: 'file:///models/other.bayes' }, PANEL);
    try {
      await other.show({ ...run, file: 'other.bayes' });
      await other.post({
        type: 'focus',
        version: RUN_RESULT_VERSION,
        uri: 'file:///models/other.bayes',
        view: 'graph',
      });
      assert.equal((await view(other)).zoom, '1');
    } finally {
      await other.close();
    }
  } finally {
    await p.close();
  }
});

test('search: CO + Enter goes to the variable CO, not the first name containing CO', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const p = await openGraph(networkRun('alarm'));
  try {
    await p.page.locator('vscode-textfield.search input').fill('CO');
    await p.page.locator('vscode-textfield.search input').press('Enter');
    assert.equal(await focusedNode(p), 'CO');
    await p.page.locator('vscode-textfield.search input').fill('expc');
    await p.page.locator('vscode-textfield.search input').press('Enter');
    assert.equal(await focusedNode(p), 'EXPCO2');
  } finally {
    await p.close();
  }
});

test('soft and virtual evidence are marked on their nodes with their numbers; chips name the states; headers count them', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = networkRun('alarm');
  const panelEvidence = {
    evidence: { HR: 'LOW' },
    likelihoods: { PULMEMBOLUS: [0.8, 0.2] },
    soft: { INTUBATION: [0.5, 0.3, 0.2] },
  };
  const p = await openGraph(run, {
    uri: `file:///models/${run.file}`,
    view: 'graph',
    evidence: { alarm: panelEvidence },
  });
  try {
    const node = (id: string) => p.page.locator(`g.node[data-id="${id}"]`);
    assert.match((await node('HR').getAttribute('class'))!, /\bevidence\b/);
    assert.match((await node('PULMEMBOLUS').getAttribute('class'))!, /\bfinding-virtual\b/);
    assert.match((await node('INTUBATION').getAttribute('class'))!, /\bfinding-soft\b/);
    const mark = (id: string) =>
      node(id)
        .locator('text.observed')
        .evaluate((t) => t.firstChild!.textContent);
    assert.equal(await mark('PULMEMBOLUS'), 'λ virtual');
    assert.equal(await mark('INTUBATION'), '◐ soft');
    const ticks = (id: string) =>
      node(id)
        .locator('line.finding-tick')
        .evaluateAll((ls) => ls.map((l) => Number(l.getAttribute('data-value'))));
    assert.deepEqual(await ticks('PULMEMBOLUS'), [0.8, 0.2]);
    assert.deepEqual(await ticks('INTUBATION'), [0.5, 0.3, 0.2]);
    assert.match(
      (await node('PULMEMBOLUS').getAttribute('aria-label'))!,
      /virtual evidence \(likelihood\) TRUE 0.8, FALSE 0.2/,
    );
    const chips = await p.page.$$eval('.evidence-chips .chip', (cs) => cs.map((c) => c.firstChild!.textContent));
    assert.deepEqual(chips, [
      'HR = LOW',
      'PULMEMBOLUS ~ likelihood (TRUE 0.8, FALSE 0.2)',
      'INTUBATION ~ soft (NORMAL 0.5, ESOPHAGEAL 0.3, ONESIDED 0.2)',
    ]);
    assert.match(
      await p.page.locator('.network-summary').innerText(),
      /evidence in force: 1 observed, 1 soft, 1 virtual/,
    );
    // Soft evidence entered in the detail view (Jeffrey's rule: the target marginal, normalized).
    await p.page.selectOption('.node-detail select', 'KINKEDTUBE');
    await p.page.fill('.node-detail .soft input[data-state="TRUE"]', '3');
    await p.page.fill('.node-detail .soft input[data-state="FALSE"]', '1');
    await p.page.click('.node-detail .soft-apply');
    const asked = (await p.posted()).filter((m) => m.type === 'marginals').at(-1) as { soft: Record<string, number[]> };
    assert.deepEqual(asked.soft.KINKEDTUBE, [0.75, 0.25]);
    await p.screenshot('workbench-evidence-marks');
  } finally {
    await p.close();
  }
});

for (const [name, make] of [
  ['alarm', () => networkRun('alarm')],
  ['oil-wildcatter', () => runExample('oil-wildcatter.bayes')],
  // Continuous variables (issue 29): density curves in the graph, a number input in the detail view.
  [
    'a Gaussian network',
    () => runModel('gaussian.bayes', readFileSync(join(repoRoot, 'examples', 'data', 'gaussian.bayes'), 'utf8')),
  ],
] as const) {
  test(`axe-core on the panel (${name}, graph and results): no serious or critical violation`, async (t) => {
    if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
    const run = make();
    const p = await openGraph(run);
    try {
      for (const view of ['graph', 'results'] as const) {
        await p.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: `file:///models/${run.file}`, view });
        const bad = await p.seriousViolations();
        assert.deepEqual(bad, [], `${view}: ${JSON.stringify(bad, null, 1)}`);
      }
    } finally {
      await p.close();
    }
  });
}

test('diagnosis: the ranking drawn for a target equals informationRanking (1e-9); a positive data conflict is shown', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const model = join(repoRoot, 'examples', 'alarm.bayes');
  const uri = fileUri(model);
  const parsed = readBif(readFileSync(join(repoRoot, 'examples', 'data', 'alarm.bif'), 'utf8'));
  assert.ok('network' in parsed);
  const net = parsed.network;
  const idx = (n: string) => net.variables.findIndex((v) => v.name === n);
  const ev = (o: Record<string, string>) =>
    new Map(Object.entries(o).map(([v, s]) => [idx(v), net.variables[idx(v)]!.states.indexOf(s)] as [number, number]));
  // Findings that clash: a low heart rate with a high rate measured by the blood-pressure cuff and the ECG.
  const clash = { HR: 'LOW', HRBP: 'HIGH', HREKG: 'HIGH' };
  const conf = dataConflict(net, ev(clash)).conflict;
  assert.ok(conf > 0, `conf = ${conf}`);
  const lsp = await startLsp();
  await lsp.open(uri, readFileSync(model, 'utf8'));
  const run = runExample('alarm.bayes');
  const p = await harness.open('dark', undefined, PANEL);
  const host = relay(p, lsp, uri);
  const ranking = () =>
    p.page.$$eval('.diagnosis ol.ranking li', (ls) =>
      ls.map((l) => [l.getAttribute('data-variable')!, Number(l.getAttribute('data-value'))] as [string, number]),
    );
  const check = async (target: string, evidence: Record<string, string>) => {
    await p.page.waitForFunction(
      (t) => document.querySelector('.diagnosis strong')?.textContent?.endsWith(t) ?? false,
      target,
    );
    const want = informationRanking(net, idx(target), ev(evidence)).ranking.slice(0, 10);
    const got = await ranking();
    assert.deepEqual(
      got.map(([v]) => v),
      want.map((r) => net.variables[r.variable]!.name),
      `${target} given ${JSON.stringify(evidence)}`,
    );
    got.forEach(([v, x], i) => assert.ok(Math.abs(x - want[i]!.nats) < 1e-9, `${v}: ${x} vs ${want[i]!.nats}`));
  };
  try {
    await p.show({ ...run, file: 'alarm.bayes' });
    await p.post({ type: 'focus', version: RUN_RESULT_VERSION, uri: 'file:///models/alarm.bayes', view: 'graph' });
    await p.page.selectOption('.node-detail select', 'LVFAILURE');
    await check('LVFAILURE', {});
    assert.ok(await p.page.locator('.conflict').isHidden());
    for (const [v, s] of Object.entries(clash)) {
      await p.page.click(`.marginals-list button[data-variable="${v}"][data-state="${s}"]`);
    }
    // The answer to the last click (the conflict of all three findings), then its ranking.
    await p.page.waitForFunction((c) => {
      const el = document.querySelector('.conflict') as HTMLElement;
      return !el.hidden && Math.abs(Number(el.dataset.value) - c) < 1e-9;
    }, conf);
    const shown = Number(await p.page.locator('.conflict').getAttribute('data-value'));
    assert.ok(Math.abs(shown - conf) < 1e-9, `conf(e) drawn ${shown}, engine ${conf}`);
    assert.match(await p.page.locator('.conflict').innerText(), /Data conflict: conf\(e\)/);
    await check('LVFAILURE', clash);
    await p.screenshot('workbench-diagnosis');
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
    await lsp.close();
  }
});

test("the EM trace's start can be hidden, so it does not flatten the rest of the plot", async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = learningRun();
  const learned = run.results.find((r): r is LearnedNetworkResult => r.kind === 'learnedNetwork')!;
  assert.ok(learned.trace.length > 2);
  const p = await harness.open('dark', undefined, PANEL);
  try {
    await p.show(run);
    const dots = () =>
      p.page.$$eval('.kind-learnedNetwork circle.dot', (cs) => cs.map((c) => Number(c.getAttribute('data-y'))));
    assert.deepEqual(await dots(), learned.trace);
    await p.page.click('.kind-learnedNetwork .trace-skip');
    assert.deepEqual(await dots(), learned.trace.slice(1));
    assert.equal(await p.page.locator('.kind-learnedNetwork .trace-skip').getAttribute('aria-pressed'), 'true');
    await p.page.click('.kind-learnedNetwork .trace-skip');
    assert.deepEqual(await dots(), learned.trace);
  } finally {
    await p.close();
  }
});
