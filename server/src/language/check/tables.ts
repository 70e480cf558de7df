/**
 * Conditional probability tables: one variable given parents, one row per parent assignment,
 * every row a distribution over the variable's states (sums to 1 within 1e-6).
 */
import type * as A from '../ast.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { checkProbability, checkState, listStates, showNumber } from './resolve.js';
import { findVariable, lookupVariable } from '../references/lookup.js';
import { checkParameterPrior } from './parameterPriors.js';
import { CheckMemo } from '../memo.js';
import { checkCanonical } from './canonical.js';
import { sliceKey } from './dynamic.js';
import { checkDiscreteParents, checkNormalTable, isNormalTable, normalRows } from './gaussian.js';
import { checkAllAssignments } from './rowCoverage.js';

export const SUM_TOLERANCE = 1e-6;

export function checkTables(ctx: CheckContext): void {
  const seen = new Map<Scope, Map<string, A.TableDecl>>();
  for (const { table, scope } of ctx.symbols.tables) {
    const child = checkHead(ctx, table, scope);
    if (child) rememberTable(ctx, seen, scope, table);
    // Parents as `lookupVariable` finds them, without reporting: the body reports unknown ones.
    const parents = table.head.conditions.map((c) => (c.value ? undefined : findVariable(ctx, scope, c.variable.text)));
    const inputs = [child?.variable, ...parents];
    bodies.run(
      ctx.report,
      table,
      inputs,
      () => checkBody(ctx, table, scope, child?.variable),
      inputs.every((v) => v?.declaration) && !table.parameterPrior,
    );
    if (!table.parameterPrior || isNormalTable(table))
      for (let i = 0; i < parents.length; i++)
        if (parents[i]?.declaration)
          ctx.symbols.references.set(table.head.conditions[i].variable, parents[i]!.declaration!);
    // `Normal(…, Height: 0.5)`: the coefficient's name is a use of the parent (rename, go to definition).
    if (isNormalTable(table))
      for (const { call } of normalRows(table))
        for (const arg of call.args) {
          const parent = arg.name && parents.find((p) => p?.name === arg.name!.text);
          if (arg.name && parent?.declaration) ctx.symbols.references.set(arg.name, parent.declaration);
        }
  }
}

/** Findings of each table's rows, replayed while the table and the variables it names are unchanged. */
const bodies = new CheckMemo<A.TableDecl>();

/** The rows against the variables: the costly part of a table's check. */
function checkBody(ctx: CheckContext, table: A.TableDecl, scope: Scope, child: VariableInfo | undefined): void {
  for (const row of table.rows) for (const entry of row.entries) checkProbability(ctx, entry.value);
  if (table.value) checkProbability(ctx, table.value);
  // A canonical model's numbers are checked when it is expanded (they depend on each other).
  if (table.canonical) {
    const parents = table.head.conditions.map((c) => (c.value ? undefined : lookupVariable(ctx, scope, c.variable)));
    return checkCanonical(ctx, table, table.canonical, [child, ...parents]);
  }
  if (isNormalTable(table)) return checkNormalTable(ctx, table, scope, child);
  // The rows of a table under a continuous parent cannot be keyed: that parent's error says why.
  if (!checkDiscreteParents(ctx, table, scope)) return;
  if (table.parameterPrior) {
    const states = child?.states ?? (child?.type === 'bool' ? ['true', 'false'] : undefined);
    checkParameterPrior(ctx, table.parameterPrior, states);
    return;
  }
  const parents = table.head.conditions.map((c) => (c.value ? undefined : lookupVariable(ctx, scope, c.variable)));
  if (!child || child.type === 'real') return;
  if (table.value) checkShorthand(ctx, table, child, parents.length);
  else if (parents.length === 0) checkPrior(ctx, table, child);
  else checkConditional(ctx, table, child, parents);
}

function checkHead(ctx: CheckContext, table: A.TableDecl, scope: Scope): { variable: VariableInfo } | undefined {
  const { targets, conditions } = table.head;
  if (targets.length !== 1) {
    ctx.report.error(
      'table-head',
      'a table gives the distribution of one variable: write P(X | parents)',
      table.head.range,
    );
    return undefined;
  }
  for (const assignments of [targets, conditions])
    for (const a of assignments)
      if (a.value)
        ctx.report.error(
          'table-head',
          `write '${a.variable.text}' without a value in a table's P(…); the rows give the values`,
          a.range,
        );
  const names = new Set<string>([sliceKey(targets[0])]);
  for (const c of conditions) {
    if (names.has(sliceKey(c)))
      ctx.report.error('duplicate-name', `'${sliceKey(c)}' appears twice in P(…)`, c.variable.range);
    names.add(sliceKey(c));
  }
  const variable = lookupVariable(ctx, scope, targets[0].variable);
  if (variable?.type === 'real' && !isNormalTable(table)) {
    ctx.report.error(
      'not-discrete',
      `'${variable.name}' is real-valued; tables need a variable with states (a continuous one takes ~ Normal(mean: m, variance: v))`,
      targets[0].variable.range,
    );
  }
  return variable ? { variable } : undefined;
}

function rememberTable(
  ctx: CheckContext,
  seen: Map<Scope, Map<string, A.TableDecl>>,
  scope: Scope,
  table: A.TableDecl,
): void {
  const key = sliceKey(table.head.targets[0]);
  const tables = seen.get(scope) ?? new Map<string, A.TableDecl>();
  seen.set(scope, tables);
  const previous = tables.get(key);
  if (previous) {
    ctx.report.error(
      'duplicate-table',
      `'${key}' already has a table (line ${previous.range.start.line + 1})`,
      table.head.range,
    );
  } else {
    tables.set(key, table);
  }
}

/** `P(Storm) = 0.3`: P(first state), only for two-state variables without parents. */
function checkShorthand(ctx: CheckContext, table: A.TableDecl, child: VariableInfo, parentCount: number): void {
  if (parentCount > 0) {
    ctx.report.error(
      'row-width',
      'P(X | parents) = p is not a table: give one row per parent assignment in { … }',
      table.head.range,
    );
  } else if (child.states && child.states.length !== 2) {
    ctx.report.error(
      'row-width',
      `P(${child.name}) = p gives P(${child.name} = ${child.states[0]}) and needs two states; '${child.name}' has ${child.states.length} (${listStates(child.states)})`,
      table.value!.range,
    );
  }
}

/** No parents: rows are `state: probability`, together one distribution. */
function checkPrior(ctx: CheckContext, table: A.TableDecl, child: VariableInfo): void {
  const given = new Map<string, A.Name>();
  let sum = 0;
  for (const row of table.rows) {
    if (row.keys.length !== 1 || row.form !== 'single') {
      ctx.report.error(
        'row-width',
        `without parents each row is 'state: probability', e.g. '${child.states?.[0] ?? 'state'}: 0.5'`,
        row.range,
      );
      return;
    }
    const key = row.keys[0];
    checkState(ctx, child, key);
    if (given.has(key.text))
      ctx.report.error('duplicate-row', `'${key.text}' already has a probability in this table`, key.range);
    given.set(key.text, key);
    sum += row.entries[0].value.value;
  }
  if (table.rows.length === 0) {
    ctx.report.error('missing-row', `the table of '${child.name}' is empty`, table.head.range);
    return;
  }
  const missing = child.states?.filter((s) => !given.has(s)) ?? [];
  if (table.recovered) return; // rows were lost to a syntax error: sums and gaps would mislead
  if (missing.length > 0) {
    ctx.report.error(
      'missing-row',
      `no probability for ${missing.map((s) => `${child.name} = ${s}`).join(', ')}`,
      table.head.range,
      { missing },
    );
  } else if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    ctx.report.error(
      'row-sum',
      `the probabilities of '${child.name}' sum to ${showNumber(sum)}, not 1`,
      table.head.range,
      { sum },
    );
  }
}

function checkConditional(
  ctx: CheckContext,
  table: A.TableDecl,
  child: VariableInfo,
  parents: (VariableInfo | undefined)[],
): void {
  const seen = new Set<string>();
  const k = parents.length;
  for (const row of table.rows) {
    if (row.keys.length !== k) {
      const names = table.head.conditions.map((c) => c.variable.text).join(', ');
      ctx.report.error(
        'row-width',
        `this row gives ${row.keys.length} parent value${row.keys.length === 1 ? '' : 's'} but the table has ${k} parent${k === 1 ? '' : 's'} (${names})`,
        { start: row.keys[0].range.start, end: row.keys[row.keys.length - 1].range.end },
      );
      continue;
    }
    for (let i = 0; i < k; i++) if (parents[i]) checkState(ctx, parents[i]!, row.keys[i]);
    const id = row.keys.map((key) => key.text).join('\u0000');
    if (seen.has(id))
      ctx.report.error(
        'duplicate-row',
        `there is already a row for ${assignmentText(
          table,
          row.keys.map((key) => key.text),
        )}`,
        row.range,
      );
    seen.add(id);
    checkDistribution(ctx, row, child);
  }
  if (!table.recovered) checkAllAssignments(ctx, table, parents, seen);
}

/** One row's numbers: a distribution over the child's states. */
function checkDistribution(ctx: CheckContext, row: A.Row, child: VariableInfo): void {
  const states = child.states;
  if (!states) return;
  if (row.form === 'single') {
    if (states.length !== 2) {
      ctx.report.error(
        'row-width',
        `a single probability means P(${child.name} = ${states[0]}) and needs two states; list all ${states.length} (${listStates(states)})`,
        row.entries[0].range,
      );
    }
    return;
  }
  if (row.form === 'list' && row.entries.length !== states.length) {
    ctx.report.error(
      'row-width',
      `this row has ${row.entries.length} probabilities but '${child.name}' has ${states.length} states (${listStates(states)})`,
      row.range,
    );
    return;
  }
  if (row.form === 'map') {
    const named = new Set<string>();
    for (const entry of row.entries) {
      checkState(ctx, child, entry.state!);
      if (named.has(entry.state!.text))
        ctx.report.error('duplicate-row', `'${entry.state!.text}' appears twice in this row`, entry.state!.range);
      named.add(entry.state!.text);
    }
    const missing = states.filter((s) => !named.has(s));
    if (missing.length > 0) {
      ctx.report.error(
        'row-width',
        `this row gives no probability for ${missing.map((s) => `'${s}'`).join(', ')}`,
        row.range,
        { missing },
      );
      return;
    }
  }
  const sum = row.entries.reduce((total, e) => total + e.value.value, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    ctx.report.error('row-sum', `the probabilities in this row sum to ${showNumber(sum)}, not 1`, row.range, { sum });
  }
}

function assignmentText(table: A.TableDecl, values: string[]): string {
  return table.head.conditions.map((c, i) => `${c.variable.text} = ${values[i]}`).join(', ');
}
