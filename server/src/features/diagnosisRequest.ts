/**
 * `bayes/diagnosis`: for the results panel's chosen target, the unobserved variables ranked by the
 * value of observing them — the mutual information I(T; X | e), the expected reduction of T's
 * entropy, in nats — and the data-conflict measure of the hard evidence (run/panelQueries.ts).
 * Answered in the document's worker (features/marginalsRequest.ts), held to the run's time and
 * memory limits, so a large network's ranking never blocks the server; each pair's elimination
 * is checked against the exact-inference budget before it runs.
 */
import type { DiagnosisParams, DiagnosisReply } from '../protocol/messages.js';
import type { MarginalsService } from './marginalsRequest.js';

export function diagnosisRequest(service: MarginalsService, p: DiagnosisParams): Promise<DiagnosisReply> {
  if (typeof p?.uri !== 'string' || typeof p.network !== 'string' || typeof p.target !== 'string')
    return Promise.resolve({ error: 'bayes/diagnosis wants { uri, network, target, evidence }' });
  return service.ask(p.uri, p.network, {
    kind: 'diagnosis',
    target: p.target,
    evidence: p.evidence ?? {},
  }) as Promise<DiagnosisReply>;
}
