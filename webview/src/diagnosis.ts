/**
 * Diagnosis under the panel's evidence: asked of the host as `diagnosis` requests (the server's
 * `bayes/diagnosis`), the newest answer per network drawn by the network view that listens.
 */
import type { DiagnosisReply } from '../../server/src/protocol/messages.js';
import type { DiagnosisMessage } from '../../server/src/protocol/webviewMessages.js';
import { post } from './host.js';

let nextId = 1;
const latest = new Map<string, number>();
const listeners = new Map<string, (reply: DiagnosisReply) => void>();

export function listenDiagnosis(network: string, listener: (reply: DiagnosisReply) => void): void {
  listeners.set(network, listener);
}

export function requestDiagnosis(network: string, target: string, evidence: Record<string, string>): void {
  const id = nextId++;
  latest.set(network, id);
  post({ type: 'diagnosis', id, network, target, evidence });
}

export function receiveDiagnosis(m: DiagnosisMessage): void {
  if (latest.get(m.network) !== m.id) return; // a newer question is on its way
  listeners.get(m.network)?.(m.reply);
}
