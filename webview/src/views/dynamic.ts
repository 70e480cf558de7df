/**
 * A network over time along its observations (a `sequence` result): per variable a chart over t of
 * P(state) filtered (solid) and smoothed (dashed), with the bucket's least–greatest envelope when
 * a long sequence is sent in buckets; below it a row of the observed values (unobserved steps
 * marked ·) and a band of the most likely sequence. Hover, or focus and the arrow keys, pick a
 * step: the readout under the chart gives its numbers. A variable with more than two states has
 * a selector of the state drawn. A Gaussian network over time is drawn by gaussianSequence.ts; the
 * slider, axis and legend both use are in stepChart.ts.
 */
import type {
  GaussianSequenceResult,
  SequenceBands,
  SequenceResult,
  SequenceVariable,
} from '../../../server/src/protocol/runResult.js';
import { sequenceProblem } from '../../../server/src/protocol/sequenceCheck.js';
import { h, svg } from '../dom.js';
import { num, prob } from '../format.js';
import { atLine, figure } from '../charts.js';
import { gaussianSequenceView } from './gaussianSequence.js';
import {
  M,
  W,
  attachSlider,
  legend,
  lineMark,
  middle,
  stepAxis,
  stepPoints,
  stepsText,
  variableBox,
  type Cursor,
  type StepPoint,
} from './stepChart.js';

const PLOT_H = 120;
const ROW_H = 18;
/** Labels are written in the rows only while each point has room for one. */
const LABEL_W = 26;

export function sequenceView(e: SequenceResult | GaussianSequenceResult): HTMLElement[] {
  // A malformed result (another version's panel state, a foreign producer) is said in words, not drawn.
  const problem = sequenceProblem(e);
  if (problem) return [h('p', { class: 'warning' }, `This chart over time cannot be drawn: ${problem}.`)];
  if (e.method === 'kalman') return gaussianSequenceView(e);
  const how =
    e.method === 'exact' ? 'exact' : `particle filter, ${e.particles} particles, seed ${e.seed} (± standard error)`;
  const per = e.bucket > 1 ? `; each point is ${e.bucket} steps: its mean, the band its least and greatest value` : '';
  const info = h(
    'p',
    { class: 'sequence-info' },
    `${e.steps} steps of ${e.data}; ${how}; log-likelihood `,
    h('span', { class: 'num', 'data-value': String(e.logLikelihood) }, num(e.logLikelihood, 6)),
    per,
  );
  const note = e.note ? [h('p', { class: 'warning' }, e.note)] : [];
  return [info, ...note, ...e.variables.map((v) => variableFigure(e, v))];
}

function variableFigure(e: SequenceResult, v: SequenceVariable): HTMLElement {
  let state = 0;
  return variableBox(v.name, (readout, cursor, redraw) => [
    ...selector(v, state, (s) => ((state = s), redraw())),
    sequenceChart(e, v, state, readout, cursor),
  ]);
}

function selector(v: SequenceVariable, state: number, pick: (s: number) => void): HTMLElement[] {
  if (v.states.length <= 2) return [];
  const select = h(
    'select',
    { class: 'sequence-state', 'aria-label': `State of ${v.name} to chart` },
    ...v.states.map((s, i) => h('option', { value: String(i), selected: i === state }, s)),
  );
  select.addEventListener('change', () => pick(Number(select.value)));
  return [h('label', { class: 'sequence-state-label' }, `P(${v.name} = `, select, ')')];
}

function sequenceChart(
  e: SequenceResult,
  v: SequenceVariable,
  state: number,
  readout: HTMLElement,
  cursor: Cursor,
): HTMLElement {
  const points = stepPoints(e.steps, e.bucket);
  const cw = points[0] ? points[0].x1 - points[0].x0 : 1;
  const x = (b: number) => middle(points[b]!);
  const y = (p: number) => M.t + (1 - p) * PLOT_H;
  const rowsY = M.t + PLOT_H + 6;
  const height = rowsY + 2 * ROW_H + 22;
  const root = svg('svg', { width: W, height, viewBox: `0 0 ${W} ${height}`, class: 'sequence-chart' });
  const items: Array<[SVGElement, string]> = [[lineMark('filtered'), 'filtered P(X_t | e_1..t)']];
  if (v.smoothed) items.push([lineMark('smoothed'), 'smoothed P(X_t | e_1..T)']);
  root.append(yAxis(y), stepAxis(e.steps, rowsY + 2 * ROW_H), legend(items, 170));
  const series: Array<['filtered' | 'smoothed', SequenceBands | undefined]> = [
    ['filtered', v.filtered],
    ['smoothed', v.smoothed],
  ];
  for (const [name, bands] of series) if (bands) root.append(...seriesMarks(name, bands, state, x, y, points.length));
  root.append(...observedRow(v, x, rowsY, cw), ...mostLikelyBand(v, x, rowsY + ROW_H, cw));
  const label = `P(${v.name} = ${v.states[state]}) over t, ${e.network} given ${e.data}`;
  const fig = figure(`sequence-${e.network}-${v.name}-${atLine(e)}`, label, root, () => copyRows(e, v, points));
  // After figure(), which gives the chart the role img: the slider's role replaces it.
  attachSlider({
    root,
    points,
    top: M.t,
    bottom: rowsY + 2 * ROW_H,
    lastStep: e.steps,
    readout,
    cursor,
    parts: (b) => readoutParts(e, v, b, points[b]!),
    text: (b) => readoutText(e, v, b, points[b]!),
  });
  return fig;
}

function yAxis(y: (p: number) => number): SVGGElement {
  const g = svg('g', { class: 'axis' });
  for (const p of [0, 0.5, 1]) {
    g.append(svg('line', { class: 'grid', x1: M.l, x2: W - M.r, y1: y(p), y2: y(p) }));
    g.append(
      svg('text', { x: M.l - 4, y: y(p), class: 'tick', 'text-anchor': 'end', 'dominant-baseline': 'middle' }, p),
    );
  }
  return g;
}

/** The series' line (a dot per point while they are few), and its envelope when bucketed. */
function seriesMarks(
  name: 'filtered' | 'smoothed',
  bands: SequenceBands,
  state: number,
  x: (b: number) => number,
  y: (p: number) => number,
  points: number,
): SVGElement[] {
  const mean = bands.mean[state]!;
  const out: SVGElement[] = [];
  if (bands.min && bands.max) {
    const lo = bands.min[state]!,
      hi = bands.max[state]!;
    const upper = hi.map((p, b) => `${x(b).toFixed(1)},${y(p).toFixed(1)}`);
    const lower = lo.map((p, b) => `${x(b).toFixed(1)},${y(p).toFixed(1)}`).reverse();
    out.push(svg('polygon', { class: `envelope ${name}`, points: [...upper, ...lower].join(' ') }));
  }
  const line = mean.map((p, b) => `${x(b).toFixed(1)},${y(p).toFixed(1)}`).join(' ');
  out.push(svg('polyline', { class: `line ${name}`, points: line, 'data-series': name }));
  if (points <= 100)
    mean.forEach((p, b) =>
      out.push(svg('circle', { class: `dot ${name}`, cx: x(b), cy: y(p), r: 2.5, 'data-value': p })),
    );
  return out;
}

function observedRow(v: SequenceVariable, x: (b: number) => number, top: number, cw: number): SVGElement[] {
  const out: SVGElement[] = [
    svg('text', { x: M.l - 4, y: top + 12, class: 'row-label', 'text-anchor': 'end' }, 'seen'),
  ];
  v.observed.forEach((s, b) => {
    if (s === null) {
      if (cw >= 4) out.push(svg('circle', { class: 'unobserved', cx: x(b), cy: top + 8, r: 1.5, 'data-state': '' }));
      return;
    }
    if (cw >= LABEL_W)
      out.push(svg('text', { class: 'observed', x: x(b), y: top + 12, 'text-anchor': 'middle', 'data-state': s }, s));
    else
      out.push(
        svg('rect', {
          class: `observed state-${v.states.indexOf(s) % 6}`,
          x: x(b) - cw / 2,
          y: top + 2,
          width: Math.max(1, cw),
          height: ROW_H - 6,
          'data-state': s,
        }),
      );
  });
  return out;
}

/** The most likely sequence as a band: one rect per run of the same state, named where it has room. */
function mostLikelyBand(v: SequenceVariable, x: (b: number) => number, top: number, cw: number): SVGElement[] {
  const ml = v.mostLikely;
  if (!ml) return [];
  const out: SVGElement[] = [
    svg('text', { x: M.l - 4, y: top + 12, class: 'row-label', 'text-anchor': 'end' }, 'most likely'),
  ];
  for (let b = 0; b < ml.length;) {
    let end = b;
    while (end + 1 < ml.length && ml[end + 1] === ml[b]) end++;
    const x0 = x(b) - cw / 2,
      width = (end - b + 1) * cw;
    const s = ml[b]!;
    out.push(
      svg('rect', {
        class: `most-likely state-${v.states.indexOf(s) % 6}`,
        x: x0,
        y: top + 2,
        width,
        height: ROW_H - 4,
        'data-state': s,
      }),
    );
    if (width >= s.length * 7 + 4)
      out.push(svg('text', { class: 'band-label', x: x0 + width / 2, y: top + 13, 'text-anchor': 'middle' }, s));
    b = end + 1;
  }
  return out;
}

/**
 * The point's numbers: each state filtered and smoothed (a bucket: mean, least–greatest), what was
 * seen, and the state of the most likely sequence.
 */
function readoutParts(e: SequenceResult, v: SequenceVariable, b: number, p: StepPoint): Array<Node | string> {
  const parts: Array<Node | string> = [h('strong', {}, `${v.name}, ${stepsText(p)}`)];
  const dist = (name: string, bands: SequenceBands, errors?: number[][]) =>
    h(
      'span',
      { class: `readout-${name}` },
      ` · ${name} `,
      ...v.states.flatMap((s, i) => [
        `${i ? ', ' : ''}${s} `,
        h('span', { class: 'num', 'data-state': s, 'data-value': String(bands.mean[i]![b]) }, prob(bands.mean[i]![b])),
        errors ? ` ± ${prob(errors[i]![b])}` : '',
        bands.min && bands.max ? ` (${prob(bands.min[i]![b])}–${prob(bands.max[i]![b])})` : '',
      ]),
    );
  parts.push(dist('filtered', v.filtered, v.standardErrors));
  if (v.smoothed) parts.push(dist('smoothed', v.smoothed));
  parts.push(h('span', { class: 'readout-observed' }, ` · observed ${observedText(e, v, b, p)}`));
  if (v.mostLikely)
    parts.push(h('span', { class: 'readout-most-likely' }, ` · most likely ${mostLikelyText(e, v, b, p)}`));
  return parts;
}

function observedText(e: SequenceResult, v: SequenceVariable, b: number, p: StepPoint): string {
  const s = v.observed[b];
  if (s === null || s === undefined) return 'nothing';
  if (e.bucket === 1) return s;
  return `at ${v.observedSteps![b]} of ${p.to - p.from + 1} steps, mostly ${s}`;
}

function mostLikelyText(e: SequenceResult, v: SequenceVariable, b: number, p: StepPoint): string {
  const s = v.mostLikely![b]!;
  if (e.bucket === 1) return s;
  return `${s} at ${v.mostLikelySteps![b]} of ${p.to - p.from + 1} steps`;
}

function readoutText(e: SequenceResult, v: SequenceVariable, b: number, point: StepPoint): string {
  const p = (bands: SequenceBands) => v.states.map((s, i) => `${s} ${prob(bands.mean[i]![b])}`).join(', ');
  const smoothed = v.smoothed ? `; smoothed ${p(v.smoothed)}` : '';
  const t = `t ${point.from}${point.to > point.from ? `–${point.to}` : ''}`;
  return `${t}: filtered ${p(v.filtered)}${smoothed}; observed ${observedText(e, v, b, point)}`;
}

/** Copy: a row per point with every state's exact numbers. */
function copyRows(
  e: SequenceResult,
  v: SequenceVariable,
  points: readonly StepPoint[],
): Array<Array<string | number | undefined>> {
  const cols = (name: string, bands: SequenceBands | undefined) =>
    bands
      ? v.states.flatMap((s) => [`${name} ${s}`, ...(bands.min ? [`${name} ${s} min`, `${name} ${s} max`] : [])])
      : [];
  const vals = (bands: SequenceBands | undefined, b: number) =>
    bands
      ? v.states.flatMap((_, i) => [bands.mean[i]![b], ...(bands.min ? [bands.min[i]![b], bands.max![i]![b]] : [])])
      : [];
  const head = ['t', ...cols('filtered', v.filtered), ...cols('smoothed', v.smoothed), 'observed', 'most likely'];
  return [
    head,
    ...points.map(({ from, to }, b) => {
      return [
        from === to ? from : `${from}-${to}`,
        ...vals(v.filtered, b),
        ...vals(v.smoothed, b),
        v.observed[b] ?? '',
        v.mostLikely?.[b] ?? '',
      ];
    }),
  ];
}
