/** Arguments of calls such as `naive_bayes(T, target: Play)`: how many positional, which named. */
import type * as A from '../ast.js';
import { nearestName } from '../suggest.js';
import type { CheckContext } from './context.js';

export interface CallSpec {
  /** Exact number of positional arguments (or the least, with `variadic`). */
  positional: number;
  variadic?: boolean;
  named: readonly string[];
  required?: readonly string[];
}

export function checkArgs(ctx: CheckContext, call: A.Call, spec: CallSpec): void {
  const positional = call.args.filter((a) => !a.name);
  const fn = call.callee.text;
  if (positional.length < spec.positional || (!spec.variadic && positional.length > spec.positional)) {
    const want = spec.variadic ? `at least ${spec.positional}` : String(spec.positional);
    ctx.report.error(
      'arguments',
      `${fn} takes ${want} positional argument${spec.positional === 1 ? '' : 's'}, not ${positional.length}`,
      call.range,
    );
  }
  const seen = checkNames(
    ctx,
    call.args.flatMap((a) => (a.name ? [a.name] : [])),
    spec.named,
    fn,
  );
  for (const required of spec.required ?? []) {
    if (!seen.has(required)) ctx.report.error('arguments', `${fn} needs '${required}: …'`, call.range);
  }
}

/** Options blocks `{ key: value }` are checked like named arguments. */
export function checkOptions(
  ctx: CheckContext,
  options: A.Options | undefined,
  known: readonly string[],
  what: string,
): void {
  if (options)
    checkNames(
      ctx,
      options.entries.map((e) => e.name!),
      known,
      what,
    );
}

/** Reports names given twice and unknown ones (suggesting the nearest); returns the names seen. */
function checkNames(ctx: CheckContext, names: readonly A.Name[], known: readonly string[], what: string): Set<string> {
  const seen = new Set<string>();
  for (const name of names) {
    if (seen.has(name.text)) ctx.report.error('arguments', `'${name.text}' is given twice`, name.range);
    seen.add(name.text);
    if (known.includes(name.text)) continue;
    const suggestion = nearestName(name.text, known);
    ctx.report.warning(
      'unknown-option',
      `${what} has no option '${name.text}'${suggestion ? `; did you mean '${suggestion}'?` : known.length ? ` (options: ${known.join(', ')})` : ''}`,
      name.range,
      suggestion ? { suggestion } : undefined,
    );
  }
  return seen;
}
