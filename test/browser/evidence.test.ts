/**
 * Interactive evidence in the results webview, end to end: the panel (headless Chromium) shows
 * the run of examples/alarm.bayes; a fake host relays the panel's `marginals` requests to the real
 * language server (`bayes/marginals`, a compiled network kept warm in a worker). The test clicks
 * states in the graph and in the marginals list, sets a likelihood in a node's detail view, and
 * checks every number drawn against `bayes marginals` (CLI) with the same evidence, to 1e-9.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { NetworkResult, RunResult } from '../../server/src/protocol/runResult.js';
import type { MarginalsReply } from '../../server/src/protocol/messages.js';
import type { MarginalsRequestMessage, WebviewMessage } from '../../server/src/protocol/webviewMessages.js';
import { RUN_RESULT_VERSION } from '../../server/src/protocol/webviewMessages.js';
import { CHROMIUM, type PanelPage, panelHarness } from './support/harness.js';
import { cli, runExample } from './support/fixtures.js';
import { fileUri, startLsp, type LspSession } from '../support/lspClient.js';
import { repoRoot } from '../support/shared.js';

const ready = existsSync(CHROMIUM);
const harness = panelHarness(ready);
let lsp: LspSession;
const model = join(repoRoot, 'examples', 'alarm.bayes');
const bif = join(repoRoot, 'examples', 'data', 'alarm.bif');
const uri = fileUri(model);

before(async () => {
  if (!ready) return;
  lsp = await startLsp();
  await lsp.open(uri, readFileSync(model, 'utf8'));
});
after(async () => {
  await lsp?.close();
});

/** Answers the page's `marginals` requests through the language server, as client/src/resultsPanel.ts does. */
function fakeHost(p: PanelPage): { stop(): void; latencies: number[] } {
  let seen = 0;
  let running = true;
  const latencies: number[] = [];
  void (async () => {
    while (running) {
      const posted = await p.posted().catch(() => [] as WebviewMessage[]);
      for (const m of posted.slice(seen).filter((x): x is MarginalsRequestMessage => x.type === 'marginals')) {
        const t0 = performance.now();
        const reply = await lsp.request<MarginalsReply>('bayes/marginals', {
          uri,
          network: m.network,
          evidence: m.evidence,
          likelihoods: m.likelihoods,
          soft: m.soft,
        });
        latencies.push(performance.now() - t0);
        await p
          .post({ type: 'marginals', version: RUN_RESULT_VERSION, id: m.id, network: m.network, reply })
          .catch(() => undefined);
      }
      seen = posted.length;
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  return {
    stop: () => {
      running = false;
    },
    latencies,
  };
}

type Cli = { marginals: Record<string, Record<string, number>> };
const marginalsCli = (args: string[]) => (JSON.parse(cli(['marginals', bif, '--json', ...args])) as Cli).marginals;

/** Every number the panel draws for the network: the marginals list and the graph's bars. */
type Tables = Record<string, Record<string, number>>;

async function drawn(p: PanelPage): Promise<{ list: Tables; bars: Tables }> {
  return p.page.evaluate(() => {
    const list: Record<string, Record<string, number>> = {};
    for (const b of Array.from(document.querySelectorAll('.marginals-list button.state-choice')) as HTMLElement[]) {
      (list[b.dataset.variable!] ??= {})[b.dataset.state!] = Number(
        (b.querySelector('.num') as HTMLElement).dataset.value,
      );
    }
    const bars: Record<string, Record<string, number>> = {};
    for (const r of Array.from(document.querySelectorAll('g.node rect.bar')) as SVGRectElement[]) {
      const id = (r.closest('g.node') as SVGGElement).dataset.id!;
      (bars[id] ??= {})[r.dataset.state!] = Number(r.dataset.value);
    }
    return { list, bars };
  });
}

function assertMatches(got: Tables, want: Tables, what: string): void {
  assert.deepEqual(Object.keys(got).sort(), Object.keys(want).sort(), `${what}: every variable`);
  let worst = 0;
  for (const [v, states] of Object.entries(got)) {
    for (const [s, p] of Object.entries(states)) {
      const d = Math.abs(p - want[v]![s]!);
      assert.ok(d <= 1e-9, `${what}: P(${v} = ${s}) drawn ${p}, CLI ${want[v]![s]}`);
      worst = Math.max(worst, d);
    }
  }
}

/** Waits until the status line reports the answer to the newest click. */
async function settled(p: PanelPage, requests: number): Promise<void> {
  await p.page.waitForFunction(
    (n) =>
      (window as unknown as { __posted: WebviewMessage[] }).__posted.filter((m) => m.type === 'marginals').length >= n,
    requests,
  );
  await p.page.waitForFunction(() =>
    /exact \(junction tree\) in|Cannot use/.test(document.querySelector('.evidence-status')?.textContent ?? ''),
  );
}

test('alarm: clicking states sets evidence; every marginal equals `bayes marginals` with the same evidence (1e-9)', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('alarm.bayes');
  const net = run.results.find((e): e is NetworkResult => e.kind === 'network' && e.network === 'Alarm')!;
  assert.ok(net, 'the run draws network Alarm');
  const p = await harness.open('dark');
  const host = fakeHost(p);
  try {
    await p.post({
      type: 'show',
      version: RUN_RESULT_VERSION,
      uri,
      model: 'alarm.bayes',
      state: 'done',
      cached: false,
      result: run,
    });
    // Before any click: the run's own numbers, which are the CLI's without evidence.
    assertMatches((await drawn(p)).list, marginalsCli([]), 'no evidence');

    // A state in the graph: HR = LOW (the graph shows every node with bars).
    await p.page.click('g.node[data-id="HR"] rect.state-hit[data-state="LOW"]');
    await settled(p, 1);
    let shown = await drawn(p);
    let want = marginalsCli(['-e', 'HR=LOW']);
    assertMatches(shown.list, want, 'HR = LOW (list)');
    assertMatches(shown.bars, want, 'HR = LOW (graph bars)');
    assert.deepEqual(await p.page.$$eval('.evidence-chips .chip', (cs) => cs.map((c) => c.firstChild!.textContent)), [
      'HR = LOW',
    ]);
    assert.equal(await p.page.locator('g.node.evidence').count(), 1);

    // A state in the marginals list, reached by the keyboard: focus it and press Space.
    await p.page.focus('.marginals-list button[data-variable="CO"][data-state="HIGH"]');
    await p.page.keyboard.press('Space');
    await settled(p, 2);
    want = marginalsCli(['-e', 'HR=LOW', '-e', 'CO=HIGH']);
    assertMatches((await drawn(p)).list, want, 'HR = LOW, CO = HIGH');

    // A graph state by keyboard (the node's state cursor starts on its first state; Space toggles it):
    // clearing HR = LOW.
    await p.page.focus('g.node[data-id="HR"]');
    await p.page.keyboard.press('Space');
    await settled(p, 3);
    want = marginalsCli(['-e', 'CO=HIGH']);
    shown = await drawn(p);
    assertMatches(shown.list, want, 'HR cleared, CO = HIGH');
    assertMatches(shown.bars, want, 'HR cleared (graph bars)');

    // Virtual evidence from the node detail view.
    await p.page.selectOption('.node-detail select', 'PVSAT');
    const states = net.variables.find((v) => v.name === 'PVSAT')!.states;
    const lambda = [0.8, 0.15, 0.05];
    for (let i = 0; i < states.length; i++)
      await p.page.fill(`.node-detail input[data-state="${states[i]}"]`, String(lambda[i]));
    await p.page.click('.node-detail .likelihood-apply');
    await settled(p, 4);
    want = marginalsCli(['-e', 'CO=HIGH', '--likelihood', `PVSAT=${lambda.join(',')}`]);
    assertMatches((await drawn(p)).list, want, 'CO = HIGH, PVSAT ~ likelihood');

    // Survives a re-run of the unchanged model (a new `show` of the same result).
    await p.post({
      type: 'show',
      version: RUN_RESULT_VERSION,
      uri,
      model: 'alarm.bayes',
      state: 'done',
      cached: true,
      result: run,
    });
    await settled(p, 5);
    assertMatches((await drawn(p)).list, want, 'after a re-run');
    const saved = (await p.state()) as { evidence?: Record<string, unknown> };
    assert.deepEqual(saved.evidence?.['Alarm'], { evidence: { CO: 'HIGH' }, likelihoods: { PVSAT: lambda }, soft: {} });

    // One action writes the evidence as observe lines.
    await p.page.click('.evidence-write');
    const write = (await p.posted()).filter((m) => m.type === 'writeObserve');
    assert.deepEqual(write, [
      {
        type: 'writeObserve',
        network: 'Alarm',
        lines: [
          'observe CO = HIGH in Alarm',
          `observe PVSAT ~ likelihood { ${states.map((s, i) => `${s}: ${lambda[i]}`).join(', ')} } in Alarm`,
        ],
      },
    ]);

    // Reset: back to the run's numbers without asking the server.
    await p.page.click('.evidence-reset');
    assertMatches((await drawn(p)).list, marginalsCli([]), 'after reset');
    assert.equal(await p.page.locator('.evidence-chips .chip').count(), 0);
    await p.screenshot('evidence-alarm-dark');

    // The server answers every click after the first from the warm network. How fast is a bench's
    // question (the README's click figures), not a test's: a busy machine must not fail it.
    const warm = host.latencies.slice(1);
    assert.ok(warm.length >= 3, `${warm.length} warm answers`);
    t.diagnostic(`bayes/marginals latencies ${host.latencies.map((x) => x.toFixed(1)).join(', ')} ms`);
    assert.deepEqual(p.problems, []);
  } finally {
    host.stop();
    await p.close();
  }
});

test('bayes/marginals: an unknown state or network is a clear error, not a crash', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const bad = await lsp.request<MarginalsReply>('bayes/marginals', {
    uri,
    network: 'Alarm',
    evidence: { HR: 'MEDIUM' },
  });
  assert.deepEqual(bad, { error: "'MEDIUM' is not a state of 'HR' (states: LOW, NORMAL, HIGH)" });
  const none = await lsp.request<MarginalsReply>('bayes/marginals', { uri, network: 'Nope', evidence: {} });
  assert.ok('error' in none && /no network 'Nope'/.test(none.error));
});

test('the panel shows significant digits at bayes.precision (0.00784 is not 0.0078)', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('alarm.bayes');
  const sig = (p: number, d: number) =>
    p === 0 || p === 1
      ? String(p)
      : Math.abs(p) < 1e-4
        ? p.toExponential(d - 1).replace(/\.?0+e/, 'e')
        : String(Number(p.toPrecision(d)));
  for (const precision of [undefined, 2, 6]) {
    const p = await harness.open('light');
    try {
      await p.post({
        type: 'show',
        version: RUN_RESULT_VERSION,
        uri,
        model: 'alarm.bayes',
        state: 'done',
        cached: false,
        result: run,
        precision,
      });
      const shown = await p.page.$$eval('.marginals-list button.state-choice .num', (ns) =>
        ns.map((n) => [Number((n as HTMLElement).dataset.value), n.textContent]),
      );
      assert.ok(shown.length > 100);
      for (const [value, text] of shown)
        assert.equal(text, sig(value as number, precision ?? 4), `${value} at ${precision ?? 4} digits`);
      // Small probabilities keep their digits: no 0.0078 for 0.00784.
      const small = shown.find(([v]) => {
        const x = v as number;
        return x > 0 && x < 0.01 && !Number.isInteger(x * 1e4);
      });
      assert.ok(small, 'alarm has a marginal below 0.01');
      assert.notEqual(small[1], (small[0] as number).toFixed(4));
    } finally {
      await p.close();
    }
  }
});

test('a joint of 72 states draws the 12 most probable and one "others" bar; the table keeps all 72', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const dir = mkdtempSync(join(tmpdir(), 'bayes-joint-'));
  const file = join(dir, 'joint.bayes');
  writeFileSync(
    file,
    `import network Alarm from "${bif}"\nquery P(HR, CO, HYPOVOLEMIA, VENTLUNG | PAP = HIGH) in Alarm\n`,
  );
  const run = JSON.parse(cli(['run', '--json', file, '--data-root', dirname(bif)])) as RunResult;
  const entry = run.results.find((r) => r.kind === 'probability');
  assert.ok(entry && entry.kind === 'probability' && entry.table.length === 72, 'a joint of 3 · 3 · 2 · 4 states');
  const p = await harness.open('dark');
  try {
    await p.post({
      type: 'show',
      version: RUN_RESULT_VERSION,
      uri: fileUri(file),
      model: 'joint.bayes',
      state: 'done',
      cached: false,
      result: run,
    });
    const bars = await p.page.$$eval('section.kind-probability rect.bar', (rs) =>
      rs.map((r) => [r.getAttribute('data-category'), Number(r.getAttribute('data-value'))] as [string, number]),
    );
    assert.equal(bars.length, 13);
    const sorted = [...entry.table].sort((a, b) => b.p - a.p);
    sorted.slice(0, 12).forEach((r, i) => {
      assert.equal(bars[i]![0], r.states.join(', '));
      assert.equal(bars[i]![1], r.p);
    });
    assert.equal(bars[12]![0], 'others (60 states)');
    // The labels are whole (a joint's "NORMAL, NORMAL, FALSE, NORMAL" used to be cut at 22 characters).
    const labels = await p.page.$$eval('section.kind-probability svg.chart text.label', (ts) =>
      ts.map((t) => t.firstChild!.textContent),
    );
    assert.deepEqual(
      labels.slice(0, 13),
      bars.map((b) => b[0]),
    );
    const others = sorted.slice(12).reduce((s, r) => s + r.p, 0);
    assert.ok(Math.abs(bars[12]![1] - others) < 1e-15 && Math.abs(bars.reduce((s, b) => s + b[1], 0) - 1) < 1e-9);
    assert.equal(
      await p.page.locator('section.kind-probability table[aria-label="probability table"] tbody tr').count(),
      72,
    );
    await p.screenshot('joint-72-dark');
  } finally {
    await p.close();
  }
});
