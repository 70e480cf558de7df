/**
 * Findings kept per AST node between checks. The editor re-parses only the statements an edit
 * touched (see `incremental.ts`), so at the next keystroke most statements are the very same
 * nodes (moved in place when an edit above adds or removes lines). A check that depends only
 * on its node and on the variables it names — same declarations, same states — reports the
 * same diagnostics, which are then replayed instead of re-walking big tables and data blocks.
 */
import type { Diagnostic } from './diagnostics.js';
import type { VariableInfo } from './references/types.js';
import type { Reporter } from './reporter.js';
import type * as A from './ast.js';

/** Diagnostics are kept with lines counted from the node's first line: an edit above moves the node, not its findings. */
interface Entry<V> {
  inputs: (VariableInfo | undefined)[];
  diagnostics: Diagnostic[];
  value: V;
}

/** Most nodes have no findings: one shared empty list for them (never written to). */
const NONE: Diagnostic[] = [];

export class CheckMemo<K extends A.AstNode, V = void> {
  private readonly entries = new WeakMap<K, Entry<V>>();

  /**
   * `compute()`'s value and diagnostics, replayed when `node` was checked before with the same
   * `inputs`. Only results whose inputs all resolved (`cacheable`) are kept: an unknown name's
   * report depends on the whole file.
   */
  run(report: Reporter, node: K, inputs: (VariableInfo | undefined)[], compute: () => V, cacheable = true): V {
    const line = node.range.start.line;
    const known = this.entries.get(node);
    if (known && (known.inputs === inputs || sameInputs(known.inputs, inputs))) {
      known.inputs = inputs; // compared by identity next time (see `canonical`)
      for (const d of known.diagnostics) report.diagnostics.push(movedBy(d, line));
      return known.value;
    }
    const from = report.diagnostics.length;
    const value = compute();
    if (cacheable)
      this.entries.set(node, {
        inputs,
        diagnostics:
          from === report.diagnostics.length ? NONE : report.diagnostics.slice(from).map((d) => movedBy(d, -line)),
        value,
      });
    return value;
  }

  private readonly recent: (VariableInfo | undefined)[][] = [];

  /**
   * `inputs`, or an equal list passed here lately: the many nodes checked against the same
   * inputs (the rows of a data block, against its columns' variables) then compare by
   * identity, not variable by variable.
   */
  canonical(inputs: (VariableInfo | undefined)[]): (VariableInfo | undefined)[] {
    const seen = this.recent.find((r) => sameInputs(r, inputs));
    if (seen) return seen;
    this.recent.unshift(inputs);
    this.recent.length = Math.min(this.recent.length, 8);
    return inputs;
  }
}

function movedBy(d: Diagnostic, lines: number): Diagnostic {
  const { start, end } = d.range;
  return {
    ...d,
    range: {
      start: { line: start.line + lines, character: start.character },
      end: { line: end.line + lines, character: end.character },
    },
  };
}

function sameInputs(a: (VariableInfo | undefined)[], b: (VariableInfo | undefined)[]): boolean {
  return a.length === b.length && a.every((v, i) => sameVariable(v, b[i]));
}

function sameVariable(a: VariableInfo | undefined, b: VariableInfo | undefined): boolean {
  if (!a || !b) return a === b;
  if (a.declaration !== b.declaration || a.type !== b.type || a.name !== b.name) return false;
  if (a.states === b.states) return true;
  return (
    a.states !== undefined &&
    b.states !== undefined &&
    a.states.length === b.states.length &&
    a.states.every((s, i) => s === b.states![i])
  );
}
