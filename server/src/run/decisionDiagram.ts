/**
 * The influence diagram of a scope (the default model or a `network { … }`): its compiled
 * network (decisions are roots there), its `decision` statements in order, its `utility`
 * tables; and the evidence of a decision query by variable index. Compiled once per run.
 */
import type * as A from '../language/ast.js';
import type { BayesianNetwork } from '../engine/network.js';
import { variableIndexMap } from '../engine/network.js';
import type { InfluenceDiagram, UtilityNode } from '../engine/decisions/influenceDiagram.js';
import { CompileError } from '../model/compileError.js';
import type { HandlerContext } from './handlerContext.js';
import { networkScope, scopedEvidence } from './networkScope.js';
import type { NamedEvidence } from '../protocol/runResult.js';

export interface DiagramScope {
  id: InfluenceDiagram;
  evidence: ReadonlyMap<number, number>;
  named: NamedEvidence;
  name: string;
}

export async function diagramScope(
  ctx: HandlerContext,
  inName: A.Name | undefined,
  given: readonly A.Assignment[],
  at: A.NodeBase,
): Promise<DiagramScope> {
  const scope = await networkScope(ctx, inName);
  const node = inName ? ctx.symbols.globals.get(inName.text)?.node : undefined;
  const statements = !inName ? ctx.ast.statements : node?.kind === 'network' ? node.statements : [];
  const key = `diagram:${inName?.text ?? ''}`;
  const known = ctx.shared.get(key) as { base: BayesianNetwork; id: InfluenceDiagram } | undefined;
  const id =
    known?.base === scope.net ? known.id : compileDiagram(scope.net, statements, inName?.text ?? 'the default model');
  ctx.shared.set(key, { base: scope.net, id });
  if (id.decisions.length === 0) {
    throw new CompileError(
      `${inName ? `'${inName.text}'` : 'the default model'} has no decision: ` +
        'declare one with decision D { … } given …',
      (inName ?? at).range,
    );
  }
  const { net, evidence, named, findings } = scopedEvidence(ctx, scope, given);
  if (findings && Object.keys(findings).length > 0) {
    throw new CompileError(
      'a decision query takes states as evidence (X = x): soft and virtual findings (X ~ …) are for ' +
        'P(…), mpe and sensitivity',
      at.range,
      'soft-evidence',
    );
  }
  if (net !== scope.net) throw new CompileError('a decision query takes one observation per variable', at.range);
  return { id, evidence, named, name: scope.name ?? net.name };
}

export function compileDiagram(
  net: BayesianNetwork,
  statements: readonly A.Statement[],
  where: string,
): InfluenceDiagram {
  const index = variableIndexMap(net);
  const resolve = (name: A.Name): number => {
    const v = index.get(name.text);
    if (v === undefined)
      throw new CompileError(`'${name.text}' has no table in ${where}: give P(${name.text} | …)`, name.range);
    return v;
  };
  const decisions = statements
    .filter((s): s is A.DecisionDecl => s.kind === 'decision')
    .map((d) => ({ variable: resolve(d.name), information: d.information.map(resolve) }));
  const utilities = statements
    .filter((s): s is A.UtilityDecl => s.kind === 'utility')
    .map((u) => utilityNode(u, net, resolve));
  return { name: net.name, network: net, decisions, utilities };
}

function utilityNode(u: A.UtilityDecl, net: BayesianNetwork, resolve: (name: A.Name) => number): UtilityNode {
  const parents = u.parents.map(resolve);
  const states = parents.map((p) => net.variables[p]!.states);
  const size = states.reduce((n, s) => n * s.length, 1);
  const table = new Float64Array(size).fill(NaN);
  for (const row of u.rows) {
    if (row.keys.length !== parents.length || row.form !== 'single')
      throw new CompileError('a utility row is `states: number`', row.range);
    let at = 0;
    row.keys.forEach((key, i) => {
      const s = states[i]!.indexOf(key.text);
      if (s < 0) throw new CompileError(`'${key.text}' is not a state of '${u.parents[i]!.text}'`, key.range);
      at = at * states[i]!.length + s;
    });
    table[at] = row.entries[0]!.value.value;
  }
  const missing = table.findIndex((x) => Number.isNaN(x));
  if (missing >= 0)
    throw new CompileError(`'${u.name.text}' has no number for every assignment of its variables`, u.name.range);
  return { name: u.name.text, parents, table };
}

/** The index of a variable of the diagram by name, or a CompileError on the name. */
export function diagramVariable(id: InfluenceDiagram, name: A.Name): number {
  const v = id.network.variables.findIndex((x) => x.name === name.text);
  if (v < 0) throw new CompileError(`'${name.text}' is not a variable of this diagram`, name.range);
  return v;
}

/** Rounds utilities for headlines: 22.5, 32.5, 1.234e+6. */
export function utilityText(x: number): string {
  return String(Number(x.toPrecision(6)));
}
