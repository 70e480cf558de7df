/**
 * A directed graph laid out by dagre and drawn as SVG: pan (drag, arrow keys), zoom (wheel, +/−),
 * fit to view, search, compact nodes, a tooltip per node and keyboard focus on every node.
 * Pan and zoom move the SVG's viewBox, so "Save SVG" saves what is in view.
 */
import dagre from '@dagrejs/dagre';
import { h, svg } from './dom.js';
import { prob } from './format.js';
import { figure } from './charts.js';

export interface GraphNode {
  id: string;
  /** One bar per state (posterior marginals); absent for structure-only graphs. */
  bars?: Array<{ state: string; p: number }>;
  /** The observed state of an evidence node. */
  evidence?: string;
  /** The tooltip's content (e.g. the CPT). */
  tooltip?: () => HTMLElement;
  /** Influence diagrams: a decision is drawn as a rectangle, a utility as a diamond. */
  role?: 'decision' | 'utility';
}

export interface GraphEdge {
  from: string;
  to: string;
  className?: string;
  title?: string;
  /** An undirected edge (a CPDAG's): drawn without an arrowhead. */
  undirected?: boolean;
  /** Stroke width in px (bootstrap strength); default from the stylesheet. */
  width?: number;
}

export interface GraphOptions {
  name: string;
  label: string;
  /** Click / Enter on a node. */
  onActivate?: (id: string) => void;
  /** Click / Enter / Space on a state row of a node: set or clear that state as evidence. */
  onState?: (id: string, state: string) => void;
  legend?: Array<[string, string]>;
}

const NODE_W = 168;
/** Above this many nodes the graph is laid out on request (andes, 223 nodes, takes about 0.3 s; link, 724, about 5
 * s). */
const LAYOUT_ON_DEMAND = 400;
const BAR_ROWS = 5;
const ROW_H = 11;

interface Layout {
  x: number;
  y: number;
  width: number;
  height: number;
  nodes: Map<string, { x: number; y: number; w: number; h: number }>;
  edges: Array<{ edge: GraphEdge; points: Array<{ x: number; y: number }> }>;
}

function nodeHeight(n: GraphNode, compact: boolean): number {
  if (n.role === 'utility') return 36;
  if (compact || !n.bars) return 24;
  return 22 + Math.min(n.bars.length, BAR_ROWS) * ROW_H + (n.bars.length > BAR_ROWS ? ROW_H : 0) + 4;
}

function layoutGraph(nodes: GraphNode[], edges: GraphEdge[], compact: boolean): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: 18, ranksep: compact ? 36 : 44, marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  // dagre's graph keeps nodes in plain objects keyed by id: a variable named `__proto__` or
  // `constructor` breaks it. It gets the nodes' positions in the list as ids instead.
  const key = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  for (const n of nodes)
    g.setNode(key.get(n.id)!, {
      width: compact ? Math.min(NODE_W, 16 + n.id.length * 7) : NODE_W,
      height: nodeHeight(n, compact),
    });
  for (const e of edges) g.setEdge(key.get(e.from)!, key.get(e.to)!);
  dagre.layout(g);
  const out: Layout = { x: 0, y: 0, width: 0, height: 0, nodes: new Map(), edges: [] };
  for (const n of nodes) {
    const p = g.node(key.get(n.id)!) as { x: number; y: number; width: number; height: number };
    out.nodes.set(n.id, { x: p.x - p.width / 2, y: p.y - p.height / 2, w: p.width, h: p.height });
  }
  for (const e of edges) {
    const points = (g.edge(key.get(e.from)!, key.get(e.to)!) as { points: Array<{ x: number; y: number }> }).points;
    out.edges.push({ edge: e, points });
  }
  return withBounds(out);
}

/** dagre's graph size leaves out edges routed around the side (e.g. long arcs), so measure everything drawn. */
function withBounds(l: Layout): Layout {
  let x0 = Infinity,
    y0 = Infinity,
    x1 = -Infinity,
    y1 = -Infinity;
  const add = (x: number, y: number) => {
    x0 = Math.min(x0, x);
    y0 = Math.min(y0, y);
    x1 = Math.max(x1, x);
    y1 = Math.max(y1, y);
  };
  for (const b of l.nodes.values()) {
    add(b.x, b.y);
    add(b.x + b.w, b.y + b.h);
  }
  for (const e of l.edges) for (const p of e.points) add(p.x, p.y);
  if (x0 > x1) return { ...l, width: 100, height: 100 };
  const pad = 12;
  return { ...l, x: x0 - pad, y: y0 - pad, width: x1 - x0 + 2 * pad, height: y1 - y0 + 2 * pad };
}

export function graphView(nodes: GraphNode[], edges: GraphEdge[], options: GraphOptions): HTMLElement {
  let compact = nodes.length > 60;
  const host = h('div', { class: 'graph' });
  const tooltip = h('div', { class: 'tooltip', role: 'tooltip', hidden: true });
  const search = h('vscode-textfield', {
    placeholder: 'Search variables',
    'aria-label': 'Search variables',
    class: 'search',
  }) as HTMLElement & { value: string };
  const fit = h(
    'vscode-button',
    { secondary: true, 'aria-label': 'Fit graph to view', title: 'Fit to view (0)' },
    'Fit',
  );
  const collapse = h(
    'vscode-button',
    {
      secondary: true,
      'aria-label': 'Collapse or expand the marginal bars of every node',
      title: 'Collapse / expand nodes',
    },
    compact ? 'Expand' : 'Collapse',
  );
  const count = h('span', { class: 'count' }, `${nodes.length} nodes · ${edges.length} arcs`);
  const toolbar = h(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': `${options.label} controls` },
    search,
    fit,
    collapse,
    count,
  );
  let view: ReturnType<typeof drawGraph> | undefined;
  const draw = () => {
    const old = view?.figure;
    view = drawGraph(nodes, edges, options, compact, tooltip);
    if (old) old.replaceWith(view.figure);
    else host.append(view.figure);
    applySearch(view.root, search.value ?? '');
  };
  fit.addEventListener('click', () => view?.fit());
  collapse.addEventListener('click', () => {
    compact = !compact;
    collapse.textContent = compact ? 'Expand' : 'Collapse';
    if (view) draw();
  });
  search.addEventListener('input', () => view && applySearch(view.root, search.value ?? ''));
  search.addEventListener('keydown', (ev) => {
    if ((ev as KeyboardEvent).key !== 'Enter' || !view) return;
    const hit = view.root.querySelector<SVGGElement>('g.node.match');
    if (hit) view.focusOn(hit.dataset.id!);
  });
  host.append(toolbar, tooltip);
  if (nodes.length <= LAYOUT_ON_DEMAND) draw();
  else {
    // dagre needs seconds for the largest networks: lay them out only when asked.
    const go = h(
      'vscode-button',
      { 'aria-label': `Lay out the graph of ${nodes.length} nodes` },
      `Lay out ${nodes.length} nodes (takes a few seconds)`,
    );
    go.addEventListener('click', () => {
      go.remove();
      draw();
    });
    host.append(go);
  }
  if (options.legend)
    host.append(
      h(
        'div',
        { class: 'graph-legend' },
        ...options.legend.map(([text, cls]) => h('span', { class: `key ${cls}` }, text)),
      ),
    );
  return host;
}

function applySearch(root: SVGSVGElement, text: string): void {
  const q = text.trim().toLowerCase();
  root.classList.toggle('searching', q.length > 0);
  for (const g of root.querySelectorAll<SVGGElement>('g.node'))
    g.classList.toggle('match', q.length > 0 && g.dataset.id!.toLowerCase().includes(q));
}

function drawGraph(
  nodes: GraphNode[],
  edges: GraphEdge[],
  options: GraphOptions,
  compact: boolean,
  tooltip: HTMLElement,
) {
  const layout = layoutGraph(nodes, edges, compact);
  const root = svg('svg', {
    class: 'network',
    tabindex: 0,
    'aria-label': `${options.label}: ${nodes.length} variables; drag or arrow keys to pan, wheel or +/− to zoom, 0 to fit`,
  });
  root.append(
    svg(
      'defs',
      {},
      svg(
        'marker',
        {
          id: 'arrow',
          viewBox: '0 0 10 10',
          refX: 9,
          refY: 5,
          markerWidth: 7,
          markerHeight: 7,
          orient: 'auto-start-reverse',
        },
        svg('path', { d: 'M0,0 L10,5 L0,10 z', class: 'arrowhead' }),
      ),
    ),
  );
  for (const { edge, points } of layout.edges) {
    const line = svg(
      'polyline',
      {
        class: `edge ${edge.className ?? ''}`.trim(),
        points: points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(' '),
        ...(edge.undirected ? {} : { 'marker-end': 'url(#arrow)' }),
        'data-from': edge.from,
        'data-to': edge.to,
      },
      svg('title', {}, edge.title ?? `${edge.from} → ${edge.to}`),
    );
    // Through the CSSOM (allowed by the webview's content security policy), over the stylesheet's width.
    if (edge.width) line.style.strokeWidth = edge.width.toFixed(2);
    root.append(line);
  }
  for (const n of nodes) root.append(drawNode(n, layout.nodes.get(n.id)!, compact, options, tooltip));
  const camera = new Camera(root, { x: layout.x, y: layout.y, w: layout.width, h: layout.height });
  const figureEl = figure(options.name, options.label, root);
  return {
    figure: figureEl,
    root,
    fit: () => camera.fit(),
    focusOn: (id: string) => {
      const box = layout.nodes.get(id)!;
      camera.centerOn(box.x + box.w / 2, box.y + box.h / 2);
      root.querySelector<SVGGElement>(`g.node[data-id="${CSS.escape(id)}"]`)?.focus();
    },
  };
}

function drawNode(
  n: GraphNode,
  box: { x: number; y: number; w: number; h: number },
  compact: boolean,
  options: GraphOptions,
  tooltip: HTMLElement,
): SVGGElement {
  const summary =
    n.evidence !== undefined
      ? `observed ${n.evidence}`
      : n.bars
        ? n.bars.map((b) => `${b.state} ${prob(b.p)}`).join(', ')
        : '';
  const g = svg('g', {
    class: `node${n.evidence !== undefined ? ' evidence' : ''}`,
    'data-id': n.id,
    transform: `translate(${box.x},${box.y})`,
    tabindex: 0,
    role: 'button',
    'aria-label': `${n.id}${summary ? ': ' + summary : ''}`,
  });
  if (n.role === 'utility') {
    g.classList.add('utility');
    const points = `${box.w / 2},0 ${box.w},${box.h / 2} ${box.w / 2},${box.h} 0,${box.h / 2}`;
    g.append(svg('polygon', { points, class: 'box' }));
  } else {
    if (n.role === 'decision') g.classList.add('decision');
    g.append(svg('rect', { width: box.w, height: box.h, rx: n.role === 'decision' ? 0 : 4, class: 'box' }));
  }
  const label = n.id.length > 22 ? n.id.slice(0, 21) + '…' : n.id;
  const centred = { x: box.w / 2, y: box.h / 2 + 4, class: 'name', 'text-anchor': 'middle' };
  if (n.role === 'utility') g.append(svg('text', centred, label));
  else g.append(svg('text', { x: 6, y: 15, class: 'name' }, label));
  if (n.evidence !== undefined)
    g.append(svg('text', { x: box.w - 6, y: 15, class: 'observed', 'text-anchor': 'end' }, '● ' + n.evidence));
  if (!compact && n.bars) drawBars(g, n, box.w, options);
  const activate = () => options.onActivate?.(n.id);
  g.addEventListener('click', activate);
  g.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') {
      ev.preventDefault();
      activate();
    }
  });
  if (n.tooltip) attachTooltip(g, n.tooltip, tooltip);
  return g;
}

function drawBars(g: SVGGElement, n: GraphNode, width: number, options: GraphOptions): void {
  const bars = n.bars!;
  const barX = 64,
    barW = width - barX - 44;
  bars.slice(0, BAR_ROWS).forEach((b, i) => {
    const y = 22 + i * ROW_H;
    const observed = n.evidence === b.state;
    g.append(svg('text', { x: 6, y: y + 8, class: 'state' }, b.state.length > 9 ? b.state.slice(0, 8) + '…' : b.state));
    g.append(svg('rect', { x: barX, y: y + 1, width: barW, height: ROW_H - 3, class: 'track' }));
    g.append(
      svg('rect', {
        x: barX,
        y: y + 1,
        width: Math.max(0, Math.min(1, b.p)) * barW,
        height: ROW_H - 3,
        class: observed ? 'bar observed-bar' : 'bar posterior',
        'data-state': b.state,
        'data-value': b.p,
      }),
    );
    const value = { x: width - 4, y: y + 8, class: 'pvalue', 'text-anchor': 'end', 'data-state': b.state };
    g.append(svg('text', value, prob(b.p)));
    if (options.onState) g.append(stateHit(n.id, b.state, observed, { y, width }, options.onState));
  });
  if (bars.length > BAR_ROWS)
    g.append(
      svg('text', { x: 6, y: 22 + BAR_ROWS * ROW_H + 8, class: 'state' }, `+${bars.length - BAR_ROWS} more states`),
    );
}

/** A state row as a button over the row: click, Enter or Space sets (or clears) the state as evidence. */
function stateHit(
  id: string,
  state: string,
  observed: boolean,
  at: { y: number; width: number },
  act: (id: string, state: string) => void,
): SVGRectElement {
  const label = observed ? `Clear the evidence ${id} = ${state}` : `Set ${id} = ${state} as evidence`;
  const hit = svg(
    'rect',
    {
      x: 2,
      y: at.y,
      width: at.width - 4,
      height: ROW_H,
      class: 'state-hit',
      tabindex: 0,
      role: 'button',
      'aria-label': label,
      'aria-pressed': String(observed),
      'data-state': state,
    },
    svg('title', {}, label),
  );
  const go = (ev: Event) => {
    ev.stopPropagation();
    ev.preventDefault();
    act(id, state);
  };
  hit.addEventListener('click', go);
  hit.addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter' || ev.key === ' ') go(ev);
  });
  return hit;
}

/**
 * New marginals into a drawn graph, in place (layout, pan and zoom kept): each bar's width and
 * value, each node's evidence mark.
 */
export function updateGraph(host: HTMLElement, nodes: GraphNode[]): void {
  for (const n of nodes) {
    const g = host.querySelector<SVGGElement>(`g.node[data-id="${CSS.escape(n.id)}"]`);
    if (!g) continue;
    g.classList.toggle('evidence', n.evidence !== undefined);
    const summary =
      n.evidence !== undefined
        ? `observed ${n.evidence}`
        : (n.bars ?? []).map((b) => `${b.state} ${prob(b.p)}`).join(', ');
    g.setAttribute('aria-label', `${n.id}${summary ? ': ' + summary : ''}`);
    g.querySelector('text.observed')?.remove();
    const box = g.querySelector<SVGRectElement>('rect.box');
    const width = Number(box?.getAttribute('width') ?? NODE_W);
    const mark = { x: width - 6, y: 15, class: 'observed', 'text-anchor': 'end' };
    if (n.evidence !== undefined) g.append(svg('text', mark, '● ' + n.evidence));
    for (const b of n.bars ?? []) {
      const sel = `[data-state="${CSS.escape(b.state)}"]`;
      const bar = g.querySelector<SVGRectElement>(`rect.bar${sel}`);
      const track = bar?.previousElementSibling as SVGRectElement | null;
      if (bar && track) {
        bar.setAttribute('width', String(Math.max(0, Math.min(1, b.p)) * Number(track.getAttribute('width'))));
        bar.setAttribute('data-value', String(b.p));
        bar.setAttribute('class', n.evidence === b.state ? 'bar observed-bar' : 'bar posterior');
      }
      const text = g.querySelector(`text.pvalue${sel}`);
      if (text) text.textContent = prob(b.p);
      const hit = g.querySelector(`rect.state-hit${sel}`);
      if (hit) {
        const observed = n.evidence === b.state;
        const label = observed ? `Clear the evidence ${n.id} = ${b.state}` : `Set ${n.id} = ${b.state} as evidence`;
        hit.setAttribute('aria-label', label);
        hit.setAttribute('aria-pressed', String(observed));
        hit.querySelector('title')!.textContent = label;
      }
    }
  }
}

function attachTooltip(g: SVGGElement, content: () => HTMLElement, tooltip: HTMLElement): void {
  const show = (x: number, y: number) => {
    tooltip.replaceChildren(content());
    tooltip.hidden = false;
    const parent = tooltip.parentElement!.getBoundingClientRect();
    tooltip.style.left = `${Math.max(0, x - parent.left + 14)}px`;
    tooltip.style.top = `${Math.max(0, y - parent.top + 14)}px`;
  };
  g.addEventListener('mouseenter', (ev) => show(ev.clientX, ev.clientY));
  g.addEventListener('mouseleave', () => {
    tooltip.hidden = true;
  });
  g.addEventListener('focus', () => {
    const r = g.getBoundingClientRect();
    show(r.right, r.top);
  });
  g.addEventListener('blur', () => {
    tooltip.hidden = true;
  });
}

/** The SVG's viewBox as a camera: drag and arrows pan, wheel and +/− zoom, 0 fits. */
class Camera {
  private box: { x: number; y: number; w: number; h: number };

  constructor(
    private readonly root: SVGSVGElement,
    private readonly bounds: { x: number; y: number; w: number; h: number },
  ) {
    this.box = { ...bounds };
    this.apply();
    root.setAttribute('width', String(Math.min(bounds.w, 1400)));
    root.setAttribute('height', String(Math.min(bounds.h, 720)));
    this.listen();
  }

  fit(): void {
    this.box = { ...this.bounds };
    this.apply();
  }

  centerOn(x: number, y: number): void {
    // About seven compact nodes across: the match and its neighbourhood.
    const w = Math.min(this.bounds.w, 1200),
      hgt = (w * this.box.h) / this.box.w;
    this.box = { x: x - w / 2, y: y - hgt / 2, w, h: hgt };
    this.apply();
  }

  private apply(): void {
    const b = this.box;
    this.root.setAttribute('viewBox', `${b.x.toFixed(1)} ${b.y.toFixed(1)} ${b.w.toFixed(1)} ${b.h.toFixed(1)}`);
  }

  private zoom(factor: number, cx = this.box.x + this.box.w / 2, cy = this.box.y + this.box.h / 2): void {
    const b = this.box;
    const w = Math.max(40, Math.min(this.bounds.w * 8, b.w * factor));
    const k = w / b.w;
    this.box = { x: cx - (cx - b.x) * k, y: cy - (cy - b.y) * k, w, h: b.h * k };
    this.apply();
  }

  private pan(dx: number, dy: number): void {
    this.box = { ...this.box, x: this.box.x + dx, y: this.box.y + dy };
    this.apply();
  }

  /** Screen pixels → SVG units. */
  private scale(): number {
    const r = this.root.getBoundingClientRect();
    return r.width > 0 ? this.box.w / r.width : 1;
  }

  private listen(): void {
    const root = this.root;
    root.addEventListener(
      'wheel',
      (ev) => {
        ev.preventDefault();
        const r = root.getBoundingClientRect();
        const s = this.scale();
        this.zoom(
          ev.deltaY > 0 ? 1.15 : 1 / 1.15,
          this.box.x + (ev.clientX - r.left) * s,
          this.box.y + (ev.clientY - r.top) * s,
        );
      },
      { passive: false },
    );
    let drag: { x: number; y: number } | undefined;
    root.addEventListener('pointerdown', (ev) => {
      if ((ev.target as Element).closest('g.node')) return;
      drag = { x: ev.clientX, y: ev.clientY };
      root.setPointerCapture(ev.pointerId);
    });
    root.addEventListener('pointermove', (ev) => {
      if (!drag) return;
      const s = this.scale();
      this.pan((drag.x - ev.clientX) * s, (drag.y - ev.clientY) * s);
      drag = { x: ev.clientX, y: ev.clientY };
    });
    root.addEventListener('pointerup', () => {
      drag = undefined;
    });
    root.addEventListener('keydown', (ev) => {
      const step = this.box.w / 10;
      const keys: Record<string, () => void> = {
        ArrowLeft: () => this.pan(-step, 0),
        ArrowRight: () => this.pan(step, 0),
        ArrowUp: () => this.pan(0, -step),
        ArrowDown: () => this.pan(0, step),
        '+': () => this.zoom(1 / 1.25),
        '=': () => this.zoom(1 / 1.25),
        '-': () => this.zoom(1.25),
        '0': () => this.fit(),
      };
      const act = keys[ev.key];
      if (act && ev.target === root) {
        ev.preventDefault();
        act();
      }
    });
  }
}
