/** Between names (what people and files write) and indices (what the engine computes with). */
import { variableIndexMap, type BayesianNetwork } from '../engine/network.js';
import type { Evidence } from '../engine/inference/junctionTree.js';
import type { NamedEvidence } from '../protocol/runResult.js';
import { EngineError } from '../engine/engineError.js';
import { virtualEvidenceNetwork, type UncertainFindings } from '../engine/inference/softEvidence.js';
import { setOwn } from '../engine/records.js';

/** Resolves `VAR=STATE` pairs; the error names the unknown variable or state and what exists. */
export function resolveEvidence(
  net: BayesianNetwork,
  pairs: NamedEvidence,
): { evidence: Evidence } | { error: string } {
  const index = variableIndexMap(net);
  const evidence = new Map<number, number>();
  for (const [name, state] of Object.entries(pairs)) {
    const v = index.get(name);
    if (v === undefined) return { error: `'${name}' is not a variable of network '${net.name}'` };
    const s = net.variables[v]!.states.indexOf(state);
    if (s < 0)
      return { error: `'${state}' is not a state of '${name}' (states: ${net.variables[v]!.states.join(', ')})` };
    evidence.set(v, s);
  }
  return { evidence };
}

/** Virtual (`likelihood`) and soft findings by name → by variable index; the error names an unknown variable. */
export function indexedFindings(
  net: { name: string; variables: readonly { name: string }[] },
  likelihood: Readonly<Record<string, number[]>>,
  soft: Readonly<Record<string, number[]>>,
): UncertainFindings | { error: string } {
  // Discrete and hybrid networks alike: only the names are read.
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const maps = { likelihoods: new Map<number, number[]>(), soft: new Map<number, number[]>() };
  for (const [key, pairs] of [
    ['likelihoods', likelihood],
    ['soft', soft],
  ] as const) {
    for (const [name, values] of Object.entries(pairs)) {
      const v = index.get(name);
      if (v === undefined) return { error: `'${name}' is not a variable of network '${net.name}'` };
      maps[key].set(v, values);
    }
  }
  return maps;
}

/**
 * Virtual (`likelihood`) and soft findings by name, each a vector in the variable's state order,
 * as virtual-evidence nodes on top of `evidence` (engine/inference/softEvidence.ts).
 */
export function resolveFindings(
  net: BayesianNetwork,
  evidence: Evidence,
  likelihood: Record<string, number[]>,
  soft: Record<string, number[]>,
): { net: BayesianNetwork; evidence: Evidence } | { error: string } {
  if (Object.keys(likelihood).length === 0 && Object.keys(soft).length === 0) return { net, evidence };
  const findings = indexedFindings(net, likelihood, soft);
  if ('error' in findings) return findings;
  try {
    const virtual = virtualEvidenceNetwork(net, evidence, findings);
    return { net: virtual.net, evidence: virtual.evidence };
  } catch (e) {
    if (e instanceof EngineError) return { error: e.message };
    throw e;
  }
}

/** One distribution per variable as variable → state → number. */
export function namedTables(net: BayesianNetwork, tables: ArrayLike<number>[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  net.variables.forEach((v, i) => {
    setOwn(out, v.name, Object.fromEntries(v.states.map((s, j) => [s, tables[i]![j]!])));
  });
  return out;
}
