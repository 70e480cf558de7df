/**
 * Linear Gaussian tables of continuous (`real`) variables:
 * `P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)` reads
 * Weight | Height ~ N(-10 + 0.5·Height, 4): `mean` is the intercept, each further named argument
 * the coefficient of a continuous parent (a parent without one has coefficient 0), `variance` > 0.
 * With discrete parents the table is conditional linear Gaussian: one such regression per
 * configuration of the discrete parents, written as rows keyed by their states
 * (`P(Weight | Sex, Height) { male: Normal(…), female: Normal(…) }`). A discrete variable may
 * not have a continuous parent (the CLG restriction, Lauritzen 1992).
 */
import type * as A from '../ast.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { checkFinite, checkState } from './resolve.js';
import { findVariable } from '../references/lookup.js';
import { checkAllAssignments } from './rowCoverage.js';
import { sliceKey, timedName } from './dynamic.js';

/**
 * True for `~ Normal(…)` or rows of `Normal(…)`: the table of a continuous variable, checked
 * here rather than as a prior or a discrete table.
 */
export function isNormalTable(table: A.TableDecl): boolean {
  if (table.parameterPrior)
    return table.parameterPrior.kind === 'call' && table.parameterPrior.callee.text === 'Normal';
  return table.rows.some((row) => row.form === 'normal');
}

/**
 * `P(X | …) ~ Normal()`: a continuous variable's table declared to be learnt from data (`learn N
 * from D`), one regression per configuration of its discrete parents, as `~ Dirichlet(1)` declares
 * a discrete one.
 */
export function isLearntNormal(table: A.TableDecl): boolean {
  return (
    table.parameterPrior?.kind === 'call' &&
    table.parameterPrior.callee.text === 'Normal' &&
    !table.parameterPrior.args.length
  );
}

/** The regressions of a continuous variable's table: one without keys (`~ Normal(…)`), else one per row. */
export function normalRows(table: A.TableDecl): { keys: A.Name[]; call: A.Call; row?: A.Row }[] {
  if (table.parameterPrior?.kind === 'call') return [{ keys: [], call: table.parameterPrior }];
  return table.rows.flatMap((row) => (row.normal ? [{ keys: row.keys, call: row.normal, row }] : []));
}

/** The checks of a continuous variable's table; `child` is the table's variable when it resolved. */
export function checkNormalTable(
  ctx: CheckContext,
  table: A.TableDecl,
  scope: Scope,
  child: VariableInfo | undefined,
): void {
  if (child && child.type !== 'real') {
    ctx.report.error(
      'not-continuous',
      `'${child.name}' has states; Normal(…) gives the density of a 'real' variable`,
      table.head.targets[0].variable.range,
    );
    return;
  }
  // In a network over time a coefficient names its parent with the parent's slice: `Position[t-1]: 1`.
  const continuous = new Set<string>();
  const discrete: { info: VariableInfo; name: A.Name }[] = [];
  for (const c of table.head.conditions) {
    const parent = findVariable(ctx, scope, c.variable.text);
    if (parent === undefined) continue; // reported by the table's head check
    if (parent.type === 'real') continuous.add(sliceKey(c));
    else discrete.push({ info: parent, name: c.variable });
  }
  if (isLearntNormal(table)) return;
  if (table.parameterPrior) {
    for (const d of discrete)
      ctx.report.error(
        'not-continuous',
        `'${d.info.name}' is discrete: give one regression per state, in rows — P(${child?.name ?? 'X'} | …) { ${d.info.states?.[0] ?? 'state'}: Normal(…), … }`,
        d.name.range,
      );
    checkNormalCall(ctx, table.parameterPrior as A.Call, continuous);
    return;
  }
  checkNormalRows(ctx, table, discrete, continuous);
}

/** `P(X | D₁, D₂, Y) { d₁, d₂: Normal(…), … }`: a row per configuration of the discrete parents, each a regression. */
function checkNormalRows(
  ctx: CheckContext,
  table: A.TableDecl,
  discrete: { info: VariableInfo; name: A.Name }[],
  continuous: Set<string>,
): void {
  if (discrete.length === 0 && table.head.conditions.every((c) => continuous.has(c.variable.text))) {
    ctx.report.error(
      'row-width',
      'without discrete parents there is one regression: write ~ Normal(mean: m, variance: v, …)',
      table.head.range,
    );
    return;
  }
  const seen = new Set<string>();
  const k = discrete.length;
  const names = discrete.map((d) => d.info.name).join(', ');
  for (const row of table.rows) {
    if (!row.normal) {
      ctx.report.error(
        'row-width',
        `each row of a continuous variable's table is a regression: Normal(mean: m, variance: v, …)`,
        row.range,
      );
      continue;
    }
    if (row.keys.length !== k) {
      ctx.report.error(
        'row-width',
        `this row gives ${row.keys.length} parent value${row.keys.length === 1 ? '' : 's'} but the table has ${k} discrete parent${k === 1 ? '' : 's'} (${names})`,
        { start: row.keys[0].range.start, end: row.keys[row.keys.length - 1].range.end },
      );
    } else {
      for (let i = 0; i < k; i++) checkState(ctx, discrete[i].info, row.keys[i]);
      const id = row.keys.map((key) => key.text).join('\u0000');
      if (seen.has(id))
        ctx.report.error(
          'duplicate-row',
          `there is already a regression for ${discrete.map((d, i) => `${d.info.name} = ${row.keys[i].text}`).join(', ')}`,
          row.range,
        );
      seen.add(id);
    }
    checkNormalCall(ctx, row.normal, continuous);
  }
  if (!table.recovered)
    checkAllAssignments(
      ctx,
      table,
      discrete.map((d) => d.info),
      seen,
      discrete.map((d) => d.info.name),
    );
}

/** One `Normal(mean: m, variance: v, Parent: b, …)`. */
function checkNormalCall(ctx: CheckContext, call: A.Call, continuous: Set<string>): void {
  if (call.callee.text !== 'Normal') {
    ctx.report.error(
      'arguments',
      `a continuous variable's row is Normal(…), not ${call.callee.text}(…)`,
      call.callee.range,
    );
    return;
  }
  const seen = new Set<string>();
  for (const arg of call.args) checkNormalArg(ctx, arg, continuous, seen);
  for (const needed of ['mean', 'variance'])
    if (!seen.has(needed)) ctx.report.error('arguments', `Normal(…) needs '${needed}: NUMBER'`, call.range);
}

function checkNormalArg(ctx: CheckContext, arg: A.Arg, continuous: Set<string>, seen: Set<string>): void {
  if (!arg.name) {
    ctx.report.error('arguments', 'name each number: Normal(mean: m, variance: v, Parent: b)', arg.range);
    return;
  }
  const base = arg.name.text;
  const name = timedName(base, arg.time);
  const range = arg.time ? { start: arg.name.range.start, end: arg.time.range.end } : arg.name.range;
  if (seen.has(name)) ctx.report.error('arguments', `'${name}' is given twice`, range);
  seen.add(name);
  if (name !== 'mean' && name !== 'variance' && !continuous.has(name)) {
    const slices = [...continuous].filter((c) => c.startsWith(`${base}[`));
    ctx.report.error(
      'arguments',
      slices.length && !arg.time
        ? `give the slice of the parent '${name}': ${slices.map((c) => `${c}: b`).join(' or ')}`
        : `'${name}' is not a continuous parent of this table: a coefficient names a 'real' variable after '|'`,
      range,
    );
    return;
  }
  if (arg.value.kind !== 'number') {
    ctx.report.error('arguments', `'${name}' takes a number`, arg.value.range);
    return;
  }
  if (!checkFinite(ctx, arg.value)) return;
  if (name === 'variance' && !(arg.value.value > 0))
    ctx.report.error('bad-number', `a variance must be greater than 0, not ${arg.value.text}`, arg.value.range);
}

/** A discrete table whose parent is continuous: an error on that parent, with the CLG reason; true when clean. */
export function checkDiscreteParents(ctx: CheckContext, table: A.TableDecl, scope: Scope): boolean {
  let clean = true;
  for (const c of table.head.conditions) {
    if (c.value) continue;
    const parent = findVariable(ctx, scope, c.variable.text);
    if (parent?.type !== 'real') continue;
    clean = false;
    ctx.report.error(
      'continuous-parent',
      `'${parent.name}' is continuous: in CLG networks a discrete variable may not have a continuous parent`,
      c.variable.range,
    );
  }
  return clean;
}
