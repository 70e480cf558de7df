/**
 * Pearl's intervention do(X = x) (Causality, §3.2): the network in which X is set from outside.
 * Each intervened variable loses its incoming arcs and its table becomes the point mass on x;
 * every other table is unchanged. P(Y | do(X = x), e) is then ordinary inference in this
 * mutilated network (with X = x as evidence, which a point mass makes harmless).
 */
import type { BayesianNetwork } from '../network.js';
import { cardinality } from '../network.js';
import { EngineError } from '../engineError.js';

export function mutilatedNetwork(net: BayesianNetwork, interventions: ReadonlyMap<number, number>): BayesianNetwork {
  if (interventions.size === 0) return net;
  const cpts = net.cpts.map((cpt) => {
    const x = interventions.get(cpt.child);
    if (x === undefined) return cpt;
    const k = cardinality(net, cpt.child);
    if (!(x >= 0 && x < k)) throw new EngineError(`state ${x} is outside '${net.variables[cpt.child]!.name}'`);
    const table = new Float64Array(k);
    table[x] = 1;
    return { child: cpt.child, parents: [], table };
  });
  const set = [...interventions.keys()].map((v) => net.variables[v]!.name).join(', ');
  return { name: `${net.name} with do(${set})`, variables: net.variables, cpts };
}
