/**
 * Which declaration every name in a file refers to: the basis of definition, references,
 * rename, hover, completion and semantic tokens. Names resolve file-wide (LANGUAGE.md); the
 * variables of a network are its own, and a query `in N` looks in N first. Values resolve
 * against the variable they are assigned to (`Test = pos`, CPT row keys, data cells).
 */
import type * as A from '../ast.js';
import type { Position, Range } from '../diagnostics.js';
import { REF, ScannedRow } from '../dataCells.js';
import { firstAtOrAfter } from '../lines.js';

export type NameKind =
  | 'variable'
  | 'state'
  | 'hypotheses'
  | 'hypothesis'
  | 'network'
  | 'data'
  | 'column'
  | 'corpus'
  | 'classifier'
  | 'mixture';

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

/**
 * A data block's scanned rows (see `dataCells.ts`): their name cells are not occurrences each —
 * 366,000 of them in 10,000 ALARM records — but resolve on demand, a cell to the value of its
 * column's symbol with that name. `columns[i]` is the symbol column `i` holds.
 */
export interface CellBlock {
  decl: A.DataDecl;
  columns: NameSymbol[];
}

export class NameIndex {
  readonly symbols = new Map<string, NameSymbol>();
  /** Every occurrence in document order, but the name cells of scanned data rows (`cellBlocks`). */
  readonly occurrences: Occurrence[] = [];
  readonly cellBlocks: CellBlock[] = [];
  /** Variables (and hypothesis spaces, columns) by scope, in declaration order. */
  readonly scopes = new Map<string, Map<string, NameSymbol>>();
  readonly globals = new Map<string, NameSymbol>();

  /** The occurrence at a position, a data cell's made for the asking. */
  at(position: Position): Occurrence | undefined {
    // Names do not overlap, so their ends are in order too: the first occurrence ending at or
    // after the position is the only candidate (searched as the first "line" >= 0 of a 0/-1 key).
    const os = this.occurrences;
    const first = os[firstAtOrAfter(os.length, (i) => (before(os[i].name.range.end, position) ? -1 : 0), 0)];
    if (first && contains(first.name.range, position)) return first;
    return this.cellAt(position);
  }

  private cellAt(position: Position): Occurrence | undefined {
    for (const { decl, columns } of this.cellBlocks) {
      const rows = decl.rows;
      const row = rows[firstAtOrAfter(rows.length, (i) => rows[i].range.start.line, position.line)];
      if (!(row instanceof ScannedRow) || row.range.start.line !== position.line) continue;
      const i = row.cellAt(position.character);
      const symbol = i >= 0 && row.kindAt(i) === REF ? stateNamed(columns[i], row.textAt(i)) : undefined;
      return symbol && { name: (row.node(i) as A.Ref).name, symbol, declaration: false };
    }
    return undefined;
  }

  /** Every occurrence of a symbol in document order, data cells included. */
  uses(symbol: NameSymbol): Occurrence[] {
    const found = this.occurrences.filter((o) => o.symbol === symbol);
    const cells = symbol.kind === 'state' ? this.cellUses(symbol) : [];
    return cells.length === 0
      ? found
      : [...found, ...cells].sort((a, b) => comparePositions(a.name.range.start, b.name.range.start));
  }

  private cellUses(state: NameSymbol): Occurrence[] {
    const uses: Occurrence[] = [];
    for (const { decl, columns } of this.cellBlocks) {
      columns.forEach((column, i) => {
        if (column !== state.owner) return;
        for (const row of decl.rows) {
          if (row instanceof ScannedRow && row.kindAt(i) === REF && row.textAt(i) === state.name) {
            uses.push({ name: (row.node(i) as A.Ref).name, symbol: state, declaration: false });
          }
        }
      });
    }
    return uses;
  }

  /** The variables visible from a scope: its own, then the default model's, then all others. */
  variablesVisible(scope: string): NameSymbol[] {
    const seen = new Map<string, NameSymbol>();
    const add = (m?: Map<string, NameSymbol>) =>
      m?.forEach((v, k) => {
        if (!seen.has(k)) seen.set(k, v);
      });
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

/** The value of a variable (or hypothesis of a space, value of a column) called `text`. */
export function stateNamed(variable: NameSymbol | undefined, text: string): NameSymbol | undefined {
  return variable?.states?.find((s) => s.name === text);
}

export function comparePositions(a: Position, b: Position): number {
  return a.line - b.line || a.character - b.character;
}

function before(a: Position, b: Position): boolean {
  return comparePositions(a, b) < 0;
}

export function contains(range: Range, p: Position): boolean {
  const afterStart = p.line > range.start.line || (p.line === range.start.line && p.character >= range.start.character);
  const beforeEnd = p.line < range.end.line || (p.line === range.end.line && p.character <= range.end.character);
  return afterStart && beforeEnd;
}
