/**
 * `query effect X -> Y [in N] [given e]`: P(Y | do(X = x), e) for every state x of X (Pearl's
 * intervention: X's incoming arcs cut), beside the observational P(Y | X = x, e). For a
 * two-state X the value is the average causal effect P(y₀ | do(x₀), e) − P(y₀ | do(x₁), e), with
 * y₀, x₀ the first states (true for `bool`).
 */
import type * as A from '../../language/ast.js';
import { variableIndexMap } from '../../engine/network.js';
import { posteriorQuery } from '../../engine/inference/marginals.js';
import { mutilatedNetwork } from '../../engine/inference/intervention.js';
import { CompileError } from '../../model/compileError.js';
import type { CausalEffectResult } from '../../protocol/runResult.js';
import { queryOf, type Handler, type HandlerContext, type HandlerOutput } from '../handlerContext.js';
import { networkScope, scopedEvidence, variableIndex } from '../networkScope.js';
import { intervened } from '../interventions.js';
import { answerDiagnostics } from '../inferenceOptions.js';
import { setOwn } from '../../engine/records.js';

export async function effectQuery(ctx: HandlerContext): Promise<HandlerOutput> {
  const q = queryOf<A.EffectQuery>(ctx);
  const declared = await networkScope(ctx, q.in);
  const { scope, named: set } = intervened(ctx, declared, q.given);
  const index = variableIndexMap(scope.net);
  const x = variableIndex(scope.net, index, q.cause.text, q.cause);
  const y = variableIndex(scope.net, index, q.effect.text, q.effect);
  if (x === y) throw new CompileError('the cause and the effect must be two variables', q.range);
  if (q.given.some((a) => a.variable.text === q.cause.text))
    throw new CompileError(`'${q.cause.text}' is the cause: it is set to each of its states in turn`, q.cause.range);
  const { net, evidence, named } = scopedEvidence(ctx, scope, q.given);
  const causeStates = net.variables[x]!.states;
  const effectStates = net.variables[y]!.states;
  const interventional: CausalEffectResult['interventional'] = {};
  const observational: CausalEffectResult['observational'] = {};
  const diagnostics = [];
  for (let s = 0; s < causeStates.length; s++) {
    const cut = mutilatedNetwork(net, new Map([[x, s]]));
    const withCause = new Map(evidence).set(x, s);
    const answer = posteriorQuery(cut, [y], withCause, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (!answer.ok) return { results: [], diagnostics: answerDiagnostics(answer, ctx.statement.range) };
    diagnostics.push(...answerDiagnostics(answer, ctx.statement.range));
    setOwn(
      interventional,
      causeStates[s]!,
      Object.fromEntries(effectStates.map((e, i) => [e, answer.factor.values[i]!])),
    );
    const seen = posteriorQuery(net, [y], withCause, { ...(ctx.signal ? { signal: ctx.signal } : {}) });
    if (seen.ok)
      setOwn(
        observational,
        causeStates[s]!,
        Object.fromEntries(effectStates.map((e, i) => [e, seen.factor.values[i]!])),
      );
  }
  const y0 = effectStates[0]!;
  const ace =
    causeStates.length === 2
      ? interventional[causeStates[0]!]![y0]! - interventional[causeStates[1]!]![y0]!
      : undefined;
  const shown = causeStates
    .map((c) => `P(${y0} | do(${c})) = ${Number(interventional[c]![y0]!.toPrecision(4))}`)
    .join(', ');
  const result: CausalEffectResult = {
    kind: 'effect',
    range: ctx.statement.range,
    source: ctx.source,
    headline: ace !== undefined ? `ACE ${Number(ace.toPrecision(4))} · ${shown}` : shown,
    network: scope.name ?? declared.net.name,
    cause: q.cause.text,
    effect: q.effect.text,
    evidence: { ...named, ...set },
    interventional,
    observational,
    ...(ace !== undefined ? { averageCausalEffect: ace } : {}),
  };
  return {
    results: [result],
    diagnostics: [...new Map(diagnostics.map((d) => [d.message, d])).values()],
    ...(ace !== undefined ? { value: ace } : {}),
  };
}

export const effectHandler: Handler = effectQuery;
