/**
 * Whether a table has a row for every assignment of its parents (discrete tables, and the
 * regressions of a conditional linear Gaussian table, one per configuration of its discrete parents).
 */
import type * as A from '../ast.js';
import type { VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';

/** Beyond this many parent assignments only the count of rows is compared, not each assignment. */
const MAX_ENUMERATED_ASSIGNMENTS = 100_000;

/**
 * Every assignment of `parents` has a row (`seen` holds each row's keys joined by U+0000); the
 * missing ones are reported on the table's head. `names` are the parents as written (default: the
 * table's conditions; a conditional linear Gaussian table passes its discrete parents).
 */
export function checkAllAssignments(
  ctx: CheckContext,
  table: A.TableDecl,
  parents: (VariableInfo | undefined)[],
  seen: Set<string>,
  names: readonly string[] = table.head.conditions.map((c) => c.variable.text),
): void {
  if (parents.some((p) => !p?.states)) return;
  const domains = parents.map((p) => p!.states!);
  const total = domains.reduce((n, d) => n * d.length, 1);
  if (total > MAX_ENUMERATED_ASSIGNMENTS) {
    if (seen.size < total)
      ctx.report.error(
        'missing-row',
        `the table has ${seen.size} rows but its parents have ${total} assignments`,
        table.head.range,
      );
    return;
  }
  const missing: string[][] = [];
  const index = domains.map(() => 0);
  const values = domains.map((d) => d[0]); // the assignment `index` points at
  for (let n = 0; n < total; n++) {
    for (let i = 0; i < index.length; i++) values[i] = domains[i][index[i]];
    if (!seen.has(values.join('\u0000'))) missing.push([...values]);
    for (let i = index.length - 1; i >= 0; i--) {
      if (++index[i] < domains[i].length) break;
      index[i] = 0;
    }
  }
  if (missing.length === 0) return;
  const shown = missing
    .slice(0, 3)
    .map((values) => names.map((name, i) => `${name} = ${values[i]}`).join(', '))
    .join('; ');
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
  ctx.report.error('missing-row', `no row for ${shown}${more}`, table.head.range, { missing });
}
