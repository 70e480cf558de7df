/**
 * The messages between the extension host (client/src/resultsPanel.ts) and the results webview.
 * Every host message carries RUN_RESULT_VERSION: a webview built for another schema says so
 * instead of misreading the result.
 */
import type { Range } from '../language/diagnostics.js';
import type { RunResult } from './runResult.js';
import type { DecisionsReply, DiagnosisReply, MarginalsReply } from './messages.js';
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
  /** Significant digits to show (`bayes.precision`); default 4. */
  precision?: number;
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

/** The answer to a webview's MarginalsRequestMessage (the server's `bayes/marginals`). */
export interface MarginalsMessage {
  type: 'marginals';
  version: typeof RUN_RESULT_VERSION;
  id: number;
  network: string;
  reply: MarginalsReply;
}

/** The answer to a webview's DecisionsRequestMessage (the server's `bayes/decisions`). */
export interface DecisionsMessage {
  type: 'decisions';
  version: typeof RUN_RESULT_VERSION;
  id: number;
  network: string;
  reply: DecisionsReply;
}

/** The answer to a webview's DiagnosisRequestMessage (the server's `bayes/diagnosis`). */
export interface DiagnosisMessage {
  type: 'diagnosis';
  version: typeof RUN_RESULT_VERSION;
  id: number;
  network: string;
  reply: DiagnosisReply;
}

export type HostMessage =
  ShowMessage | ProblemsMessage | FocusMessage | MarginalsMessage | DecisionsMessage | DiagnosisMessage;

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

/** Evidence set in the panel, per network: what `bayes/marginals` takes. */
export interface PanelEvidence {
  evidence: Record<string, string>;
  likelihoods: Record<string, number[]>;
  soft: Record<string, number[]>;
}

/** Clicked evidence: the host asks the server for every marginal (answered by a MarginalsMessage). */
export interface MarginalsRequestMessage extends PanelEvidence {
  type: 'marginals';
  id: number;
  network: string;
}
/** "Write evidence as observe lines": the host inserts `lines` at the end of the model (one undoable edit). */
export interface WriteObserveMessage {
  type: 'writeObserve';
  network: string;
  lines: string[];
}

/** An influence diagram's evidence changed: the host asks the server for the expected utilities. */
export interface DecisionsRequestMessage {
  type: 'decisions';
  id: number;
  network: string;
  evidence: Record<string, string>;
}

/** The diagnosis of a target under the panel's evidence (answered by a DiagnosisMessage). */
export interface DiagnosisRequestMessage {
  type: 'diagnosis';
  id: number;
  network: string;
  target: string;
  evidence: Record<string, string>;
}

export type WebviewMessage =
  | DiagnosisRequestMessage
  | RevealMessage
  | SaveMessage
  | CopyMessage
  | ReadyMessage
  | MarginalsRequestMessage
  | DecisionsRequestMessage
  | WriteObserveMessage;

/** What the webview keeps with `setState` (restored after a reload by the panel serializer). */
export interface PanelState {
  /** The model document's URI. */
  uri: string;
  view: PanelView;
  last?: ShowMessage;
  /** Evidence set by clicking, per network name (kept over re-runs and reloads). */
  evidence?: Record<string, PanelEvidence>;
  /** Each graph's view (zoom, scroll, focused node, open details), keyed by model URI and graph name. */
  graphViews?: Record<string, GraphViewState>;
}

/** Where the reader left a graph. */
export interface GraphViewState {
  /** CSS pixels per layout unit (1 = node text at the editor's font size). */
  zoom: number;
  /** The viewport's scroll offsets, in CSS pixels. */
  left: number;
  top: number;
  /** The node with the graph's one tab stop. */
  focused?: string;
  /** The state Space toggles on each node the reader moved the state cursor on. */
  cursor?: Record<string, number>;
  /** The node shown in the detail view. */
  detail?: string;
}

export function isHostMessage(data: unknown): data is HostMessage {
  if (typeof data !== 'object' || data === null) return false;
  const m = data as { type?: unknown; version?: unknown };
  return (
    (m.type === 'show' ||
      m.type === 'problems' ||
      m.type === 'focus' ||
      m.type === 'marginals' ||
      m.type === 'decisions' ||
      m.type === 'diagnosis') &&
    typeof m.version === 'number'
  );
}
