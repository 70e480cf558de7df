/** `P(X | Y) ~ Beta(a, b) | Dirichlet(α) | m_estimate(m: 2) | experts { name: s of n }`. */
import type * as A from '../ast.js';
import type { CheckContext } from './context.js';
import { checkChoice, checkFinite } from './resolve.js';
import { checkArgs } from './calls.js';

export const PARAMETER_PRIORS = ['Beta', 'Dirichlet', 'm_estimate'] as const;

/** `states`: the table's child states when known here, to check per-state pseudo-counts against. */
export function checkParameterPrior(ctx: CheckContext, prior: A.Call | A.Experts, states?: readonly string[]): void {
  if (prior.kind === 'experts') {
    for (const e of prior.entries) {
      if (!checkFinite(ctx, e.successes) || !checkFinite(ctx, e.trials)) continue;
      if (e.successes.value < 0 || e.trials.value < e.successes.value) {
        ctx.report.error(
          'bad-number',
          `'${e.successes.text} of ${e.trials.text}' needs 0 ≤ successes ≤ trials`,
          e.range,
        );
      }
    }
    return;
  }
  if (!checkChoice(ctx, prior.callee, PARAMETER_PRIORS, 'a parameter prior')) return;
  const spec = {
    Beta: { positional: 2, named: [] },
    Dirichlet: { positional: 1, variadic: true, named: [] },
    m_estimate: { positional: 0, named: ['m', 'p'] },
  }[prior.callee.text as (typeof PARAMETER_PRIORS)[number]];
  checkArgs(ctx, prior, spec);
  for (const arg of prior.args) positivePseudoCounts(ctx, arg.value);
  if (prior.callee.text === 'Dirichlet' && states) checkDirichletStates(ctx, prior, states);
  if (prior.callee.text === 'm_estimate' && states) {
    const mismatch = mEstimateMismatch(prior, states);
    if (mismatch) ctx.report.error('arguments', mismatch.message, mismatch.range);
  }
}

/**
 * `m_estimate(m: 2, p: …)` adds m·p_i to the count of state i (Mitchell eq. 6.22), which is
 * (n_i + m·p_i) / (n + m) only when the p_i sum to 1: `p:` is one number for every state (so
 * 1/k) or a list with one per state, summing to 1 within 1e-6.
 */
export function mEstimateMismatch(
  prior: A.Call,
  states: readonly string[],
): { message: string; range: A.Call['range'] } | undefined {
  const p = prior.args.find((a) => a.name?.text === 'p')?.value;
  const k = states.length;
  if (p?.kind === 'number') {
    if (Math.abs(p.value * k - 1) <= 1e-6) return undefined;
    return {
      message:
        `p: ${p.text} for each of the ${k} states (${states.join(', ')}) sums to ${round(p.value * k)}, not 1: ` +
        `give one prior estimate per state, in this order, summing to 1` +
        (k === 2 && p.value <= 1 ? ` (p: [${p.text}, ${round(1 - p.value)}])` : ''),
      range: p.range,
    };
  }
  if (p?.kind !== 'list') return undefined;
  if (p.items.length !== k) {
    const listed = states.join(', ');
    return {
      message: `p: has ${p.items.length} number${p.items.length === 1 ? '' : 's'} for ${k} states (${listed})`,
      range: p.range,
    };
  }
  if (!p.items.every((i) => i.kind === 'number')) return undefined;
  const sum = p.items.reduce((t, i) => t + (i as A.NumberLit).value, 0);
  if (Math.abs(sum - 1) <= 1e-6) return undefined;
  return { message: `the prior estimates p: sum to ${round(sum)}, not 1`, range: p.range };
}

function round(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

function checkDirichletStates(ctx: CheckContext, prior: A.Call, states: readonly string[]): void {
  const mismatch = dirichletMismatch(prior, states);
  if (mismatch) ctx.report.error('arguments', mismatch.message, mismatch.range);
}

/**
 * `Dirichlet(α)` is α for every state; `Dirichlet(a1, …, ak)` or `Dirichlet([a1, …, ak])` one per
 * state. A count of numbers that is neither is a mistake (the checker and the run say it alike).
 */
export function dirichletMismatch(
  prior: A.Call,
  states: readonly string[],
): { message: string; range: A.Call['range'] } | undefined {
  const args = prior.args.filter((a) => !a.name);
  const list = args.length === 1 && args[0]!.value.kind === 'list' ? args[0]!.value : undefined;
  const given = list?.kind === 'list' ? list.items.length : args.length;
  if ((given === 1 && !list) || given === states.length || given === 0) return undefined;
  return {
    message:
      `Dirichlet has ${given} pseudo-counts for ${states.length} states (${states.join(', ')}): ` +
      'give one number for every state, or one per state in this order',
    range: list?.range ?? { start: args[0]!.range.start, end: args.at(-1)!.range.end },
  };
}

function positivePseudoCounts(ctx: CheckContext, value: A.Expr): void {
  if (value.kind === 'list') {
    for (const item of value.items) positivePseudoCounts(ctx, item);
    return;
  }
  if (value.kind !== 'number') return;
  if (checkFinite(ctx, value) && value.value < 0)
    ctx.report.error('bad-number', `pseudo-counts cannot be negative (${value.text})`, value.range);
}
