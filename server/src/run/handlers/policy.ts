/**
 * `query policy N [given e]`: the optimal decision rule of every decision of the influence
 * diagram N (a table over what the decision knows, no-forgetting) and the maximum expected
 * utility, which is the value `expect` compares.
 */
import type * as A from '../../language/ast.js';
import {
  solveInfluenceDiagram,
  type DecisionRule,
  type InfluenceDiagram,
} from '../../engine/decisions/influenceDiagram.js';
import type { DecisionRuleJson, PolicyResult } from '../../protocol/runResult.js';
import { queryOf, type Handler, type HandlerContext, type HandlerOutput } from '../handlerContext.js';
import { diagramScope, utilityText } from '../decisionDiagram.js';
import { setOwn } from '../../engine/records.js';

const MAX_ROWS = 4096;

export async function policyQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.PolicyQuery>(ctx);
  const { id, evidence, named, name } = await diagramScope(ctx, q.network, q.given, q);
  const solution = solveInfluenceDiagram(id, evidence, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
  const rules = solution.rules.map((r) => ruleJson(id, r));
  const first = rules[0];
  const plan = first && first.rows.length === 1 ? ` · ${first.decision} = ${first.rows[0]!.choice}` : '';
  const result: PolicyResult = {
    kind: 'policy',
    range: ctx.statement.range,
    source: ctx.source,
    headline: `MEU ${utilityText(solution.meu)}${plan}`,
    network: name,
    evidence: named,
    meu: solution.meu,
    rules,
  };
  return { results: [result], diagnostics: [], value: solution.meu };
}

export function ruleJson(id: InfluenceDiagram, rule: DecisionRule): DecisionRuleJson {
  const variables = id.network.variables;
  const alternatives = variables[rule.decision]!.states;
  const cards = rule.context.map((v) => variables[v]!.states.length);
  const rows: DecisionRuleJson['rows'] = [];
  for (let r = 0; r < Math.min(rule.choice.length, MAX_ROWS); r++) {
    const given: Record<string, string> = {};
    let rest = r;
    for (let i = rule.context.length - 1; i >= 0; i--) {
      setOwn(given, variables[rule.context[i]!]!.name, variables[rule.context[i]!]!.states[rest % cards[i]!]!);
      rest = Math.floor(rest / cards[i]!);
    }
    const ordered = Object.fromEntries(rule.context.map((v) => [variables[v]!.name, given[variables[v]!.name]!]));
    const row: DecisionRuleJson['rows'][number] = { given: ordered, choice: alternatives[rule.choice[r]!]! };
    const eu = rule.expectedUtility?.subarray(r * alternatives.length, (r + 1) * alternatives.length);
    if (eu && !Number.isNaN(eu[0]!)) row.expectedUtility = Object.fromEntries(alternatives.map((a, i) => [a, eu[i]!]));
    if (rule.probability) row.probability = rule.probability[r]!;
    rows.push(row);
  }
  return {
    decision: variables[rule.decision]!.name,
    alternatives,
    context: rule.context.map((v) => variables[v]!.name),
    rows,
    ...(rule.choice.length > MAX_ROWS ? { truncated: rule.choice.length - MAX_ROWS } : {}),
  };
}

export const policyHandler: Handler = policyQuery;
