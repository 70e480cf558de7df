/**
 * A directed graph laid out by dagre and drawn as SVG at the editor's font size (one layout unit
 * is one CSS pixel at zoom 1), in a viewport that scrolls: drag or scroll to pan, Ctrl+wheel or
 * +/− to zoom, "Fit" (or 0) to see it whole, an overview (minimap) in the corner. The view — zoom,
 * scroll, the focused node — is kept per model across runs and reloads (viewState.ts).
 *
 * Keyboard: the graph is one tab stop (a roving tabindex over its nodes). Arrow keys move to the
 * nearest node in that direction, Enter opens the node's details, Shift+↑/↓ picks a state of the
 * node and Space sets or clears it as evidence. Nothing here moves focus out of the panel: the
 * node's table opens in the editor only on an explicit action (Ctrl/Cmd+click, or the button in
 * the detail view), and the editor does not take focus.
 */
import dagre from '@dagrejs/dagre';
import { h, svg } from './dom.js';
import { prob } from './format.js';
import { figure } from './charts.js';
import { drawDensity, momentsText, type Mixture } from './density.js';
import { nearestNode, searchTarget, type Box, type Direction } from './graphNavigation.js';
import { saveView, viewOf, type GraphViewState } from './viewState.js';

export interface GraphNode {
  id: string;
  /** One bar per state (posterior marginals); absent for structure-only graphs. */
  bars?: Array<{ state: string; p: number }>;
  /** The observed state of an evidence node. */
  evidence?: string;
  /** Soft (target marginals, Jeffrey) or virtual (likelihood) evidence on the node, one number per state. */
  finding?: { kind: 'soft' | 'virtual'; values: number[] };
  /** Lines drawn under the name instead of bars (a decision's expected utilities, a utility's value). */
  lines?: Array<{ text: string; best?: boolean; key?: string; value?: number }>;
  /** The tooltip's content (e.g. the CPT). */
  tooltip?: () => HTMLElement;
  /** Influence diagrams: a decision is drawn as a rectangle, a utility as a diamond. */
  role?: 'decision' | 'utility';
  /** A continuous variable: its density curves (prior dashed, posterior solid) and posterior mean and variance. */
  density?: { prior?: Mixture; posterior: Mixture };
}

export interface GraphEdge {
  from: string;
  to: string;
  className?: string;
  title?: string;
  /** An undirected edge (a CPDAG's): drawn without an arrowhead. */
  undirected?: boolean;
  /** Stroke width in px (bootstrap strength, strength of influence); default from the stylesheet. */
  width?: number;
  /** The number the width draws (kept on the arc as data-strength for readers and tests). */
  strength?: number;
}

export interface GraphOptions {
  name: string;
  label: string;
  /** Click / Enter on a node: open its details (in the panel). */
  onActivate?: (id: string) => void;
  /** Ctrl/Cmd+click or Ctrl/Cmd+Enter on a node: show its table in the editor (focus stays here). */
  onOpen?: (id: string) => void;
  /** Click on a state row, or Space on a node: set or clear that state as evidence. */
  onState?: (id: string, state: string) => void;
  legend?: Array<[string, string]>;
}

/** Above this many nodes the graph is laid out on request (andes, 223 nodes, takes about 0.3 s; link, 724, about 5
 * s). */
const LAYOUT_ON_DEMAND = 400;
const BAR_ROWS = 5;
/** A density curve's height in rows (its mean and variance take one more). */
const DENSITY_ROWS = 2.5;
const MIN_ZOOM = 0.05;
const MAX_ZOOM = 4;

/** Node geometry in layout units, from the editor's font size (VS Code's --vscode-editor-font-size). */
interface Metrics {
  fs: number;
  width: number;
  row: number;
  head: number;
  char: number;
}

function metrics(): Metrics {
  const raw = getComputedStyle(document.documentElement).getPropertyValue('--vscode-editor-font-size');
  const fs = Math.max(10, Math.min(32, parseFloat(raw) || 13));
  return { fs, width: Math.round(fs * 13), row: Math.round(fs * 1.35), head: Math.round(fs * 1.75), char: fs * 0.62 };
}

interface Layout {
  x: number;
  y: number;
  width: number;
  height: number;
  nodes: Map<string, Box>;
  edges: Array<{ edge: GraphEdge; points: Array<{ x: number; y: number }> }>;
}

function nodeHeight(n: GraphNode, compact: boolean, m: Metrics): number {
  const lines = n.lines?.length ?? 0;
  if (n.role === 'utility') return m.head + lines * m.row + m.row;
  if (lines) return m.head + lines * m.row + 6;
  if (n.density && !compact) return m.head + DENSITY_ROWS * m.row + m.row + 6;
  if (compact || !n.bars) return m.head + 6;
  return m.head + Math.min(n.bars.length, BAR_ROWS) * m.row + (n.bars.length > BAR_ROWS ? m.row : 0) + 6;
}

function nodeWidth(n: GraphNode, compact: boolean, m: Metrics): number {
  if (compact && !n.lines?.length) return Math.min(m.width, Math.round(16 + n.id.length * m.char));
  if (n.role === 'utility') return Math.round(m.width * 1.15);
  return m.width;
}

function layoutGraph(nodes: GraphNode[], edges: GraphEdge[], compact: boolean, m: Metrics): Layout {
  const g = new dagre.graphlib.Graph();
  g.setGraph({ rankdir: 'TB', nodesep: m.fs * 1.4, ranksep: m.fs * (compact ? 2.6 : 3.2), marginx: 12, marginy: 12 });
  g.setDefaultEdgeLabel(() => ({}));
  // dagre's graph keeps nodes in plain objects keyed by id: a variable named `__proto__` or
  // `constructor` breaks it. It gets the nodes' positions in the list as ids instead.
  const key = new Map(nodes.map((n, i) => [n.id, `n${i}`]));
  for (const n of nodes)
    g.setNode(key.get(n.id)!, { width: nodeWidth(n, compact, m), height: nodeHeight(n, compact, m) });
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

/** The graph that had the keyboard focus when the panel was last redrawn (a re-run puts it back). */
let focusedGraph: string | undefined;

export function graphView(nodes: GraphNode[], edges: GraphEdge[], options: GraphOptions): HTMLElement {
  let compact = nodes.length > 60;
  const host = h('div', { class: 'graph' });
  const tooltip = h('div', { class: 'tooltip', role: 'tooltip', hidden: true });
  const search = h('vscode-textfield', {
    placeholder: 'Search variables',
    'aria-label': 'Search variables (Enter goes to the exact name first)',
    class: 'search',
  }) as HTMLElement & { value: string };
  const button = (label: string, title: string, text: string) =>
    h('vscode-button', { secondary: true, 'aria-label': label, title }, text);
  const fit = button('Fit graph to view', 'Fit to view (0)', 'Fit');
  const actual = button('1:1 — actual size: node text at the editor font size', 'Actual size (1)', '1:1');
  const collapse = button(
    'Collapse or expand the marginal bars of every node',
    'Collapse / expand nodes',
    compact ? 'Expand' : 'Collapse',
  );
  const count = h('span', { class: 'count' }, `${nodes.length} nodes · ${edges.length} arcs`);
  const toolbar = h(
    'div',
    { class: 'toolbar', role: 'toolbar', 'aria-label': `${options.label} controls` },
    search,
    fit,
    actual,
    collapse,
    count,
  );
  const keysId = `keys-${options.name.replace(/[^A-Za-z0-9_-]/g, '_')}`;
  const keys = h(
    'p',
    { class: 'graph-keys', id: keysId },
    options.onState
      ? 'Tab reaches the graph once; arrow keys move between nodes, Enter opens a node’s details, Shift+↑/↓ picks a state and Space sets or clears it, Ctrl+Enter shows the table in the editor, +/− zoom, 0 fits, 1 is actual size.'
      : 'Tab reaches the graph once; arrow keys move between nodes, Enter opens a node, +/− zoom, 0 fits, 1 is actual size.',
  );
  let view: ReturnType<typeof drawGraph> | undefined;
  const draw = () => {
    const old = view?.figure;
    view = drawGraph(nodes, edges, options, compact, tooltip, keysId);
    if (old) old.replaceWith(view.figure);
    else host.append(view.figure);
    applySearch(view.root, search.value ?? '');
  };
  fit.addEventListener('click', () => view?.fit());
  actual.addEventListener('click', () => view?.actualSize());
  collapse.addEventListener('click', () => {
    compact = !compact;
    collapse.textContent = compact ? 'Expand' : 'Collapse';
    if (view) draw();
  });
  search.addEventListener('input', () => view && applySearch(view.root, search.value ?? ''));
  search.addEventListener('keydown', (ev) => {
    if ((ev as KeyboardEvent).key !== 'Enter' || !view) return;
    const hit = searchTarget(
      nodes.map((n) => n.id),
      search.value ?? '',
    );
    if (hit) view.focusOn(hit);
  });
  host.append(toolbar, keys, tooltip);
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
  keysId: string,
) {
  const m = metrics();
  const layout = layoutGraph(nodes, edges, compact, m);
  const root = svg('svg', { class: 'network' });
  root.style.setProperty('--graph-fs', `${m.fs}px`);
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
          // In px, not in stroke widths: an arc drawn wide (strength) keeps an arrowhead of the usual size.
          markerUnits: 'userSpaceOnUse',
          markerWidth: 9,
          markerHeight: 9,
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
        ...(edge.strength !== undefined ? { 'data-strength': String(edge.strength) } : {}),
      },
      svg('title', {}, edge.title ?? `${edge.from} → ${edge.to}`),
    );
    // Through the CSSOM (allowed by the webview's content security policy), over the stylesheet's width.
    if (edge.width) line.style.strokeWidth = edge.width.toFixed(2);
    root.append(line);
  }
  const saved = viewOf(options.name);
  const cursor = new Map(Object.entries(saved?.cursor ?? {}));
  const byId = new Map(nodes.map((n) => [n.id, n]));
  for (const n of nodes)
    root.append(drawNode(n, layout.nodes.get(n.id)!, compact, m, options, tooltip, cursor.get(n.id) ?? 0));
  const viewport = new Viewport(root, layout, options.name);
  const figureEl = figure(options.name, options.label, root);
  // A widget, not a picture: its nodes are buttons a screen reader reaches (figure() made it an image).
  root.setAttribute('role', 'application');
  root.setAttribute('aria-label', `${options.label}: ${nodes.length} variables`);
  root.setAttribute('aria-describedby', keysId);
  // Not a tab stop of its own (Chromium would make the drawing one): the roving node is the one.
  root.setAttribute('tabindex', '-1');
  // figure() took the SVG for itself: it goes back into its scrolling frame, in the figure's place.
  figureEl.insertBefore(viewport.frame, figureEl.firstChild);
  viewport.adopt();

  const nodeEl = (id: string) => root.querySelector<SVGGElement>(`g.node[data-id="${CSS.escape(id)}"]`);
  let current = saved?.focused !== undefined && byId.has(saved.focused) ? saved.focused : nodes[0]?.id;
  const rove = (id: string, focus: boolean) => {
    if (current !== undefined) nodeEl(current)?.setAttribute('tabindex', '-1');
    current = id;
    const el = nodeEl(id);
    el?.setAttribute('tabindex', '0');
    viewport.reveal(layout.nodes.get(id)!);
    if (focus) el?.focus({ preventScroll: true });
    saveView(options.name, { focused: id });
  };
  if (current !== undefined) nodeEl(current)?.setAttribute('tabindex', '0');
  const moveCursor = (id: string, by: number) => {
    const n = byId.get(id);
    if (!n?.bars?.length) return;
    const i = ((cursor.get(id) ?? 0) + by + n.bars.length) % n.bars.length;
    cursor.set(id, i);
    const g = nodeEl(id)!;
    for (const r of g.querySelectorAll('rect.state-hit'))
      r.classList.toggle('cursor', r.getAttribute('data-state') === n.bars[i]!.state);
    g.setAttribute('aria-label', nodeLabel(g, n, options, i));
    saveView(options.name, { cursor: Object.fromEntries(cursor) });
  };
  root.addEventListener('focusin', (ev) => {
    focusedGraph = options.name;
    const g = (ev.target as Element).closest?.('g.node') as SVGGElement | null;
    if (g && g.dataset.id !== current) rove(g.dataset.id!, false);
  });
  root.addEventListener('focusout', (ev) => {
    const to = ev.relatedTarget as Node | null;
    if (to && !root.contains(to)) focusedGraph = undefined;
  });
  root.addEventListener('click', (ev) => {
    const g = (ev.target as Element).closest('g.node') as SVGGElement | null;
    if (!g) return;
    const id = g.dataset.id!;
    rove(id, true);
    if (ev.ctrlKey || ev.metaKey) options.onOpen?.(id);
    else options.onActivate?.(id);
  });
  root.addEventListener('keydown', (ev) => {
    const g = (ev.target as Element).closest('g.node') as SVGGElement | null;
    const id = g?.dataset.id;
    const arrows: Record<string, Direction> = {
      ArrowLeft: 'left',
      ArrowRight: 'right',
      ArrowUp: 'up',
      ArrowDown: 'down',
    };
    const dir = arrows[ev.key];
    if (id !== undefined && dir && ev.shiftKey && (dir === 'up' || dir === 'down')) {
      moveCursor(id, dir === 'up' ? -1 : 1);
    } else if (id !== undefined && dir && !ev.altKey && !ev.ctrlKey && !ev.metaKey) {
      const next = nearestNode(layout.nodes, id, dir);
      if (next !== undefined) rove(next, true);
    } else if (id !== undefined && ev.key === 'Enter') {
      if (ev.ctrlKey || ev.metaKey) options.onOpen?.(id);
      else options.onActivate?.(id);
    } else if (id !== undefined && ev.key === ' ') {
      const n = byId.get(id)!;
      const state = n.bars?.[cursor.get(id) ?? 0]?.state;
      if (state !== undefined && !n.role) options.onState?.(id, state);
    } else if (ev.key === '+' || ev.key === '=') viewport.zoomBy(1.25);
    else if (ev.key === '-') viewport.zoomBy(1 / 1.25);
    else if (ev.key === '0') viewport.fit();
    else if (ev.key === '1') viewport.setZoom(1);
    else return;
    // Every key the graph handles stops here: none reaches the page (scrolling) or anything else.
    ev.preventDefault();
    ev.stopPropagation();
  });
  // A redraw (a re-run, a reload) puts the view back and, if the graph had the focus, the focus.
  requestAnimationFrame(() => {
    viewport.restore(saved);
    if (
      focusedGraph === options.name &&
      current !== undefined &&
      (!document.activeElement || document.activeElement === document.body)
    )
      nodeEl(current)?.focus({ preventScroll: true });
  });
  return {
    figure: figureEl,
    root,
    fit: () => viewport.fit(),
    actualSize: () => viewport.setZoom(1),
    focusOn: (id: string) => {
      viewport.centerOn(layout.nodes.get(id)!);
      rove(id, true);
    },
  };
}

/**
 * What a screen reader says for a node: first the words drawn in it, in order (so the name matches
 * what a sighted user sees and says, WCAG 2.5.3), then what the drawing leaves out: the full name,
 * the kind of evidence with its numbers, the marginals of a collapsed node, the state Space toggles.
 */
function nodeLabel(g: SVGGElement, n: GraphNode, options: Pick<GraphOptions, 'onState'>, cursor: number): string {
  const drawn = [...g.querySelectorAll('text')].map((t) => t.firstChild?.textContent ?? '').join(' ');
  const parts: string[] = [drawn];
  if (!drawn.startsWith(n.id + ' ') && drawn !== n.id) parts.push(n.id);
  if (n.role === 'decision') parts.push('decision');
  if (n.role === 'utility') parts.push('utility');
  if (n.evidence !== undefined) parts.push(`observed ${n.evidence}`);
  if (n.finding)
    parts.push(
      `${n.finding.kind === 'soft' ? 'soft evidence' : 'virtual evidence (likelihood)'} ${(n.bars ?? [])
        .map((b, i) => `${b.state} ${prob(n.finding!.values[i])}`)
        .join(', ')}`,
    );
  const rows = g.querySelectorAll('text.state').length;
  if (n.bars?.length && !n.lines?.length && rows < n.bars.length)
    parts.push(n.bars.map((b) => `${b.state} ${prob(b.p)}`).join(', '));
  if (options.onState && n.bars?.length && !n.role) parts.push(`Space toggles ${n.bars[cursor]?.state ?? ''}`);
  return parts.join('; ');
}

/** Separates the node's words for anything that reads its text (SVG draws no text outside <text>). */
function spaced(g: SVGGElement): void {
  for (const t of g.querySelectorAll(':scope > text')) {
    const before = t.previousSibling;
    if (!(before instanceof Text)) t.before(' ');
  }
}

function drawNode(
  n: GraphNode,
  box: Box,
  compact: boolean,
  m: Metrics,
  options: GraphOptions,
  tooltip: HTMLElement,
  cursor: number,
): SVGGElement {
  const g = svg('g', {
    class: `node${n.evidence !== undefined ? ' evidence' : ''}${n.finding ? ` finding-${n.finding.kind}` : ''}`,
    'data-id': n.id,
    transform: `translate(${box.x},${box.y})`,
    tabindex: -1,
    role: 'button',
  });
  if (n.role === 'utility') {
    g.classList.add('utility');
    const points = `${box.w / 2},0 ${box.w},${box.h / 2} ${box.w / 2},${box.h} 0,${box.h / 2}`;
    g.append(svg('polygon', { points, class: 'box' }));
  } else {
    if (n.role === 'decision') g.classList.add('decision');
    g.append(svg('rect', { width: box.w, height: box.h, rx: n.role === 'decision' ? 0 : 4, class: 'box' }));
  }
  const room = Math.max(4, Math.floor((box.w - 12) / m.char));
  const label = n.id.length > room ? n.id.slice(0, room - 1) + '…' : n.id;
  const baseline = Math.round(m.head * 0.7);
  if (n.role === 'utility') {
    const top = (box.h - (1 + (n.lines?.length ?? 0)) * m.row) / 2 + m.row * 0.8;
    g.append(
      svg('text', { x: box.w / 2, y: top, class: 'name', 'text-anchor': 'middle', 'aria-hidden': 'true' }, label),
    );
    drawLines(g, n, box.w / 2, top, m, 'middle');
  } else {
    g.append(svg('text', { x: 6, y: baseline, class: 'name', 'aria-hidden': 'true' }, label));
    if (n.lines?.length) drawLines(g, n, 6, baseline, m, 'start');
  }
  drawMark(g, n, box.w, baseline);
  if (!compact && n.bars && !n.lines?.length) drawBars(g, n, box.w, m, options, cursor);
  if (!compact && n.density) drawNodeDensity(g, n, box.w, m);
  spaced(g);
  g.setAttribute('aria-label', nodeLabel(g, n, options, cursor));
  if (n.tooltip) attachTooltip(g, n.tooltip, tooltip);
  return g;
}

/**
 * A continuous node's curves under its name and, below them, the posterior mean and variance
 * (their full values in data-mean / data-variance, for copying and tests).
 */
function drawNodeDensity(g: SVGGElement, n: GraphNode, width: number, m: Metrics): void {
  g.querySelector('g.density')?.remove();
  g.querySelector('text.moments')?.remove();
  const { prior, posterior } = n.density!;
  const curves = svg('g', { class: 'density', 'aria-hidden': 'true' });
  drawDensity(curves, { x: 8, y: m.head, width: width - 16, height: DENSITY_ROWS * m.row - 2 }, prior, posterior);
  g.append(curves);
  g.append(
    svg(
      'text',
      {
        x: 6,
        y: m.head + DENSITY_ROWS * m.row + m.row * 0.75,
        class: 'moments',
        'aria-hidden': 'true',
        'data-mean': posterior.mean,
        'data-variance': posterior.variance,
      },
      momentsText(posterior),
    ),
  );
}

function drawLines(g: SVGGElement, n: GraphNode, x: number, y: number, m: Metrics, anchor: string): void {
  (n.lines ?? []).forEach((l, i) =>
    g.append(
      svg(
        'text',
        {
          x,
          y: y + (i + 1) * m.row,
          class: `line${l.best ? ' best' : ''}`,
          'text-anchor': anchor,
          'aria-hidden': 'true',
          'data-key': l.key,
          'data-value': l.value,
        },
        (l.best ? '★ ' : '') + l.text,
      ),
    ),
  );
}

/** The evidence mark at the node's top right: ● the observed state, ◐ soft, λ virtual. */
function drawMark(g: SVGGElement, n: GraphNode, width: number, baseline: number): void {
  g.querySelector('text.observed')?.remove();
  const at = { x: width - 6, y: baseline, 'text-anchor': 'end', 'aria-hidden': 'true' };
  const mark =
    n.evidence !== undefined
      ? svg('text', { ...at, class: 'observed' }, '● ' + n.evidence)
      : n.finding
        ? svg(
            'text',
            { ...at, class: `observed ${n.finding.kind}` },
            n.finding.kind === 'soft' ? '◐ soft' : 'λ virtual',
          )
        : undefined;
  // Right after the name, so the node's words read in the order they are drawn.
  if (mark) (g.querySelector('text.name') ?? g.lastChild!).after(' ', mark);
}

function drawBars(
  g: SVGGElement,
  n: GraphNode,
  width: number,
  m: Metrics,
  options: GraphOptions,
  cursor: number,
): void {
  const bars = n.bars!;
  const barX = Math.round(m.fs * 4.8),
    barW = width - barX - Math.round(m.fs * 3.7);
  const max = n.finding ? Math.max(...n.finding.values, 0) : 0;
  bars.slice(0, BAR_ROWS).forEach((b, i) => {
    const y = m.head + i * m.row;
    const observed = n.evidence === b.state;
    const text = y + m.row * 0.72;
    g.append(
      svg(
        'text',
        { x: 6, y: text, class: 'state', 'aria-hidden': 'true' },
        b.state.length > 7 ? b.state.slice(0, 6) + '…' : b.state,
      ),
    );
    g.append(svg('rect', { x: barX, y: y + 2, width: barW, height: m.row - 5, class: 'track' }));
    g.append(
      svg('rect', {
        x: barX,
        y: y + 2,
        width: Math.max(0, Math.min(1, b.p || 0)) * barW,
        height: m.row - 5,
        class: observed ? 'bar observed-bar' : 'bar posterior',
        'data-state': b.state,
        'data-value': b.p,
      }),
    );
    // Soft evidence: a tick at the target marginal; virtual: at the likelihood relative to its largest.
    const v = n.finding?.values[i];
    if (v !== undefined && max > 0) {
      const x = barX + (n.finding!.kind === 'soft' ? Math.min(1, v) : v / max) * barW;
      g.append(
        svg('line', {
          x1: x,
          x2: x,
          y1: y,
          y2: y + m.row - 1,
          class: `finding-tick ${n.finding!.kind}`,
          'data-state': b.state,
          'data-value': v,
        }),
      );
    }
    const value = {
      x: width - 4,
      y: text,
      class: 'pvalue',
      'text-anchor': 'end',
      'data-state': b.state,
      'aria-hidden': 'true',
    };
    g.append(svg('text', value, prob(b.p)));
    if (options.onState && !n.role)
      g.append(stateHit(n.id, b.state, observed, i === cursor, { y, width, h: m.row }, options.onState));
  });
  if (bars.length > BAR_ROWS)
    g.append(
      svg(
        'text',
        { x: 6, y: m.head + BAR_ROWS * m.row + m.row * 0.72, class: 'state' },
        `+${bars.length - BAR_ROWS} more states`,
      ),
    );
}

/** A state row, for the mouse: a click sets (or clears) the state as evidence. The keyboard uses Space on the node. */
function stateHit(
  id: string,
  state: string,
  observed: boolean,
  isCursor: boolean,
  at: { y: number; width: number; h: number },
  act: (id: string, state: string) => void,
): SVGRectElement {
  const label = observed ? `Clear the evidence ${id} = ${state}` : `Set ${id} = ${state} as evidence`;
  const hit = svg('rect', {
    x: 2,
    y: at.y,
    width: at.width - 4,
    height: at.h,
    class: `state-hit${isCursor ? ' cursor' : ''}`,
    'aria-hidden': 'true',
    'aria-pressed': String(observed),
    'data-state': state,
    'data-label': label,
  });
  hit.addEventListener('click', (ev) => {
    if (ev.ctrlKey || ev.metaKey) return; // Ctrl/Cmd+click opens the table (the node's handler)
    ev.stopPropagation();
    ev.preventDefault();
    act(id, state);
  });
  return hit;
}

/**
 * New marginals into a drawn graph, in place (layout, pan and zoom kept): each bar's width and
 * value, each node's evidence mark and label.
 */
export function updateGraph(host: HTMLElement, nodes: GraphNode[], options?: Pick<GraphOptions, 'onState'>): void {
  for (const n of nodes) {
    const g = host.querySelector<SVGGElement>(`g.node[data-id="${CSS.escape(n.id)}"]`);
    if (!g) continue;
    g.classList.toggle('evidence', n.evidence !== undefined);
    g.classList.toggle('finding-soft', n.finding?.kind === 'soft');
    g.classList.toggle('finding-virtual', n.finding?.kind === 'virtual');
    const cursorRow = g.querySelector('rect.state-hit.cursor')?.getAttribute('data-state');
    const cursor = Math.max(
      0,
      (n.bars ?? []).findIndex((b) => b.state === cursorRow),
    );
    const box = g.querySelector<SVGRectElement | SVGPolygonElement>('.box');
    const width = box?.getBBox?.().width || Number(box?.getAttribute('width') ?? 0);
    const name = g.querySelector('text.name');
    drawMark(g, n, width, Number(name?.getAttribute('y') ?? 15));
    for (const t of g.querySelectorAll('line.finding-tick')) t.remove();
    const track = g.querySelector<SVGRectElement>('rect.track');
    const max = n.finding ? Math.max(...n.finding.values, 0) : 0;
    (n.bars ?? []).forEach((b, i) => {
      const sel = `[data-state="${CSS.escape(b.state)}"]`;
      const bar = g.querySelector<SVGRectElement>(`rect.bar${sel}`);
      const row = bar?.previousElementSibling as SVGRectElement | null;
      if (bar && row) {
        const w = Number(row.getAttribute('width'));
        bar.setAttribute('width', String(Math.max(0, Math.min(1, b.p || 0)) * w));
        bar.setAttribute('data-value', String(b.p));
        bar.setAttribute('class', n.evidence === b.state ? 'bar observed-bar' : 'bar posterior');
        const v = n.finding?.values[i];
        if (v !== undefined && max > 0 && track) {
          const x = Number(row.getAttribute('x')) + (n.finding!.kind === 'soft' ? Math.min(1, v) : v / max) * w;
          const y = Number(row.getAttribute('y')) - 2;
          const h = Number(row.getAttribute('height')) + 4;
          const tick = svg('line', {
            x1: x,
            x2: x,
            y1: y,
            y2: y + h,
            class: `finding-tick ${n.finding!.kind}`,
            'data-state': b.state,
            'data-value': v,
          });
          bar.after(tick);
        }
      }
      const text = g.querySelector(`text.pvalue${sel}`);
      if (text) text.textContent = prob(b.p);
      const hit = g.querySelector(`rect.state-hit${sel}`);
      if (hit) {
        const observed = n.evidence === b.state;
        const label = observed ? `Clear the evidence ${n.id} = ${b.state}` : `Set ${n.id} = ${b.state} as evidence`;
        hit.setAttribute('aria-pressed', String(observed));
        hit.setAttribute('data-label', label);
      }
    });
    if (n.density && g.querySelector('g.density')) {
      drawNodeDensity(g, n, width, metrics());
      spaced(g);
    }
    if (n.lines) {
      const lines = [...g.querySelectorAll('text.line')];
      n.lines.forEach((l, i) => {
        const t = lines[i];
        if (!t) return;
        t.textContent = (l.best ? '★ ' : '') + l.text;
        t.setAttribute('class', `line${l.best ? ' best' : ''}`);
        if (l.value !== undefined) t.setAttribute('data-value', String(l.value));
        else t.removeAttribute('data-value');
      });
    }
    g.setAttribute('aria-label', nodeLabel(g, n, options ?? {}, cursor));
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

/**
 * The graph's viewport: the SVG drawn at `zoom` CSS pixels per layout unit inside a scrolling
 * frame, with an overview (minimap) whose rectangle shows, and moves, what is in view.
 */
class Viewport {
  readonly frame: HTMLElement;
  private readonly scroller: HTMLElement;
  private readonly mini: SVGSVGElement;
  private readonly lens: SVGRectElement;
  private zoom = 1;
  private restored = false;

  constructor(
    private readonly root: SVGSVGElement,
    private readonly layout: Layout,
    private readonly name: string,
  ) {
    const l = layout;
    root.setAttribute('viewBox', `${l.x.toFixed(1)} ${l.y.toFixed(1)} ${l.width.toFixed(1)} ${l.height.toFixed(1)}`);
    this.scroller = h('div', { class: 'graph-viewport' });
    this.mini = svg('svg', {
      class: 'minimap',
      'aria-hidden': 'true',
      viewBox: `${l.x.toFixed(1)} ${l.y.toFixed(1)} ${l.width.toFixed(1)} ${l.height.toFixed(1)}`,
    });
    for (const b of l.nodes.values())
      this.mini.append(svg('rect', { x: b.x, y: b.y, width: b.w, height: b.h, class: 'mini-node' }));
    this.lens = svg('rect', { class: 'mini-lens', x: l.x, y: l.y, width: l.width, height: l.height });
    this.mini.append(this.lens);
    const scale = 160 / Math.max(l.width, l.height);
    this.mini.setAttribute('width', String(Math.round(l.width * scale)));
    this.mini.setAttribute('height', String(Math.round(l.height * scale)));
    this.frame = h('div', { class: 'graph-frame' }, this.scroller, this.mini);
    this.adopt();
    this.apply();
    this.listen();
  }

  /** Puts the SVG (back) into the scrolling frame. */
  adopt(): void {
    this.scroller.append(this.root);
  }

  /** Puts back the saved zoom and scroll (after the frame is in the page, so it can scroll). */
  restore(saved: GraphViewState | undefined): void {
    if (saved) {
      this.zoom = clampZoom(saved.zoom);
      this.apply();
      this.scroller.scrollLeft = saved.left;
      this.scroller.scrollTop = saved.top;
    }
    this.restored = true;
    this.drawLens();
  }

  setZoom(z: number, at?: { x: number; y: number }): void {
    const s = this.scroller;
    // Keep the point under `at` (viewport pixels; default the centre) where it is.
    const px = at?.x ?? s.clientWidth / 2,
      py = at?.y ?? s.clientHeight / 2;
    const ux = (s.scrollLeft + px) / this.zoom,
      uy = (s.scrollTop + py) / this.zoom;
    this.zoom = clampZoom(z);
    this.apply();
    s.scrollLeft = ux * this.zoom - px;
    s.scrollTop = uy * this.zoom - py;
    this.save();
  }

  zoomBy(k: number): void {
    this.setZoom(this.zoom * k);
  }

  fit(): void {
    const s = this.scroller;
    const w = s.clientWidth || 600,
      hgt = s.clientHeight || 400;
    this.zoom = clampZoom(Math.min(w / this.layout.width, hgt / this.layout.height, MAX_ZOOM));
    this.apply();
    s.scrollLeft = 0;
    s.scrollTop = 0;
    this.save();
  }

  /** Scrolls so the box (layout units) is in the middle of the view. */
  centerOn(b: Box): void {
    const s = this.scroller;
    s.scrollLeft = (b.x - this.layout.x + b.w / 2) * this.zoom - s.clientWidth / 2;
    s.scrollTop = (b.y - this.layout.y + b.h / 2) * this.zoom - s.clientHeight / 2;
    this.save();
  }

  /** Scrolls just enough to bring the box into view. */
  reveal(b: Box): void {
    const s = this.scroller;
    const x0 = (b.x - this.layout.x) * this.zoom,
      y0 = (b.y - this.layout.y) * this.zoom;
    const x1 = x0 + b.w * this.zoom,
      y1 = y0 + b.h * this.zoom;
    if (x0 < s.scrollLeft) s.scrollLeft = x0 - 8;
    else if (x1 > s.scrollLeft + s.clientWidth) s.scrollLeft = x1 - s.clientWidth + 8;
    if (y0 < s.scrollTop) s.scrollTop = y0 - 8;
    else if (y1 > s.scrollTop + s.clientHeight) s.scrollTop = y1 - s.clientHeight + 8;
  }

  private apply(): void {
    this.root.setAttribute('width', (this.layout.width * this.zoom).toFixed(1));
    this.root.setAttribute('height', (this.layout.height * this.zoom).toFixed(1));
    this.root.dataset.zoom = String(this.zoom);
    this.drawLens();
  }

  private drawLens(): void {
    const s = this.scroller;
    const l = this.layout;
    if (!s.clientWidth) return;
    const w = Math.min(l.width, s.clientWidth / this.zoom),
      hgt = Math.min(l.height, s.clientHeight / this.zoom);
    this.lens.setAttribute('x', (l.x + s.scrollLeft / this.zoom).toFixed(1));
    this.lens.setAttribute('y', (l.y + s.scrollTop / this.zoom).toFixed(1));
    this.lens.setAttribute('width', w.toFixed(1));
    this.lens.setAttribute('height', hgt.toFixed(1));
    // The overview only when part of the graph is out of view.
    this.mini.classList.toggle('hidden', w >= l.width - 1 && hgt >= l.height - 1);
  }

  private save(): void {
    this.drawLens();
    if (!this.restored) return;
    saveView(this.name, { zoom: this.zoom, left: this.scroller.scrollLeft, top: this.scroller.scrollTop });
  }

  private listen(): void {
    const s = this.scroller;
    let pending = false;
    s.addEventListener('scroll', () => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => {
        pending = false;
        this.save();
      });
    });
    // Ctrl+wheel (and a trackpad's pinch) zooms about the pointer; a plain wheel scrolls.
    s.addEventListener(
      'wheel',
      (ev) => {
        if (!ev.ctrlKey && !ev.metaKey) return;
        ev.preventDefault();
        const r = s.getBoundingClientRect();
        this.setZoom(this.zoom * (ev.deltaY > 0 ? 1 / 1.15 : 1.15), { x: ev.clientX - r.left, y: ev.clientY - r.top });
      },
      { passive: false },
    );
    let drag: { x: number; y: number } | undefined;
    s.addEventListener('pointerdown', (ev) => {
      if ((ev.target as Element).closest('g.node') || ev.button !== 0) return;
      drag = { x: ev.clientX, y: ev.clientY };
      s.setPointerCapture(ev.pointerId);
    });
    s.addEventListener('pointermove', (ev) => {
      if (!drag) return;
      s.scrollLeft += drag.x - ev.clientX;
      s.scrollTop += drag.y - ev.clientY;
      drag = { x: ev.clientX, y: ev.clientY };
    });
    s.addEventListener('pointerup', () => {
      drag = undefined;
    });
    // The overview: a click or drag centres the view there.
    const go = (ev: PointerEvent) => {
      const r = this.mini.getBoundingClientRect();
      const l = this.layout;
      const x = l.x + ((ev.clientX - r.left) / r.width) * l.width,
        y = l.y + ((ev.clientY - r.top) / r.height) * l.height;
      this.centerOn({ x, y, w: 0, h: 0 });
    };
    let miniDrag = false;
    this.mini.addEventListener('pointerdown', (ev) => {
      miniDrag = true;
      this.mini.setPointerCapture(ev.pointerId);
      go(ev);
    });
    this.mini.addEventListener('pointermove', (ev) => miniDrag && go(ev));
    this.mini.addEventListener('pointerup', () => {
      miniDrag = false;
    });
  }
}

function clampZoom(z: number): number {
  return Number.isFinite(z) ? Math.max(MIN_ZOOM, Math.min(MAX_ZOOM, z)) : 1;
}
