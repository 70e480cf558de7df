/**
 * One `network` result entry per belief network of the model — each `network { … }`, each
 * imported BIF network, and the default model when it has tables — for the results view's
 * graph: variables, parents, CPTs, and posterior marginals given the scope's `observe` lines.
 * Run once per run after the statements, so a network a `learn` replaced shows its learnt
 * numbers; one propagation each, on the junction tree the queries already compiled.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic, Range } from '../language/diagnostics.js';
import { inferenceProblem, posteriorMarginals, type MarginalsAnswer } from '../engine/inference/marginals.js';
import { CompileError } from '../model/compileError.js';
import type { NetworkResult } from '../protocol/runResult.js';
import { cptsToJson } from './learningResults.js';
import { declaredScope, scopedEvidence } from './networkScope.js';
import type { ModelContext } from './modelInputs.js';
import { answerDiagnostics, inferenceInfo } from './inferenceOptions.js';
import { hybridNetworkResult } from './hybridNetworkResult.js';
import { arcStrengths } from '../engine/inference/arcStrength.js';
import type { BayesianNetwork } from '../engine/network.js';

interface Emitted {
  results: NetworkResult[];
  diagnostics: Diagnostic[];
}

export function networkResults(ctx: ModelContext, text: (range: Range) => string): Emitted {
  const out: Emitted = { results: [], diagnostics: [] };
  for (const scope of modelScopes(ctx.ast)) {
    try {
      const result = networkResult(ctx, scope, text, out.diagnostics);
      // Tables that are only parameter priors (`P(Toss) ~ Beta(1, 1)`) make no network.
      if (result.variables.length) out.results.push(result);
    } catch (e) {
      // Compile errors: the statements using this network report them on their own lines, but
      // an `observe` line's findings (soft evidence that cannot hold) may have no query: say it there.
      // Anything else is our bug, said as such rather than losing the run's other results.
      if (e instanceof CompileError) {
        if (e.range && inObserve(ctx.ast, e.range)) {
          out.diagnostics.push({
            severity: 'error',
            code: e.code ?? 'compile-error',
            message: e.message,
            range: e.range,
          });
        }
        continue;
      }
      const message = `drawing network '${scope.name ?? 'default'}' failed: ${(e as Error).message}`;
      out.diagnostics.push({ severity: 'error', code: 'internal-error', message, range: scope.range });
    }
  }
  return out;
}

/** Whether `range` lies inside an `observe` statement (top level or in a network). */
function inObserve(file: A.BayesFile, range: Range): boolean {
  const all = file.statements.flatMap((s) => (s.kind === 'network' ? s.statements : [s]));
  const before = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return all.some((s) => s.kind === 'observe' && before(s.range.start, range.start) && before(range.end, s.range.end));
}

interface ModelScope {
  name?: string;
  range: Range;
  tables: Map<string, Range>;
  statements?: A.Statement[];
}

/** The scopes that are belief networks: named networks, imports, and a default model with tables. */
function modelScopes(file: A.BayesFile): ModelScope[] {
  const scopes: ModelScope[] = [];
  const firstTable = file.statements.find((s) => s.kind === 'table');
  const top = file.statements;
  if (firstTable) scopes.push({ range: firstTable.range, tables: tableRanges(top), statements: top });
  for (const s of file.statements) {
    if (s.kind === 'network') {
      scopes.push({ name: s.name.text, range: s.range, tables: tableRanges(s.statements), statements: s.statements });
    }
    if (s.kind === 'import') scopes.push({ name: s.name.text, range: s.range, tables: new Map() });
    // Drawn once `learn structure` has made it (else its scope is a compile error, skipped).
    if (s.kind === 'learn' && s.structure) scopes.push({ name: s.model.text, range: s.range, tables: new Map() });
  }
  return scopes;
}

function tableRanges(statements: A.Statement[]): Map<string, Range> {
  const out = new Map<string, Range>();
  for (const s of statements) {
    if (s.kind === 'table' && s.head.targets.length === 1) out.set(s.head.targets[0].variable.text, s.range);
    // A hypothesis space with priors is a root variable whose table is its declaration.
    if (s.kind === 'hypotheses' && !out.has(s.name.text)) out.set(s.name.text, s.range);
  }
  return out;
}

function networkResult(
  ctx: ModelContext,
  scope: ModelScope,
  text: (range: Range) => string,
  diagnostics: Diagnostic[],
): NetworkResult {
  // Continuous variables (declared, or a Hugin NET file's continuous nodes): the hybrid engine's densities.
  const hybrid = hybridNetworkResult(ctx, scope, text);
  if (hybrid) return hybrid;
  const declared = declaredScope(ctx, scope.name);
  const { net, evidence, named, findings } = scopedEvidence(ctx, declared, []);
  // A network waiting for `learn` (unknown entries) is drawn without marginals; the checker
  // reports tables that are wrong, and the queries that use them say why they cannot run.
  const problem = inferenceProblem(net);
  const budget = ctx.env.budgets ? { memoryBytes: ctx.env.budgets.memoryBytes } : {};
  const answer: MarginalsAnswer = problem
    ? { ok: false, method: 'exact', cost: 0, budget: 0, message: problem }
    : posteriorMarginals(net, evidence, budget);
  if (!problem) diagnostics.push(...answerDiagnostics(answer, declared.observes[0]?.range ?? scope.range));
  const cpts = cptsToJson(declared.net);
  const name = scope.name ?? 'default';
  const variables = declared.net.variables.map((v, i) => ({
    name: v.name,
    states: v.states,
    parents: declared.net.cpts[i]!.parents.map((p) => declared.net.variables[p]!.name),
    cpt: cpts[v.name]!,
    marginal: answer.ok ? Array.from(answer.marginals[i]!) : [],
    ...(answer.ok && answer.stderr ? { stderr: Array.from(answer.stderr[i]!) } : {}),
    ...(named[v.name] !== undefined ? { evidence: named[v.name]! } : {}),
    ...(findings?.[v.name] ? { finding: findings[v.name] } : {}),
    ...(scope.tables.has(v.name) ? { declaration: scope.tables.get(v.name)! } : {}),
  }));
  const info = answer.ok
    ? inferenceInfo(answer)
    : { method: answer.method, cost: answer.cost, budget: answer.budget, note: answer.message };
  const observed = variables.filter((v) => v.evidence !== undefined || v.finding).length;
  return {
    kind: 'network',
    range: scope.range,
    source: text(scope.range).split('\n')[0]!,
    network: name,
    ...info,
    variables,
    ...(!problem && answer.ok
      ? arcsOf(declared.net, net === declared.net && !evidence.size ? answer : undefined, budget)
      : {}),
    headline: `${name}: ${variables.length} variable${variables.length === 1 ? '' : 's'}${observed ? `, ${observed} observed` : ''}`,
    ...diagramParts(scope.statements),
  };
}

/**
 * Arc widths: strength of influence with the other parents weighted by their prior marginals
 * (the run's answer when it had no evidence, else one more propagation on the compiled tree).
 */
function arcsOf(
  net: BayesianNetwork,
  prior: MarginalsAnswer | undefined,
  budget: { memoryBytes?: number },
): Pick<NetworkResult, 'arcs'> {
  const answer = prior ?? posteriorMarginals(net, new Map(), budget);
  if (!answer.ok) return {};
  const name = (v: number) => net.variables[v]!.name;
  const arcs = arcStrengths(net, answer.marginals).map((a) => ({
    from: name(a.parent),
    to: name(a.child),
    strength: a.strength,
  }));
  return arcs.length ? { arcs } : {};
}

/** The decisions and utilities of an influence diagram, for the graph (rectangles and diamonds). */
function diagramParts(statements: A.Statement[] | undefined): Pick<NetworkResult, 'decisions' | 'utilities'> {
  const decisions = (statements ?? [])
    .filter((s): s is A.DecisionDecl => s.kind === 'decision')
    .map((d) => ({ name: d.name.text, information: d.information.map((n) => n.text) }));
  const utilities = (statements ?? [])
    .filter((s): s is A.UtilityDecl => s.kind === 'utility')
    .map((u) => ({
      name: u.name.text,
      parents: u.parents.map((p) => p.text),
      declaration: u.range,
      rows: u.rows
        .filter((r) => r.form === 'single' && r.keys.length === u.parents.length)
        .map((r) => ({
          given: Object.fromEntries(u.parents.map((p, i) => [p.text, r.keys[i]!.text])),
          utility: r.entries[0]!.value.value,
        })),
    }));
  return { ...(decisions.length ? { decisions } : {}), ...(utilities.length ? { utilities } : {}) };
}
