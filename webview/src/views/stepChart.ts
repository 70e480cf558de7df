/**
 * What the charts over t of a network over time share (views/dynamic.ts draws P(state) of discrete
 * variables, views/gaussianSequence.ts the mean ± 2σ of real ones): the points a long sequence is
 * drawn in (buckets of steps, laid out by step so a forecast past the data continues the axis),
 * the t axis, the legend, a box per variable with its readout, and the slider over the points —
 * hover, or focus and the arrow keys, pick a point and the readout gives its numbers.
 */
import { h, svg } from '../dom.js';
import { ticks } from '../charts.js';

export const W = 640;
export const M = { l: 72, r: 12, t: 22 };
export const PLOT_W = W - M.l - M.r;

/** Steps from…to (1-based) drawn between x0 and x1. */
export interface StepPoint {
  from: number;
  to: number;
  x0: number;
  x1: number;
}

/**
 * The points of `steps` steps in buckets of `bucket`, then of `ahead` steps past them bucketed from
 * step steps + 1, laid out along the plot's width by step.
 */
export function stepPoints(steps: number, bucket: number, ahead = 0): StepPoint[] {
  const total = steps + ahead;
  const at = (t: number) => M.l + (t / total) * PLOT_W;
  const out: StepPoint[] = [];
  for (const [first, last] of [
    [1, steps],
    [steps + 1, total],
  ] as const)
    for (let from = first; from <= last; from += bucket) {
      const to = Math.min(last, from + bucket - 1);
      out.push({ from, to, x0: at(from - 1), x1: at(to) });
    }
  return out;
}

export const middle = (p: StepPoint): number => (p.x0 + p.x1) / 2;

/** `x,y` pairs for a polyline or polygon. */
export function pointsAttr(xs: readonly number[], ys: readonly number[]): string {
  return xs.map((x, i) => `${x.toFixed(1)},${ys[i]!.toFixed(1)}`).join(' ');
}

/** The t axis under the plot: about eight whole steps of 1…total. */
export function stepAxis(total: number, top: number): SVGGElement {
  const g = svg('g', { class: 'axis' });
  const at = (t: number) => M.l + ((t - 0.5) / total) * PLOT_W;
  for (const t of ticks(1, total, Math.min(8, total)).filter((t) => Number.isInteger(t) && t >= 1))
    g.append(svg('text', { x: at(t), y: top + 14, class: 'tick', 'text-anchor': 'middle' }, t));
  g.append(svg('text', { x: M.l - 4, y: top + 14, class: 'label', 'text-anchor': 'end' }, 't'));
  return g;
}

/**
 * Which mark is which, top right: each item is drawn with the classes of the marks it names, in
 * `itemW` pixels (or as many as its label needs, at about 6.5 px a character).
 */
export function legend(items: Array<[mark: SVGElement, label: string]>, itemW?: number): SVGGElement {
  const g = svg('g', { class: 'legend' });
  const widths = items.map(([, label]) => itemW ?? 42 + Math.ceil(label.length * 6.5));
  let x = W - M.r - widths.reduce((a, b) => a + b, 0);
  items.forEach(([mark, label], i) => {
    mark.setAttribute('transform', `translate(${x} 0)`);
    g.append(mark, svg('text', { x: x + 26, y: 13, class: 'label' }, label));
    x += widths[i]!;
  });
  return g;
}

/** A legend mark: a short stroke of a line's classes. */
export const lineMark = (className: string): SVGElement =>
  svg('polyline', { class: `line ${className}`, points: '0,10 22,10' });

/** Where the reader is: the point shown in the readout, kept across redraws of the variable's box. */
export interface Cursor {
  point: number;
}

/**
 * A variable's box: its heading, then whatever `draw` makes of a fresh readout (the chart, its
 * controls); `draw` may call `redraw` (a state selector does).
 */
export function variableBox(
  name: string,
  draw: (readout: HTMLElement, cursor: Cursor, redraw: () => void) => Node[],
): HTMLElement {
  const box = h('div', { class: 'sequence-variable', 'data-variable': name });
  const heading = h('h3', {}, name);
  const cursor: Cursor = { point: 0 };
  const redraw = () => {
    const readout = h('p', { class: 'sequence-readout', 'aria-live': 'polite' });
    box.replaceChildren(heading, ...draw(readout, cursor, redraw), readout);
  };
  redraw();
  return box;
}

export interface SliderOptions {
  root: SVGSVGElement;
  points: readonly StepPoint[];
  /** The marks' top and bottom: the cursor and the hover targets span them. */
  top: number;
  bottom: number;
  /** The last step (aria-valuemax). */
  lastStep: number;
  readout: HTMLElement;
  cursor: Cursor;
  /** The readout's content and the slider's spoken value at point b. */
  parts: (b: number) => Array<Node | string>;
  text: (b: number) => string;
}

/**
 * Makes the chart a slider over its points: a hover target per point, the pointer's x picking the
 * point (columns of a long sequence are narrower than a pixel), one tab stop with ←/→ (PageUp/
 * PageDown by ten points, Home/End); each move redraws the cursor and the readout.
 */
export function attachSlider(o: SliderOptions): void {
  const { root, points } = o;
  const cursor = svg('line', { class: 'sequence-cursor', x1: 0, x2: 0, y1: o.top, y2: o.bottom });
  root.append(cursor);
  let current = o.cursor.point;
  const select = (b: number) => {
    b = Math.max(0, Math.min(points.length - 1, b));
    current = b;
    o.cursor.point = b;
    const p = points[b]!;
    cursor.setAttribute('x1', middle(p).toFixed(1));
    cursor.setAttribute('x2', middle(p).toFixed(1));
    root.setAttribute('aria-valuenow', String(p.from));
    root.setAttribute('aria-valuetext', o.text(b));
    o.readout.dataset.step = String(p.from);
    o.readout.replaceChildren(...o.parts(b));
  };
  for (const p of points)
    root.append(
      svg('rect', {
        class: 'step-hit',
        x: p.x0,
        y: o.top,
        width: p.x1 - p.x0,
        height: o.bottom - o.top,
        'data-step': p.from,
      }),
    );
  root.addEventListener('mousemove', (ev) => {
    const ctm = root.getScreenCTM();
    if (!ctm) return;
    const x = new DOMPoint(ev.clientX, ev.clientY).matrixTransform(ctm.inverse()).x;
    const b = pointAt(points, x);
    if (b !== undefined && b !== current) select(b);
  });
  root.setAttribute('role', 'slider');
  root.setAttribute('tabindex', '0');
  root.setAttribute('aria-valuemin', '1');
  root.setAttribute('aria-valuemax', String(o.lastStep));
  root.addEventListener('keydown', (ev) => {
    const last = points.length - 1;
    const moves: Record<string, number> = { ArrowLeft: current - 1, ArrowRight: current + 1, Home: 0, End: last };
    Object.assign(moves, { PageUp: current - 10, PageDown: current + 10 });
    if (!(ev.key in moves)) return;
    ev.preventDefault();
    select(moves[ev.key]!);
  });
  select(current);
}

/** The point whose column holds x (binary search: the columns are in order), if any. */
function pointAt(points: readonly StepPoint[], x: number): number | undefined {
  if (!points.length || x < points[0]!.x0 || x > points.at(-1)!.x1) return undefined;
  let lo = 0,
    hi = points.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (points[mid]!.x0 <= x) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** "t = 4" or "t = 21…40 (20 steps)". */
export function stepsText(p: StepPoint): string {
  return p.from === p.to ? `t = ${p.from}` : `t = ${p.from}…${p.to} (${p.to - p.from + 1} steps)`;
}
