/**
 * Findings kept per AST node between checks. The editor re-parses only the statements an edit
 * touched (see `incremental.ts`), so at the next keystroke most statements are the very same
 * nodes (or copies moved by whole lines). A check that depends only on its node and on the
 * variables it names — same declarations, same states — reports the same diagnostics, which are
 * then replayed instead of re-walking big tables and data blocks.
 */
import type { Diagnostic } from '../diagnostics.js';
import type { VariableInfo } from '../symbols.js';
import type { Reporter } from './context.js';
import { movedFrom, shifted } from '../incremental.js';
import type * as A from '../ast.js';

interface Entry<V> { inputs: (VariableInfo | undefined)[]; diagnostics: Diagnostic[]; value: V }

export class CheckMemo<K extends A.AstNode, V = void> {
  private readonly entries = new WeakMap<K, Entry<V>>();

  /** `followMoves`: findings hold nothing but diagnostics, so a moved copy may take them, moved. */
  constructor(private readonly options: { followMoves: boolean }) {}

  /**
   * `compute()`'s value and diagnostics, replayed when `node` was checked before with the same
   * `inputs`. Only results whose inputs all resolved (`cacheable`) are kept: an unknown name's
   * report depends on the whole file.
   */
  run(report: Reporter, node: K, inputs: (VariableInfo | undefined)[], compute: () => V, cacheable = true): V {
    const known = this.entries.get(node) ?? this.moved(node);
    if (known && sameInputs(known.inputs, inputs)) {
      report.diagnostics.push(...known.diagnostics);
      return known.value;
    }
    const from = report.diagnostics.length;
    const value = compute();
    if (cacheable) this.entries.set(node, { inputs, diagnostics: report.diagnostics.slice(from), value });
    return value;
  }

  /** The entry of the node this one is a copy of, moved down or up with it. */
  private moved(node: K): Entry<V> | undefined {
    const move = this.options.followMoves ? movedFrom(node) : undefined;
    const known = move && this.entries.get(move.from);
    if (!move || !known) return undefined;
    const entry = { ...known, diagnostics: known.diagnostics.map((d) => shifted(d, move.delta)) };
    this.entries.set(node, entry);
    return entry;
  }
}

function sameInputs(a: (VariableInfo | undefined)[], b: (VariableInfo | undefined)[]): boolean {
  return a.length === b.length && a.every((v, i) => sameVariable(v, b[i]));
}

function sameVariable(a: VariableInfo | undefined, b: VariableInfo | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.declaration !== b.declaration || a.type !== b.type || a.name !== b.name) return false;
  if (a.states === b.states) return true;
  return a.states !== undefined && b.states !== undefined && a.states.length === b.states.length && a.states.every((s, i) => s === b.states![i]);
}
