/**
 * `bayes/diagnosis`: for the results panel's chosen target, the unobserved variables ranked by the
 * value of observing them — the mutual information I(T; X | e), the expected reduction of T's
 * entropy, in nats (engine/inference/valueOfInformation.ts) — and the data-conflict measure of the
 * hard evidence (engine/inference/dataConflict.ts). Each pair's elimination is checked against
 * the exact-inference budget before it runs.
 */
import type { DiagnosisParams, DiagnosisReply } from '../protocol/messages.js';
import { informationRanking } from '../engine/inference/valueOfInformation.js';
import { dataConflict } from '../engine/inference/dataConflict.js';
import { DEFAULT_BUDGET } from '../engine/inference/marginals.js';
import { EngineError } from '../engine/engineError.js';
import { ImpossibleEvidenceError } from '../engine/inference/junctionTree.js';
import { networkNamed } from './networkRequests.js';
import type { FeatureHost } from './featureHost.js';

export async function diagnosisRequest(host: FeatureHost, p: DiagnosisParams): Promise<DiagnosisReply> {
  if (typeof p?.uri !== 'string' || typeof p.network !== 'string' || typeof p.target !== 'string')
    return { error: 'bayes/diagnosis wants { uri, network, target, evidence }' };
  const d = host.parse(p.uri);
  if (!d) return { error: 'the document is not open' };
  const compiled = await host.withFiles(p.uri, (env) => networkNamed(d.parse.ast, env, p.network));
  if ('error' in compiled) return compiled;
  const net = compiled.network;
  const index = (name: string) => net.variables.findIndex((v) => v.name === name);
  const target = index(p.target);
  if (target < 0) return { error: `'${p.target}' is not a variable of '${p.network}'` };
  const evidence = new Map<number, number>();
  for (const [name, state] of Object.entries(p.evidence ?? {})) {
    const v = index(name);
    const s = v < 0 ? -1 : net.variables[v]!.states.indexOf(state);
    if (s < 0) return { error: `'${name} = ${state}' is not a state of '${p.network}'` };
    evidence.set(v, s);
  }
  const t0 = performance.now();
  try {
    // An observed target has nothing left to learn: only the conflict is computed.
    const r = evidence.has(target)
      ? { entropy: 0, ranking: [] }
      : informationRanking(net, target, evidence, { maxEntries: DEFAULT_BUDGET });
    const conflict = evidence.size >= 2 ? dataConflict(net, evidence).conflict : undefined;
    return {
      network: p.network,
      target: p.target,
      entropy: r.entropy,
      ranking: r.ranking.map((x) => ({ variable: net.variables[x.variable]!.name, nats: x.nats })),
      ...(conflict !== undefined ? { conflict } : {}),
      elapsed: performance.now() - t0,
    };
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError) return { error: 'the evidence is impossible (P(e) = 0)' };
    if (e instanceof EngineError) return { error: e.message };
    throw e;
  }
}
