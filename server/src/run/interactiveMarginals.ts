/**
 * The results panel's clicked evidence: every marginal of one network under hard, virtual and
 * soft findings by name, as `bayes marginals` computes them (same resolution, same engine). The
 * junction tree is cached with the network object (engine/inference/marginals.ts exactPlan), so a
 * caller that keeps the network answers each click with one propagation, virtual and soft findings
 * entered in that tree as likelihoods.
 */
import { chooseExact, exactPlan, posteriorMarginals } from '../engine/inference/marginals.js';
import { ImpossibleEvidenceError, type Evidence } from '../engine/inference/junctionTree.js';
import { checkedFindings, fitSoftFindings, type UncertainFindings } from '../engine/inference/softEvidence.js';
import { EngineError } from '../engine/engineError.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { MarginalsParams, MarginalsReply } from '../protocol/messages.js';
import { indexedFindings, resolveEvidence, resolveFindings } from './namedEvidence.js';

export type EvidenceRequest = Pick<MarginalsParams, 'evidence' | 'likelihoods' | 'soft'>;

/** `memoryBytes`: the run's memory setting (bayes.run.memoryMb), exact inference's budget as in a run. */
export function interactiveMarginals(
  net: BayesianNetwork,
  request: EvidenceRequest,
  memoryBytes?: number,
): MarginalsReply {
  const memory = memoryBytes === undefined ? {} : { memoryBytes };
  const started = performance.now();
  const resolved = resolveEvidence(net, request.evidence ?? {});
  if ('error' in resolved) return { error: resolved.error };
  for (const [name, values] of Object.entries({ ...request.likelihoods, ...request.soft })) {
    if (!Array.isArray(values) || values.some((x) => typeof x !== 'number' || !Number.isFinite(x) || x < 0)) {
      return { error: `the evidence on '${name}' must be non-negative numbers, one per state` };
    }
  }
  const findings = indexedFindings(net, request.likelihoods ?? {}, request.soft ?? {});
  if ('error' in findings) return { error: findings.error };
  const table = (rows: Float64Array[]) =>
    Object.fromEntries(net.variables.map((v, i) => [v.name, Array.from(rows[i]!)]));
  // Each click is another evidence set on the same network: the full tree, compiled once, answers
  // them all by one propagation (soft findings: one per sweep of their fitting), where a tree
  // reduced by one click's evidence would be compiled anew.
  const uncertain = (findings.likelihoods?.size ?? 0) + (findings.soft?.size ?? 0) > 0;
  if (uncertain && chooseExact(exactPlan(net), memory).exact) {
    const answer = findingsOnKeptTree(net, resolved.evidence, findings);
    if ('error' in answer) return answer;
    return {
      network: net.name,
      method: 'exact',
      marginals: table(answer.marginals),
      elapsed: performance.now() - started,
    };
  }
  // Too large for exact inference: the samplers take virtual and soft findings as λ nodes.
  const withFindings = resolveFindings(net, resolved.evidence, request.likelihoods ?? {}, request.soft ?? {});
  if ('error' in withFindings) return { error: withFindings.error };
  const answer = posteriorMarginals(withFindings.net, withFindings.evidence, { keepTree: true, ...memory });
  if (!answer.ok) return { error: answer.message };
  return {
    network: net.name,
    method: answer.method,
    marginals: table(answer.marginals),
    ...(answer.stderr ? { stderr: table(answer.stderr), samples: answer.samples, seed: answer.seed } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    elapsed: performance.now() - started,
  };
}

/** Every marginal given hard evidence and virtual and soft findings, on the network's own kept tree. */
function findingsOnKeptTree(
  net: BayesianNetwork,
  evidence: Evidence,
  findings: UncertainFindings,
): { marginals: Float64Array[] } | { error: string } {
  try {
    const { likelihoods, targets } = checkedFindings(net, evidence, findings);
    if (targets.size > 0) fitSoftFindings(net, evidence, likelihoods, targets);
    const jt = exactPlan(net).tree();
    jt.setEvidence(evidence, likelihoods);
    jt.propagate();
    if (jt.impossible) return { error: new ImpossibleEvidenceError().message };
    return { marginals: net.variables.map((_, v) => jt.marginal(v)) };
  } catch (e) {
    if (e instanceof EngineError) return { error: e.message };
    throw e;
  }
}
