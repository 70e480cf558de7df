/** The VS Code webview API (stubbed by the browser tests' harness page). */
import type { PanelState, WebviewMessage } from '../../server/src/protocol/webviewMessages.js';

interface VsCodeApi {
  postMessage(message: unknown): void;
  getState(): unknown;
  setState(state: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const api = acquireVsCodeApi();

export function post(message: WebviewMessage): void {
  api.postMessage(message);
}

export function savedState(): PanelState | undefined {
  const s = api.getState() as PanelState | undefined;
  return s && typeof s.uri === 'string' ? s : undefined;
}

export function saveState(state: PanelState): void {
  api.setState(state);
}
