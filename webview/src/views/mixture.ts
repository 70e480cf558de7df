/**
 * A fitted Gaussian mixture over its data: 1-D, a histogram (as a density) under each weighted
 * component density and their sum; 2-D, the points coloured by their most responsible component
 * under each component's mean with its 1σ and 2σ ellipses. Without `points`, the fit alone.
 */
import type { MixtureResult } from '../../../server/src/protocol/runResult.js';
import { atLine, axes, extent, figure, polyline } from '../charts.js';
import { svg } from '../dom.js';

export function mixtureChart(e: MixtureResult): HTMLElement | null {
  if (e.dimensions.length === 1) return densityChart(e);
  if (e.dimensions.length === 2) return ellipseChart(e);
  return null;
}

function densityChart(e: MixtureResult): HTMLElement {
  const mu = e.means.map((m) => m[0]!);
  const sd = e.covariances.map((c) => Math.sqrt(c[0]![0]!));
  const data = (e.points ?? []).map((p) => p[0]!);
  const [lo, hi] = extent([...data, ...mu.flatMap((m, j) => [m - 4 * sd[j]!, m + 4 * sd[j]!])]);
  const xs = Array.from({ length: 241 }, (_, i) => lo + ((hi - lo) * i) / 240);
  const comp = e.weights.map((w, j) => xs.map((x) => w * normal(x, mu[j]!, sd[j]!)));
  const total = xs.map((_, i) => comp.reduce((s, c) => s + c[i]!, 0));
  const bins = histogram(data, lo, hi);
  const plot = axes([lo, hi], [0, Math.max(...total, ...bins.map((b) => b.density))], e.dimensions[0]!, 'density');
  for (const b of bins) {
    plot.root.append(
      svg(
        'rect',
        {
          x: plot.x(b.from),
          y: plot.y(b.density),
          width: Math.max(0, plot.x(b.to) - plot.x(b.from) - 1),
          height: plot.y(0) - plot.y(b.density),
          class: 'hist',
          'data-value': b.count,
        },
        svg('title', {}, `[${b.from}, ${b.to}): ${b.count} points`),
      ),
    );
  }
  // The sum first, dashed: where components barely overlap it runs along them, which stay visible on top.
  plot.root.append(
    polyline(
      plot,
      xs.map((x, i) => [x, total[i]!]),
      'total',
    ),
  );
  comp.forEach((c, j) =>
    plot.root.append(
      polyline(
        plot,
        xs.map((x, i) => [x, c[i]!]),
        `component c${j % 6}`,
      ),
    ),
  );
  const label = `${data.length ? `Histogram of ${sampleNote(e)} and the` : 'The'} fitted density (components weighted, and their sum)`;
  return figure(`mixture-density-${atLine(e)}`, label, plot.root, () => [
    ['from', 'to', 'count'],
    ...bins.map((b) => [b.from, b.to, b.count]),
  ]);
}

/** √n bins (10 to 40) over [lo, hi], heights scaled as a density so they share the curves' axis. */
function histogram(
  data: number[],
  lo: number,
  hi: number,
): Array<{ from: number; to: number; count: number; density: number }> {
  if (data.length === 0) return [];
  const k = Math.max(10, Math.min(40, Math.round(Math.sqrt(data.length))));
  const width = (hi - lo) / k;
  const counts = new Array<number>(k).fill(0);
  for (const x of data) counts[Math.min(k - 1, Math.max(0, Math.floor((x - lo) / width)))]!++;
  return counts.map((count, i) => ({
    from: lo + i * width,
    to: lo + (i + 1) * width,
    count,
    density: count / (data.length * width),
  }));
}

function sampleNote(e: MixtureResult): string {
  const n = e.points?.length ?? 0;
  return e.pointCount !== undefined && e.pointCount > n
    ? `a sample of ${n} of the ${e.pointCount} points`
    : `the ${n} points`;
}

function normal(x: number, mu: number, sd: number): number {
  return Math.exp(-0.5 * ((x - mu) / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));
}

function ellipseChart(e: MixtureResult): HTMLElement {
  const shapes = e.covariances.map((c) => principalAxes(c as [[number, number], [number, number]]));
  const xs = e.means.flatMap((m, j) => [m[0]! - 2.2 * shapes[j]!.spanX, m[0]! + 2.2 * shapes[j]!.spanX]);
  const ys = e.means.flatMap((m, j) => [m[1]! - 2.2 * shapes[j]!.spanY, m[1]! + 2.2 * shapes[j]!.spanY]);
  const points = e.points ?? [];
  const plot = axes(
    extent([...xs, ...points.map((p) => p[0]!)]),
    extent([...ys, ...points.map((p) => p[1]!)]),
    e.dimensions[0]!,
    e.dimensions[1]!,
    460,
    320,
  );
  // Responsibilities are per point when the points came with them.
  const owner = (i: number) => (e.responsibilities.length === points.length ? argmax(e.responsibilities[i]!) : -1);
  points.forEach((p, i) => {
    const j = owner(i);
    plot.root.append(
      svg('circle', { cx: plot.x(p[0]!), cy: plot.y(p[1]!), r: 2, class: `point${j >= 0 ? ` c${j % 6}` : ''}` }),
    );
  });
  e.means.forEach((m, j) => {
    const s = shapes[j]!;
    for (const k of [1, 2]) {
      const pts: Array<[number, number]> = Array.from({ length: 73 }, (_, i) => {
        const t = (2 * Math.PI * i) / 72;
        const a = k * s.a * Math.cos(t),
          b = k * s.b * Math.sin(t);
        return [
          m[0]! + a * Math.cos(s.angle) - b * Math.sin(s.angle),
          m[1]! + a * Math.sin(s.angle) + b * Math.cos(s.angle),
        ];
      });
      plot.root.append(polyline(plot, pts, `component c${j % 6}${k === 2 ? ' outer' : ''}`));
    }
    plot.root.append(
      svg(
        'circle',
        { cx: plot.x(m[0]!), cy: plot.y(m[1]!), r: 4, class: `dot c${j % 6}`, 'data-weight': e.weights[j]! },
        svg('title', {}, `component ${j + 1}: weight ${e.weights[j]}, mean (${m.join(', ')})`),
      ),
    );
  });
  const label = `${points.length ? `${sampleNote(e)[0]!.toUpperCase()}${sampleNote(e).slice(1)}, coloured by their most responsible component, and the` : 'The'} fitted components: means with 1σ and 2σ ellipses`;
  return figure(`mixture-ellipses-${atLine(e)}`, label, plot.root, () => [
    [...e.dimensions, 'component'],
    ...points.map((p, i) => [...p, owner(i) + 1 || undefined]),
  ]);
}

function argmax(xs: number[]): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (xs[i]! > xs[best]!) best = i;
  return best;
}

/** Semi-axes and rotation of a 2×2 covariance's ellipse (its eigen-decomposition). */
function principalAxes([[a, b], [, d]]: [[number, number], [number, number]]) {
  const mean = (a + d) / 2,
    diff = Math.sqrt(((a - d) / 2) ** 2 + b * b);
  const l1 = mean + diff,
    l2 = Math.max(0, mean - diff);
  const angle = b === 0 ? (a >= d ? 0 : Math.PI / 2) : Math.atan2(l1 - a, b);
  return { a: Math.sqrt(l1), b: Math.sqrt(l2), angle, spanX: Math.sqrt(a), spanY: Math.sqrt(d) };
}
