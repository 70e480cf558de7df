/**
 * The checker's name lookups over the symbol table: file-wide names of a kind, the scope of
 * `in N`, a variable as seen from a scope. Each resolved use is recorded in
 * `symbols.references`; an unknown name is reported with the nearest spelling.
 */
import type * as A from '../ast.js';
import type { Reporter } from '../reporter.js';
import { nearestName } from '../suggest.js';
import type { GlobalKind, GlobalSymbol, Scope, SymbolTable, VariableInfo } from './types.js';

/** What a lookup reads and reports to (a check context is one). */
export interface ResolveContext {
  symbols: SymbolTable;
  report: Reporter;
}

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

export function undefinedName(ctx: ResolveContext, name: A.Name, what: string, candidates: Iterable<string>): void {
  const suggestion = nearestName(name.text, candidates);
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
  ctx: ResolveContext,
  name: A.Name,
  kinds: GlobalKind[],
  what: string,
): GlobalSymbol | undefined {
  const symbol = ctx.symbols.globals.get(name.text);
  if (!symbol) {
    const candidates = [...ctx.symbols.globals.values()].filter((s) => kinds.includes(s.kind)).map((s) => s.name.text);
    undefinedName(ctx, name, what, candidates);
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
export function modelScope(ctx: ResolveContext, name: A.Name | undefined): Scope {
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
export function lookupVariable(ctx: ResolveContext, scope: Scope, name: A.Name): VariableInfo | undefined {
  const found = findVariable(ctx, scope, name.text);
  // A column holding a declared variable (a CSV header has no name node): the variable's declaration.
  const declared = found?.type === 'column' ? ctx.symbols.defaultScope.variables.get(name.text) : undefined;
  const declaration = declared && declared.type !== 'column' ? declared.declaration : found?.declaration;
  if (declaration) ctx.symbols.references.set(name, declaration);
  if (found || scope.open || (scope.kind === 'default' && anyOpenScope(ctx))) return found;
  // Declared by a statement that did not parse: its syntax error already says what is wrong.
  if (ctx.symbols.globals.get(name.text)?.kind === 'unknown') return undefined;
  const candidates = new Set(scope.variables.keys());
  if (scope.kind !== 'default') for (const key of ctx.symbols.defaultScope.variables.keys()) candidates.add(key);
  else for (const other of ctx.symbols.scopes.values()) for (const key of other.variables.keys()) candidates.add(key);
  undefinedName(ctx, name, 'variable', candidates);
  return undefined;
}

export function findVariable(ctx: ResolveContext, scope: Scope, text: string): VariableInfo | undefined {
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
    if (!column) continue;
    const states = column.numeric || data.decl.source ? undefined : [...column.values];
    return { name: text, type: 'column', declaration: column.name, states };
  }
  return undefined;
}

/** Whether some names cannot be known here (an unreadable CSV or import), so "undefined" would be a guess. */
function anyOpenScope(ctx: ResolveContext): boolean {
  for (const data of ctx.symbols.data.values()) if (!data.columns) return true;
  for (const scope of ctx.symbols.scopes.values()) if (scope.open) return true;
  return false;
}
