/** `P(X | Y) ~ Beta(a, b) | Dirichlet(α) | m_estimate(m: 2) | experts { name: s of n }`. */
import type * as A from '../ast.js';
import type { CheckContext } from './context.js';
import { checkChoice, checkFinite } from './resolve.js';
import { checkArgs } from './calls.js';

export const PARAMETER_PRIORS = ['Beta', 'Dirichlet', 'm_estimate'] as const;

export function checkParameterPrior(ctx: CheckContext, prior: A.Call | A.Experts): void {
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
    Dirichlet: { positional: 1, named: [] },
    m_estimate: { positional: 0, named: ['m', 'p'] },
  }[prior.callee.text as (typeof PARAMETER_PRIORS)[number]];
  checkArgs(ctx, prior, spec);
  for (const arg of prior.args) positivePseudoCounts(ctx, arg.value);
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
