/** A belief network must be a DAG: report each cycle of parent → child edges once, naming it. */
import type { CheckContext } from './context.js';
import type * as A from '../ast.js';
import type { Scope } from '../references/symbols.js';
import { sliceKey } from './dynamic.js';

export function checkCycles(ctx: CheckContext): void {
  const byScope = new Map<Scope, A.TableDecl[]>();
  for (const { table, scope } of ctx.symbols.tables) {
    if (table.head.targets.length !== 1) continue;
    const list = byScope.get(scope) ?? [];
    list.push(table);
    byScope.set(scope, list);
  }
  for (const tables of byScope.values()) findCycles(ctx, tables);
}

function findCycles(ctx: CheckContext, tables: A.TableDecl[]): void {
  const children = new Map<string, string[]>();
  const tableOf = new Map<string, A.TableDecl>();
  for (const t of tables) {
    const child = sliceKey(t.head.targets[0]);
    if (!tableOf.has(child)) tableOf.set(child, t);
    for (const c of t.head.conditions) {
      const list = children.get(sliceKey(c)) ?? [];
      list.push(child);
      children.set(sliceKey(c), list);
    }
  }
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 'active');
    stack.push(node);
    for (const next of children.get(node) ?? []) {
      if (state.get(next) === 'active') {
        const cycle = [...stack.slice(stack.indexOf(next)), next];
        const table = tableOf.get(next)!;
        ctx.report.error(
          'cycle',
          `cycle ${cycle.join(' → ')}: a belief network must not loop back on itself`,
          table.head.range,
          { cycle },
        );
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(node, 'done');
  };
  for (const node of [...children.keys(), ...tableOf.keys()]) if (!state.has(node)) visit(node);
}
