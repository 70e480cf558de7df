/**
 * The results panel's clicked evidence: every marginal of one network under hard, virtual and
 * soft findings by name, as `bayes marginals` computes them (same resolution, same engine). The
 * junction tree is cached with the network object (engine/inference/marginals.ts exactPlan), so a
 * caller that keeps the network answers each click with one propagation.
 */
import { posteriorMarginals } from '../engine/inference/marginals.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { MarginalsParams, MarginalsReply } from '../protocol/messages.js';
import { resolveEvidence, resolveFindings } from './namedEvidence.js';

export type EvidenceRequest = Pick<MarginalsParams, 'evidence' | 'likelihoods' | 'soft'>;

export function interactiveMarginals(net: BayesianNetwork, request: EvidenceRequest): MarginalsReply {
  const started = performance.now();
  const resolved = resolveEvidence(net, request.evidence ?? {});
  if ('error' in resolved) return { error: resolved.error };
  for (const [name, values] of Object.entries({ ...request.likelihoods, ...request.soft })) {
    if (!Array.isArray(values) || values.some((x) => typeof x !== 'number' || !Number.isFinite(x) || x < 0)) {
      return { error: `the evidence on '${name}' must be non-negative numbers, one per state` };
    }
  }
  const withFindings = resolveFindings(net, resolved.evidence, request.likelihoods ?? {}, request.soft ?? {});
  if ('error' in withFindings) return { error: withFindings.error };
  // Each click is another evidence set on the same network: the full tree, compiled once, answers
  // them all by one propagation, where a tree reduced by one click's evidence would be compiled anew.
  // Not with virtual or soft findings: resolveFindings then returns a new network (λ nodes added)
  // each click, whose full tree is compiled for that click alone.
  const answer = posteriorMarginals(withFindings.net, withFindings.evidence, { keepTree: true });
  if (!answer.ok) return { error: answer.message };
  const table = (rows: Float64Array[]) =>
    Object.fromEntries(net.variables.map((v, i) => [v.name, Array.from(rows[i]!)]));
  return {
    network: net.name,
    method: answer.method,
    marginals: table(answer.marginals),
    ...(answer.stderr ? { stderr: table(answer.stderr), samples: answer.samples, seed: answer.seed } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    elapsed: performance.now() - started,
  };
}
