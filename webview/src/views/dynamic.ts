/**
 * A network over time along its observations (a `sequence` result): per variable a chart over t of
 * P(state) filtered (solid) and smoothed (dashed), with the bucket's least–greatest envelope when
 * a long sequence is sent in buckets; below it a row of the observed values (unobserved steps
 * marked ·) and a band of the most likely sequence. Hover, or focus and the arrow keys, pick a
 * step: the readout under the chart gives its numbers. A variable with more than two states has
 * a selector of the state drawn.
 */
import type { SequenceBands, SequenceResult, SequenceVariable } from '../../../server/src/protocol/runResult.js';
import { h, svg } from '../dom.js';
import { num, prob } from '../format.js';
import { atLine, figure, ticks } from '../charts.js';

const W = 640;
const M = { l: 72, r: 12, t: 22 };
const PLOT_H = 120;
const ROW_H = 18;
/** Labels are written in the rows only while each point has room for one. */
const LABEL_W = 26;

export function sequenceView(e: SequenceResult): HTMLElement[] {
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
  const box = h('div', { class: 'sequence-variable', 'data-variable': v.name });
  const heading = h('h3', {}, v.name);
  let state = 0;
  let step = 0;
  const draw = () => {
    const readout = h('p', { class: 'sequence-readout', 'aria-live': 'polite' });
    const chart = sequenceChart(e, v, state, readout, step, (b) => (step = b));
    box.replaceChildren(heading, ...selector(v, state, (s) => ((state = s), draw())), chart, readout);
  };
  draw();
  return box;
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

/** Steps first…last of bucket b (1-based). */
function stepsOf(e: SequenceResult, b: number): [number, number] {
  return [b * e.bucket + 1, Math.min(e.steps, (b + 1) * e.bucket)];
}

function sequenceChart(
  e: SequenceResult,
  v: SequenceVariable,
  state: number,
  readout: HTMLElement,
  start: number,
  moved: (b: number) => void,
): HTMLElement {
  const points = v.filtered.mean[0]!.length;
  const plotW = W - M.l - M.r;
  const cw = plotW / points;
  const x = (b: number) => M.l + (b + 0.5) * cw;
  const y = (p: number) => M.t + (1 - p) * PLOT_H;
  const rowsY = M.t + PLOT_H + 6;
  const height = rowsY + 2 * ROW_H + 22;
  const root = svg('svg', { width: W, height, viewBox: `0 0 ${W} ${height}`, class: 'sequence-chart' });
  root.append(yAxis(y), xAxis(e, rowsY + 2 * ROW_H, plotW), legend(!!v.smoothed));
  const series: Array<['filtered' | 'smoothed', SequenceBands | undefined]> = [
    ['filtered', v.filtered],
    ['smoothed', v.smoothed],
  ];
  for (const [name, bands] of series) if (bands) root.append(...seriesMarks(name, bands, state, x, y, points));
  root.append(...observedRow(v, x, rowsY, cw), ...mostLikelyBand(v, x, rowsY + ROW_H, cw));
  const cursor = svg('line', { class: 'sequence-cursor', x1: 0, x2: 0, y1: M.t, y2: rowsY + 2 * ROW_H });
  root.append(cursor);
  let current = start;
  const select = (b: number) => {
    b = Math.max(0, Math.min(points - 1, b));
    current = b;
    moved(b);
    cursor.setAttribute('x1', x(b).toFixed(1));
    cursor.setAttribute('x2', x(b).toFixed(1));
    const [from, to] = stepsOf(e, b);
    root.setAttribute('aria-valuenow', String(from));
    root.setAttribute('aria-valuetext', readoutText(e, v, b));
    readout.dataset.step = String(from);
    readout.replaceChildren(...readoutParts(e, v, b, from, to));
  };
  for (let b = 0; b < points; b++) {
    const hit = svg('rect', {
      class: 'step-hit',
      x: M.l + b * cw,
      y: M.t,
      width: cw,
      height: rowsY + 2 * ROW_H - M.t,
      'data-step': stepsOf(e, b)[0],
    });
    root.append(hit);
  }
  // The pointer's x picks the point (columns of a long sequence are narrower than a pixel).
  root.addEventListener('mousemove', (ev) => {
    const ctm = root.getScreenCTM();
    if (!ctm) return;
    const b = Math.floor((new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse()).x - M.l) / cw);
    if (b >= 0 && b < points && b !== current) select(b);
  });
  const label = `P(${v.name} = ${v.states[state]}) over t, ${e.network} given ${e.data}`;
  const fig = figure(`sequence-${e.network}-${v.name}-${atLine(e)}`, label, root, () => copyRows(e, v));
  // A slider over the steps: one tab stop, ←/→ (PageUp/PageDown by ten points, Home/End) move the step.
  root.setAttribute('role', 'slider');
  root.setAttribute('tabindex', '0');
  root.setAttribute('aria-valuemin', '1');
  root.setAttribute('aria-valuemax', String(e.steps));
  root.addEventListener('keydown', (ev) => {
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: points - 1 };
    Object.assign(moves, { PageUp: current - 10, PageDown: current + 10 });
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    select(moves[ev.key]!);
  });
  select(start);
  return fig;
}

/** Which line is which, top right: the classes draw the same strokes as the series. */
function legend(smoothed: boolean): SVGGElement {
  const g = svg('g', { class: 'legend' });
  const items: Array<[string, string]> = [['filtered', 'P(X_t | e_1..t)']];
  if (smoothed) items.push(['smoothed', 'P(X_t | e_1..T)']);
  let x = W - M.r - items.length * 170;
  for (const [name, formula] of items) {
    g.append(
      svg('polyline', { class: `line ${name}`, points: `${x},10 ${x + 22},10` }),
      svg('text', { x: x + 26, y: 13, class: 'label' }, `${name} ${formula}`),
    );
    x += 170;
  }
  return g;
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

function xAxis(e: SequenceResult, top: number, plotW: number): SVGGElement {
  const g = svg('g', { class: 'axis' });
  const at = (t: number) => M.l + ((t - 0.5) / e.steps) * plotW;
  for (const t of ticks(1, e.steps, Math.min(8, e.steps)).filter((t) => Number.isInteger(t) && t >= 1))
    g.append(svg('text', { x: at(t), y: top + 14, class: 'tick', 'text-anchor': 'middle' }, t));
  g.append(svg('text', { x: M.l - 4, y: top + 14, class: 'label', 'text-anchor': 'end' }, 't'));
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
function readoutParts(
  e: SequenceResult,
  v: SequenceVariable,
  b: number,
  from: number,
  to: number,
): Array<Node | string> {
  const where = from === to ? `t = ${from}` : `t = ${from}…${to} (${to - from + 1} steps)`;
  const parts: Array<Node | string> = [h('strong', {}, `${v.name}, ${where}`)];
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
  parts.push(h('span', { class: 'readout-observed' }, ` · observed ${observedText(e, v, b)}`));
  if (v.mostLikely)
    parts.push(h('span', { class: 'readout-most-likely' }, ` · most likely ${mostLikelyText(e, v, b)}`));
  return parts;
}

function observedText(e: SequenceResult, v: SequenceVariable, b: number): string {
  const s = v.observed[b];
  if (s === null || s === undefined) return 'nothing';
  if (e.bucket === 1) return s;
  const [from, to] = stepsOf(e, b);
  return `at ${v.observedSteps![b]} of ${to - from + 1} steps, mostly ${s}`;
}

function mostLikelyText(e: SequenceResult, v: SequenceVariable, b: number): string {
  const s = v.mostLikely![b]!;
  if (e.bucket === 1) return s;
  const [from, to] = stepsOf(e, b);
  return `${s} at ${v.mostLikelySteps![b]} of ${to - from + 1} steps`;
}

function readoutText(e: SequenceResult, v: SequenceVariable, b: number): string {
  const [from, to] = stepsOf(e, b);
  const p = (bands: SequenceBands) => v.states.map((s, i) => `${s} ${prob(bands.mean[i]![b])}`).join(', ');
  const smoothed = v.smoothed ? `; smoothed ${p(v.smoothed)}` : '';
  return `t ${from}${to > from ? `–${to}` : ''}: filtered ${p(v.filtered)}${smoothed}; observed ${observedText(e, v, b)}`;
}

/** Copy: a row per point with every state's exact numbers. */
function copyRows(e: SequenceResult, v: SequenceVariable): Array<Array<string | number | undefined>> {
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
    ...v.filtered.mean[0]!.map((_, b) => {
      const [from, to] = stepsOf(e, b);
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
