/**
 * A fitted Gaussian mixture: 1-D, each weighted component density and their sum; 2-D, each
 * component's mean with its 1σ and 2σ ellipses. (The RunResult does not carry the data points,
 * so there is no histogram or scatter under the fit.)
 */
import type { MixtureResult } from '../../../server/src/run/runResult.js';
import { axes, extent, figure, polyline } from '../charts.js';
import { svg } from '../dom.js';

export function mixtureChart(e: MixtureResult): HTMLElement | null {
  if (e.dimensions.length === 1) return densityChart(e);
  if (e.dimensions.length === 2) return ellipseChart(e);
  return null;
}

function densityChart(e: MixtureResult): HTMLElement {
  const mu = e.means.map((m) => m[0]!);
  const sd = e.covariances.map((c) => Math.sqrt(c[0]![0]!));
  const [lo, hi] = extent(mu.flatMap((m, j) => [m - 4 * sd[j]!, m + 4 * sd[j]!]));
  const xs = Array.from({ length: 241 }, (_, i) => lo + ((hi - lo) * i) / 240);
  const comp = e.weights.map((w, j) => xs.map((x) => w * normal(x, mu[j]!, sd[j]!)));
  const total = xs.map((_, i) => comp.reduce((s, c) => s + c[i]!, 0));
  const plot = axes([lo, hi], [0, Math.max(...total)], e.dimensions[0]!, 'density');
  // The sum first, dashed: where components barely overlap it runs along them, which stay visible on top.
  plot.root.append(polyline(plot, xs.map((x, i) => [x, total[i]!]), 'total'));
  comp.forEach((c, j) => plot.root.append(polyline(plot, xs.map((x, i) => [x, c[i]!]), `component c${j % 6}`)));
  return figure(`mixture-density-line${e.range.start.line + 1}`, 'Fitted mixture density (components weighted, and their sum)', plot.root);
}

function normal(x: number, mu: number, sd: number): number {
  return Math.exp(-0.5 * ((x - mu) / sd) ** 2) / (sd * Math.sqrt(2 * Math.PI));
}

function ellipseChart(e: MixtureResult): HTMLElement {
  const shapes = e.covariances.map((c) => principalAxes(c as [[number, number], [number, number]]));
  const xs = e.means.flatMap((m, j) => [m[0]! - 2.2 * shapes[j]!.spanX, m[0]! + 2.2 * shapes[j]!.spanX]);
  const ys = e.means.flatMap((m, j) => [m[1]! - 2.2 * shapes[j]!.spanY, m[1]! + 2.2 * shapes[j]!.spanY]);
  const plot = axes(extent(xs), extent(ys), e.dimensions[0]!, e.dimensions[1]!, 460, 320);
  e.means.forEach((m, j) => {
    const s = shapes[j]!;
    for (const k of [1, 2]) {
      const pts: Array<[number, number]> = Array.from({ length: 73 }, (_, i) => {
        const t = (2 * Math.PI * i) / 72;
        const a = k * s.a * Math.cos(t), b = k * s.b * Math.sin(t);
        return [m[0]! + a * Math.cos(s.angle) - b * Math.sin(s.angle), m[1]! + a * Math.sin(s.angle) + b * Math.cos(s.angle)];
      });
      plot.root.append(polyline(plot, pts, `component c${j % 6}${k === 2 ? ' outer' : ''}`));
    }
    plot.root.append(svg('circle', { cx: plot.x(m[0]!), cy: plot.y(m[1]!), r: 4, class: `dot c${j % 6}`, 'data-weight': e.weights[j]! },
      svg('title', {}, `component ${j + 1}: weight ${e.weights[j]}, mean (${m.join(', ')})`)));
  });
  return figure(`mixture-ellipses-line${e.range.start.line + 1}`, 'Fitted components: means with 1σ and 2σ ellipses', plot.root);
}

/** Semi-axes and rotation of a 2×2 covariance's ellipse (its eigen-decomposition). */
function principalAxes([[a, b], [, d]]: [[number, number], [number, number]]) {
  const mean = (a + d) / 2, diff = Math.sqrt(((a - d) / 2) ** 2 + b * b);
  const l1 = mean + diff, l2 = Math.max(0, mean - diff);
  const angle = b === 0 ? (a >= d ? 0 : Math.PI / 2) : Math.atan2(l1 - a, b);
  return { a: Math.sqrt(l1), b: Math.sqrt(l2), angle, spanX: Math.sqrt(a), spanY: Math.sqrt(d) };
}
