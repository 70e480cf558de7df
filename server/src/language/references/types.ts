/** The checker's symbol table (built by `symbols.ts`): declarations, model scopes, data columns. */
import type * as A from '../ast.js';

export type GlobalKind =
  'variable' | 'hypotheses' | 'network' | 'import' | 'data' | 'corpus' | 'classifier' | 'mixture' | 'unknown';

export interface GlobalSymbol {
  kind: GlobalKind;
  name: A.Name;
  node: A.Statement;
}

export interface VariableInfo {
  name: string;
  /** States in declaration order; undefined when not known here (real, generated, CSV, imported). */
  states?: string[];
  type: 'states' | 'bool' | 'real' | 'hypotheses' | 'column';
  declaration?: A.Name;
}

export interface Scope {
  kind: 'default' | 'network' | 'import' | 'classifier' | 'structure';
  name: string;
  variables: Map<string, VariableInfo>;
  /** True when the scope's contents cannot be known here: unknown names are not reported. */
  open: boolean;
}

export interface ColumnInfo {
  name: A.Name;
  values: Set<string>;
  numeric: boolean;
}
export interface DataInfo {
  decl: A.DataDecl;
  /** Undefined when the columns are not known (a CSV the host cannot read). */
  columns?: Map<string, ColumnInfo>;
}

export interface SymbolTable {
  globals: Map<string, GlobalSymbol>;
  defaultScope: Scope;
  /** Scopes of networks, imports, classifiers and learned structures, by name. */
  scopes: Map<string, Scope>;
  hypothesisEntries: Map<string, { space: A.HypothesesDecl; entry: A.HypothesisEntry }>;
  data: Map<string, DataInfo>;
  /** Every table with the scope its names resolve in. */
  tables: { table: A.TableDecl; scope: Scope }[];
  /**
   * Each name the checker resolved (a use) and the name that declares it; declarations resolve
   * to themselves, unresolved names are absent. The editor's name index (definition, references,
   * rename) resolves names on its own; a test holds the two to agreement.
   */
  references: ResolvedNames;
}

/**
 * Uses and their declarations as two lists, not a map: a check of a large model resolves tens of
 * thousands of names, and hashing each as a map key cost more than the lookups themselves.
 */
export class ResolvedNames {
  private readonly uses: A.Name[] = [];
  private readonly declarations: A.Name[] = [];

  set(use: A.Name, declaration: A.Name): void {
    this.uses.push(use);
    this.declarations.push(declaration);
  }

  /** Use → declaration; a name resolved twice keeps its last declaration. */
  toMap(): Map<A.Name, A.Name> {
    return new Map(this.uses.map((use, i) => [use, this.declarations[i]]));
  }
}
