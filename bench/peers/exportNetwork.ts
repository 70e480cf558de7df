/** The network as plain JSON for the peer processes (pomegranate, bayesjs). */
import { topologicalOrder, type BayesianNetwork } from '../../server/src/engine/network.js';

export interface ExportedNetwork {
  name: string;
  variables: { name: string; states: string[] }[];
  /** Parents first. */
  order: number[];
  cpts: { parents: number[]; table: number[] }[];
  evidence_sets: Record<string, string>[];
}

export function exportNetwork(net: BayesianNetwork, evidenceSets: Record<string, string>[]): ExportedNetwork {
  const topo = topologicalOrder(net);
  if (!('order' in topo)) throw new Error(`${net.name} has a cycle`);
  return {
    name: net.name,
    variables: net.variables,
    order: topo.order,
    cpts: net.cpts.map((c) => ({ parents: c.parents, table: Array.from(c.table) })),
    evidence_sets: evidenceSets,
  };
}
