/**
 * Which declaration every name in a file refers to: the basis of definition, references,
 * rename, hover, completion and semantic tokens. Names resolve file-wide (LANGUAGE.md); the
 * variables of a network are its own, and a query `in N` looks in N first. Values resolve
 * against the variable they are assigned to (`Test = pos`, CPT row keys, data cells).
 */
import type * as A from '../language/index.js';
import type { Position } from '../language/index.js';

export type NameKind =
  | 'variable' | 'state' | 'hypotheses' | 'hypothesis' | 'network' | 'data' | 'column' | 'corpus' | 'classifier' | 'mixture';

export interface NameSymbol {
  id: string;
  kind: NameKind;
  name: string;
  /** Where it is declared; undefined for built-in states (`true`/`false`) and data values. */
  declaration?: A.Name;
  /** The statement that declares it. */
  statement?: A.Statement;
  /** Network scope of a variable ('' = the file's default model). */
  scope: string;
  /** For states and hypotheses: the variable (or hypothesis space) they belong to. */
  owner?: NameSymbol;
  states?: NameSymbol[];
}

export interface Occurrence {
  name: A.Name;
  symbol: NameSymbol;
  declaration: boolean;
}

export class NameIndex {
  readonly symbols = new Map<string, NameSymbol>();
  readonly occurrences: Occurrence[] = [];
  /** Variables (and hypothesis spaces, columns) by scope, in declaration order. */
  readonly scopes = new Map<string, Map<string, NameSymbol>>();
  readonly globals = new Map<string, NameSymbol>();

  at(position: Position): Occurrence | undefined {
    return this.occurrences.find((o) => contains(o.name.range, position));
  }

  uses(symbol: NameSymbol): Occurrence[] {
    return this.occurrences.filter((o) => o.symbol === symbol);
  }

  /** The variables visible from a scope: its own, then the default model's, then all others. */
  variablesVisible(scope: string): NameSymbol[] {
    const seen = new Map<string, NameSymbol>();
    const add = (m?: Map<string, NameSymbol>) => m?.forEach((v, k) => { if (!seen.has(k)) seen.set(k, v); });
    add(this.scopes.get(scope));
    add(this.scopes.get(''));
    for (const m of this.scopes.values()) add(m);
    return [...seen.values()];
  }

  variable(scope: string, text: string): NameSymbol | undefined {
    return this.scopes.get(scope)?.get(text) ?? this.scopes.get('')?.get(text) ?? this.anyVariable(text);
  }

  private anyVariable(text: string): NameSymbol | undefined {
    for (const m of this.scopes.values()) {
      const v = m.get(text);
      if (v) return v;
    }
    return undefined;
  }
}

export function contains(range: A.Range, p: Position): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character);
  return afterStart && beforeEnd;
}
