/**
 * The `network` result entry of a scope with continuous variables (`variable X : real` with a
 * `~ Normal(…)` table): the graph's variables and parents, each discrete variable's marginal and
 * CPT as for a discrete network, and each continuous one's density with no evidence (prior) and
 * given the scope's `observe` lines (posterior), by the exact hybrid engine
 * (engine/gaussian/hybridMarginals.ts, within the run's budgets). What the results panel draws as
 * curves (webview/src/views/network.ts).
 */
import type * as A from '../language/ast.js';
import { valueText } from '../language/ast.js';
import type { Range } from '../language/diagnostics.js';
import { compileHybridNetwork, UnlearntTableError } from '../model/compileHybridNetwork.js';
import { CompileError } from '../model/compileError.js';
import { hybridMarginals } from '../engine/gaussian/hybridMarginals.js';
import type { HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import type { BayesianNetwork } from '../engine/network.js';
import { EngineError } from '../engine/engineError.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import { setOwn } from '../engine/records.js';
import type { NetworkResult } from '../protocol/runResult.js';
import { cptsToJson } from './learningResults.js';
import { hybridEvidence, mixtureJson, regressionText } from './hybridAnswers.js';
import type { ModelContext } from './modelInputs.js';

export interface HybridScope {
  /** Undefined: the file's default model. */
  name?: string;
  range: Range;
  tables: Map<string, Range>;
}

/**
 * The entry of a scope with continuous variables, or undefined when it has none (the discrete
 * path draws it). Throws CompileError as compileNetwork does.
 */
export function hybridNetworkResult(
  ctx: ModelContext,
  scope: HybridScope,
  text: (range: Range) => string,
): NetworkResult | undefined {
  // A network `learn` fitted in this run is drawn as learnt (run/learnHybridNetwork.ts keeps it).
  const learnt = ctx.shared.get(`hybrid:${scope.name ?? ''}`) as HybridNetwork | undefined;
  let net: HybridNetwork | undefined;
  try {
    net = learnt ?? compileHybridNetwork(ctx.ast, ctx.symbols, ctx.env, scope.name);
  } catch (e) {
    // Waiting for `learn`: drawn as a discrete network waiting for it is (no densities, no marginals).
    if (e instanceof UnlearntTableError) return undefined;
    throw e;
  }
  if (!net) return undefined;
  const named = fittingEvidence(net, observedByName(ctx.ast, scope.name));
  try {
    return hybridNetworkEntry(net, named, ctx.env.budgets ?? DEFAULT_BUDGETS, {
      name: scope.name ?? 'default',
      range: scope.range,
      source: text(scope.range).split('\n')[0]!,
      tables: scope.tables,
    });
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    const observe = observesOf(ctx.ast, scope.name)[0]?.range;
    throw new CompileError(e.message, e instanceof EvidenceNameError ? observe : scope.range);
  }
}

/** Evidence by name that does not fit the network (an unknown variable or state, a word for a number). */
class EvidenceNameError extends EngineError {}

/**
 * The entry of a hybrid network under evidence by name (`{Weight: "80", B: "stable"}`): what the
 * panel draws. Throws EngineError (the evidence, the engine).
 */
export function hybridNetworkEntry(
  net: HybridNetwork,
  named: Record<string, string>,
  budgets: Budgets,
  at: { name: string; range: Range; source: string; tables?: Map<string, Range> },
): NetworkResult {
  const evidence = hybridEvidence(net, named);
  if ('error' in evidence) throw new EvidenceNameError(evidence.error);
  const none = { discrete: new Map(), continuous: new Map() };
  const prior = hybridMarginals(net, none, { budgets });
  const posterior = hybridMarginals(net, evidence.evidence, { budgets });
  const cpts = cptsToJson(discretePart(net));
  const variables = net.variables.map((v, i) => {
    const cpd = net.cpds[i]!;
    const parents = (
      cpd.kind === 'discrete' ? cpd.cpt.parents : [...cpd.cpd.discreteParents, ...cpd.cpd.continuousParents]
    ).map((p) => net.variables[p]!.name);
    const common = {
      name: v.name,
      parents,
      ...(Object.hasOwn(named, v.name) ? { evidence: named[v.name]! } : {}),
      ...(at.tables?.has(v.name) ? { declaration: at.tables.get(v.name)! } : {}),
    };
    if (v.kind === 'discrete' || cpd.kind === 'discrete')
      return {
        ...common,
        states: (v as { states: string[] }).states,
        cpt: cpts[v.name]!,
        marginal: Array.from(posterior.discrete[i]!),
      };
    return {
      ...common,
      states: [],
      cpt: { parents, rows: [] },
      marginal: [],
      continuous: {
        prior: mixtureJson(prior.continuous[i]!),
        posterior: mixtureJson(posterior.continuous[i]!),
        distribution: regressionText(net, cpd.cpd),
      },
    };
  });
  const observed = Object.keys(named).length;
  const sampled = posterior.method === 'lw' ? posterior : undefined;
  return {
    kind: 'network',
    range: at.range,
    source: at.source,
    network: at.name,
    method: posterior.method,
    cost: posterior.configurations,
    budget: budgets.maxTotalEntries,
    ...(sampled ? { samples: sampled.samples, seed: sampled.seed } : {}),
    ...(posterior.note ? { note: posterior.note } : {}),
    variables,
    headline: `${at.name}: ${variables.length} variable${variables.length === 1 ? '' : 's'}${observed ? `, ${observed} observed` : ''}`,
  };
}

/** The discrete variables and tables as the discrete IR (for their CPTs as JSON); continuous ones are left out. */
function discretePart(net: HybridNetwork): BayesianNetwork {
  const variables: BayesianNetwork['variables'] = [];
  const cpts: BayesianNetwork['cpts'] = [];
  net.variables.forEach((v, i) => {
    const cpd = net.cpds[i]!;
    if (v.kind === 'discrete' && cpd.kind === 'discrete') {
      variables.push({ name: v.name, states: v.states });
      cpts.push(cpd.cpt);
    }
  });
  // Discrete variables have discrete parents only: their indices are re-numbered onto the kept ones.
  const kept = net.variables.flatMap((v, i) => (v.kind === 'discrete' ? [i] : []));
  const at = new Map(kept.map((v, k) => [v, k]));
  return {
    name: net.name,
    variables,
    cpts: cpts.map((c) => ({ ...c, child: at.get(c.child)!, parents: c.parents.map((p) => at.get(p)!) })),
  };
}

/** The scope's `observe` lines in source order (a later line replaces an earlier one's variable). */
function observesOf(file: A.BayesFile, name?: string): A.ObserveStmt[] {
  const observes = (ss: readonly A.Statement[]) => ss.filter((s): s is A.ObserveStmt => s.kind === 'observe');
  if (name === undefined) return observes(file.statements).filter((o) => !o.in);
  const all = file.statements.flatMap((s) => (s.kind === 'network' ? s.statements : [s]));
  const own = file.statements.find((s): s is A.NetworkDecl => s.kind === 'network' && s.name.text === name);
  return [
    ...observes(own?.statements ?? []).filter((o) => !o.in),
    ...observes(all).filter((o) => o.in?.text === name),
  ].sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);
}

/** `observe Weight = 80, B = stable` as {Weight: "80", B: "stable"}. */
/**
 * The observations that fit the network: the checker already reports a word for a number or an
 * unknown state on its own range, so the run's entry leaves such an observation out rather than
 * reporting it a second time.
 */
function fittingEvidence(net: HybridNetwork, named: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [variable, value] of Object.entries(named))
    if (!('error' in hybridEvidence(net, { [variable]: value }))) setOwn(out, variable, value);
  return out;
}

function observedByName(file: A.BayesFile, name?: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of observesOf(file, name)) {
    for (const item of o.items) {
      if (item.finding || item.intervention) continue;
      const value = valueText(item.value);
      if (value !== undefined) setOwn(out, item.variable.text, value);
    }
  }
  return out;
}
