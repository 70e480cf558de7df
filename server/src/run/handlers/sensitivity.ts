/**
 * `query sensitivity P(T = t | e) [in N]`: how P(t | e) moves with each CPT parameter (one-way,
 * proportional co-variation), largest |∂P/∂θ| first. The value is P(t | e) itself. Needs exact
 * inference: the derivatives are read off the junction tree's family marginals.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import { rowAssignment, variableIndexMap, type BayesianNetwork } from '../../engine/network.js';
import { sensitivity, type SensitivityParameter } from '../../engine/inference/sensitivity.js';
import { isVirtualNode } from '../../engine/inference/softEvidence.js';
import { ImpossibleEvidenceError } from '../../engine/inference/junctionTree.js';
import { CompileError } from '../../model/compileError.js';
import type { SensitivityResult } from '../../protocol/runResult.js';
import { queryOf, type HandlerContext, type HandlerOutput, type Handler } from '../handlerContext.js';
import { networkScope, scopedEvidence, stateIndex, variableIndex } from '../networkScope.js';
import { impossibleEvidence, requireExact } from '../inferenceOptions.js';

/** Parameters listed in the result (all are ranked; a person reads the first few). */
const LISTED = 50;

export async function sensitivityQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.SensitivityQuery>(ctx);
  const [target, ...others] = q.prob.targets;
  if (!target || others.length || !target.value)
    throw new CompileError('sensitivity is of one probability: sensitivity P(X = x | e)', q.prob.range);
  const scope = await networkScope(ctx, q.in);
  const { net, evidence, named, findings } = scopedEvidence(ctx, scope, q.prob.conditions);
  refuseSoftEvidence(findings, [...scope.observes.flatMap((o) => o.items), ...q.prob.conditions]);
  const v = variableIndex(net, variableIndexMap(net), target.variable.text, target.variable);
  const state = valueText(target.value);
  if (state === undefined)
    throw new CompileError(`'${target.variable.text}' takes a state name here`, target.value.range);
  const s = stateIndex(net, v, state, target.value);
  if (evidence.has(v))
    throw new CompileError(
      `'${target.variable.text}' is observed: its probability does not depend on any parameter`,
      target.range,
    );
  const plan = requireExact(net, 'sensitivity');
  let answer;
  try {
    answer = sensitivity(net, { variable: v, state: s }, evidence, { tree: plan.tree() });
  } catch (e) {
    if (e instanceof ImpossibleEvidenceError)
      return { results: [], diagnostics: [impossibleEvidence(ctx.statement.range)] };
    throw e;
  }
  // The virtual-evidence nodes' tables are the findings, not parameters of the network.
  const parameters = answer.parameters
    .filter((p) => !isVirtualNode(net, p.variable))
    .slice(0, LISTED)
    .map((p) => namedParameter(net, p));
  const top = parameters[0];
  const result: SensitivityResult = {
    kind: 'sensitivity',
    range: ctx.statement.range,
    source: ctx.source,
    headline: top
      ? `most sensitive to ${parameterText(top)} · ∂ ${Number(top.derivative.toPrecision(3))}`
      : 'no free parameters',
    network: scope.name ?? net.name,
    target: { variable: target.variable.text, state },
    evidence: named,
    ...(findings ? { findings } : {}),
    value: answer.value,
    parameters,
  };
  return { results: [result], diagnostics: [], value: answer.value };
}

/**
 * Soft evidence fixes X's posterior: as a parameter moves, its likelihood would be fitted again,
 * so the derivative with the fitted likelihood held fixed is not the one asked. Virtual evidence
 * (a fixed likelihood) is fine.
 */
function refuseSoftEvidence(findings: SensitivityResult['findings'], items: readonly A.Assignment[]): void {
  const soft = Object.entries(findings ?? {}).find(([, f]) => f.kind === 'soft');
  if (!soft) return;
  const node = items.filter((a) => a.variable.text === soft[0] && a.finding && !a.finding.likelihood).pop();
  const message =
    `sensitivity takes virtual evidence (X ~ likelihood { … }), not soft evidence on '${soft[0]}': ` +
    'its likelihood would change with every parameter';
  throw new CompileError(message, node?.finding?.range);
}

function namedParameter(net: BayesianNetwork, p: SensitivityParameter): SensitivityResult['parameters'][number] {
  const parents = net.cpts[p.variable]!.parents;
  const states = rowAssignment(net, p.variable, p.row);
  const variable = net.variables[p.variable]!;
  return {
    variable: variable.name,
    parents: Object.fromEntries(parents.map((u, i) => [net.variables[u]!.name, net.variables[u]!.states[states[i]!]!])),
    state: variable.states[p.state]!,
    value: p.value,
    derivative: p.derivative,
    ...(p.interval ? { interval: p.interval } : {}),
  };
}

function parameterText(p: SensitivityResult['parameters'][number]): string {
  const given = Object.entries(p.parents)
    .map(([v, s]) => `${v} = ${s}`)
    .join(', ');
  return `P(${p.variable} = ${p.state}${given ? ` | ${given}` : ''})`;
}

export const sensitivityHandler: Handler = sensitivityQuery;
