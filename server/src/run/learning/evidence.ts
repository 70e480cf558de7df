/**
 * The data a hypothesis is judged on (Mitchell's D): the `given` part of a query, else the
 * file's top-level `observe` lines. `X = v` is one observation, `X = [v, w]` independent
 * repeated ones, and a bare data set name (`given Days`, `observe Days`) every row of that set.
 * `given` overrides `observe` variable by variable, as docs/language.md says.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import type { Range } from '../../language/diagnostics.js';
import type { Observation } from '../../engine/hypotheses/bayesTheorem.js';
import type { CategoricalDataset } from '../../engine/categoricalData.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext } from '../handlerContext.js';
import { modelData } from '../modelInputs.js';

export interface HypothesisEvidence {
  observations: (Observation & { range: Range })[];
  datasets: { name: A.Name; data: CategoricalDataset }[];
}

/** The assignments in force: `given` ones, plus `observe` ones on variables `given` does not mention (by name or as a
 * column of a data set). */
export function evidenceAssignments(
  ctx: HandlerContext,
  given: readonly A.Assignment[],
  observes: (item: A.Assignment) => boolean = () => true,
): A.Assignment[] {
  // `observe … in N` is evidence for network N, not for the default model's hypotheses.
  const observed = ctx.ast.statements.flatMap((s) => (s.kind === 'observe' && !s.in ? s.items : [])).filter(observes);
  // A data set given mentions each of its columns.
  const mentioned = new Set(
    given.flatMap((a) => [a.variable.text, ...(ctx.symbols.data.get(a.variable.text)?.columns?.keys() ?? [])]),
  );
  return [...given, ...observed.filter((a) => !mentioned.has(a.variable.text))];
}

/**
 * The evidence in force; `observes` picks the top-level `observe` items that apply (a hypothesis
 * space takes those its tables mention: `spaceObserves`), `given` always applies.
 */
export async function hypothesisEvidence(
  ctx: HandlerContext,
  given: readonly A.Assignment[],
  observes?: (item: A.Assignment) => boolean,
): Promise<HypothesisEvidence> {
  const evidence: HypothesisEvidence = { observations: [], datasets: [] };
  for (const a of evidenceAssignments(ctx, given, observes)) {
    if (a.finding) {
      const message = 'soft and virtual evidence are for belief-network queries (P(…), mpe, sensitivity)';
      throw new CompileError(message, a.finding.range);
    }
    if (!a.value) {
      if (!ctx.symbols.data.has(a.variable.text))
        throw new CompileError(
          `'${a.variable.text}' needs a value (${a.variable.text} = …) or must name a data set`,
          a.range,
        );
      evidence.datasets.push({ name: a.variable, data: await modelData(ctx, a.variable) });
      continue;
    }
    const values = a.value.kind === 'list' ? a.value.items : [a.value];
    for (const item of values) {
      const value = valueText(item);
      if (value === undefined)
        throw new CompileError(`an observed value of ${a.variable.text} must be a state`, item.range);
      evidence.observations.push({ variable: a.variable.text, value, range: item.range });
    }
  }
  return evidence;
}

/** The single data set a learner is given (`given Days`); observations do not fit such learners. */
export function onlyDataset(
  evidence: HypothesisEvidence,
  what: string,
  range: Range,
): { name: A.Name; data: CategoricalDataset } | undefined {
  if (evidence.observations.length > 0)
    throw new CompileError(
      `${what} learns from a data set (given D), not from single observations`,
      evidence.observations[0]!.range,
    );
  if (evidence.datasets.length > 1)
    throw new CompileError(`${what} learns from one data set, ${evidence.datasets.length} are given`, range);
  return evidence.datasets[0];
}

/**
 * Which top-level observations are evidence for hypothesis space H: those of a variable X with a
 * table P(X | H) in the file, or of a data set with such a column. With two spaces in one file,
 * each reads its own observe lines, not the other's (docs/language.md, Hypothesis spaces).
 */
export function spaceObserves(ctx: HandlerContext, space: A.HypothesesDecl): (item: A.Assignment) => boolean {
  const mentioned = new Set<string>();
  for (const s of ctx.ast.statements) {
    if (s.kind === 'table' && s.head.conditions.some((c) => c.variable.text === space.name.text))
      for (const t of s.head.targets) mentioned.add(t.variable.text);
  }
  return (item) => {
    if (mentioned.has(item.variable.text)) return true;
    const columns = item.value ? undefined : ctx.symbols.data.get(item.variable.text)?.columns;
    return columns !== undefined && [...columns.keys()].some((c) => mentioned.has(c));
  };
}
