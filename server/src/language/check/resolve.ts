/** Name resolution shared by the checks: globals, variables in a scope, states of a variable. */
import type * as A from '../ast.js';
import { valueText } from '../ast.js';
import { NameIndex, nearestName } from '../suggest.js';
import type { GlobalKind, GlobalSymbol, Scope, VariableInfo } from '../symbols.js';
import type { CheckContext } from './context.js';

const kindWords: Record<GlobalKind, string> = {
  variable: 'a variable',
  hypotheses: 'a hypothesis space',
  network: 'a network',
  import: 'an imported network',
  data: 'a data set',
  corpus: 'a corpus',
  classifier: 'a classifier',
  mixture: 'a mixture',
  unknown: 'a statement with errors',
};

/**
 * Reports `name` as undefined, suggesting the nearest of the names `candidates` builds; `key`
 * says which set of names that is, so a check builds each index once (see `SuggestionBudget`).
 */
export function undefinedName(
  ctx: CheckContext,
  name: A.Name,
  what: string,
  key: unknown,
  candidates: () => Iterable<string>,
): void {
  const budget = ctx.report.suggestions;
  const suggestion = budget.left > 0 ? budget.index(key, candidates).nearest(name.text, budget) : undefined;
  const noun = what.replace(/^an? /, '');
  ctx.report.error(
    'undefined-name',
    `${noun} '${name.text}' is not defined${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    name.range,
    suggestion ? { suggestion } : undefined,
  );
}

/** A file-wide declaration of one of `kinds`; reports unknown names and names of the wrong kind. */
export function requireGlobal(
  ctx: CheckContext,
  name: A.Name,
  kinds: GlobalKind[],
  what: string,
): GlobalSymbol | undefined {
  const symbol = ctx.symbols.globals.get(name.text);
  if (!symbol) {
    const candidates = () =>
      [...ctx.symbols.globals.values()].filter((s) => kinds.includes(s.kind)).map((s) => s.name.text);
    undefinedName(ctx, name, what, `globals:${kinds.join(',')}`, candidates);
    return undefined;
  }
  if (symbol.kind === 'unknown') return undefined;
  if (!kinds.includes(symbol.kind)) {
    ctx.report.error('wrong-kind', `'${name.text}' is ${kindWords[symbol.kind]}, not ${what}`, name.range);
    return undefined;
  }
  ctx.symbols.references.set(name, symbol.name);
  return symbol;
}

/** The scope of `in N`: a network, imported network, classifier or learned structure. */
export function modelScope(ctx: CheckContext, name: A.Name | undefined): Scope {
  if (!name) return ctx.symbols.defaultScope;
  const symbol = requireGlobal(ctx, name, ['network', 'import', 'classifier'], 'a network or classifier');
  const scope = symbol && ctx.symbols.scopes.get(name.text);
  return scope ?? { kind: 'network', name: name.text, variables: new Map(), open: true };
}

/**
 * A variable as seen from `scope`. Network scopes also see the file's top-level variables; the
 * default scope also sees every network's variables and every data column (names resolve
 * file-wide). Reports an undefined name unless the scope's contents are unknown.
 */
export function lookupVariable(ctx: CheckContext, scope: Scope, name: A.Name): VariableInfo | undefined {
  const found = findVariable(ctx, scope, name.text);
  if (found?.declaration) ctx.symbols.references.set(name, found.declaration);
  if (found || scope.open || (scope.kind === 'default' && anyOpenScope(ctx))) return found;
  // Declared by a statement that did not parse: its syntax error already says what is wrong.
  if (ctx.symbols.globals.get(name.text)?.kind === 'unknown') return undefined;
  const candidates = () => {
    const names = new Set(scope.variables.keys());
    if (scope.kind !== 'default') for (const key of ctx.symbols.defaultScope.variables.keys()) names.add(key);
    else for (const other of ctx.symbols.scopes.values()) for (const key of other.variables.keys()) names.add(key);
    return names;
  };
  undefinedName(ctx, name, 'variable', scope, candidates);
  return undefined;
}

export function findVariable(ctx: CheckContext, scope: Scope, text: string): VariableInfo | undefined {
  const own = scope.variables.get(text);
  if (own) return own;
  if (scope.kind === 'network' || scope.kind === 'classifier') return ctx.symbols.defaultScope.variables.get(text);
  if (scope.kind !== 'default') return undefined;
  for (const other of ctx.symbols.scopes.values()) {
    const v = other.variables.get(text);
    if (v) return v;
  }
  for (const data of ctx.symbols.data.values()) {
    const column = data.columns?.get(text);
    if (column)
      return {
        name: text,
        type: 'column',
        declaration: column.name,
        states: column.numeric || data.decl.source ? undefined : [...column.values],
      };
  }
  return undefined;
}

/** Whether some names cannot be known here (an unreadable CSV or import), so "undefined" would be a guess. */
function anyOpenScope(ctx: CheckContext): boolean {
  for (const data of ctx.symbols.data.values()) if (!data.columns) return true;
  for (const scope of ctx.symbols.scopes.values()) if (scope.open) return true;
  return false;
}

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
  const index = stateIndex(states);
  if (index.has(text)) return;
  const budget = ctx.report.suggestions;
  const suggestion = budget.left > 0 ? index.nearest(text, budget) : undefined;
  ctx.report.error(
    'unknown-state',
    `'${text}' is not a state of '${variable.name}' (${listStates(states)})${suggestion ? `; did you mean '${suggestion}'?` : ''}`,
    value.range,
    suggestion ? { suggestion } : undefined,
  );
}

/** Each state list's index, built once: looking a value up is then constant time, not a scan of the states. */
const stateIndexes = new WeakMap<readonly string[], NameIndex>();

export function stateIndex(states: readonly string[]): NameIndex {
  let index = stateIndexes.get(states);
  if (!index) {
    index = new NameIndex(states);
    stateIndexes.set(states, index);
  }
  return index;
}

/** Whether `text` is one of `states` (constant time, for checks that run per data cell). */
export function hasState(states: readonly string[], text: string): boolean {
  return states.length < 16 ? states.includes(text) : stateIndex(states).has(text);
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
