/**
 * Evidence set by clicking in the results panel, per network: kept in the panel state (so it
 * survives re-runs and reloads), sent to the host as `marginals` requests, and answered by the
 * server's `bayes/marginals` (a compiled network kept warm in a worker). Only the newest answer
 * for a network is drawn.
 */
import type { MarginalsReply } from '../../server/src/protocol/messages.js';
import type { MarginalsMessage, PanelEvidence } from '../../server/src/protocol/webviewMessages.js';
import { post } from './host.js';
import { ownValue } from '../../server/src/protocol/records.js';

type Listener = (reply: MarginalsReply, asked: PanelEvidence) => void;

let store: Record<string, PanelEvidence> = {};
let persist: (store: Record<string, PanelEvidence>) => void = () => undefined;
let nextId = 1;
const pending = new Map<number, { network: string; asked: PanelEvidence }>();
const latest = new Map<string, number>();
const listeners = new Map<string, Listener>();
/** The last answer per network and the evidence it answered (a re-render reuses it without asking again). */
const answered = new Map<string, { key: string; reply: MarginalsReply; run: unknown }>();

export function initEvidence(
  saved: Record<string, PanelEvidence> | undefined,
  save: (s: Record<string, PanelEvidence>) => void,
): void {
  store = { ...(saved ?? {}) };
  persist = save;
}

export function emptyEvidence(): PanelEvidence {
  return { evidence: {}, likelihoods: {}, soft: {} };
}

export function evidenceKey(e: PanelEvidence): string {
  const sorted = (o: Record<string, unknown>) =>
    Object.keys(o)
      .sort()
      .map((k) => [k, o[k]]);
  return JSON.stringify([sorted(e.evidence), sorted(e.likelihoods), sorted(e.soft)]);
}

/** The panel's evidence for a network, or undefined when it shows the run's own. */
export function panelEvidence(network: string): PanelEvidence | undefined {
  return ownValue(store, network);
}

export function setPanelEvidence(network: string, e: PanelEvidence | undefined): void {
  if (e) store = { ...store, [network]: e };
  else {
    const { [network]: _, ...rest } = store;
    store = rest;
  }
  persist(store);
}

/** Who draws a network's answers (the network view drawn last). */
export function listen(network: string, listener: Listener): void {
  listeners.set(network, listener);
}

export function cachedAnswer(network: string, e: PanelEvidence, run: unknown): MarginalsReply | undefined {
  const a = answered.get(network);
  return a && a.key === evidenceKey(e) && a.run === run ? a.reply : undefined;
}

export function requestMarginals(network: string, e: PanelEvidence, run: unknown): void {
  const id = nextId++;
  pending.set(id, { network, asked: e });
  latest.set(network, id);
  answered.delete(network);
  runOf.set(id, run);
  post({ type: 'marginals', id, network, ...e });
}
const runOf = new Map<number, unknown>();

export function receiveMarginals(m: MarginalsMessage): void {
  const asked = pending.get(m.id);
  pending.delete(m.id);
  const run = runOf.get(m.id);
  runOf.delete(m.id);
  if (!asked || latest.get(m.network) !== m.id) return; // a newer click is on its way
  answered.set(m.network, { key: evidenceKey(asked.asked), reply: m.reply, run });
  listeners.get(m.network)?.(m.reply, asked.asked);
}
