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
    ctx.report.error('arguments', `${fn} takes ${want} positional argument${spec.positional === 1 ? '' : 's'}, not ${positional.length}`, call.range);
  }
  const seen = new Set<string>();
  for (const arg of call.args) {
    if (!arg.name) continue;
    if (seen.has(arg.name.text)) ctx.report.error('arguments', `'${arg.name.text}' is given twice`, arg.name.range);
    seen.add(arg.name.text);
    if (!spec.named.includes(arg.name.text)) {
      const suggestion = nearestName(arg.name.text, spec.named);
      ctx.report.warning('unknown-option',
        `${fn} has no option '${arg.name.text}'${suggestion ? `; did you mean '${suggestion}'?` : spec.named.length ? ` (options: ${spec.named.join(', ')})` : ''}`,
        arg.name.range, suggestion ? { suggestion } : undefined);
    }
  }
  for (const required of spec.required ?? []) {
    if (!seen.has(required)) ctx.report.error('arguments', `${fn} needs '${required}: …'`, call.range);
  }
}

/** Options blocks `{ key: value }` are checked like named arguments. */
export function checkOptions(ctx: CheckContext, options: A.Options | undefined, known: readonly string[], what: string): void {
  if (!options) return;
  const seen = new Set<string>();
  for (const entry of options.entries) {
    const key = entry.name!;
    if (seen.has(key.text)) ctx.report.error('arguments', `'${key.text}' is given twice`, key.range);
    seen.add(key.text);
    if (known.includes(key.text)) continue;
    const suggestion = nearestName(key.text, known);
    ctx.report.warning('unknown-option', `${what} has no option '${key.text}'${suggestion ? `; did you mean '${suggestion}'?` : ` (options: ${known.join(', ')})`}`,
      key.range, suggestion ? { suggestion } : undefined);
  }
}

export function optionValue(options: A.Options | undefined, key: string): A.Expr | undefined {
  return options?.entries.find((e) => e.name?.text === key)?.value;
}
