/**
 * Plain-SVG charts. Colours come from CSS classes (webview.css maps them to --vscode-* theme
 * variables); every chart sits in a figure with Save SVG / Save PNG buttons.
 */
import { h, svg } from './dom.js';
import { num } from './format.js';
import { saveButtons } from './exportChart.js';
import { copyButton } from './table.js';
import { tsvText } from './tsv.js';
import { ownValue } from '../../server/src/protocol/records.js';

const LABEL_W = 150;
const BAR_W = 280;

/** A chart with its caption, Save SVG / PNG, and (given its data as rows) Copy of the exact numbers. */
export function figure(
  name: string,
  label: string,
  chart: SVGSVGElement,
  rows?: () => Array<Array<string | number | undefined>>,
): HTMLElement {
  chart.setAttribute('role', 'img');
  chart.setAttribute('aria-label', label);
  chart.classList.add('chart');
  const copy = rows ? [copyButton(`Copy the numbers of ${label}`, () => tsvText(rows()))] : [];
  return h('figure', {}, chart, h('figcaption', {}, h('span', {}, label), ...saveButtons(name, chart), ...copy));
}

/** The statement's line for a chart's file name (`posterior-line12`), 1-based as the editor shows it. */
export function atLine(e: { range: { start: { line: number } } }): string {
  return `line${e.range.start.line + 1}`;
}

export interface BarSeries {
  name: string;
  className: string;
  values: (number | undefined)[];
}

/** Horizontal grouped bars on [0, max]: one group per category, one bar per series. */
export function barChart(
  name: string,
  label: string,
  categories: string[],
  series: BarSeries[],
  marks: Record<string, string[]> = {},
  max = 1,
): HTMLElement {
  const barH = 12;
  const groupH = series.length * barH + 8;
  // Wide enough for the longest category (a joint's "HIGH, LOW, TRUE, NORMAL"), within reason.
  const longest = Math.max(0, ...categories.map((c) => c.length));
  const labelW = Math.ceil(Math.min(420, Math.max(LABEL_W, 12 + longest * 6.6)));
  const legendH = series.length > 1 ? 18 : 0;
  const height = legendH + categories.length * groupH + 4;
  const root = svg('svg', { width: labelW + BAR_W + 150, height, viewBox: `0 0 ${labelW + BAR_W + 150} ${height}` });
  if (legendH)
    root.append(
      legend(
        series.map((s) => [s.name, s.className]),
        labelW,
      ),
    );
  categories.forEach((cat, i) => {
    const y0 = legendH + i * groupH + 4;
    root.append(
      svg(
        'text',
        { x: labelW - 6, y: y0 + groupH / 2, class: 'label', 'text-anchor': 'end', 'dominant-baseline': 'middle' },
        truncate(cat, Math.floor((labelW - 12) / 6.6)),
        cat.length > Math.floor((labelW - 12) / 6.6) ? svg('title', {}, cat) : null,
      ),
    );
    series.forEach((s, j) => {
      const v = s.values[i];
      const w = v === undefined ? 0 : Math.max(0, Math.min(1, v / max)) * BAR_W;
      const y = y0 + j * barH;
      root.append(
        svg(
          'rect',
          {
            x: labelW,
            y,
            width: w,
            height: barH - 2,
            class: `bar ${s.className}`,
            'data-category': cat,
            'data-series': s.name,
            'data-value': v ?? '',
          },
          svg('title', {}, `${cat} · ${s.name}: ${v ?? '—'}`),
        ),
      );
      root.append(
        svg('text', { x: labelW + w + 4, y: y + barH / 2, class: 'value', 'dominant-baseline': 'middle' }, num(v)),
      );
    });
    const m = ownValue(marks, cat);
    if (m?.length)
      root.append(
        svg(
          'text',
          {
            x: labelW + BAR_W + 70,
            y: y0 + groupH / 2,
            class: 'mark',
            'dominant-baseline': 'middle',
            'data-marks': m.join(' '),
          },
          m.join(' · '),
        ),
      );
  });
  return figure(name, label, root, () => [
    ['', ...series.map((s) => s.name)],
    ...categories.map((c, i) => [c, ...series.map((s) => s.values[i])]),
  ]);
}

function legend(items: Array<[string, string]>, x0: number): SVGGElement {
  const g = svg('g', { class: 'legend' });
  let x = x0;
  for (const [name, cls] of items) {
    g.append(
      svg('rect', { x, y: 3, width: 10, height: 10, class: `swatch ${cls}` }),
      svg('text', { x: x + 14, y: 12, class: 'label' }, name),
    );
    x += 24 + name.length * 7;
  }
  return g;
}

function truncate(s: string, n: number): string {
  return s.length > n ? s.slice(0, n - 1) + '…' : s;
}

// ── axes ──

export interface Plot {
  root: SVGSVGElement;
  x: (v: number) => number;
  y: (v: number) => number;
}

/** An SVG with x/y axes over the given domains; returns the scales for drawing into it. */
export function axes(
  xDomain: [number, number],
  yDomain: [number, number],
  xLabel: string,
  yLabel: string,
  width = 460,
  height = 240,
  integerX = false,
): Plot {
  const m = { l: 64, r: 14, t: 10, b: 38 };
  const [x0, x1] = widen(xDomain),
    [y0, y1] = widen(yDomain);
  const x = (v: number) => m.l + ((v - x0) / (x1 - x0)) * (width - m.l - m.r);
  const y = (v: number) => height - m.b - ((v - y0) / (y1 - y0)) * (height - m.t - m.b);
  const root = svg('svg', { width, height, viewBox: `0 0 ${width} ${height}` });
  const g = svg('g', { class: 'axis' });
  g.append(
    svg('line', { x1: m.l, y1: height - m.b, x2: width - m.r, y2: height - m.b }),
    svg('line', { x1: m.l, y1: m.t, x2: m.l, y2: height - m.b }),
  );
  // Counts (data seen, iterations) get whole-number ticks only.
  for (const t of ticks(x0, x1, 6).filter((t) => !integerX || Number.isInteger(t)))
    g.append(svg('text', { x: x(t), y: height - m.b + 14, 'text-anchor': 'middle', class: 'tick' }, num(t, 3)));
  for (const t of ticks(y0, y1, 5)) {
    g.append(
      svg(
        'text',
        { x: m.l - 4, y: y(t), 'text-anchor': 'end', 'dominant-baseline': 'middle', class: 'tick' },
        num(t, 4),
      ),
    );
    g.append(svg('line', { x1: m.l, y1: y(t), x2: width - m.r, y2: y(t), class: 'grid' }));
  }
  g.append(svg('text', { x: (m.l + width - m.r) / 2, y: height - 4, 'text-anchor': 'middle', class: 'label' }, xLabel));
  g.append(
    svg(
      'text',
      {
        x: 12,
        y: (m.t + height - m.b) / 2,
        'text-anchor': 'middle',
        class: 'label',
        transform: `rotate(-90 12 ${(m.t + height - m.b) / 2})`,
      },
      yLabel,
    ),
  );
  root.append(g);
  return { root, x, y };
}

function widen([a, b]: [number, number]): [number, number] {
  if (a === b) return [a - 1, b + 1];
  return [a, b];
}

/** About `count` round tick values covering [a, b]. */
export function ticks(a: number, b: number, count: number): number[] {
  const raw = (b - a) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((k) => k * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(a / step) * step; t <= b + step * 1e-9; t += step) out.push(Number(t.toPrecision(12)));
  return out;
}

export function polyline(plot: Plot, points: Array<[number, number]>, className: string): SVGPolylineElement {
  return svg('polyline', {
    points: points.map(([a, b]) => `${plot.x(a).toFixed(2)},${plot.y(b).toFixed(2)}`).join(' '),
    class: `line ${className}`,
  });
}

/** Fixed y range (probabilities on [0, 1]), a smaller size for small multiples, whole-number x ticks. */
export interface LineChartOptions {
  yDomain?: [number, number];
  width?: number;
  height?: number;
  integerX?: boolean;
}

/** A line per series with a dot at each point (each dot's title holds its exact value). */
export function lineChart(
  name: string,
  label: string,
  xLabel: string,
  yLabel: string,
  series: Array<{ name: string; className: string; points: Array<[number, number]> }>,
  options: LineChartOptions = {},
): HTMLElement {
  const all = series.flatMap((s) => s.points);
  const plot = axes(
    extent(all.map((p) => p[0])),
    options.yDomain ?? extent(all.map((p) => p[1])),
    xLabel,
    yLabel,
    options.width,
    options.height,
    options.integerX,
  );
  for (const s of series) {
    plot.root.append(polyline(plot, s.points, s.className));
    for (const [a, b] of s.points) {
      plot.root.append(
        svg(
          'circle',
          { cx: plot.x(a), cy: plot.y(b), r: 2.5, class: `dot ${s.className}`, 'data-x': a, 'data-y': b },
          svg('title', {}, `${xLabel} ${a}: ${b}`),
        ),
      );
    }
  }
  return figure(name, label, plot.root, () => series.flatMap((s) => [[xLabel, `${s.name}`], ...s.points]));
}

export function extent(values: number[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const v of values)
    if (Number.isFinite(v)) {
      lo = Math.min(lo, v);
      hi = Math.max(hi, v);
    }
  return lo <= hi ? [lo, hi] : [0, 1];
}

/** Stacked horizontal bars (e.g. L(h) + L(D|h)), the best rows marked. */
export function stackedBars(
  name: string,
  label: string,
  partNames: string[],
  rows: Array<{ label: string; parts: number[] }>,
  best: Set<string>,
): HTMLElement {
  const rowH = 20;
  const total = (r: { parts: number[] }) => r.parts.reduce((a, b) => a + b, 0);
  const max = Math.max(1e-12, ...rows.map((r) => r.parts.reduce((a, b) => a + Math.max(0, b), 0)));
  const height = 22 + rows.length * rowH;
  const root = svg('svg', { width: LABEL_W + BAR_W + 120, height, viewBox: `0 0 ${LABEL_W + BAR_W + 120} ${height}` });
  root.append(
    legend(
      partNames.map((p, i) => [p, `s${i}`]),
      LABEL_W,
    ),
  );
  rows.forEach((r, i) => {
    const y = 22 + i * rowH;
    root.append(
      svg(
        'text',
        {
          x: LABEL_W - 6,
          y: y + rowH / 2 - 1,
          class: best.has(r.label) ? 'label best' : 'label',
          'text-anchor': 'end',
          'dominant-baseline': 'middle',
        },
        truncate(r.label, 22),
      ),
    );
    let x = LABEL_W;
    r.parts.forEach((v, j) => {
      const w = (Math.max(0, v) / max) * BAR_W;
      root.append(
        svg(
          'rect',
          { x, y, width: w, height: rowH - 4, class: `bar s${j}`, 'data-value': v },
          svg('title', {}, `${r.label} · ${partNames[j]}: ${v}`),
        ),
      );
      x += w;
    });
    root.append(
      svg(
        'text',
        { x: x + 4, y: y + rowH / 2 - 1, class: 'value', 'dominant-baseline': 'middle' },
        `${num(total(r))}${best.has(r.label) ? '  ◀ MDL' : ''}`,
      ),
    );
  });
  return figure(name, label, root, () => [
    ['', ...partNames, 'total'],
    ...rows.map((r) => [r.label, ...r.parts, total(r)]),
  ]);
}
