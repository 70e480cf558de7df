/**
 * Linear Gaussian tables of continuous (`real`) variables:
 * `P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)` reads
 * Weight | Height ~ N(-10 + 0.5·Height, 4): `mean` is the intercept, each further named argument
 * the coefficient of a continuous parent (a parent without one has coefficient 0), `variance` > 0.
 * Discrete parents (one regression per configuration) are not written in this form yet, and a
 * discrete variable may not have a continuous parent (the CLG restriction, Lauritzen 1992).
 */
import type * as A from '../ast.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { checkFinite } from './resolve.js';
import { findVariable } from '../references/lookup.js';

/** True for `~ Normal(…)`: the table of a continuous variable, checked here rather than as a prior. */
export function isNormalTable(table: A.TableDecl): boolean {
  return table.parameterPrior?.kind === 'call' && table.parameterPrior.callee.text === 'Normal';
}

/** The checks of a `~ Normal(…)` table; `child` is the table's variable when it resolved. */
export function checkNormalTable(
  ctx: CheckContext,
  table: A.TableDecl,
  scope: Scope,
  child: VariableInfo | undefined,
): void {
  const call = table.parameterPrior as A.Call;
  if (child && child.type !== 'real') {
    ctx.report.error(
      'not-continuous',
      `'${child.name}' has states; Normal(…) gives the density of a 'real' variable`,
      table.head.targets[0].variable.range,
    );
    return;
  }
  const continuous = new Set<string>();
  for (const c of table.head.conditions) {
    const parent = findVariable(ctx, scope, c.variable.text);
    if (parent === undefined) continue; // reported by the table's head check
    if (parent.type === 'real') continuous.add(parent.name);
    else
      ctx.report.error(
        'not-continuous',
        `'${parent.name}' is discrete: a Normal(…) table takes continuous ('real') parents only`,
        c.variable.range,
      );
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
  const name = arg.name.text;
  if (seen.has(name)) ctx.report.error('arguments', `'${name}' is given twice`, arg.name.range);
  seen.add(name);
  if (name !== 'mean' && name !== 'variance' && !continuous.has(name)) {
    ctx.report.error(
      'arguments',
      `'${name}' is not a continuous parent of this table: a coefficient names a 'real' variable after '|'`,
      arg.name.range,
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
