/**
 * Checks shared by the check modules: states of a variable, probabilities, numbers, choices.
 * Names resolve in `references/lookup.ts`.
 */
import type * as A from '../ast.js';
import { valueText } from '../ast.js';
import { nearestName } from '../suggest.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import { lookupVariable } from '../references/lookup.js';
import type { CheckContext } from './context.js';

/** Checks that `value` (or each item of a list) is a state of `variable`. */
export function checkState(ctx: CheckContext, variable: VariableInfo, value: A.Expr | A.Name): void {
  if (value.kind === 'list') {
    for (const item of value.items) checkState(ctx, variable, item);
    return;
  }
  if (variable.type === 'real') {
    if (value.kind !== 'number')
      ctx.report.error('unknown-state', `'${variable.name}' takes numbers, not '${textOf(value)}'`, value.range);
    return;
  }
  const states = variable.states;
  const text = value.kind === 'name' ? value.text : valueText(value);
  if (!states || text === undefined) {
    if (states && text === undefined)
      ctx.report.error('unknown-state', `expected a state of '${variable.name}' here`, value.range);
    return;
  }
  if (states.includes(text)) return;
  const suggestion = nearestName(text, states);
  ctx.report.error(
    'unknown-state',
    `'${text}' is not a state of '${variable.name}' (${listStates(states)})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    value.range,
    suggestion ? { suggestion } : undefined,
  );
}

export function listStates(states: string[]): string {
  return states.length > 8 ? `${states.slice(0, 8).join(', ')}, …` : states.join(', ');
}

function textOf(value: A.Expr | A.Name): string {
  return value.kind === 'name' ? value.text : (valueText(value) ?? value.kind);
}

/** `X = v` / `X = [v, w]` / `X`: the variable exists in `scope` and `v` is one of its states. */
export function checkAssignment(ctx: CheckContext, scope: Scope, a: A.Assignment): VariableInfo | undefined {
  const variable = lookupVariable(ctx, scope, a.variable);
  if (variable && a.value) checkState(ctx, variable, a.value);
  if (a.finding) checkFinding(ctx, variable, a.finding);
  return variable;
}

/**
 * `~ { a: 0.7, b: 0.3 }` (soft: probabilities summing to 1) or `~ likelihood { a: 0.8, b: 0.2 }`
 * (virtual: finite, not negative, not all zero). States are the variable's, each at most once;
 * states left out have 0.
 */
export function checkFinding(ctx: CheckContext, variable: VariableInfo | undefined, f: A.Finding): void {
  const seen = new Set<string>();
  let sum = 0,
    ok = true;
  for (const entry of f.entries) {
    if (variable) checkState(ctx, variable, entry.state!);
    if (seen.has(entry.state!.text)) {
      ctx.report.error('soft-evidence', `'${entry.state!.text}' is given twice`, entry.state!.range);
    }
    seen.add(entry.state!.text);
    if (f.likelihood) {
      if (!checkFinite(ctx, entry.value)) {
        ok = false;
        continue;
      }
      if (entry.value.value < 0) {
        ctx.report.error('bad-number', `a likelihood cannot be negative: ${entry.value.text}`, entry.value.range);
        ok = false;
      }
    } else if (!checkProbability(ctx, entry.value)) {
      ok = false;
    }
    sum += entry.value.value;
  }
  if (!ok) return;
  if (f.likelihood && sum === 0) {
    ctx.report.error('soft-evidence', 'the likelihood is zero for every state: it rules out every value', f.range);
  } else if (!f.likelihood && Math.abs(sum - 1) > 1e-6) {
    const message = `soft evidence is a distribution: its probabilities sum to ${showNumber(sum)}, not 1`;
    ctx.report.error('soft-evidence', message, f.range, { sum });
  }
}

/** A number that must be a probability: finite and within [0, 1]. */
export function checkProbability(ctx: CheckContext, n: A.NumberLit): boolean {
  if (!checkFinite(ctx, n)) return false;
  if (n.value < 0 || n.value > 1) {
    ctx.report.error('probability-range', `${n.text} is not a probability: it must lie between 0 and 1`, n.range);
    return false;
  }
  return true;
}

export function checkFinite(ctx: CheckContext, n: A.NumberLit): boolean {
  if (Number.isFinite(n.value)) return true;
  ctx.report.error('bad-number', `${n.text} is not a finite number`, n.range);
  return false;
}

/** A name from a fixed set (methods, options): unknown ones get an error with the nearest spelling. */
export function checkChoice(ctx: CheckContext, name: A.Name, choices: readonly string[], what: string): boolean {
  if (choices.includes(name.text)) return true;
  const suggestion = nearestName(name.text, choices);
  ctx.report.error(
    'unknown-option',
    `'${name.text}' is not ${what}; use ${choices.map((c) => `'${c}'`).join(', ')}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`,
    name.range,
    suggestion ? { suggestion } : undefined,
  );
  return false;
}

/** Rounds for messages: 0.9999999999 sums read as 1, real mistakes keep their digits. */
export function showNumber(x: number): string {
  return String(Number(x.toPrecision(10)));
}
