/**
 * Save a chart as SVG or PNG. Theme colours live in CSS variables that a saved file cannot
 * resolve, so the computed styles are written onto a clone before it is serialised; the host
 * writes the file (a webview cannot).
 */
import { h, svg } from './dom.js';
import { post } from './host.js';

const STYLED = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'visibility',
  'display',
] as const;

export function saveButtons(name: string, chart: SVGSVGElement): HTMLElement[] {
  const make = (format: 'svg' | 'png') => {
    const label = `Save ${name} as ${format.toUpperCase()}`;
    const b = h(
      'vscode-button',
      { secondary: true, 'aria-label': label, title: label, class: 'save' },
      format.toUpperCase(),
    );
    b.addEventListener('click', () => void save(name, chart, format));
    return b;
  };
  return [make('svg'), make('png')];
}

async function save(name: string, chart: SVGSVGElement, format: 'svg' | 'png'): Promise<void> {
  const text = standaloneSvg(chart);
  const data = format === 'svg' ? text : await toPng(text, chart);
  post({ type: 'save', name: fileName(name), format, data });
}

function fileName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '_').replace(/^_+|_+$/g, '') || 'chart';
}

/** The chart as a self-contained SVG document with its theme colours resolved. */
function standaloneSvg(chart: SVGSVGElement): string {
  const clone = chart.cloneNode(true) as SVGSVGElement;
  inlineStyles(chart, clone);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const { width, height } = size(chart);
  clone.setAttribute('width', String(width));
  clone.setAttribute('height', String(height));
  clone.prepend(svg('rect', { width: '100%', height: '100%', fill: getComputedStyle(document.body).backgroundColor }));
  return new XMLSerializer().serializeToString(clone);
}

function inlineStyles(from: Element, to: Element): void {
  const style = getComputedStyle(from);
  // Through the CSSOM: a `style` attribute set as text would be blocked by the panel's CSP.
  for (const p of STYLED) (to as SVGElement).style.setProperty(p, style.getPropertyValue(p));
  to.removeAttribute('class');
  for (let i = 0; i < from.children.length; i++) inlineStyles(from.children[i]!, to.children[i]!);
}

function size(chart: SVGSVGElement): { width: number; height: number } {
  const vb = chart.viewBox.baseVal;
  if (vb && vb.width > 0) return { width: vb.width, height: vb.height };
  const r = chart.getBoundingClientRect();
  return { width: Math.ceil(r.width), height: Math.ceil(r.height) };
}

/** Rasterise at twice the size (sharp on high-DPI screens); base64 without the data: prefix. */
async function toPng(svgText: string, chart: SVGSVGElement): Promise<string> {
  const { width, height } = size(chart);
  const img = new Image();
  img.src = 'data:image/svg+xml;charset=utf-8,' + encodeURIComponent(svgText);
  await img.decode();
  const canvas = document.createElement('canvas');
  canvas.width = width * 2;
  canvas.height = height * 2;
  const ctx = canvas.getContext('2d')!;
  ctx.scale(2, 2);
  ctx.drawImage(img, 0, 0, width, height);
  return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
