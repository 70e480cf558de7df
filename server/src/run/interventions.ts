/**
 * `do(X = x)` among a query's conditions and `given`: the scope's network with X's incoming
 * arcs cut and X set to x (Pearl's mutilated network), memoised per run. The intervened
 * variables stay in the evidence as X = x, which the point mass makes harmless.
 */
import type * as A from '../language/ast.js';
import { valueText } from '../language/ast.js';
import type { BayesianNetwork } from '../engine/network.js';
import { variableIndexMap } from '../engine/network.js';
import { mutilatedNetwork } from '../engine/inference/intervention.js';
import { CompileError } from '../model/compileError.js';
import type { ModelContext } from './modelInputs.js';
import { stateIndex, variableIndex, type NetworkScope } from './networkScope.js';
import type { NamedEvidence } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';

export interface Intervened {
  scope: NetworkScope;
  interventions: Map<number, number>;
  named: NamedEvidence;
}

export function intervened(ctx: ModelContext, scope: NetworkScope, assignments: readonly A.Assignment[]): Intervened {
  const net = scope.net;
  const index = variableIndexMap(net);
  const interventions = new Map<number, number>();
  const named: NamedEvidence = {};
  for (const a of assignments) {
    if (!a.intervention) continue;
    const v = variableIndex(net, index, a.variable.text, a.variable);
    const state = a.value && a.value.kind !== 'list' ? valueText(a.value) : undefined;
    if (state === undefined) throw new CompileError(`set one state: do(${a.variable.text} = …)`, a.range);
    interventions.set(v, stateIndex(net, v, state, a.value!));
    setOwn(named, a.variable.text, state);
  }
  if (interventions.size === 0) return { scope, interventions, named };
  const key = `do:${scope.name ?? ''}:${[...interventions].map(([v, s]) => `${v}=${s}`).join(',')}`;
  const known = ctx.shared.get(key) as { base: BayesianNetwork; net: BayesianNetwork } | undefined;
  const mutilated = known?.base === net ? known.net : mutilatedNetwork(net, interventions);
  ctx.shared.set(key, { base: net, net: mutilated });
  return { scope: { ...scope, net: mutilated }, interventions, named };
}
