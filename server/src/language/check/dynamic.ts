/**
 * Networks over time (2-slice templates): a network whose tables index their variables by time,
 * `P(Rain[t] | Rain[t-1])`, `P(Rain[0])`. Every table then indexes every name: its variable at
 * `[0]` (the initial slice) or `[t]` (the transition), its conditions in the same slice or, in a
 * transition, at `[t-1]`. A variable needs a table at t; it needs one at 0 too when its table at t
 * conditions on t−1 (else that table serves slice 0 as well).
 */
import type * as A from '../ast.js';
import type { Scope } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import type { Range } from '../diagnostics.js';

/** The name with its slice, so `Rain[t]` and `Rain[t-1]` are different nodes of the template. */
export function sliceKey(a: A.Assignment): string {
  return timedName(a.variable.text, a.time);
}

/** `Position[t-1]`: a name with its slice (the bare name without one). */
export function timedName(name: string, t: A.TimeIndex | undefined): string {
  if (!t) return name;
  return `${name}[${t.step ? `t${t.offset || ''}` : t.offset}]`;
}

/** Whether a table is written over time (any index in its P(…)). */
export function isTimed(table: A.TableDecl): boolean {
  return table.head.targets.some((a) => a.time) || table.head.conditions.some((a) => a.time);
}

/** Whether any table of the network indexes its variables by time: a network over time. */
export function isNetworkOverTime(decl: A.NetworkDecl): boolean {
  return decl.statements.some((s) => s.kind === 'table' && isTimed(s));
}

/** 'initial' for `[0]`, 'transition' for `[t]`, undefined for anything else. */
export function sliceOf(time: A.TimeIndex | undefined): 'initial' | 'transition' | undefined {
  if (!time) return undefined;
  if (!time.step) return time.offset === 0 ? 'initial' : undefined;
  return time.offset === 0 ? 'transition' : undefined;
}

export function checkDynamic(ctx: CheckContext): void {
  const byScope = new Map<Scope, A.TableDecl[]>();
  for (const { table, scope } of ctx.symbols.tables) {
    const list = byScope.get(scope) ?? [];
    list.push(table);
    byScope.set(scope, list);
  }
  for (const [scope, tables] of byScope) if (tables.some(isTimed)) checkTemplate(ctx, scope, tables);
}

function checkTemplate(ctx: CheckContext, scope: Scope, tables: A.TableDecl[]): void {
  if (scope.kind !== 'network') {
    const first = tables.find(isTimed)!;
    ctx.report.error(
      'time-scope',
      'a network over time is a named network: write it inside `network Name { … }`',
      first.head.range,
    );
    return;
  }
  const initial = new Set<string>();
  const transition = new Map<string, A.TableDecl>();
  for (const table of tables) {
    if (table.head.targets.length !== 1) continue;
    const target = table.head.targets[0];
    if (!checkIndex(ctx, target)) continue;
    const slice = sliceOf(target.time);
    if (!slice) {
      ctx.report.error(
        'time-index',
        `a table is of slice 0 (${target.variable.text}[0]) or of slice t (${target.variable.text}[t])`,
        target.time!.range,
      );
      continue;
    }
    if (slice === 'initial') initial.add(target.variable.text);
    else transition.set(target.variable.text, table);
    for (const c of table.head.conditions) if (checkIndex(ctx, c)) checkCondition(ctx, slice, c);
  }
  const kinds = [...scope.variables.values()].filter((v) => v.declaration);
  const mixed = kinds.some((v) => v.type === 'real') && kinds.some((v) => v.type !== 'real');
  for (const variable of scope.variables.values()) {
    const at = variable.declaration;
    if (!at) continue;
    if (mixed && variable.type === 'real') {
      // A switching model: its exact posterior is a mixture of Gaussians with a component per discrete history.
      ctx.report.error(
        'mixed-time',
        `'${variable.name}' is continuous and the network over time also has discrete variables: mixed (switching) networks over time are not supported — exact inference is exponential in T; make every variable 'real' (a Gaussian slice) or give it states`,
        at.range,
      );
      continue;
    }
    const table = transition.get(variable.name);
    if (!table) {
      ctx.report.error(
        'missing-table',
        `'${variable.name}' has no table at t: give P(${variable.name}[t] | …)`,
        at.range,
      );
      continue;
    }
    const fromPast = table.head.conditions.some((c) => c.time?.step && c.time.offset === -1);
    if (fromPast && !initial.has(variable.name))
      ctx.report.error(
        'missing-table',
        `'${variable.name}' has no table at 0: give P(${variable.name}[0] | …) (its table at t conditions on t-1)`,
        at.range,
      );
  }
}

/** Every name of a table over time carries its slice, and the time is called `t`. */
function checkIndex(ctx: CheckContext, a: A.Assignment): boolean {
  if (!a.time) {
    ctx.report.error(
      'time-index',
      `in a network over time, give the slice of '${a.variable.text}': ${a.variable.text}[t], ${a.variable.text}[t-1] or ${a.variable.text}[0]`,
      a.variable.range,
    );
    return false;
  }
  if (a.time.step && a.time.step.text !== 't') {
    ctx.report.error(
      'time-index',
      `time is written 't' (${a.variable.text}[t], ${a.variable.text}[t-1])`,
      a.time.step.range,
    );
    return false;
  }
  return true;
}

function checkCondition(ctx: CheckContext, slice: 'initial' | 'transition', c: A.Assignment): void {
  const t = c.time!;
  const name = c.variable.text;
  if (slice === 'initial') {
    if (t.step || t.offset !== 0)
      ctx.report.error('time-index', `a table of slice 0 conditions on slice 0 only: write ${name}[0]`, t.range);
    return;
  }
  if (!t.step)
    ctx.report.error(
      'time-index',
      `a table at t conditions on ${name}[t] or ${name}[t-1], not on a fixed slice`,
      t.range,
    );
  else if (t.offset > 0)
    ctx.report.error('time-arc', `an arc from the future: ${name}[t+${t.offset}] cannot be a parent at t`, t.range);
  else if (t.offset < -1)
    ctx.report.error(
      'time-arc',
      `only arcs from the previous slice are supported: ${name}[t-1], not ${name}[t${t.offset}]`,
      t.range,
    );
}

/** The network over time `name` names, if it is one. */
export function networkOverTime(ctx: CheckContext, name: A.Name | undefined): A.NetworkDecl | undefined {
  const global = name ? ctx.symbols.globals.get(name.text) : undefined;
  if (global?.kind !== 'network' || global.node.kind !== 'network') return undefined;
  const decl = global.node;
  return isNetworkOverTime(decl) ? decl : undefined;
}

/** How a probability over time is conditioned on the data: on all of it, or on the steps up to t. */
export const TIME_METHODS = ['smoothing', 'filtering'] as const;

/**
 * `P(X[k] = x) in N [using filtering|smoothing] given D` over a network over time: one variable
 * at an absolute step k ≥ 1 with a state, and one data set of observations (row k is step k).
 */
export function checkTimeQuery(ctx: CheckContext, scope: Scope, q: A.ProbabilityQuery | A.MpeQuery): void {
  if (q.form === 'probability') {
    const targets = q.prob.targets;
    if (targets.length !== 1 || q.prob.conditions.length > 0) {
      ctx.report.error(
        'time-query',
        'ask for one variable at one step, P(X[k] = x); the data set after `given` is the evidence',
        q.prob.range,
      );
    }
    for (const a of targets) {
      if (!a.time || a.time.step || a.time.offset < 1)
        ctx.report.error(
          'time-query',
          `name the step: ${a.variable.text}[1] is the first row of the data`,
          a.time?.range ?? a.variable.range,
        );
      const real = scope.variables.get(a.variable.text)?.type === 'real';
      if (real && a.value)
        ctx.report.error(
          'time-query',
          `'${a.variable.text}' is continuous: ask P(${a.variable.text}[k]) for its mean and variance (any one value has probability 0)`,
          a.value.range,
        );
      else if (!a.value && !real)
        ctx.report.error('time-query', `name a state: ${a.variable.text}[k] = state`, a.range);
      else if (!scope.variables.has(a.variable.text))
        ctx.report.error(
          'undefined-name',
          `'${a.variable.text}' is not a variable of the network over time`,
          a.variable.range,
        );
    }
  }
  checkObservations(ctx, scope, q.given, q.range);
}

/** `mean X[k] in N [using filtering] given D`: a real variable of a Gaussian network over time at step k ≥ 1. */
export function checkTimeMoment(ctx: CheckContext, scope: Scope, q: A.ContinuousMomentQuery): void {
  const name = q.variable.text;
  if (!q.time || q.time.step || q.time.offset < 1)
    ctx.report.error(
      'time-query',
      `name the step: ${name}[1] is the first row of the data`,
      q.time?.range ?? q.variable.range,
    );
  const variable = scope.variables.get(name);
  if (!variable)
    ctx.report.error('undefined-name', `'${name}' is not a variable of the network over time`, q.variable.range);
  else if (variable.type !== 'real')
    ctx.report.error(
      'not-continuous',
      `'${name}' has states: \`${q.moment} X[k]\` asks for a continuous ('real') variable; ask P(${name}[k] = state)`,
      q.variable.range,
    );
  checkObservations(ctx, scope, q.given, q.range);
}

/** The evidence of a query over time: one data set (row k is step k), then any soft or virtual findings. */
function checkObservations(ctx: CheckContext, scope: Scope, given: readonly A.Assignment[], range: Range): void {
  const q = { given, range };
  const data = q.given.filter((g) => !g.value && !g.finding && ctx.symbols.data.has(g.variable.text));
  const findings = q.given.filter((g) => g.finding);
  if (data.length !== 1 || q.given[0] !== data[0] || q.given.length !== 1 + findings.length) {
    const at = q.given[0]?.range ?? q.range;
    ctx.report.error(
      'time-query',
      'give the observations as one data set, then any soft or virtual findings: `given D, X[k] ~ { … }`',
      at,
    );
  }
  // `X[k] ~ { x: p, … }` (soft) or `X[k] ~ likelihood { … }` (virtual) at step k of the data.
  for (const g of findings) {
    if (!g.time || g.time.step || g.time.offset < 1)
      ctx.report.error(
        'time-query',
        `name the step of the finding: ${g.variable.text}[k], k ≥ 1`,
        g.time?.range ?? g.range,
      );
    else if (!scope.variables.has(g.variable.text))
      ctx.report.error(
        'undefined-name',
        `'${g.variable.text}' is not a variable of the network over time`,
        g.variable.range,
      );
  }
}

/** Outside a network over time, `X[k]` means nothing. */
export function checkNoTime(ctx: CheckContext, assignments: readonly A.Assignment[]): void {
  for (const a of assignments)
    if (a.time)
      ctx.report.error(
        'time-index',
        `'${a.variable.text}' has no time here: [..] indexes variables of a network over time`,
        a.time.range,
      );
}
