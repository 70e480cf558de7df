/**
 * The results panel's browser side: renders the last RunResult the host sent, in two tabs
 * (results, network graph). It never computes probabilities; it draws what the run produced.
 * A run with errors and no results keeps the last good render, with a banner saying so.
 */
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-textfield/index.js';
import './webview.css';
import type { ResultEntry } from '../../server/src/protocol/runResult.js';
import { h } from './dom.js';
import { post, savedState, saveState } from './host.js';
import {
  isHostMessage,
  RUN_RESULT_VERSION,
  type HostMessage,
  type PanelState,
  type PanelView,
  type ShowMessage,
} from '../../server/src/protocol/webviewMessages.js';
import { renderEntry } from './views/index.js';
import { initEvidence, receiveMarginals } from './evidence.js';
import { receiveDecisions } from './decisions.js';
import { receiveDiagnosis } from './diagnosis.js';
import { setPrecision } from './format.js';
import { initViews, setModel } from './viewState.js';

let state: PanelState = restored();
let errors = 0;
/** Set when the newest run failed or had errors: `state.last` is then the previous good run. */
let staleRun: ShowMessage | undefined;

const app = document.getElementById('app')!;
initEvidence(state.evidence, (evidence) => {
  state = { ...state, evidence };
  saveState(state);
});
initViews(state.graphViews, (graphViews) => {
  state = { ...state, graphViews };
  saveState(state);
});

/** The state saved before a reload; a result saved by another schema version is dropped, not misread. */
function restored(): PanelState {
  const s = savedState() ?? { uri: '', view: 'results' };
  return s.last && s.last.version !== RUN_RESULT_VERSION ? { uri: s.uri, view: s.view } : s;
}

window.addEventListener('message', (ev: MessageEvent<unknown>) => {
  if (!isHostMessage(ev.data)) return;
  if (ev.data.version !== RUN_RESULT_VERSION) return showVersionMismatch(ev.data.version);
  receive(ev.data);
});

function receive(m: HostMessage): void {
  if (m.type === 'marginals') return receiveMarginals(m);
  if (m.type === 'decisions') return receiveDecisions(m);
  if (m.type === 'diagnosis') return receiveDiagnosis(m);
  if (m.type !== 'problems') state = { ...state, uri: m.uri };
  if (m.type === 'show') {
    const good =
      m.state === 'done' && (m.result.results.length > 0 || !m.result.diagnostics.some((d) => d.severity === 'error'));
    // The last good render is kept only for the same model (a renamed file starts afresh).
    if (good || state.last?.result.file !== m.result.file) {
      state = { ...state, last: m };
      staleRun = undefined;
    } else staleRun = m;
  } else if (m.type === 'problems') {
    errors = m.errors;
  } else {
    state = { ...state, view: m.view };
    if (m.network) requestAnimationFrame(() => document.getElementById(`net-${m.network}`)?.scrollIntoView());
  }
  saveState(state);
  render();
}

function showVersionMismatch(version: number): void {
  app.replaceChildren(
    h(
      'p',
      { class: 'warning' },
      `This panel reads results of version ${RUN_RESULT_VERSION}, the server sent version ${version}: reload the window.`,
    ),
  );
}

function render(): void {
  const last = state.last;
  setPrecision(last?.precision);
  setModel(state.uri);
  if (!last) {
    app.replaceChildren(h('p', {}, 'The model has not been run yet: save it, or run "Bayes: Run Model".'));
    return;
  }
  const entries = last.result.results;
  // Results: every entry in file order; Network graph: only the graphs (networks, learned structures).
  const networks = entries.filter((e) => e.kind === 'network' || e.kind === 'structure');
  const tabs = tabBar(networks.length > 0);
  const shown = state.view === 'graph' && networks.length ? networks : entries;
  const body = shown.length
    ? shown.map(entryCard)
    : [h('p', {}, 'No query, learn or expect statement produced a result.')];
  app.replaceChildren(
    h(
      'header',
      { class: 'title' },
      h('h1', {}, `Results of ${last.model}`),
      h('span', { class: 'meta' }, runLine(last)),
    ),
    ...banner(last),
    tabs,
    h('main', { id: 'content', role: 'tabpanel' }, ...body),
    ...diagnosticsList(last),
  );
}

function runLine(m: ShowMessage): string {
  const time = m.result.elapsedMs !== undefined ? ` in ${m.result.elapsedMs.toFixed(0)} ms` : '';
  return `run ${m.state === 'done' ? 'finished' : 'failed'}${time}${m.cached ? ' (cached)' : ''}`;
}

function banner(last: ShowMessage): HTMLElement[] {
  const n = staleRun ? staleRun.result.diagnostics.filter((d) => d.severity === 'error').length : errors;
  // The run's own errors (a failed `expect`) are in the editor too: those results are current.
  const own = last.result.diagnostics.filter((d) => d.severity === 'error').length;
  if (!staleRun && errors <= own) return [];
  const why = staleRun?.state === 'failed' ? 'The last run failed' : `The file has ${n} error${n === 1 ? '' : 's'}`;
  return [
    h(
      'div',
      { class: 'banner', role: 'status' },
      `${why}: showing the last good results (${last.model}, ${runLine(last)}).`,
    ),
  ];
}

function tabBar(hasGraph: boolean): HTMLElement {
  const select = (view: PanelView) => {
    state = { ...state, view };
    saveState(state);
    render();
    document.querySelector<HTMLElement>(`[role=tab][data-view=${view}]`)?.focus();
  };
  const tab = (view: PanelView, label: string) => {
    const selected = state.view === view || (!hasGraph && view === 'results');
    const b = h(
      'button',
      {
        role: 'tab',
        class: 'tab',
        'data-view': view,
        'aria-controls': 'content',
        'aria-selected': String(selected),
        tabindex: selected ? 0 : -1,
        disabled: view === 'graph' && !hasGraph,
      },
      label,
    );
    b.addEventListener('click', () => select(view));
    return b;
  };
  const bar = h(
    'nav',
    { role: 'tablist', 'aria-label': 'Views' },
    tab('results', 'Results'),
    tab('graph', 'Network graph'),
  );
  // Arrow keys move between tabs (WAI-ARIA tabs pattern).
  bar.addEventListener('keydown', (ev) => {
    if (hasGraph && (ev.key === 'ArrowLeft' || ev.key === 'ArrowRight'))
      select(state.view === 'graph' ? 'results' : 'graph');
  });
  return bar;
}

function entryCard(e: ResultEntry): HTMLElement {
  const title = e.kind === 'network' ? `Network ${e.network}` : e.source.trim().split('\n')[0]!;
  const card = h(
    'section',
    {
      class: `card kind-${e.kind}`,
      'data-kind': e.kind,
      'aria-label': title,
      ...(e.kind === 'network' ? { id: `net-${e.network}` } : {}),
    },
    h('header', {}, h('h2', {}, title), h('span', { class: 'line' }, `line ${e.range.start.line + 1}`)),
    h('p', { class: 'headline' }, e.headline),
  );
  try {
    card.append(...renderEntry(e));
  } catch (err) {
    // One malformed entry must not blank the whole panel.
    card.append(
      h('p', { class: 'warning' }, `Cannot draw this result: ${err instanceof Error ? err.message : String(err)}`),
    );
  }
  return card;
}

function diagnosticsList(m: ShowMessage): HTMLElement[] {
  const ds = m.result.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning');
  if (!ds.length) return [];
  return [
    h(
      'section',
      { class: 'card problems', 'aria-label': 'Problems' },
      h('h2', {}, 'Problems'),
      h('ul', {}, ...ds.map((d) => h('li', { class: d.severity }, `line ${d.range.start.line + 1}: ${d.message}`))),
    ),
  ];
}

render();
post({ type: 'ready' });
