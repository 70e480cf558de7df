/** Between names (what people and files write) and indices (what the engine computes with). */
import { variableIndexMap, type BayesianNetwork } from '../engine/network.js';
import type { Evidence } from '../engine/inference/junctionTree.js';
import type { NamedEvidence } from '../protocol/runResult.js';

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

/** One distribution per variable as variable → state → number. */
export function namedTables(net: BayesianNetwork, tables: ArrayLike<number>[]): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  net.variables.forEach((v, i) => {
    out[v.name] = Object.fromEntries(v.states.map((s, j) => [s, tables[i]![j]!]));
  });
  return out;
}
