/**
 * The messages between the extension host (client/src/resultsPanel.ts) and the results webview.
 * Every host message carries RUN_RESULT_VERSION: a webview built for another schema says so
 * instead of misreading the result.
 */
import type { Range } from '../language/diagnostics.js';
import type { RunResult } from './runResult.js';
import { RUN_RESULT_VERSION } from './runResult.js';

export { RUN_RESULT_VERSION };

/** Which part of the panel to bring forward. */
export type PanelView = 'results' | 'graph';

/** A finished run of the model (the `bayes/runResult` notification, or `bayes/lastResult`). */
export interface ShowMessage {
  type: 'show';
  version: typeof RUN_RESULT_VERSION;
  /** The model document's URI (kept in the panel state, so a reload knows whose panel it is). */
  uri: string;
  /** The model's file name, for the title. */
  model: string;
  state: 'done' | 'failed';
  cached: boolean;
  result: RunResult;
}

/** The model's current error count (from the editor's diagnostics), so a stale render says so. */
export interface ProblemsMessage {
  type: 'problems';
  version: typeof RUN_RESULT_VERSION;
  errors: number;
}

export interface FocusMessage {
  type: 'focus';
  version: typeof RUN_RESULT_VERSION;
  uri: string;
  view: PanelView;
  network?: string;
}

export type HostMessage = ShowMessage | ProblemsMessage | FocusMessage;

/** Clicking a network node: the host reveals the variable's `P(…)` table. */
export interface RevealMessage {
  type: 'reveal';
  network: string;
  variable: string;
  range?: Range;
}
/** Save a chart: `data` is SVG text or a base64 PNG. */
export interface SaveMessage {
  type: 'save';
  name: string;
  format: 'svg' | 'png';
  data: string;
}
export interface CopyMessage {
  type: 'copy';
  text: string;
}
export interface ReadyMessage {
  type: 'ready';
}

export type WebviewMessage = RevealMessage | SaveMessage | CopyMessage | ReadyMessage;

/** What the webview keeps with `setState` (restored after a reload by the panel serializer). */
export interface PanelState {
  /** The model document's URI. */
  uri: string;
  view: PanelView;
  last?: ShowMessage;
}

export function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { type?: unknown; version?: unknown };
  return (m.type === 'show' || m.type === 'problems' || m.type === 'focus') && typeof m.version === 'number';
}
