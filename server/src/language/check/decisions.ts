/**
 * Influence diagrams and interventions: `decision D { … } given X, …`, `utility U(A, B) { … }`,
 * the queries `policy`, `eu`, `voi`, `effect`, and `do(X = x)`, which only a query may hold.
 * A decision may know only what cannot depend on it or on a later decision (information comes
 * before the choice in time); a utility gives one number per assignment of its variables.
 */
import type * as A from '../ast.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { checkAssignment, checkFinite, checkState } from './resolve.js';
import { lookupVariable, modelScope } from '../references/lookup.js';

/** Beyond this many assignments of a utility's variables only the row count is compared. */
const MAX_ENUMERATED = 100_000;

export function checkDecisions(ctx: CheckContext, file: A.BayesFile): void {
  recordDecisions(ctx, file);
  checkScope(ctx, file.statements, ctx.symbols.defaultScope);
  for (const s of file.statements) {
    if (s.kind === 'network')
      checkScope(ctx, s.statements, ctx.symbols.scopes.get(s.name.text) ?? ctx.symbols.defaultScope);
    if (s.kind === 'observe') for (const item of s.items) noIntervention(ctx, item, 'an observation');
  }
}

function noIntervention(ctx: CheckContext, a: A.Assignment, where: string): void {
  if (a.intervention)
    ctx.report.error(
      'syntax-error',
      `do(…) sets a variable in a query; it cannot be ${where}: write ${a.variable.text} = …`,
      a.range,
    );
}

function checkScope(ctx: CheckContext, statements: A.Statement[], scope: Scope): void {
  const decisions = statements.filter((s): s is A.DecisionDecl => s.kind === 'decision');
  const utilities = statements.filter((s): s is A.UtilityDecl => s.kind === 'utility');
  for (const s of statements) {
    if (s.kind === 'observe' && scope.kind !== 'default')
      for (const item of s.items) noIntervention(ctx, item, 'an observation');
    if (s.kind === 'table')
      for (const assignments of [s.head.targets, s.head.conditions])
        for (const a of assignments) noIntervention(ctx, a, "in a table's P(…)");
  }
  for (const d of decisions) {
    if (d.domain.type === 'real')
      ctx.report.error('not-discrete', `decision '${d.name.text}' needs alternatives: { a, b, … }`, d.domain.range);
    const seen = new Set<string>();
    for (const name of d.information) {
      if (name.text === d.name.text)
        ctx.report.error('information-order', `'${d.name.text}' cannot be known before it is chosen`, name.range);
      else if (seen.has(name.text)) ctx.report.error('duplicate-name', `'${name.text}' is listed twice`, name.range);
      else lookupVariable(ctx, scope, name);
      seen.add(name.text);
    }
  }
  checkInformationOrder(ctx, statements, decisions);
  const names = new Map<string, A.UtilityDecl>();
  for (const u of utilities) {
    const previous = names.get(u.name.text);
    if (previous) {
      ctx.report.error(
        'duplicate-name',
        `utility '${u.name.text}' is already declared (line ${previous.name.range.start.line + 1})`,
        u.name.range,
        { previous: previous.name.range },
      );
    }
    names.set(u.name.text, u);
    checkUtility(ctx, u, scope);
  }
}

/**
 * Nothing a decision knows (its own information, and by no-forgetting every earlier decision's)
 * may depend on it or on a later decision through the tables' arcs.
 */
function checkInformationOrder(ctx: CheckContext, statements: A.Statement[], decisions: A.DecisionDecl[]): void {
  if (decisions.length === 0) return;
  const children = new Map<string, string[]>();
  for (const s of statements) {
    if (s.kind !== 'table' || s.head.targets.length !== 1) continue;
    for (const c of s.head.conditions)
      children.set(c.variable.text, [...(children.get(c.variable.text) ?? []), s.head.targets[0].variable.text]);
  }
  const descendants = (root: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [...(children.get(root) ?? [])];
    while (stack.length) {
      const v = stack.pop()!;
      if (seen.has(v)) continue;
      seen.add(v);
      for (const c of children.get(v) ?? []) stack.push(c); // not a spread: 150,000 children overflow it
    }
    return seen;
  };
  const after = decisions.map((d) => descendants(d.name.text));
  const order = new Map(decisions.map((d, k) => [d.name.text, k]));
  decisions.forEach((d, k) => {
    for (const name of d.information) {
      const later = order.get(name.text);
      if (later !== undefined && later > k) {
        ctx.report.error(
          'information-order',
          `'${name.text}' is decided after '${d.name.text}' (decisions are taken in the order declared)`,
          name.range,
        );
      }
      for (let j = k; j < decisions.length; j++) {
        if (!after[j]!.has(name.text)) continue;
        const which = j === k ? 'this decision' : `'${decisions[j]!.name.text}', which is decided later`;
        ctx.report.error(
          'information-order',
          `'${name.text}' depends on ${which}, so it cannot be known when deciding '${d.name.text}'`,
          name.range,
        );
        break;
      }
    }
    for (let j = k + 1; j < decisions.length; j++) {
      if (after[j]!.has(d.name.text)) {
        ctx.report.error(
          'information-order',
          `'${d.name.text}' depends on '${decisions[j]!.name.text}', which is decided later`,
          d.name.range,
        );
      }
    }
  });
}

function checkUtility(ctx: CheckContext, u: A.UtilityDecl, scope: Scope): void {
  const parents: (VariableInfo | undefined)[] = [];
  const seenParents = new Set<string>();
  for (const name of u.parents) {
    if (seenParents.has(name.text))
      ctx.report.error('duplicate-name', `'${name.text}' appears twice in ${u.name.text}(…)`, name.range);
    seenParents.add(name.text);
    const v = lookupVariable(ctx, scope, name);
    if (v?.type === 'real')
      ctx.report.error('not-discrete', `'${v.name}' is real-valued; a utility needs variables with states`, name.range);
    parents.push(v);
  }
  const seen = new Set<string>();
  for (const row of u.rows) {
    if (row.keys.length !== u.parents.length) {
      ctx.report.error(
        'row-width',
        `this row gives ${row.keys.length} value${row.keys.length === 1 ? '' : 's'} but '${u.name.text}' ` +
          `depends on ${u.parents.length} (${u.parents.map((p) => p.text).join(', ')})`,
        { start: row.keys[0].range.start, end: row.keys[row.keys.length - 1].range.end },
      );
      continue;
    }
    if (row.form !== 'single') {
      ctx.report.error(
        'row-width',
        `a utility row is 'states: number', e.g. '${row.keys.map((k) => k.text).join(', ')}: 10'`,
        row.range,
      );
      continue;
    }
    row.keys.forEach((key, i) => {
      if (parents[i]) checkState(ctx, parents[i]!, key);
    });
    checkFinite(ctx, row.entries[0].value);
    const id = row.keys.map((k) => k.text).join('\u0000');
    if (seen.has(id))
      ctx.report.error(
        'duplicate-row',
        `there is already a row for ${assignment(
          u,
          row.keys.map((k) => k.text),
        )}`,
        row.range,
      );
    seen.add(id);
  }
  if (u.recovered || parents.some((p) => !p?.states)) return;
  const domains = parents.map((p) => p!.states!);
  const total = domains.reduce((n, d) => n * d.length, 1);
  if (total > MAX_ENUMERATED) {
    if (seen.size < total)
      ctx.report.error(
        'missing-row',
        `'${u.name.text}' has ${seen.size} rows but its variables have ${total} assignments`,
        u.name.range,
      );
    return;
  }
  const missing: string[][] = [];
  const index = domains.map(() => 0);
  for (let n = 0; n < total; n++) {
    const values = index.map((v, i) => domains[i]![v]!);
    if (!seen.has(values.join('\u0000'))) missing.push(values);
    for (let i = index.length - 1; i >= 0; i--) {
      if (++index[i]! < domains[i]!.length) break;
      index[i] = 0;
    }
  }
  if (missing.length === 0) return;
  const shown = missing
    .slice(0, 3)
    .map((values) => assignment(u, values))
    .join('; ');
  const more = missing.length > 3 ? ` and ${missing.length - 3} more` : '';
  ctx.report.error('missing-row', `no utility for ${shown}${more}`, u.name.range, { missing });
}

function assignment(u: A.UtilityDecl, values: string[]): string {
  return u.parents.map((p, i) => `${p.text} = ${values[i]}`).join(', ');
}

/** The decision-analysis and causal queries. */
export function checkDecisionQuery(ctx: CheckContext, q: A.PolicyQuery | A.EuQuery | A.VoiQuery | A.EffectQuery): void {
  const scope = modelScope(ctx, q.form === 'policy' ? q.network : q.in);
  for (const a of q.given) checkAssignment(ctx, scope, a);
  if (q.form === 'eu' || q.form === 'voi') {
    const d = lookupVariable(ctx, scope, q.decision);
    if (d && !isDecision(ctx, scope, q.decision.text))
      ctx.report.error('wrong-kind', `'${q.decision.text}' is not a decision`, q.decision.range);
  }
  if (q.form === 'voi') {
    const v = lookupVariable(ctx, scope, q.variable);
    if (v && isDecision(ctx, scope, q.variable.text)) {
      ctx.report.error(
        'wrong-kind',
        `'${q.variable.text}' is a decision: the value of information is about a chance variable`,
        q.variable.range,
      );
    }
  }
  if (q.form === 'effect') {
    lookupVariable(ctx, scope, q.cause);
    lookupVariable(ctx, scope, q.effect);
    if (q.cause.text === q.effect.text)
      ctx.report.error('arguments', 'the cause and the effect must be two variables', q.range);
  }
}

function isDecision(ctx: CheckContext, scope: Scope, name: string): boolean {
  const declaration =
    scope.variables.get(name)?.declaration ?? ctx.symbols.defaultScope.variables.get(name)?.declaration;
  return declaration !== undefined && decisionNames(ctx).has(declaration);
}

/** The name nodes of every decision declaration (filled in by the checker's walk). */
const decisionNameNodes = new WeakMap<CheckContext['symbols'], Set<A.Name>>();
function decisionNames(ctx: CheckContext): Set<A.Name> {
  return decisionNameNodes.get(ctx.symbols) ?? new Set();
}

/** Records the decisions of a file for `isDecision` (before the queries are checked). */
function recordDecisions(ctx: CheckContext, file: A.BayesFile): void {
  const names = new Set<A.Name>();
  for (const s of file.statements) {
    if (s.kind === 'decision') names.add(s.name);
    if (s.kind === 'network') for (const t of s.statements) if (t.kind === 'decision') names.add(t.name);
  }
  decisionNameNodes.set(ctx.symbols, names);
}

/** `do(…)` stands among the conditions and `given` of `P(…)` and `effect` queries, never among what is asked. */
export function checkInterventions(ctx: CheckContext, q: A.Query): void {
  const prob = 'prob' in q ? q.prob : undefined;
  for (const a of prob?.targets ?? []) noIntervention(ctx, a, 'what is asked: do(…) goes after |');
  if (q.form === 'probability' || q.form === 'effect') return;
  const given = 'given' in q && Array.isArray(q.given) ? (q.given as A.Assignment[]) : [];
  for (const a of [...given, ...(prob?.conditions ?? [])]) noIntervention(ctx, a, `in a '${q.form}' query`);
}
