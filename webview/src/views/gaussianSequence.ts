/**
 * A Gaussian network over time along its readings (a `sequence` result of method 'kalman'): per
 * variable a chart over t of the filtered mean (solid) and the smoothed mean (dashed), each in its
 * ±2σ band, the readings as dots, and past the data the forecast (dotted, with its band) behind a
 * divider. The smoothed means are also the most likely sequence — a linear Gaussian posterior's
 * mode is its mean — which the legend says instead of drawing the same line twice. A long sequence
 * arrives in buckets (run/gaussianSequenceResults.ts): a point is the bucket's mean, its band the
 * envelope of its steps' bands, a reading dot the mean of its readings with their range as a tick.
 * Hover, or focus and the arrow keys, pick a point: the readout gives its numbers.
 */
import type {
  GaussianSequenceBands,
  GaussianSequenceResult,
  GaussianSequenceVariable,
} from '../../../server/src/protocol/runResult.js';
import { h, svg } from '../dom.js';
import { num } from '../format.js';
import { atLine, extent, figure, ticks } from '../charts.js';
import {
  M,
  W,
  attachSlider,
  legend,
  lineMark,
  middle,
  pointsAttr,
  stepAxis,
  stepPoints,
  stepsText,
  variableBox,
  type StepPoint,
} from './stepChart.js';

const PLOT_H = 150;
/** Dots on the lines only while the points are few enough to tell apart. */
const DOTS = 100;

type SeriesName = 'filtered' | 'smoothed' | 'forecast';

export function gaussianSequenceView(e: GaussianSequenceResult): HTMLElement[] {
  const ahead = e.forecast
    ? `; steps ${e.steps + 1}…${e.steps + e.forecast} are a forecast from the data (dotted)`
    : '';
  const per =
    e.bucket > 1
      ? `; each point is ${e.bucket} steps: the mean of their means, the band the envelope of their bands`
      : '';
  const info = h(
    'p',
    { class: 'sequence-info' },
    `${e.steps} steps of ${e.data}; exact (Kalman filter, RTS smoother); log-likelihood `,
    h('span', { class: 'num', 'data-value': String(e.logLikelihood) }, num(e.logLikelihood, 6)),
    `; bands are mean ± 2σ; the smoothed means are also the most likely sequence (the posterior is Gaussian: its mode is its mean)${ahead}${per}`,
  );
  const note = e.note ? [h('p', { class: 'warning' }, e.note)] : [];
  const points = stepPoints(e.steps, e.bucket, e.forecast);
  return [
    info,
    ...note,
    ...e.variables.map((v) => variableBox(v.name, (readout, cursor) => [chart(e, v, points, readout, cursor)])),
  ];
}

/** The series drawn at point b, and its index there: the forecast's points follow the data's. */
function seriesAt(
  v: GaussianSequenceVariable,
  b: number,
  dataPoints: number,
): Array<[SeriesName, GaussianSequenceBands, number]> {
  if (b >= dataPoints) return v.forecast ? [['forecast', v.forecast, b - dataPoints]] : [];
  const out: Array<[SeriesName, GaussianSequenceBands, number]> = [['filtered', v.filtered, b]];
  if (v.smoothed) out.push(['smoothed', v.smoothed, b]);
  return out;
}

function chart(
  e: GaussianSequenceResult,
  v: GaussianSequenceVariable,
  points: readonly StepPoint[],
  readout: HTMLElement,
  cursor: { point: number },
): HTMLElement {
  const dataPoints = v.filtered.mean.length;
  const all = [v.filtered, v.smoothed, v.forecast].filter((s) => s !== undefined);
  const seen = [...v.observed, ...(v.observedMin ?? []), ...(v.observedMax ?? [])].filter((x) => x !== null);
  const [lo, hi] = extent([...all.flatMap((s) => [...s.lower, ...s.upper]), ...seen]);
  const pad = (hi - lo) * 0.04 || 1;
  const y = (x: number) => M.t + (1 - (x - (lo - pad)) / (hi - lo + 2 * pad)) * PLOT_H;
  const bottom = M.t + PLOT_H;
  const height = bottom + 24;
  const root = svg('svg', { width: W, height, viewBox: `0 0 ${W} ${height}`, class: 'sequence-chart gaussian' });
  root.append(valueAxis(lo - pad, hi + pad, y), stepAxis(e.steps + e.forecast, bottom));
  const xs = (from: number, n: number) => points.slice(from, from + n).map(middle);
  const draw = (name: SeriesName, s: GaussianSequenceBands | undefined, from: number) => {
    if (!s) return;
    const x = xs(from, s.mean.length);
    const band = pointsAttr([...x, ...[...x].reverse()], [...s.upper, ...[...s.lower].reverse()].map(y));
    root.append(svg('polygon', { class: `band ${name}`, points: band, 'data-series': name }));
    root.append(svg('polyline', { class: `line ${name}`, points: pointsAttr(x, s.mean.map(y)), 'data-series': name }));
    if (points.length <= DOTS)
      s.mean.forEach((m, i) =>
        root.append(svg('circle', { class: `dot ${name}`, cx: x[i], cy: y(m), r: 2.5, 'data-value': m })),
      );
  };
  draw('filtered', v.filtered, 0);
  draw('smoothed', v.smoothed, 0);
  if (v.forecast) {
    const at = points[dataPoints]!.x0;
    root.append(svg('line', { class: 'forecast-divider', x1: at, x2: at, y1: M.t, y2: bottom }));
    draw('forecast', v.forecast, dataPoints);
  }
  root.append(...readingMarks(v, points, y), legend(legendItems(v, e.forecast > 0)));
  const label = `${v.name} over t (mean ± 2σ), ${e.network} given ${e.data}`;
  const fig = figure(`sequence-${e.network}-${v.name}-${atLine(e)}`, label, root, () =>
    copyRows(v, points, dataPoints),
  );
  // After figure(), which gives the chart the role img: the slider's role replaces it.
  attachSlider({
    root,
    points,
    top: M.t,
    bottom,
    lastStep: e.steps + e.forecast,
    readout,
    cursor,
    parts: (b) => readoutParts(v, b, points[b]!, dataPoints),
    text: (b) => readoutText(v, b, points[b]!, dataPoints),
  });
  return fig;
}

function legendItems(v: GaussianSequenceVariable, forecast: boolean): Array<[SVGElement, string]> {
  const items: Array<[SVGElement, string]> = [[lineMark('filtered'), 'filtered ± 2σ']];
  if (v.smoothed) items.push([lineMark('smoothed'), 'smoothed = most likely']);
  items.push([svg('circle', { class: 'reading', cx: 11, cy: 10, r: 3 }), 'reading']);
  if (forecast) items.push([lineMark('forecast'), 'forecast ± 2σ']);
  return items;
}

function valueAxis(lo: number, hi: number, y: (x: number) => number): SVGGElement {
  const g = svg('g', { class: 'axis' });
  for (const t of ticks(lo, hi, 4)) {
    g.append(svg('line', { class: 'grid', x1: M.l, x2: W - M.r, y1: y(t), y2: y(t) }));
    g.append(
      svg(
        'text',
        { x: M.l - 4, y: y(t), class: 'tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        num(t, 4),
      ),
    );
  }
  return g;
}

/** A dot per reading (a bucket: at the mean of its readings, with a tick over their range). */
function readingMarks(
  v: GaussianSequenceVariable,
  points: readonly StepPoint[],
  y: (x: number) => number,
): SVGElement[] {
  const out: SVGElement[] = [];
  v.observed.forEach((x, b) => {
    if (x === null) return;
    const cx = middle(points[b]!);
    const lo = v.observedMin?.[b],
      hi = v.observedMax?.[b];
    if (lo !== undefined && lo !== null && hi !== undefined && hi !== null && hi > lo)
      out.push(svg('line', { class: 'reading-range', x1: cx, x2: cx, y1: y(lo), y2: y(hi) }));
    out.push(svg('circle', { class: 'reading', cx, cy: y(x), r: 2.5, 'data-step': points[b]!.from, 'data-value': x }));
  });
  return out;
}

/** A number the tests and Copy read exactly: `data-field` names it, `data-value` holds it in full. */
const exactNumber = (field: string, x: number) =>
  h('span', { class: 'num', 'data-field': field, 'data-value': String(x) }, num(x, 6));

/** Point b's numbers: each series' mean and variance (a bucket: its means' range), then the reading. */
function readoutParts(v: GaussianSequenceVariable, b: number, p: StepPoint, dataPoints: number): Array<Node | string> {
  const parts: Array<Node | string> = [h('strong', {}, `${v.name}, ${stepsText(p)}`)];
  for (const [name, s, i] of seriesAt(v, b, dataPoints)) {
    const range = s.min && s.max ? ` (means ${num(s.min[i]!, 4)}–${num(s.max[i]!, 4)})` : '';
    const also = name === 'smoothed' ? ' = most likely' : '';
    parts.push(
      h(
        'span',
        { class: `readout-${name}` },
        ` · ${name}${also} mean `,
        exactNumber('mean', s.mean[i]!),
        ', variance ',
        exactNumber('variance', s.variance[i]!),
        range,
      ),
    );
  }
  if (b < dataPoints) parts.push(h('span', { class: 'readout-observed' }, ' · ', ...readingText(v, b, p)));
  return parts;
}

function readingText(v: GaussianSequenceVariable, b: number, p: StepPoint): Array<Node | string> {
  const x = v.observed[b];
  if (x === null || x === undefined) return ['no reading'];
  if (p.from === p.to) return ['reading ', exactNumber('reading', x)];
  const range = `${num(v.observedMin![b]!, 4)}–${num(v.observedMax![b]!, 4)}`;
  return [
    `readings at ${v.observedSteps![b]} of ${p.to - p.from + 1} steps, mean `,
    exactNumber('reading', x),
    ` (${range})`,
  ];
}

function readoutText(v: GaussianSequenceVariable, b: number, p: StepPoint, dataPoints: number): string {
  const series = seriesAt(v, b, dataPoints).map(
    ([name, s, i]) => `${name} mean ${num(s.mean[i]!, 6)} variance ${num(s.variance[i]!, 6)}`,
  );
  const x = b < dataPoints ? v.observed[b] : undefined;
  const reading = b >= dataPoints ? '' : x === null || x === undefined ? '; no reading' : `; reading ${num(x, 6)}`;
  return `t ${p.from}${p.to > p.from ? `–${p.to}` : ''}: ${series.join('; ')}${reading}`;
}

/** Copy: a row per point with the exact numbers of every series and the reading. */
function copyRows(
  v: GaussianSequenceVariable,
  points: readonly StepPoint[],
  dataPoints: number,
): Array<Array<string | number | undefined>> {
  const head = ['t', 'filtered mean', 'filtered variance', 'smoothed mean', 'smoothed variance', 'forecast mean'];
  head.push('forecast variance', 'reading');
  return [
    head,
    ...points.map(({ from, to }, b) => {
      const at = (s: GaussianSequenceBands | undefined, i: number) => (s ? [s.mean[i], s.variance[i]] : ['', '']);
      const data = b < dataPoints;
      return [
        from === to ? from : `${from}-${to}`,
        ...(data ? at(v.filtered, b) : ['', '']),
        ...(data ? at(v.smoothed, b) : ['', '']),
        ...(data ? ['', ''] : at(v.forecast, b - dataPoints)),
        data ? (v.observed[b] ?? '') : '',
      ];
    }),
  ];
}
