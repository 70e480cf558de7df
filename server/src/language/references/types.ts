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
   * Each name the checker resolved (a use) → the name that declares it: for definition,
   * references and rename. Declarations map to themselves; unresolved names are absent.
   */
  references: Map<A.Name, A.Name>;
}
