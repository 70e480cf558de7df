/**
 * Which belief network a query is about (`in N`: a network, an imported BIF network, a naive
 * Bayes classifier; none: the file's default model) and the evidence it is asked under: the
 * scope's `observe` lines, overridden variable by variable by the query's `given`.
 *
 * `observe X = [v, w]` is two independent observations of X given its parents (Mitchell ex.
 * 6.1: two positive tests). One node cannot hold two values, so X takes the first value and one
 * observed copy `X#2` with X's parents carries the likelihood of all the later ones; the results
 * list every observation `X#2`, `X#3`, … as written.
 */
import type * as A from '../language/ast.js';
import { valueText } from '../language/ast.js';
import type { BayesianNetwork } from '../engine/network.js';
import { variableIndexMap } from '../engine/network.js';
import type { Evidence } from '../engine/inference/junctionTree.js';
import { CompileError } from '../model/compileError.js';
import { isContinuousVariable, isTableToLearn, parameterPriors } from '../model/compileNetwork.js';
import { EngineError } from '../engine/engineError.js';
import { SoftEvidenceError, virtualEvidenceNetwork } from '../engine/inference/softEvidence.js';
import type { HandlerContext } from './handlerContext.js';
import { modelNetwork, networkKey, type ModelContext } from './modelInputs.js';
import { classifierNetwork } from './classifiers.js';
import type { NamedEvidence, NamedFindings } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';

export interface NetworkScope {
  net: BayesianNetwork;
  /** The scope's `observe` lines (none for imported networks and classifiers). */
  observes: A.ObserveStmt[];
  /** `in N` as written; undefined for the default model. */
  name?: string;
}

/** The network of `in N`, or of the default model. Throws CompileError on the name's range. */
export async function networkScope(ctx: HandlerContext, inName?: A.Name): Promise<NetworkScope> {
  if (!inName) return declaredScope(ctx);
  const global = ctx.symbols.globals.get(inName.text);
  if (global?.kind === 'classifier') {
    const key = `classifierNetwork:${inName.text}`;
    // Memoised so the junction tree (cached per network object) is compiled once per run.
    if (!ctx.shared.has(key)) ctx.shared.set(key, await classifierNetwork(ctx, inName));
    return { net: ctx.shared.get(key) as BayesianNetwork, observes: [], name: inName.text };
  }
  if (global?.kind !== 'network' && global?.kind !== 'import') {
    throw new CompileError(`'${inName.text}' is not a network, imported network or classifier`, inName.range);
  }
  return withRange(() => declaredScope(ctx, inName.text), inName);
}

/** The default model (no name), a `network { … }` or an imported network. */
export function declaredScope(ctx: ModelContext, name?: string): NetworkScope {
  if (name === undefined) {
    const net = modelNetwork(ctx);
    return {
      net,
      observes: withoutParameters(
        ctx,
        net,
        observesIn(ctx.ast.statements).filter((o) => !o.in),
      ),
    };
  }
  const node = ctx.symbols.globals.get(name)?.node;
  if (node?.kind === 'learn' && !ctx.shared.has(networkKey(name))) {
    throw new CompileError(`'${name}' is the network \`learn structure\` finds: it exists once that statement has run`);
  }
  const own = node?.kind === 'network' ? observesIn((node as A.NetworkDecl).statements).filter((o) => !o.in) : [];
  // In source order: a later line replaces what an earlier one said of a variable.
  const observes = [...own, ...observesNaming(ctx.ast.statements, name)].sort(bySource);
  const net = modelNetwork(ctx, name);
  return { net, observes: withoutParameters(ctx, net, observes, name), name };
}

/**
 * The observe lines without their observations of a parameter (`P(Toss) ~ Beta(2, 2)`: Toss has
 * no table in the network): `observe Toss = [heads, …]` is then data for the parameter's
 * posterior (`query mean P(Toss = heads)`), not evidence for the network, which has no Toss.
 */
function withoutParameters(
  ctx: ModelContext,
  net: BayesianNetwork,
  observes: A.ObserveStmt[],
  name?: string,
): A.ObserveStmt[] {
  if (observes.length === 0) return observes;
  const priors = parameterPriors(ctx.ast, ctx.symbols, name);
  if (priors.size === 0) return observes;
  // Only a root's prior: a table with parents to learn (`P(B | A) ~ Dirichlet(1)`) keeps the
  // error that its table must be learnt first (its observations are not ignored silently).
  const parameter = (item: A.Assignment) =>
    priors.get(item.variable.text)?.head.conditions.length === 0 &&
    !net.variables.some((v) => v.name === item.variable.text);
  if (!observes.some((o) => o.items.some(parameter))) return observes;
  return observes.map((o) => ({ ...o, items: o.items.filter((i) => !parameter(i)) }));
}

/** `observe … in N` lines anywhere in the file (top level or inside a network), in source order. */
function observesNaming(statements: A.Statement[], name: string): A.ObserveStmt[] {
  const all = statements.flatMap((s) => (s.kind === 'network' ? s.statements : [s]));
  return observesIn(all).filter((o) => o.in?.text === name);
}

function bySource(a: A.ObserveStmt, b: A.ObserveStmt): number {
  return a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character;
}

function observesIn(statements: A.Statement[]): A.ObserveStmt[] {
  return statements.filter((s): s is A.ObserveStmt => s.kind === 'observe');
}

/** A compile error without a range of its own is reported on the name that asked for it. */
function withRange<T>(make: () => T, name: A.Name): T {
  try {
    return make();
  } catch (e) {
    if (e instanceof CompileError && !e.range) throw new CompileError(e.message, name.range);
    throw e;
  }
}

export interface ScopedEvidence {
  /**
   * The scope's network, with replicated nodes when an observation was repeated and a
   * virtual-evidence node `λ(X)` per soft or virtual finding (after the network's own variables).
   */
  net: BayesianNetwork;
  evidence: Evidence;
  /** The evidence by name (replicas as `X#2`), for results. */
  named: NamedEvidence;
  /** Soft and virtual findings by name: the numbers as written, and the likelihood in force. */
  findings?: NamedFindings;
}

/** The values observed per variable, in order; `given` replaces a variable's observations. */
export function observations(
  scope: Pick<NetworkScope, 'observes'>,
  given: readonly A.Assignment[],
): Map<string, Observed> {
  const out = new Map<string, Observed>();
  for (const observe of scope.observes) {
    for (const item of observe.items) {
      // A soft or virtual finding replaces what was observed of its variable before, and is replaced.
      if (item.finding) {
        out.set(item.variable.text, { values: [], node: item, finding: item.finding });
        continue;
      }
      // `observe Days` (a data set) is evidence for hypothesis posteriors, not for one network query.
      if (!item.value) continue;
      const seen = out.get(item.variable.text);
      const before = seen?.finding ? [] : (seen?.values ?? []);
      out.set(item.variable.text, { values: [...before, ...valuesOf(item)], node: item });
    }
  }
  for (const item of given) {
    if (item.finding) {
      out.set(item.variable.text, { values: [], node: item, finding: item.finding });
      continue;
    }
    if (!item.value) throw new CompileError(`give the observed state: ${item.variable.text} = …`, item.range);
    out.set(item.variable.text, { values: valuesOf(item), node: item });
  }
  return out;
}

/** What is known of one variable: observed values (hard evidence) or a soft or virtual finding. */
export interface Observed {
  values: string[];
  node: A.Assignment;
  finding?: A.Finding;
}

function valuesOf(item: A.Assignment): string[] {
  const items = item.value?.kind === 'list' ? item.value.items : item.value ? [item.value] : [];
  return items.map((expr) => {
    const text = valueText(expr);
    if (text === undefined) throw new CompileError(`'${item.variable.text}' is observed as a state name`, expr.range);
    return text;
  });
}

/** Resolves the evidence of a query in its scope; unknown names are errors on their range. */
export function scopedEvidence(ctx: ModelContext, scope: NetworkScope, given: readonly A.Assignment[]): ScopedEvidence {
  const observed = observations(scope, given);
  const repeats = [...observed].filter(([, o]) => o.values.length > 1).map(([v, o]) => [v, o.values] as const);
  const net = repeats.length ? replicated(ctx, scope, repeats) : scope.net;
  const index = variableIndexMap(net);
  const evidence = new Map<number, number>();
  const named: NamedEvidence = {};
  for (const [variable, { values, node }] of observed) {
    if (values.length === 0) continue;
    const x = variableIndex(net, index, variable, node.variable);
    values.forEach((value, i) => {
      const s = stateIndex(net, x, value, node);
      if (i === 0) evidence.set(x, s);
      setOwn(named, i === 0 ? variable : replicaName(variable, i), value);
    });
    // X's later values are one observed copy (see `replicated`).
    if (values.length > 1) evidence.set(variableIndex(net, index, replicaName(variable, 1), node.variable), 0);
  }
  const findings = [...observed].filter(([, o]) => o.finding);
  if (findings.length === 0) return { net, evidence, named };
  // A query's context can be cancelled (a new edit): the fitting stops with it.
  const signal = (ctx as { signal?: AbortSignal }).signal;
  return { ...withFindings(ctx, net, index, evidence, findings, signal), named };
}

/**
 * Soft and virtual findings as virtual-evidence nodes (engine/inference/softEvidence.ts). Their
 * errors (a likelihood of zeros, soft findings that cannot all hold) are reported on a finding.
 */
function withFindings(
  ctx: ModelContext,
  net: BayesianNetwork,
  index: Map<string, number>,
  evidence: Evidence,
  findings: [string, Observed][],
  signal?: AbortSignal,
): { net: BayesianNetwork; evidence: Evidence; findings: NamedFindings } {
  const likelihoods = new Map<number, Float64Array>();
  const soft = new Map<number, Float64Array>();
  const at = new Map<number, A.Finding>();
  for (const [variable, { node, finding }] of findings) {
    const v = variableIndex(net, index, variable, node.variable);
    const states = net.variables[v]!.states;
    const vector = new Float64Array(states.length);
    for (const entry of finding!.entries) {
      vector[stateIndex(net, v, entry.state!.text, entry.state!)] = entry.value.value;
    }
    (finding!.likelihood ? likelihoods : soft).set(v, vector);
    at.set(v, finding!);
  }
  // The same findings on the same network (an `observe` line read by every query) are fitted and
  // compiled once per run; a `learn` that replaced the network makes them new.
  const vectors = (m: Map<number, Float64Array>) => [...m].map(([v, x]) => [v, [...x]]);
  const key = `findings:${net.name}:${JSON.stringify([[...evidence], vectors(likelihoods), vectors(soft)])}`;
  const known = ctx.shared.get(key) as { base: BayesianNetwork; result: ReturnType<typeof withFindings> } | undefined;
  if (known?.base === net) return known.result;
  let virtual;
  try {
    virtual = virtualEvidenceNetwork(net, evidence, { likelihoods, soft }, signal ? { signal } : {});
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    // The finding the message names, else the last soft one (fitting failed for them together).
    const named = [...at].find(([v]) => e.message.includes(`'${net.variables[v]!.name}'`));
    const last = [...at].filter(([v]) => soft.has(v)).pop() ?? [...at].pop()!;
    throw new CompileError(
      e.message,
      (named ?? last)[1].range,
      e instanceof SoftEvidenceError ? 'soft-evidence' : undefined,
    );
  }
  const out: NamedFindings = {};
  for (const [v, finding] of at) {
    const states = net.variables[v]!.states;
    const written = likelihoods.get(v) ?? soft.get(v)!;
    const lambda = virtual.likelihoods.get(v)!;
    out[net.variables[v]!.name] = {
      kind: finding.likelihood ? 'likelihood' : 'soft',
      values: Object.fromEntries(states.map((s, x) => [s, written[x]!])),
      likelihood: Object.fromEntries(states.map((s, x) => [s, lambda[x]!])),
    };
  }
  const result = { net: virtual.net, evidence: virtual.evidence, findings: out };
  ctx.shared.set(key, { base: net, result });
  return result;
}

export function variableIndex(net: BayesianNetwork, index: Map<string, number>, name: string, at: A.Name): number {
  const v = index.get(name);
  if (v === undefined && isTableToLearn(net, name))
    throw new CompileError(
      `'${name}' has only a prior in ${describe(net)} (P(${name} | …) ~ …): learn its table from data first, or give its probabilities`,
      at.range,
    );
  if (v === undefined && isContinuousVariable(net, name))
    throw new CompileError(
      `'${name}' is continuous: ask P(${name}), mean ${name} or variance ${name} (this query takes discrete variables)`,
      at.range,
    );
  if (v === undefined) throw new CompileError(`'${name}' is not a variable of ${describe(net)}`, at.range);
  return v;
}

export function stateIndex(net: BayesianNetwork, v: number, state: string, at: A.NodeBase): number {
  const s = net.variables[v]!.states.indexOf(state);
  if (s < 0)
    throw new CompileError(
      `'${state}' is not a state of '${net.variables[v]!.name}' (states: ${net.variables[v]!.states.join(', ')})`,
      at.range,
    );
  return s;
}

export function describe(net: BayesianNetwork): string {
  return net.name === 'default' ? 'the default model' : `'${net.name}'`;
}

function replicaName(variable: string, i: number): string {
  return `${variable}#${i + 1}`;
}

/**
 * The scope's network with one observed copy `X#2` of each repeated X: X's parents, the states
 * [observed, not observed], and in state 0 the likelihood of X's later values, Π_v P(v | parents)^c_v
 * (c_v: how often v is among them), so it weighs the parents as that many independent copies
 * would. One node, not one per value: 100,000 observations used to be 100,000 nodes, and the
 * elimination order's cost grows with the square of a parent's neighbours (a hang). The powers
 * are taken in logs; when even the largest row would underflow (0.9^100000), every row is divided
 * by it: a constant factor of the evidence changes no posterior, where zeros would make the
 * evidence impossible. Memoised per run.
 */
function replicated(
  ctx: ModelContext,
  scope: NetworkScope,
  repeats: ReadonlyArray<readonly [string, readonly string[]]>,
): BayesianNetwork {
  const counted = repeats.map(([variable, values]) => {
    const counts = new Map<string, number>();
    for (let i = 1; i < values.length; i++) counts.set(values[i]!, (counts.get(values[i]!) ?? 0) + 1);
    return [variable, counts] as const;
  });
  const key = `replicated:${scope.name ?? ''}:${JSON.stringify(counted.map(([v, c]) => [v, [...c]]))}`;
  const base = scope.net;
  const known = ctx.shared.get(key) as { base: BayesianNetwork; net: BayesianNetwork } | undefined;
  // A `learn` earlier in the run replaces the scope's network: then the copies are rebuilt.
  if (known?.base === base) return known.net;
  const net: BayesianNetwork = { name: base.name, variables: [...base.variables], cpts: [...base.cpts] };
  const index = variableIndexMap(base);
  for (const [variable, counts] of counted) {
    const v = index.get(variable);
    if (v === undefined) continue; // reported by scopedEvidence with the observation's range
    const states = base.variables[v]!.states;
    const table = base.cpts[v]!.table;
    const rows = table.length / states.length;
    const logs = new Float64Array(rows); // NaN (an entry still to learn) stays NaN
    for (const [value, count] of counts) {
      const s = states.indexOf(value);
      if (s < 0) continue; // reported by scopedEvidence on the value
      for (let r = 0; r < rows; r++) logs[r] += count * Math.log(table[r * states.length + s]!);
    }
    let top = -Infinity;
    for (const l of logs) if (l > top) top = l;
    const shift = top > -600 || !Number.isFinite(top) ? 0 : top;
    const likelihood = new Float64Array(2 * rows);
    for (let r = 0; r < rows; r++) {
      likelihood[2 * r] = Math.exp(logs[r]! - shift);
      likelihood[2 * r + 1] = 1 - likelihood[2 * r]!;
    }
    const child = net.variables.push({ name: replicaName(variable, 1), states: ['observed', 'not observed'] }) - 1;
    net.cpts.push({ child, parents: base.cpts[v]!.parents, table: likelihood });
  }
  ctx.shared.set(key, { base, net });
  return net;
}
