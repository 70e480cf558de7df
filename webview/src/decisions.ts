/**
 * An influence diagram's expected utilities under the panel's evidence: asked of the host as
 * `decisions` requests (the server's `bayes/decisions`), the newest answer per network drawn by
 * the network view that listens for it.
 */
import type { DecisionsReply } from '../../server/src/protocol/messages.js';
import type { DecisionsMessage } from '../../server/src/protocol/webviewMessages.js';
import { post } from './host.js';

let nextId = 1;
const latest = new Map<string, number>();
const listeners = new Map<string, (reply: DecisionsReply) => void>();

export function listenDecisions(network: string, listener: (reply: DecisionsReply) => void): void {
  listeners.set(network, listener);
}

export function requestDecisions(network: string, evidence: Record<string, string>): void {
  const id = nextId++;
  latest.set(network, id);
  post({ type: 'decisions', id, network, evidence });
}

export function receiveDecisions(m: DecisionsMessage): void {
  if (latest.get(m.network) !== m.id) return; // a newer question is on its way
  listeners.get(m.network)?.(m.reply);
}
