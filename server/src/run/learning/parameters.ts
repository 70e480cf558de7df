/**
 * Learned probability parameters with conjugate priors (Poole §10.2.1, Mitchell eq. 6.22):
 * `P(Toss) ~ Beta(1, 1)`, `P(Outlook | Play) ~ Dirichlet(1)`, `~ m_estimate(m: 2)` or
 * `~ experts { alice: 2 of 3 }` give pseudo-counts; the data named in `given` (or observed)
 * gives counts; `mean|mode|interval|P(a ≤ θ ≤ b)` summarise the posterior Dirichlet (Beta).
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import {
  parameterPosterior,
  type ParameterQuery,
  type ParameterSummary,
} from '../../engine/estimators/parameterLearning.js';
import { MISSING } from '../../engine/categoricalData.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { ParameterResult } from '../../protocol/runResult.js';
import { hypothesisEvidence, type HypothesisEvidence } from './evidence.js';
import { statePseudoCountsOf } from '../tablePriors.js';
import { setOwn } from '../../engine/records.js';

/** `P(X = x | Y = y)`: which parameter, and which of its values the query is about. */
interface ParameterRef {
  variable: string;
  value: string;
  values: string[];
  conditions: Record<string, string>;
  table: A.TableDecl;
}

function parameterRef(ctx: HandlerContext, prob: A.ProbExpr, evidence: HypothesisEvidence): ParameterRef {
  const [target, ...more] = prob.targets;
  const value = valueText(target?.value);
  if (!target || more.length > 0 || value === undefined)
    throw new CompileError('a parameter is written P(X = x) or P(X = x | Y = y)', prob.range);
  const variable = target.variable.text;
  const table = ctx.symbols.tables.find(
    ({ table: t, scope }) =>
      scope.kind === 'default' && t.parameterPrior && t.head.targets[0]?.variable.text === variable,
  )?.table;
  if (!table)
    throw new CompileError(
      `P(${variable}) has no parameter prior: declare one, e.g. P(${variable}) ~ Beta(1, 1)`,
      target.variable.range,
    );
  const parents = table.head.conditions.map((c) => c.variable.text);
  const conditions: Record<string, string> = {};
  for (const c of prob.conditions) {
    const state = valueText(c.value);
    if (state === undefined || !parents.includes(c.variable.text))
      throw new CompileError(
        `condition on the table's parents with values: ${parents.join(', ') || 'it has none'}`,
        c.range,
      );
    setOwn(conditions, c.variable.text, state);
  }
  const unset = parents.filter((p) => !Object.hasOwn(conditions, p));
  if (unset.length > 0)
    throw new CompileError(`name the row of the table: give ${unset.map((p) => `${p} = …`).join(', ')}`, prob.range);
  // A column that is no declared variable takes the values seen in the data, as everywhere.
  const values = ctx.symbols.defaultScope.variables.get(variable)?.states ?? valuesSeen(evidence, variable);
  if (!values) {
    throw new CompileError(
      `'${variable}' needs declared states (or a data set with its column)`,
      target.variable.range,
    );
  }
  if (!values.includes(value))
    throw new CompileError(`'${value}' is not a state of ${variable} (${values.join(', ')})`, target.value!.range);
  return { variable, value, values, conditions, table };
}

/** The values of an undeclared variable's column across the evidence's data sets, in order of appearance. */
function valuesSeen(evidence: HypothesisEvidence, variable: string): string[] | undefined {
  const seen = new Set<string>();
  for (const { data } of evidence.datasets) {
    for (const a of data.attributes) if (a.name === variable) for (const v of a.values) seen.add(v);
  }
  return seen.size > 0 ? [...seen] : undefined;
}

/** Counts of each value in the evidence's data sets (rows matching the conditions) and observations. */
function valueCounts(ref: ParameterRef, evidence: HypothesisEvidence): number[] {
  const counts = new Array<number>(ref.values.length).fill(0);
  for (const { name, data } of evidence.datasets) {
    const column = data.attributes.findIndex((a) => a.name === ref.variable);
    if (column < 0) throw new CompileError(`data '${name.text}' has no column '${ref.variable}'`, name.range);
    const filters = Object.entries(ref.conditions).map(([v, s]) => {
      const c = data.attributes.findIndex((a) => a.name === v);
      if (c < 0) throw new CompileError(`data '${name.text}' has no column '${v}'`, name.range);
      return { column: c, code: data.attributes[c]!.values.indexOf(s) };
    });
    const values = data.attributes[column]!.values;
    for (let r = 0; r < data.rowCount; r++) {
      const code = data.columns[column]![r]!;
      if (code === MISSING || !filters.every((f) => data.columns[f.column]![r] === f.code)) continue;
      counts[ref.values.indexOf(values[code]!)]!++;
    }
  }
  for (const o of evidence.observations) {
    if (o.variable !== ref.variable) continue;
    if (Object.keys(ref.conditions).length > 0)
      throw new CompileError(
        'single observations cannot say which row of the table they belong to: give a data set',
        o.range,
      );
    const i = ref.values.indexOf(o.value);
    if (i < 0) throw new CompileError(`'${o.value}' is not a state of ${ref.variable}`, o.range);
    counts[i]!++;
  }
  return counts;
}

export async function parameterSummary(
  ctx: HandlerContext,
  prob: A.ProbExpr,
  given: readonly A.Assignment[],
  query: ParameterQuery = {},
): Promise<{ ref: ParameterRef; summary: ParameterSummary; index: number }> {
  const evidence = await hypothesisEvidence(ctx, given);
  const ref = parameterRef(ctx, prob, evidence);
  const prior = statePseudoCountsOf(ref.table.parameterPrior!, ref.values);
  const counts = valueCounts(ref, evidence);
  const between = query.between ? { ...query.between, value: ref.value } : undefined;
  const summary = parameterPosterior(ref.values, prior, counts, { ...query, ...(between ? { between } : {}) });
  return { ref, summary, index: ref.values.indexOf(ref.value) };
}

export function parameterName(ref: ParameterRef): string {
  const conditions = Object.entries(ref.conditions).map(([v, s]) => `${v} = ${s}`);
  return `P(${ref.variable} = ${ref.value}${conditions.length ? ` | ${conditions.join(', ')}` : ''})`;
}

export function parameterAnswer(
  ctx: HandlerContext,
  ref: ParameterRef,
  summary: ParameterSummary,
  headline: string,
  value?: number,
): HandlerOutput {
  const result: ParameterResult = {
    kind: 'parameter',
    range: ctx.statement.range,
    source: ctx.source,
    parameter: parameterName(ref),
    ...summary,
    headline,
  };
  return { results: [result], diagnostics: [], ...(value !== undefined ? { value } : {}) };
}
