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
    if (value.kind !== 'number') ctx.report.error('unknown-state', `'${variable.name}' takes numbers, not '${textOf(value)}'`, value.range);
    return;
  }
  const states = variable.states;
  const text = value.kind === 'name' ? value.text : valueText(value);
  if (!states || text === undefined) {
    if (states && text === undefined) ctx.report.error('unknown-state', `expected a state of '${variable.name}' here`, value.range);
    return;
  }
  if (states.includes(text)) return;
  const suggestion = nearestName(text, states);
  ctx.report.error('unknown-state',
    `'${text}' is not a state of '${variable.name}' (${listStates(states)})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    value.range, suggestion ? { suggestion } : undefined);
}

export function listStates(states: string[]): string {
  return states.length > 8 ? `${states.slice(0, 8).join(', ')}, …` : states.join(', ');
}

function textOf(value: A.Expr | A.Name): string {
  return value.kind === 'name' ? value.text : valueText(value) ?? value.kind;
}

/** `X = v` / `X = [v, w]` / `X`: the variable exists in `scope` and `v` is one of its states. */
export function checkAssignment(ctx: CheckContext, scope: Scope, a: A.Assignment): VariableInfo | undefined {
  const variable = lookupVariable(ctx, scope, a.variable);
  if (variable && a.value) checkState(ctx, variable, a.value);
  return variable;
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
  ctx.report.error('unknown-option',
    `'${name.text}' is not ${what}; use ${choices.map((c) => `'${c}'`).join(', ')}${suggestion ? ` (did you mean '${suggestion}'?)` : ''}`,
    name.range, suggestion ? { suggestion } : undefined);
  return false;
}

/** Rounds for messages: 0.9999999999 sums read as 1, real mistakes keep their digits. */
export function showNumber(x: number): string {
  return String(Number(x.toPrecision(10)));
}
