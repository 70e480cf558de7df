/**
 * A continuous variable's density as SVG: the prior dashed, the posterior solid, each a mixture of
 * normals (one component in a Gaussian network, one per configuration of the discrete parents in
 * a conditional linear Gaussian one) drawn as the mixture, on one x range that holds both. An
 * observed variable's posterior is a point mass: a vertical line at its value. Used in the graph's
 * nodes (graph.ts) and, larger and with axis labels, in a node's detail view (views/network.ts).
 */
import type { GaussianMixtureJson } from '../../server/src/protocol/runResult.js';
import { svg } from './dom.js';
import { num } from './format.js';

export type Mixture = GaussianMixtureJson;

/** Points along each curve. */
const POINTS = 96;

function normalPdf(x: number, mean: number, variance: number): number {
  return Math.exp(-((x - mean) ** 2) / (2 * variance)) / Math.sqrt(2 * Math.PI * variance);
}

export function mixtureDensity(m: Mixture, x: number): number {
  let p = 0;
  for (const c of m.components) if (c.variance > 0) p += c.weight * normalPdf(x, c.mean, c.variance);
  return p;
}

/** The x range holding every component of the curves within 4 standard deviations. */
export function densityRange(curves: Mixture[]): [number, number] {
  let lo = Infinity,
    hi = -Infinity;
  for (const m of curves) {
    for (const c of m.components.length ? m.components : [m]) {
      const sd = Math.sqrt(Math.max(0, c.variance));
      lo = Math.min(lo, c.mean - 4 * sd);
      hi = Math.max(hi, c.mean + 4 * sd);
    }
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (hi - lo < 1e-12) return [lo - 1, hi + 1];
  return [lo, hi];
}

const pointMass = (m: Mixture) => !(m.variance > 0);

/**
 * Appends to `g` the two curves in the box (x, y, width, height): `path.density.prior` (dashed in
 * the stylesheet) and `path.density.posterior` (solid), or a `line.density.posterior` for a point
 * mass. Both are scaled to the taller curve's peak. Returns the x range drawn.
 */
export function drawDensity(
  g: SVGElement,
  box: { x: number; y: number; width: number; height: number },
  prior: Mixture | undefined,
  posterior: Mixture,
): [number, number] {
  const curves = prior ? [prior, posterior] : [posterior];
  const [lo, hi] = densityRange(curves);
  const xs = Array.from({ length: POINTS }, (_, i) => lo + ((hi - lo) * i) / (POINTS - 1));
  const values = curves.map((m) => (pointMass(m) ? undefined : xs.map((x) => mixtureDensity(m, x))));
  const peak = Math.max(1e-300, ...values.flatMap((v) => v ?? []));
  const px = (x: number) => box.x + ((x - lo) / (hi - lo)) * box.width;
  const py = (p: number) => box.y + box.height - (p / peak) * box.height;
  g.append(
    svg('line', {
      class: 'density-axis',
      x1: box.x,
      x2: box.x + box.width,
      y1: box.y + box.height,
      y2: box.y + box.height,
    }),
  );
  curves.forEach((m, k) => {
    const kind = prior && k === 0 ? 'prior' : 'posterior';
    const ys = values[k];
    if (!ys) {
      const x = px(m.mean).toFixed(1);
      g.append(svg('line', { class: `density ${kind}`, x1: x, x2: x, y1: box.y, y2: box.y + box.height }));
      return;
    }
    const d = xs.map((x, i) => `${i ? 'L' : 'M'}${px(x).toFixed(1)},${py(ys[i]!).toFixed(1)}`).join(' ');
    g.append(svg('path', { class: `density ${kind}`, d }));
  });
  return [lo, hi];
}

/** `mean 177.5 · var 12.06`, 4 significant digits (the words a node shows and a screen reader reads). */
export function momentsText(m: Mixture): string {
  return `mean ${short(m.mean)} · var ${short(m.variance)}`;
}

function short(x: number): string {
  return Number.isFinite(x) ? String(Number(x.toPrecision(4))) : num(x);
}
