/**
 * `noisy_or { Cause: p, …, leak: p }` and `noisy_max { Cause: { state: [ … ] }, leak: [ … ] }`:
 * the names are the table's causes (or `leak`), the numbers probabilities. How the numbers fit
 * together (a cause at least the leak, rows that sum to 1) is checked when the table is expanded.
 */
import type * as A from '../ast.js';
import type { CheckContext } from './context.js';
import { checkProbability, listStates } from './resolve.js';
import type { VariableInfo } from '../references/types.js';

/**
 * `variables`: the effect, then the causes in the table's order, as the checker resolved them
 * (undefined when unknown). noisy_or's one number per cause needs every one of them two-state.
 */
export function checkCanonical(
  ctx: CheckContext,
  table: A.TableDecl,
  model: A.CanonicalModel,
  variables: (VariableInfo | undefined)[],
): void {
  if (model.model === 'noisy_or') checkTwoStates(ctx, table, variables);
  const causes = table.head.conditions.map((c) => c.variable.text);
  const seen = new Set<string>();
  for (const e of model.entries) {
    if (e.cause.text !== 'leak' && !causes.includes(e.cause.text)) {
      ctx.report.error(
        'undefined-name',
        `'${e.cause.text}' is not a cause of this table (${causes.join(', ') || 'none'}) nor 'leak'`,
        e.cause.range,
      );
    }
    if (seen.has(e.cause.text)) ctx.report.error('duplicate-row', `'${e.cause.text}' is given twice`, e.cause.range);
    seen.add(e.cause.text);
    if (e.value) checkProbability(ctx, e.value);
    for (const n of e.list ?? []) checkProbability(ctx, n);
    for (const row of e.rows) for (const entry of row.entries) checkProbability(ctx, entry.value);
    if (model.model === 'noisy_or' && !e.value) {
      ctx.report.error('row-width', `noisy_or takes one probability per cause: '${e.cause.text}: 0.8'`, e.range);
    }
  }
  const missing = causes.filter((c) => !seen.has(c));
  if (missing.length > 0 && !table.recovered) {
    ctx.report.error(
      'missing-row',
      `no entry for the cause${missing.length === 1 ? '' : 's'} ${missing.map((m) => `'${m}'`).join(', ')}`,
      model.range,
      { missing },
    );
  }
}

function checkTwoStates(ctx: CheckContext, table: A.TableDecl, variables: (VariableInfo | undefined)[]): void {
  const names = [table.head.targets[0]!.variable, ...table.head.conditions.map((c) => c.variable)];
  variables.forEach((v, i) => {
    const states = v?.states ?? (v?.type === 'bool' ? ['true', 'false'] : undefined);
    if (!states || states.length === 2) return;
    ctx.report.error(
      'row-width',
      `noisy_or needs two-state causes and effect; '${v!.name}' has ${states.length} states (${listStates(states)}): use noisy_max`,
      names[i]!.range,
    );
  });
}
