/**
 * The `{ … }` options of a `learn` statement, read with the checks the engines need; an option
 * that does not apply to what is being learnt is a warning, not silently ignored.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { CompileError } from '../model/compileError.js';
import { LEARN_OPTIONS } from '../language/learnMethods.js';

export class LearnOptions {
  private readonly entries: Map<string, A.Arg>;
  constructor(options: A.Options | undefined) {
    this.entries = new Map((options?.entries ?? []).filter((e) => e.name).map((e) => [e.name!.text, e]));
  }

  /** A number option; `integer` and `min` are checked on the value's range. */
  number(
    name: string,
    fallback: number,
    rule: { integer?: boolean; min?: number; positive?: boolean; max?: number } = {},
  ): number {
    const entry = this.entries.get(name);
    if (!entry) return fallback;
    const v = entry.value;
    if (v.kind !== 'number') throw new CompileError(`${name}: needs a number`, v.range);
    const x = v.value;
    // A budget, not a range: the work (and the per-iteration trace) grows with it.
    if (rule.max !== undefined && x > rule.max)
      throw new CompileError(`${name}: ${v.text} is over the budget of ${rule.max.toLocaleString('en-US')}`, v.range);
    if (
      (rule.integer && !Number.isInteger(x)) ||
      (rule.min !== undefined && x < rule.min) ||
      (rule.positive && !(x > 0))
    ) {
      const what = [
        rule.integer ? 'an integer' : 'a number',
        rule.min !== undefined ? `≥ ${rule.min}` : '',
        rule.positive ? '> 0' : '',
      ]
        .filter(Boolean)
        .join(' ');
      throw new CompileError(`${name}: must be ${what}, not ${v.text}`, v.range);
    }
    return x;
  }

  /** A name option (`score: bic`) among `choices`. */
  choice<T extends string>(name: string, choices: readonly T[], fallback: T): T {
    const v = this.entries.get(name)?.value;
    if (!v) return fallback;
    if (v.kind !== 'ref' || !choices.includes(v.name.text as T))
      throw new CompileError(`${name}: must be one of ${choices.join(', ')}`, v.range);
    return v.name.text as T;
  }

  /** A list of names (`order: [A, B, C]`). */
  names(name: string): A.Name[] | undefined {
    const v = this.entries.get(name)?.value;
    if (!v) return undefined;
    if (v.kind !== 'list' || v.items.some((i) => i.kind !== 'ref'))
      throw new CompileError(`${name}: must be a list of names, e.g. [A, B, C]`, v.range);
    return v.items.map((i) => (i as A.Ref).name);
  }

  /** Where an option's value is written (for diagnostics the engines' checks raise). */
  valueRange(name: string): A.Expr['range'] | undefined {
    return this.entries.get(name)?.value.range;
  }

  /**
   * Warnings for the options given that `what` does not use. A name no learning takes at all is
   * left to the checker, which has already warned of it with the nearest spelling.
   */
  unused(used: readonly string[], what: string, known: readonly string[] = LEARN_OPTIONS): Diagnostic[] {
    const takes = used.length > 0 ? `it takes ${used.join(', ')}` : 'it takes no options';
    return [...this.entries.values()]
      .filter((e) => !used.includes(e.name!.text) && known.includes(e.name!.text))
      .map((e) => ({
        severity: 'warning' as const,
        code: 'unknown-option',
        range: e.name!.range,
        message: `'${e.name!.text}' does not apply to ${what} and is ignored (${takes})`,
      }));
  }
}

/**
 * Budgets of the counts a learning statement repeats its work by. `learn N from D by em
 * { iterations: 1e9, tolerance: 0 }` ran until killed, its log-likelihood trace (8 bytes an
 * iteration) growing about 5 MB a second; 1e9 restarts or replicates never ended either.
 */
export const MAX_ITERATIONS = 1_000_000;
export const MAX_RESTARTS = 10_000;
export const MAX_REPLICATES = 100_000;
