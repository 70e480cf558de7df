/**
 * The cells of data rows, read without building a node per cell. A scanned data body (see
 * `dataScan.ts`) is most of a large model: 366,000 cells for 10,000 ALARM records. As nodes
 * (cell, name, range, two positions each) they were millions of small objects, and the garbage
 * collector, not the parser, was the cost. Scanned rows keep their cells in a `CellStore` —
 * parallel typed arrays of kind, start and end character, and an interned text — and build
 * `Expr` nodes only when a consumer asks for `row.cells` (hover, rename, formatting of one
 * row). The hot consumers (checker, compiler, name index) read cells through the accessors
 * below, which serve scanned rows and grammar-parsed rows (plain `cells` arrays) alike.
 *
 * A scanned row lies on one line, so its cells store characters only and take their line from
 * the row's range: moving a block down (`incremental.ts`) moves each row's range, not each cell.
 */
import type * as A from './ast.js';
import { valueText } from './ast.js';
import type { Range } from './diagnostics.js';

/** Kind codes in a store. */
export const NUMBER = 0,
  STRING = 1,
  MISSING = 2,
  REF = 3;
const KINDS = ['number', 'string', 'missing', 'ref'] as const;

/**
 * The cells of one scan, in order. Each cell's text (number source, unquoted string, name) is
 * interned straight from the scanned text: a column holds a few distinct values, so a cell
 * costs four array slots and no string.
 */
export class CellStore {
  kinds: Uint8Array;
  starts: Uint32Array;
  ends: Uint32Array;
  texts: Int32Array;
  readonly strings: string[] = [];
  length = 0;
  /** Open-addressing hash table of string id + 1 (0 = free), sized to stay at most half full. */
  private slots = new Int32Array(64);

  /** Room for `capacity` cells before the arrays grow. */
  constructor(capacity = 256) {
    this.kinds = new Uint8Array(capacity);
    this.starts = new Uint32Array(capacity);
    this.ends = new Uint32Array(capacity);
    this.texts = new Int32Array(capacity);
  }

  /** Appends a cell of kind code `kind` at characters `start` to `end` of its line, whose text is `source.slice(from, to)`. */
  push(kind: number, start: number, end: number, source: string, from: number, to: number): void {
    if (this.length === this.kinds.length) this.grow();
    const i = this.length++;
    this.kinds[i] = kind;
    this.starts[i] = start;
    this.ends[i] = end;
    this.texts[i] = this.intern(source, from, to);
  }

  /** The id of `source.slice(from, to)`, added when new. */
  private intern(source: string, from: number, to: number): number {
    const mask = this.slots.length - 1;
    let slot = hash(source, from, to) & mask;
    for (let id = this.slots[slot]; id !== 0; id = this.slots[slot]) {
      const s = this.strings[id - 1];
      if (s.length === to - from && source.startsWith(s, from)) return id - 1;
      slot = (slot + 1) & mask;
    }
    this.strings.push(source.slice(from, to));
    this.slots[slot] = this.strings.length;
    if (this.strings.length * 2 > this.slots.length) this.rehash();
    return this.strings.length - 1;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2);
    const mask = this.slots.length - 1;
    this.strings.forEach((s, id) => {
      let slot = hash(s, 0, s.length) & mask;
      while (this.slots[slot] !== 0) slot = (slot + 1) & mask;
      this.slots[slot] = id + 1;
    });
  }

  private grow(): void {
    const n = this.kinds.length * 2;
    this.kinds = grown(new Uint8Array(n), this.kinds);
    this.starts = grown(new Uint32Array(n), this.starts);
    this.ends = grown(new Uint32Array(n), this.ends);
    this.texts = grown(new Int32Array(n), this.texts);
  }
}

/** FNV-1a over UTF-16 code units. */
function hash(s: string, from: number, to: number): number {
  let h = 0x811c9dc5;
  for (let i = from; i < to; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

function grown<T extends Uint8Array | Uint32Array | Int32Array>(to: T, from: T): T {
  to.set(from);
  return to;
}

/**
 * A row of cells `first` to `first + count - 1` of a store, on the line of its range. The
 * store is a private field, so generic walks (`forEachChild`, `moveDown`) see a node of `kind`
 * and `range` only; `cells` builds fresh nodes on each access — loops over many rows use the
 * accessors below instead.
 */
export class ScannedRow implements A.DataRow {
  readonly kind = 'dataRow';
  range: Range;
  readonly #store: CellStore;
  readonly #first: number;
  readonly #count: number;

  constructor(store: CellStore, first: number, count: number, line: number) {
    this.#store = store;
    this.#first = first;
    this.#count = count;
    this.range = {
      start: { line, character: store.starts[first] },
      end: { line, character: store.ends[first + count - 1] },
    };
  }

  get cells(): A.Expr[] {
    return Array.from({ length: this.#count }, (_, i) => this.node(i));
  }

  get count(): number {
    return this.#count;
  }

  /** The store and the row's first cell in it, for loops over many cells (semantic tokens); getters, so walks over a node's keys skip them. */
  get store(): CellStore {
    return this.#store;
  }

  get first(): number {
    return this.#first;
  }

  /** Cell `i`'s kind code, -1 past the row's end. */
  kindAt(i: number): number {
    return i >= 0 && i < this.#count ? this.#store.kinds[this.#first + i] : -1;
  }

  /** Cell `i`'s interned text (`i` within the row). */
  textAt(i: number): string {
    return this.#store.strings[this.#store.texts[this.#first + i]];
  }

  /** The first and past-the-last character of cell `i` on the row's line. */
  startAt(i: number): number {
    return this.#store.starts[this.#first + i];
  }

  endAt(i: number): number {
    return this.#store.ends[this.#first + i];
  }

  /** The cell at `character` of the row's line, its end included; -1 if none. */
  cellAt(character: number): number {
    for (let i = 0; i < this.#count; i++) {
      if (character < this.startAt(i)) return -1;
      if (character <= this.endAt(i)) return i;
    }
    return -1;
  }

  /** Cell `i` as a new node, with the row's line. */
  node(i: number): A.Expr {
    const k = this.#first + i;
    const { line } = this.range.start;
    const range: Range = {
      start: { line, character: this.#store.starts[k] },
      end: { line, character: this.#store.ends[k] },
    };
    const text = this.textAt(i);
    switch (this.kindAt(i)) {
      case NUMBER:
        return { kind: 'number', value: Number(text), text, range };
      case STRING:
        return { kind: 'string', value: text, range };
      case MISSING:
        return { kind: 'missing', range };
      default:
        return { kind: 'ref', name: { kind: 'name', text, range }, range };
    }
  }
}

export function cellCount(row: A.DataRow): number {
  return row instanceof ScannedRow ? row.count : row.cells.length;
}

/** The kind of cell `i`, undefined past the row's end. */
export function cellKind(row: A.DataRow, i: number): A.Expr['kind'] | undefined {
  if (!(row instanceof ScannedRow)) return row.cells[i]?.kind;
  const code = row.kindAt(i);
  return code < 0 ? undefined : KINDS[code];
}

/** Cell `i` as a state or name (see `valueText`): a name, unquoted string or number source; undefined for `?`, other values and past the end. */
export function cellText(row: A.DataRow, i: number): string | undefined {
  if (!(row instanceof ScannedRow)) return valueText(row.cells[i]);
  const code = row.kindAt(i);
  return code < 0 || code === MISSING ? undefined : row.textAt(i);
}

/** The value of number cell `i`; NaN for any other cell. */
export function cellNumber(row: A.DataRow, i: number): number {
  if (!(row instanceof ScannedRow)) {
    const cell = row.cells[i];
    return cell?.kind === 'number' ? cell.value : NaN;
  }
  return row.kindAt(i) === NUMBER ? Number(row.textAt(i)) : NaN;
}

/** Whether cell `i` is a plain name (`pos`, not `T.x` or `T[a, b]`): a value of its column. */
export function cellIsName(row: A.DataRow, i: number): boolean {
  if (row instanceof ScannedRow) return row.kindAt(i) === REF;
  const cell = row.cells[i];
  return cell?.kind === 'ref' && !cell.member && !cell.columns;
}

/** Cell `i` as a node (undefined past the row's end): the row's own for a parsed row, a new one for a scanned row. */
export function cellNode(row: A.DataRow, i: number): A.Expr | undefined {
  if (!(row instanceof ScannedRow)) return row.cells[i];
  return i >= 0 && i < row.count ? row.node(i) : undefined;
}

/** The range of cell `i` (a new object for a scanned row). */
export function cellRange(row: A.DataRow, i: number): Range | undefined {
  return cellNode(row, i)?.range;
}
