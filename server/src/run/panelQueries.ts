/**
 * The results panel's questions about one compiled network, answered where the network is kept
 * (the document's marginals worker, run/marginalsWorker.ts; in-thread only without worker
 * threads): the marginals under clicked evidence, the diagnosis ranking, and an influence
 * diagram's expected utilities, strategy and value of information. One function per question,
 * each returning the wire's reply (errors as `{ error }`, never a throw for bad evidence).
 */
import type { BayesianNetwork } from '../engine/network.js';
import type { DecisionNode, UtilityNode, InfluenceDiagram } from '../engine/decisions/influenceDiagram.js';
import { expectedUtilities, valueOfInformation } from '../engine/decisions/influenceDiagram.js';
import { underOptimalPolicy } from '../engine/decisions/optimalPolicy.js';
import { informationRanking } from '../engine/inference/valueOfInformation.js';
import { dataConflict } from '../engine/inference/dataConflict.js';
import { DEFAULT_BUDGET } from '../engine/inference/marginals.js';
import { ImpossibleEvidenceError } from '../engine/inference/junctionTree.js';
import { EngineError } from '../engine/engineError.js';
import type { DecisionsReply, DiagnosisReply, MarginalsReply } from '../protocol/messages.js';
import { interactiveMarginals, type EvidenceRequest } from './interactiveMarginals.js';
import { resolveEvidence } from './namedEvidence.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { interactiveHybridMarginals } from './hybridAnswers.js';

export type PanelRequest =
  | ({ kind: 'marginals' } & EvidenceRequest)
  | { kind: 'diagnosis'; target: string; evidence: Record<string, string> }
  /** The diagram's decisions and utilities over the kept network (compileDiagram's, sent by the server). */
  | { kind: 'decisions'; decisions: DecisionNode[]; utilities: UtilityNode[]; evidence: Record<string, string> };

export type PanelReply = MarginalsReply | DiagnosisReply | DecisionsReply;

export function panelAnswer(
  net: BayesianNetwork | HybridNetwork,
  request: PanelRequest,
  memoryBytes?: number,
): PanelReply {
  // A network with continuous variables (the hybrid IR): its marginals by the exact hybrid engine;
  // the diagnosis ranking and influence diagrams are over discrete networks (the panel does not ask).
  if ('cpds' in net)
    return request.kind === 'marginals'
      ? interactiveHybridMarginals(net, request, memoryBytes)
      : { error: `the ${requestWork(request)} are computed for discrete networks only` };
  if (request.kind === 'diagnosis') return diagnosis(net, request.target, request.evidence);
  if (request.kind === 'decisions')
    return decisions(
      { name: net.name, network: net, decisions: request.decisions, utilities: request.utilities },
      request.evidence,
      memoryBytes,
    );
  return interactiveMarginals(net, request, memoryBytes);
}

/** What the request's work is called in the limits' messages. */
export function requestWork(request: PanelRequest): string {
  return request.kind === 'marginals' ? 'marginals' : request.kind === 'diagnosis' ? 'diagnosis' : 'expected utilities';
}

/**
 * The target's ranking by mutual information I(T; X | e) and the conflict of the hard evidence
 * (engine/inference/valueOfInformation.ts, dataConflict.ts), each elimination held to the budget.
 */
export function diagnosis(net: BayesianNetwork, targetName: string, named: Record<string, string>): DiagnosisReply {
  const target = net.variables.findIndex((v) => v.name === targetName);
  if (target < 0) return { error: `'${targetName}' is not a variable of '${net.name}'` };
  const resolved = resolveEvidence(net, named);
  if ('error' in resolved) return resolved;
  const evidence = resolved.evidence;
  const t0 = performance.now();
  return guarded(() => {
    // An observed target has nothing left to learn: only the conflict is computed.
    const r = evidence.has(target)
      ? { entropy: 0, ranking: [] }
      : informationRanking(net, target, evidence, { maxEntries: DEFAULT_BUDGET });
    const conflict = evidence.size >= 2 ? dataConflict(net, evidence).conflict : undefined;
    return {
      network: net.name,
      target: targetName,
      entropy: r.entropy,
      ranking: r.ranking.map((x) => ({ variable: net.variables[x.variable]!.name, nats: x.nats })),
      ...(conflict !== undefined ? { conflict } : {}),
      elapsed: performance.now() - t0,
    };
  });
}

/**
 * The diagram under the panel's evidence: each free decision's EU per alternative (the others
 * optimal, as `query eu`), the MEU, the chance variables' marginals and the utility nodes'
 * expected values under the optimal strategy, and the value of perfect information of each
 * chance variable that could be learnt before the first free decision (as `query voi`).
 */
export function decisions(id: InfluenceDiagram, named: Record<string, string>, memoryBytes?: number): DecisionsReply {
  if (id.decisions.length === 0) return { error: `'${id.name}' has no decision` };
  const resolved = resolveEvidence(id.network, named);
  if ('error' in resolved) return resolved;
  const evidence = resolved.evidence;
  const t0 = performance.now();
  return guarded(() => {
    const net = id.network;
    const view = underOptimalPolicy(id, evidence, memoryBytes ? { memoryBytes } : {});
    const free = id.decisions.filter((d) => !evidence.has(d.variable));
    const choices = free.map((dec) => {
      const v = net.variables[dec.variable]!;
      const eu = [...expectedUtilities(id, dec.variable, evidence)];
      const top = Math.max(...eu);
      // Ties within rounding are all best (as `query eu` reports them).
      const best = v.states.filter((_, i) => Math.abs(eu[i]! - top) <= 1e-9 * Math.max(1, Math.abs(top)));
      return { name: v.name, alternatives: [...v.states], expectedUtility: eu, best };
    });
    return {
      network: id.name,
      meu: view.meu,
      decisions: choices,
      marginals: Object.fromEntries(net.variables.map((v, i) => [v.name, Array.from(view.marginals[i]!)])),
      utilities: id.utilities.map((u, j) => ({ name: u.name, expected: view.utilities[j]! })),
      ...(free.length ? { voi: informationValues(id, free[0]!, evidence) } : {}),
      elapsed: performance.now() - t0,
    };
  });
}

/** VOI of each unobserved chance variable at `decision`, largest first (those it cannot know by then left out). */
function informationValues(
  id: InfluenceDiagram,
  decision: DecisionNode,
  evidence: ReadonlyMap<number, number>,
): NonNullable<Extract<DecisionsReply, { meu: number }>['voi']> {
  const net = id.network;
  const decisionVars = new Set(id.decisions.map((d) => d.variable));
  const ranking: Array<{ variable: string; value: number }> = [];
  for (let x = 0; x < net.variables.length; x++) {
    if (decisionVars.has(x) || evidence.has(x) || decision.information.includes(x)) continue;
    try {
      ranking.push({
        variable: net.variables[x]!.name,
        value: valueOfInformation(id, x, decision.variable, evidence).voi,
      });
    } catch (e) {
      if (e instanceof EngineError && /cannot be known before/.test(e.message)) continue;
      throw e;
    }
  }
  ranking.sort((a, b) => b.value - a.value || (a.variable < b.variable ? -1 : 1));
  return { decision: net.variables[decision.variable]!.name, ranking };
}

function guarded<T>(work: () => T): T | { error: string } {
  try {
    return work();
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError) return { error: 'the evidence is impossible (P(e) = 0)' };
    if (e instanceof EngineError) return { error: e.message };
    throw e;
  }
}
