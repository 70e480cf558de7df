/**
 * Where the reader left each graph — zoom, scroll, the focused node, the node whose details are
 * open — kept in the panel state (vscode.setState), keyed by model URI and network, so a re-run
 * (every pause in typing with auto-save) or a window reload puts the view back as it was.
 */
import type { GraphViewState } from '../../server/src/protocol/webviewMessages.js';

export type { GraphViewState };

let views: Record<string, GraphViewState> = {};
let model = '';
let persist: (views: Record<string, GraphViewState>) => void = () => undefined;

export function initViews(
  saved: Record<string, GraphViewState> | undefined,
  save: (v: Record<string, GraphViewState>) => void,
): void {
  views = { ...(saved ?? {}) };
  persist = save;
}

/** The model whose results are drawn (its URI keys the views). */
export function setModel(uri: string): void {
  model = uri;
}

function key(graph: string): string {
  return `${model}#${graph}`;
}

export function viewOf(graph: string): GraphViewState | undefined {
  return Object.prototype.hasOwnProperty.call(views, key(graph)) ? views[key(graph)] : undefined;
}

export function saveView(graph: string, patch: Partial<GraphViewState>): void {
  const k = key(graph);
  const old = Object.prototype.hasOwnProperty.call(views, k) ? views[k] : { zoom: 1, left: 0, top: 0 };
  views = { ...views, [k]: { ...old, ...patch } };
  persist(views);
}
