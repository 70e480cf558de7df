/**
 * Queries on networks with continuous variables (`variable Height : real`): `P(Height)`,
 * `mean Height`, `variance Height`, and discrete queries such as `P(Smoker = true)` given a
 * continuous observation (`observe Weight = 72.5`, `given Weight = 80`). They are answered by the
 * hybrid engine (engine/gaussian/hybridMarginals.ts): exact — conditioning on the discrete
 * parents of the continuous variables — while that fits the budget, else likelihood weighting
 * with standard errors. A discrete query whose evidence names no continuous variable stays with
 * the discrete engine: continuous variables have no discrete children (the CLG restriction), so
 * leaving them out changes no discrete posterior.
 */
import type * as A from '../language/ast.js';
import { valueText } from '../language/ast.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { hybridIndexMap } from '../engine/gaussian/hybridNetwork.js';
import type { HybridEvidence } from '../engine/gaussian/clgInference.js';
import { hybridMarginals, type HybridAnswer } from '../engine/gaussian/hybridMarginals.js';
import { EngineError } from '../engine/engineError.js';
import { SoftEvidenceError } from '../engine/inference/softEvidence.js';
import { DEFAULT_BUDGETS } from '../engine/budget.js';
import { setOwn } from '../engine/records.js';
import { compileHybridNetwork } from '../model/compileHybridNetwork.js';
import { CompileError } from '../model/compileError.js';
import type { ContinuousResult, NamedEvidence, ProbabilityResult } from '../protocol/runResult.js';
import { hybridMostProbableExplanation } from '../engine/gaussian/hybridMpe.js';
import { queryOf, type HandlerContext, type HandlerOutput, type Handler } from './handlerContext.js';
import { memo } from './modelInputs.js';
import { declaredScope, observations } from './networkScope.js';
import { inferenceOptions } from './inferenceOptions.js';
import { mpeOutput } from './mpeResult.js';
import { gaussianMoment, gaussianNetworkOverTime } from './gaussianDynamicQueries.js';

export interface HybridScope {
  net: HybridNetwork;
  observes: A.ObserveStmt[];
  /** `in N` as written; undefined for the default model. */
  name?: string;
}

/** The scope's network with its continuous variables, or undefined when it declares none (memoised per run). */
export function hybridScope(ctx: HandlerContext, inName?: A.Name): HybridScope | undefined {
  const kind = inName && ctx.symbols.globals.get(inName.text)?.kind;
  if (inName && kind !== 'network' && kind !== 'import') return undefined;
  const name = inName?.text;
  const net = memo(ctx, `hybrid:${name ?? ''}`, () => {
    try {
      return compileHybridNetwork(ctx.ast, ctx.symbols, ctx.env, name);
    } catch (e) {
      if (e instanceof CompileError && !e.range && inName) throw new CompileError(e.message, inName.range);
      throw e;
    }
  });
  if (!net) return undefined;
  return { net, observes: declaredScope(ctx, name).observes, ...(name !== undefined ? { name } : {}) };
}

/** True when the query must go to the hybrid engine: a continuous target, or continuous evidence. */
export function needsHybrid(
  scope: HybridScope,
  targets: readonly A.Assignment[],
  given: readonly A.Assignment[],
): boolean {
  const index = hybridIndexMap(scope.net);
  const continuous = (name: string) => scope.net.variables[index.get(name) ?? -1]?.kind === 'continuous';
  if (targets.some((t) => continuous(t.variable.text))) return true;
  const named = [...scope.observes.flatMap((o) => o.items), ...given];
  return named.some((a) => continuous(a.variable.text));
}

interface ScopedHybridEvidence {
  evidence: HybridEvidence;
  named: NamedEvidence;
  /** Variable → its soft or virtual finding as written (engine errors are reported on it). */
  findings: Map<number, A.Finding>;
}

/** The scope's `observe` lines and the query's `given`, resolved on the hybrid network. */
export function hybridEvidence(scope: HybridScope, given: readonly A.Assignment[]): ScopedHybridEvidence {
  const index = hybridIndexMap(scope.net);
  const evidence = {
    discrete: new Map<number, number>(),
    continuous: new Map<number, number>(),
    likelihoods: new Map<number, Float64Array>(),
    soft: new Map<number, Float64Array>(),
  };
  const findings = new Map<number, A.Finding>();
  const named: NamedEvidence = {};
  for (const [name, observed] of observations(scope, given)) {
    const { node, values, finding } = observed;
    const v = index.get(name);
    if (v === undefined)
      throw new CompileError(`'${name}' is not a variable of ${describe(scope)}`, node.variable.range);
    if (finding) {
      addFinding(scope, v, finding, evidence, findings);
      continue;
    }
    if (values.length === 0) continue;
    if (values.length > 1)
      throw new CompileError(
        `'${name}' is observed ${values.length} times: a network with continuous variables takes one value per variable`,
        node.range,
      );
    const variable = scope.net.variables[v]!;
    if (variable.kind === 'continuous') {
      const value = node.value?.kind === 'number' ? node.value.value : Number.NaN;
      if (!Number.isFinite(value))
        throw new CompileError(
          `'${name}' is continuous: observe a number, e.g. ${name} = 72.5`,
          (node.value ?? node).range,
        );
      evidence.continuous.set(v, value);
    } else {
      const s = variable.states.indexOf(values[0]!);
      if (s < 0)
        throw new CompileError(
          `'${values[0]}' is not a state of '${name}' (states: ${variable.states.join(', ')})`,
          (node.value ?? node).range,
        );
      evidence.discrete.set(v, s);
    }
    setOwn(named, name, values[0]!);
  }
  return { evidence, named, findings };
}

/**
 * `X ~ likelihood { x: λ, … }` / `X ~ { x: q, … }` on a discrete variable as a vector in its state
 * order (hybridFindings.ts enters it); on a continuous one an error on the finding.
 */
function addFinding(
  scope: HybridScope,
  v: number,
  finding: A.Finding,
  evidence: { likelihoods: Map<number, Float64Array>; soft: Map<number, Float64Array> },
  findings: Map<number, A.Finding>,
): void {
  const variable = scope.net.variables[v]!;
  if (variable.kind === 'continuous')
    throw new CompileError(
      `'${variable.name}' is continuous: virtual and soft findings take a variable with states; ` +
        `observe a number, e.g. ${variable.name} = 72.5`,
      finding.range,
    );
  const vector = new Float64Array(variable.states.length);
  for (const entry of finding.entries) {
    const s = variable.states.indexOf(entry.state?.text ?? '');
    if (s < 0)
      throw new CompileError(
        `'${entry.state?.text ?? ''}' is not a state of '${variable.name}' (states: ${variable.states.join(', ')})`,
        (entry.state ?? entry).range,
      );
    vector[s] = entry.value.value;
  }
  (finding.likelihood ? evidence.likelihoods : evidence.soft).set(v, vector);
  findings.set(v, finding);
}

/** The posterior of every variable given the evidence, once per scope and evidence in a run. */
export function hybridAnswer(
  ctx: HandlerContext,
  scope: HybridScope,
  evidence: HybridEvidence,
  using?: A.Name,
  options?: A.Options,
  findings?: ReadonlyMap<number, A.Finding>,
): HybridAnswer {
  const settings = inferenceOptions(using, options, ctx.signal, ctx.env.budgets);
  const method = settings.method === 'lw' || settings.method === 'exact' ? settings.method : 'auto';
  if (settings.method !== 'auto' && settings.method !== method)
    throw new CompileError(
      `a network with continuous variables is answered exactly or by likelihood weighting, not by ${using!.text}`,
      using!.range,
    );
  const vectors = (m?: ReadonlyMap<number, ArrayLike<number>>) => [...(m ?? [])].map(([v, x]) => [v, Array.from(x)]);
  const key = `hybridAnswer:${scope.name ?? ''}:${method}:${settings.samples ?? ''}:${settings.seed ?? ''}:${JSON.stringify(
    [[...evidence.discrete], [...evidence.continuous], vectors(evidence.likelihoods), vectors(evidence.soft)],
  )}`;
  return memo(ctx, key, () => {
    try {
      return hybridMarginals(scope.net, evidence, {
        method,
        budgets: ctx.env.budgets,
        ...(settings.samples !== undefined ? { samples: settings.samples } : {}),
        ...(settings.seed !== undefined ? { seed: settings.seed } : {}),
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      // A finding's error on the finding the message names (else the last one), as for discrete networks.
      const named = [...(findings ?? [])].find(([v]) => e.message.includes(`'${scope.net.variables[v]!.name}'`));
      const at = e instanceof SoftEvidenceError ? (named ?? [...(findings ?? [])].pop())?.[1] : undefined;
      throw new CompileError(e.message, at?.range ?? ctx.statement.range, at ? 'soft-evidence' : undefined);
    }
  });
}

/** `query P(X [= x] | e) [in N] [given …]` answered by the hybrid engine (see `needsHybrid`). */
export function hybridProbability(ctx: HandlerContext, q: A.ProbabilityQuery, scope: HybridScope): HandlerOutput {
  const open = q.prob.conditions.find((c) => !c.value && !c.finding);
  if (open)
    throw new CompileError(
      `give '${open.variable.text}' a value: a conditional table is not answered in a network with continuous variables`,
      open.range,
    );
  const given = [...q.prob.conditions, ...q.given];
  const intervention = given.find((a) => a.intervention);
  if (intervention)
    throw new CompileError('do(…) is not answered in a network with continuous variables yet', intervention.range);
  if (q.prob.targets.length !== 1)
    throw new CompileError(
      'ask for one variable at a time in a network with continuous variables: P(X | …)',
      q.prob.targets[1]!.range,
    );
  const target = q.prob.targets[0]!;
  const v = variableOf(scope, target.variable);
  const { evidence, named, findings } = hybridEvidence(scope, given);
  const answer = hybridAnswer(ctx, scope, evidence, q.using, q.options, findings);
  const variable = scope.net.variables[v]!;
  if (variable.kind === 'continuous') {
    if (target.value)
      throw new CompileError(
        `'${variable.name}' is continuous: any one value has probability 0; ask P(${variable.name}) for its density, or mean ${variable.name}`,
        target.value.range,
      );
    const result = continuousResult(ctx, scope, v, named, answer, evidence);
    return { results: [result], diagnostics: [] };
  }
  const marginal = answer.discrete[v]!;
  const stderr = answer.method === 'lw' ? answer.discreteStderr[v] : undefined;
  const table: ProbabilityResult['table'] = variable.states.map((state, s) => ({
    states: [state],
    p: marginal[s]!,
    ...(stderr ? { stderr: stderr[s]! } : {}),
  }));
  let value: number | undefined;
  if (target.value) {
    const text = valueText(target.value);
    const s = variable.states.indexOf(text ?? '');
    if (s < 0)
      throw new CompileError(
        `'${text ?? ''}' is not a state of '${variable.name}' (states: ${variable.states.join(', ')})`,
        target.value.range,
      );
    value = marginal[s]!;
  }
  const best = table.reduce((a, b) => (b.p > a.p ? b : a));
  const result: ProbabilityResult = {
    kind: 'probability',
    range: ctx.statement.range,
    source: ctx.source,
    headline:
      value !== undefined
        ? `P(${variable.name} = ${valueTextOf(target)}) = ${fixed(value)}`
        : `${best.states[0]} · ${fixed(best.p)}`,
    method: answer.method,
    cost: 0,
    budget: (ctx.env.budgets ?? DEFAULT_BUDGETS).maxTotalEntries,
    ...(answer.method === 'lw' ? { samples: answer.samples, seed: answer.seed } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    network: scope.name ?? scope.net.name,
    variables: [variable.name],
    evidence: named,
    table,
    ...(value !== undefined ? { value } : {}),
    ...(hasEvidence(evidence) ? { logEvidence: answer.logEvidence } : {}),
  };
  return { results: [result], diagnostics: [], ...(value !== undefined ? { value } : {}) };
}

/** `query mean X [in N] [given e]`, `query variance X …`: a continuous variable's posterior moment. */
export const continuousMomentHandler: Handler = (ctx) => {
  const q = queryOf<A.ContinuousMomentQuery>(ctx);
  const overTime = gaussianNetworkOverTime(ctx, q.in);
  if (overTime) return gaussianMoment(ctx, overTime);
  const scope = hybridScope(ctx, q.in);
  if (!scope)
    throw new CompileError(
      `${q.in ? `'${q.in.text}'` : 'the default model'} has no continuous variable: \`${q.moment} X\` asks for a 'real' one`,
      q.variable.range,
    );
  const v = variableOf(scope, q.variable);
  if (scope.net.variables[v]!.kind !== 'continuous')
    throw new CompileError(
      `'${q.variable.text}' has states: \`${q.moment}\` asks for a continuous variable; ask P(${q.variable.text})`,
      q.variable.range,
    );
  const { evidence, named, findings } = hybridEvidence(scope, q.given);
  const answer = hybridAnswer(ctx, scope, evidence, undefined, undefined, findings);
  const result = continuousResult(ctx, scope, v, named, answer, evidence, q.moment);
  return { results: [result], diagnostics: [], value: result.value! };
};

function continuousResult(
  ctx: HandlerContext,
  scope: HybridScope,
  v: number,
  named: NamedEvidence,
  answer: HybridAnswer,
  evidence: HybridEvidence,
  moment?: 'mean' | 'variance',
): ContinuousResult {
  const name = scope.net.variables[v]!.name;
  const posterior = answer.continuous[v]!;
  const components = posterior.components;
  const mixture = components.length > 1 ? ` · a mixture of ${components.length} normals` : '';
  const value = moment === undefined ? undefined : moment === 'mean' ? posterior.mean : posterior.variance;
  const headline =
    moment !== undefined
      ? `${moment} ${name} = ${fixed(value!)}`
      : `${name}: mean ${fixed(posterior.mean)}, variance ${fixed(posterior.variance)}${mixture}`;
  const meanStderr = answer.method === 'lw' ? answer.meanStderr[v] : undefined;
  return {
    kind: 'continuous',
    range: ctx.statement.range,
    source: ctx.source,
    headline,
    network: scope.name ?? scope.net.name,
    variable: name,
    evidence: named,
    method: answer.method,
    mean: posterior.mean,
    variance: posterior.variance,
    ...(components.length ? { components: components.map((c) => ({ ...c })) } : {}),
    ...(hasEvidence(evidence) ? { logEvidence: answer.logEvidence } : {}),
    ...(meanStderr !== undefined ? { meanStderr } : {}),
    ...(answer.method === 'lw' ? { samples: answer.samples, seed: answer.seed } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    ...(moment ? { moment, value } : {}),
  };
}

/**
 * `query mpe N [given e]` on a network with continuous variables: the discrete states and
 * continuous values that maximise the joint density p(d, x, e) (engine/gaussian/hybridMpe.ts);
 * a continuous variable's value prints with its full precision, so `expect mpe … = "…"` can
 * quote it. `probability` is that density (a mass × a density).
 */
export function hybridMpe(ctx: HandlerContext, q: A.MpeQuery, scope: HybridScope): HandlerOutput {
  const intervention = q.given.find((a) => a.intervention);
  if (intervention)
    throw new CompileError('do(…) is not answered in a network with continuous variables yet', intervention.range);
  const { evidence, named, findings } = hybridEvidence(scope, q.given);
  let best;
  try {
    best = hybridMostProbableExplanation(scope.net, evidence, {
      budgets: ctx.env.budgets,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const at = e instanceof SoftEvidenceError ? [...findings.values()].pop() : undefined;
    throw new CompileError(e.message, at?.range ?? ctx.statement.range, at ? 'soft-evidence' : undefined);
  }
  const assignment: Record<string, string> = {};
  scope.net.variables.forEach((variable, v) => {
    if (evidence.discrete.has(v) || evidence.continuous.has(v)) return;
    const value = variable.kind === 'discrete' ? variable.states[best.states[v]!]! : String(best.values[v]!);
    setOwn(assignment, variable.name, value);
  });
  return mpeOutput(ctx, {
    network: scope.name ?? scope.net.name,
    evidence: named,
    assignment,
    logProbability: best.logDensity,
    density: true,
    show: (x) => (/^-?\d/.test(x) ? fixed(Number(x)) : x),
  });
}

function variableOf(scope: HybridScope, name: A.Name): number {
  const v = hybridIndexMap(scope.net).get(name.text);
  if (v === undefined) throw new CompileError(`'${name.text}' is not a variable of ${describe(scope)}`, name.range);
  return v;
}

function hasEvidence(evidence: HybridEvidence): boolean {
  const findings = (evidence.likelihoods?.size ?? 0) + (evidence.soft?.size ?? 0);
  return evidence.discrete.size + evidence.continuous.size + findings > 0;
}

function describe(scope: HybridScope): string {
  return scope.name === undefined ? 'the default model' : `'${scope.name}'`;
}

function valueTextOf(a: A.Assignment): string {
  return (a.value && valueText(a.value)) ?? '';
}

function fixed(x: number): string {
  return String(Number(x.toPrecision(4)));
}
