/**
 * Networks over time in the results panel (headless Chromium), issue 30: `bayes run --json` on the
 * umbrella example gives a `sequence` entry, drawn per variable as P(state) over t, filtered and
 * smoothed; hovering step 2 (or moving there with the keyboard) reads the numbers of the run's own
 * expect lines (Russell & Norvig's 0.883). The machine-monitoring example, three-state health and
 * missing readings: the state selector redraws, every `?` of the data is marked unobserved, the
 * most likely sequence is a band. axe-core finds no serious violation.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ExpectResult, GaussianSequenceResult, SequenceResult } from '../../server/src/protocol/runResult.js';
import { CHROMIUM, type PanelPage, panelHarness } from './support/harness.js';
import { runExample, runModel } from './support/fixtures.js';
import { createRng } from '../../server/src/engine/random.js';
import { repoRoot } from '../support/shared.js';

const ready = existsSync(CHROMIUM);
const harness = panelHarness(ready);

/** The number the readout of `variable`'s chart shows for a series and state. */
function readout(p: PanelPage, variable: string, series: string, state: string): Promise<number> {
  return p.page
    .locator(`.sequence-variable[data-variable="${variable}"] .readout-${series} [data-state="${state}"]`)
    .getAttribute('data-value')
    .then(Number);
}

test('umbrella: Rain over t, filtered and smoothed; step 2 reads 0.883 (hover and keyboard)', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('umbrella.bayes');
  const expects = run.results.filter((r): r is ExpectResult => r.kind === 'expect');
  // The run's own answers: line 13 filters Rain[2], line 14 smooths Rain[1].
  const filtered2 = expects.find((e) => e.range.start.line === 12)!.actual as number;
  const smoothed1 = expects.find((e) => e.range.start.line === 13)!.actual as number;
  assert.ok(Math.abs(filtered2 - 0.883) < 1e-3 && Math.abs(smoothed1 - 0.883) < 1e-3);
  const entry = run.results.find((r): r is SequenceResult => r.kind === 'sequence')!;
  assert.equal(entry.steps, 2);
  const p = await harness.open('light');
  try {
    await p.show(run);
    const rain = p.page.locator('.card[data-kind="sequence"] .sequence-variable[data-variable="Rain"]');
    await rain.waitFor();
    // Each series is a line through the two steps.
    for (const series of ['filtered', 'smoothed'])
      assert.equal(
        (await rain.locator(`polyline.line[data-series="${series}"]`).getAttribute('points'))!.trim().split(/\s+/)
          .length,
        2,
        series,
      );
    assert.deepEqual(await rain.locator('rect.most-likely').evaluateAll((r) => r.map((x) => x.dataset.state)), ['yes']);
    assert.equal(await p.page.locator('.sequence-variable[data-variable="Umbrella"] text.observed').count(), 2);

    await rain.locator('rect.step-hit[data-step="2"]').hover();
    assert.equal(await rain.locator('.sequence-readout').getAttribute('data-step'), '2');
    assert.ok(Math.abs((await readout(p, 'Rain', 'filtered', 'yes')) - filtered2) <= 1e-12);
    assert.match(await rain.locator('.sequence-readout').innerText(), /filtered yes 0\.8834.*most likely yes/);
    await rain.locator('rect.step-hit[data-step="1"]').hover();
    assert.ok(Math.abs((await readout(p, 'Rain', 'smoothed', 'yes')) - smoothed1) <= 1e-12);

    // The keyboard: the chart is one tab stop, a slider over the steps.
    const chart = rain.locator('svg.sequence-chart');
    await chart.focus();
    await p.page.keyboard.press('End');
    assert.equal(await chart.getAttribute('aria-valuenow'), '2');
    assert.ok(Math.abs((await readout(p, 'Rain', 'filtered', 'yes')) - filtered2) <= 1e-12);
    await p.page.keyboard.press('ArrowLeft');
    assert.equal(await rain.locator('.sequence-readout').getAttribute('data-step'), '1');
    await p.page.keyboard.press('ArrowRight');
    assert.match((await chart.getAttribute('aria-valuetext'))!, /^t 2: filtered yes 0\.8834/);
    await p.page.locator('.card[data-kind="sequence"]').scrollIntoViewIfNeeded();
    await p.page.locator('.card[data-kind="sequence"]').screenshot({
      path: join(repoRoot, 'docs', 'images', 'results-dynamic-umbrella-light.png'),
    });
    await p.screenshot('dynamic-umbrella-light');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('machine monitoring: three-state health with a selector, missing readings unobserved, the most likely band', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('machine_monitoring.bayes');
  const entry = run.results.find((r): r is SequenceResult => r.kind === 'sequence')!;
  const rows = readFileSync(join(repoRoot, 'examples', 'data', 'machine.csv'), 'utf8')
    .trim()
    .split('\n');
  const header = rows[0]!.split(',');
  const missing = (column: string) => rows.slice(1).filter((r) => r.split(',')[header.indexOf(column)] === '?').length;
  const p = await harness.open('dark');
  try {
    await p.show(run);
    const health = p.page.locator('.sequence-variable[data-variable="Health"]');
    await health.waitFor();
    // Health is never observed: every step unobserved; each reading's `?` is marked as such.
    assert.equal(await health.locator('circle.unobserved').count(), entry.steps);
    for (const column of ['Load', 'Temperature', 'Vibration']) {
      const row = p.page.locator(`.sequence-variable[data-variable="${column}"]`);
      assert.ok(missing(column) + (await row.locator('text.observed').count()) === entry.steps, column);
      assert.equal(await row.locator('circle.unobserved').count(), missing(column), column);
    }
    // The selector draws P(Health = failing): the last step's smoothed number is the run's.
    await health.getByLabel('State of Health to chart').selectOption('failing');
    const last = String(entry.steps);
    await health.locator(`rect.step-hit[data-step="${last}"]`).hover();
    const failing = entry.variables.find((v) => v.name === 'Health')!.smoothed!.mean[2]![entry.steps - 1]!;
    assert.equal(await readout(p, 'Health', 'smoothed', 'failing'), failing);
    const dots = await health.locator('circle.dot.smoothed').evaluateAll((c) => c.map((x) => Number(x.dataset.value)));
    assert.equal(dots.at(-1), failing);
    const band = await health.locator('rect.most-likely').evaluateAll((r) => r.map((x) => x.dataset.state));
    assert.ok(band.length >= 1 && band.every((s) => ['ok', 'worn', 'failing'].includes(s!)));
    await p.screenshot('dynamic-machine-dark');
    assert.deepEqual(await p.seriousViolations(), []);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('10^4 steps: 500 points, each a bucket drawn as its mean with an envelope; the readout gives the bucket', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const T = 10_000;
  const rng = createRng(3);
  // Long dry and wet spells, some days unseen.
  let wet = false;
  const rows = Array.from({ length: T }, () => {
    if (rng.next() < 0.01) wet = !wet;
    if (rng.next() < 0.1) return '?';
    return rng.next() < (wet ? 0.9 : 0.2) ? 'yes' : 'no';
  });
  const model = readFileSync(join(repoRoot, 'examples', 'umbrella.bayes'), 'utf8')
    .split('\n')
    .filter((l) => l.startsWith('network') || l.startsWith('  ') || l === '}')
    .join('\n');
  const text = `${model}\ndata Days {\n  Umbrella\n${rows.map((r) => '  ' + r).join('\n')}\n}\nquery P(Rain[1] = yes) in Umbrella given Days\n`;
  const run = runModel('long-umbrella.bayes', text);
  const entry = run.results.find((r): r is SequenceResult => r.kind === 'sequence')!;
  assert.ok(entry, JSON.stringify(run.diagnostics));
  assert.equal(entry.bucket, 20);
  const p = await harness.open('light');
  try {
    await p.show(run);
    const rain = p.page.locator('.sequence-variable[data-variable="Rain"]');
    await rain.waitFor();
    assert.equal(await rain.locator('polygon.envelope.filtered').count(), 1);
    assert.equal(await rain.locator('polygon.envelope.smoothed').count(), 1);
    assert.equal(await rain.locator('rect.step-hit').count(), 500);
    const seen = entry.variables[1]!.observed.filter((s) => s !== null).length;
    assert.equal(await p.page.locator('.sequence-variable[data-variable="Umbrella"] rect.observed').count(), seen);
    // A point is ~1.1 px wide and the mouse moves in whole pixels: read which bucket it landed on.
    await rain.locator('rect.step-hit[data-step="201"]').hover({ force: true });
    const from = Number(await rain.locator('.sequence-readout').getAttribute('data-step'));
    assert.ok(Math.abs(from - 201) <= 20 && (from - 1) % 20 === 0, `step ${from}`);
    assert.match(
      await rain.locator('.sequence-readout').innerText(),
      new RegExp(`t = ${from}…${from + 19} \\(20 steps\\)`),
    );
    const b = (from - 1) / 20;
    assert.equal(await readout(p, 'Rain', 'smoothed', 'yes'), entry.variables[0]!.smoothed!.mean[0]![b]);
    // The keyboard moves one bucket at a time.
    await rain.locator('svg.sequence-chart').focus();
    await p.page.keyboard.press('ArrowRight');
    assert.equal(await rain.locator('.sequence-readout').getAttribute('data-step'), String(from + 20));
    await p.screenshot('dynamic-long-light');
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

/** The exact number a Gaussian readout shows for a series (filtered, smoothed, forecast, observed) and field. */
function gaussianReadout(p: PanelPage, variable: string, series: string, field: string): Promise<number> {
  return p.page
    .locator(`.sequence-variable[data-variable="${variable}"] .readout-${series} [data-field="${field}"]`)
    .getAttribute('data-value')
    .then(Number);
}

test('tracking: each real variable over t, filtered and smoothed means in ±2σ bands, readings marked, the forecast; hover reads a step', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const run = runExample('tracking.bayes');
  const entry = run.results.find((r): r is GaussianSequenceResult => r.kind === 'sequence')!;
  assert.equal(entry.method, 'kalman');
  const expects = run.results.filter((r): r is ExpectResult => r.kind === 'expect');
  const actual = (line: number) => expects.find((e) => e.range.start.line === line)!.actual as number;
  const p = await harness.open('dark');
  try {
    await p.show(run);
    const position = p.page.locator('.card[data-kind="sequence"] .sequence-variable[data-variable="Position"]');
    await position.waitFor();
    // Lines through the 10 steps, bands around them, the forecast's 2 steps past the data.
    const count = async (selector: string) =>
      (await position.locator(selector).getAttribute('points'))!.trim().split(/\s+/).length;
    assert.equal(await count('polyline.line[data-series="filtered"]'), 10);
    assert.equal(await count('polyline.line[data-series="smoothed"]'), 10);
    assert.equal(await count('polyline.line[data-series="forecast"]'), 2);
    assert.equal(await count('polygon.band[data-series="filtered"]'), 20);
    assert.equal(await count('polygon.band[data-series="smoothed"]'), 20);
    assert.equal(await position.locator('line.forecast-divider').count(), 1);
    assert.equal(await position.locator('rect.step-hit').count(), 12);
    // The band is mean ± 2σ: its upper edge at step 4 is as high as that mean plus two sds.
    const band = (await position.locator('polygon.band[data-series="smoothed"]').getAttribute('points'))!
      .trim()
      .split(/\s+/)
      .map((xy) => Number(xy.split(',')[1]));
    const dots = await position
      .locator('circle.dot.smoothed')
      .evaluateAll((c) => c.map((x) => Number(x.getAttribute('cy'))));
    // Pixels per unit from the dots of steps 1 and 10; the band's edges are 2σ of them from each dot.
    const s = entry.variables[0]!.smoothed!;
    const scale = (dots[0]! - dots[9]!) / (s.mean[9]! - s.mean[0]!);
    s.mean.forEach((_, i) => {
      const twoSd = 2 * Math.sqrt(s.variance[i]!) * scale;
      assert.ok(Math.abs(dots[i]! - twoSd - band[i]!) < 0.2, `upper ${i + 1}: ${band[i]} vs ${dots[i]! - twoSd}`);
      assert.ok(
        Math.abs(dots[i]! + twoSd - band[19 - i]!) < 0.2,
        `lower ${i + 1}: ${band[19 - i]} vs ${dots[i]! + twoSd}`,
      );
    });
    // The readings: seven dots on Reading's chart (steps 2, 5, 6 missing), at the CSV's values.
    const reading = p.page.locator('.sequence-variable[data-variable="Reading"]');
    const readings = await reading
      .locator('circle.reading[data-step]')
      .evaluateAll((c) => c.map((x) => [Number(x.getAttribute('data-step')), Number(x.getAttribute('data-value'))]));
    assert.deepEqual(readings, [
      [1, 1.3],
      [3, 2.6],
      [4, 4.4],
      [7, 6.1],
      [8, 8.2],
      [9, 8.5],
      [10, 10.4],
    ]);
    assert.equal(await position.locator('circle.reading[data-step]').count(), 0);
    assert.match((await position.locator('.legend').textContent()) ?? '', /smoothed = most likely/);

    // Hover step 5 (no reading): the smoothed numbers are the example's expect lines 18–19.
    await position.locator('rect.step-hit[data-step="5"]').hover();
    const text = position.locator('.sequence-readout');
    assert.equal(await text.getAttribute('data-step'), '5');
    assert.ok(Math.abs((await gaussianReadout(p, 'Position', 'smoothed', 'mean')) - actual(17)) <= 1e-12);
    assert.ok(Math.abs((await gaussianReadout(p, 'Position', 'smoothed', 'variance')) - actual(18)) <= 1e-12);
    const v = entry.variables[0]!;
    assert.equal(await gaussianReadout(p, 'Position', 'filtered', 'mean'), v.filtered.mean[4]);
    assert.equal(await gaussianReadout(p, 'Position', 'filtered', 'variance'), v.filtered.variance[4]);
    assert.match(
      await text.innerText(),
      /^Position, t = 5 · filtered mean 5\.087353, variance 2\.489777 · smoothed = most likely mean 4\.928733, variance 0\.480119 · no reading$/,
    );
    // Step 4 filtered is line 16's; on Reading's chart its reading shows.
    await position.locator('rect.step-hit[data-step="4"]').hover();
    assert.ok(Math.abs((await gaussianReadout(p, 'Position', 'filtered', 'mean')) - actual(15)) <= 1e-12);
    await reading.locator('rect.step-hit[data-step="4"]').hover();
    assert.equal(await gaussianReadout(p, 'Reading', 'observed', 'reading'), 4.4);
    // The keyboard to the end: step 12 is the forecast of line 21.
    const chart = position.locator('svg.sequence-chart');
    await chart.focus();
    await p.page.keyboard.press('End');
    assert.equal(await chart.getAttribute('aria-valuenow'), '12');
    assert.ok(Math.abs((await gaussianReadout(p, 'Position', 'forecast', 'mean')) - actual(20)) <= 1e-12);
    assert.match((await chart.getAttribute('aria-valuetext'))!, /^t 12: forecast mean 11\.8604/);
    await p.page.locator('.card[data-kind="sequence"]').scrollIntoViewIfNeeded();
    await p.page.locator('.card[data-kind="sequence"]').screenshot({
      path: join(repoRoot, 'docs', 'images', 'results-dynamic-tracking-dark.png'),
    });
    assert.deepEqual(await p.seriousViolations(), []);
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});

test('a Gaussian sequence of 10^4 steps: 500 points with band envelopes; a malformed result is said in words', async (t) => {
  if (!ready) return t.skip(`no Chromium at ${CHROMIUM}`);
  const T = 10_000;
  const rng = createRng(5);
  let level = 0;
  const cells = Array.from({ length: T }, () => {
    level += 0.3 * rng.normal();
    return rng.next() < 0.1 ? '?' : (level + rng.normal()).toFixed(3);
  });
  const text = `network Walk {
  variable Level, Meter : real
  P(Level[0]) ~ Normal(mean: 0, variance: 1)
  P(Level[t] | Level[t-1]) ~ Normal(mean: 0, Level[t-1]: 1, variance: 0.09)
  P(Meter[t] | Level[t]) ~ Normal(mean: 0, Level[t]: 1, variance: 1)
}
data Meters {\n  Meter\n${cells.map((c) => '  ' + c).join('\n')}\n}\nquery mean Level[10] in Walk given Meters\n`;
  const run = runModel('long-walk.bayes', text);
  const entry = run.results.find((r): r is GaussianSequenceResult => r.kind === 'sequence')!;
  assert.ok(entry, JSON.stringify(run.diagnostics));
  assert.equal(entry.bucket, 20);
  const p = await harness.open('light');
  try {
    await p.show(run);
    const level = p.page.locator('.sequence-variable[data-variable="Level"]');
    await level.waitFor();
    assert.equal(await level.locator('rect.step-hit').count(), 500);
    assert.equal(await level.locator('circle.dot').count(), 0, 'no dots on 500 points');
    const meter = p.page.locator('.sequence-variable[data-variable="Meter"]');
    assert.equal(await meter.locator('circle.reading[data-step]').count(), 500);
    await level.locator('rect.step-hit[data-step="201"]').hover({ force: true });
    const from = Number(await level.locator('.sequence-readout').getAttribute('data-step'));
    assert.ok(Math.abs(from - 201) <= 20 && (from - 1) % 20 === 0, `step ${from}`);
    const b = (from - 1) / 20;
    assert.equal(await gaussianReadout(p, 'Level', 'smoothed', 'mean'), entry.variables[0]!.smoothed!.mean[b]);
    assert.match(
      await level.locator('.sequence-readout').innerText(),
      new RegExp(`t = ${from}…${from + 19} \\(20 steps\\)`),
    );
    await p.screenshot('dynamic-gaussian-long-light');
    assert.deepEqual(p.problems, []);
    // The same result with a series cut short: the card says why instead of drawing.
    const bad = structuredClone(run);
    const cut = bad.results.find((r): r is GaussianSequenceResult => r.kind === 'sequence')!;
    cut.variables[0]!.filtered.mean.pop();
    await p.show(bad);
    await p.page
      .getByText('This chart over time cannot be drawn: variable 1: filtered.mean must be 500 numbers.')
      .waitFor();
    assert.deepEqual(p.problems, []);
  } finally {
    await p.close();
  }
});
