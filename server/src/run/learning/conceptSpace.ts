/**
 * Generated spaces `conjunctions(Sky, …) -> Enjoy = Yes` (Mitchell §6.3): brute-force MAP
 * learning over every conjunction of attribute constraints, counted by error class rather than
 * listed, with the version space's S and G boundaries.
 */
import type * as A from '../../language/ast.js';
import { valueText } from '../../language/ast.js';
import { encodeCategorical, type CategoricalDataset } from '../../engine/categoricalData.js';
import {
  ANY,
  conceptExamples,
  covers,
  describeConjunction,
  type ConceptExamples,
  type Conjunction,
} from '../../engine/hypotheses/conjunctiveHypotheses.js';
import { conceptPosterior, type ConceptPosterior } from '../../engine/hypotheses/versionSpace.js';
import { conjunctionMdl, type ConjunctionMdl } from '../../engine/hypotheses/conjunctionMdl.js';
import { CompileError } from '../../model/compileError.js';
import { declaredDomains } from '../../model/compileData.js';
import type { HandlerContext } from '../handlerContext.js';
import { hypothesisEvidence, onlyDataset } from './evidence.js';

interface ConceptSpec {
  inputs: string[];
  target: string;
  positive: string;
  noise: number;
}

export function isConceptSpace(space: A.HypothesesDecl): boolean {
  return space.generator?.call.callee.text === 'conjunctions';
}

function conceptSpec(space: A.HypothesesDecl): ConceptSpec {
  const generator = space.generator!;
  const inputs = generator.call.args.map((arg) => {
    if (arg.name || arg.value.kind !== 'ref')
      throw new CompileError('conjunctions(…) lists the attributes by name', arg.range);
    return arg.value.name.text;
  });
  const positive = valueText(generator.target?.value);
  if (!generator.target || positive === undefined)
    throw new CompileError("conjunctions(…) -> Target = value: name the concept's positive value", generator.range);
  if (space.prior && space.prior.text !== 'uniform')
    throw new CompileError('brute-force MAP learning over conjunctions uses `prior uniform`', space.prior.range);
  if (space.noise && space.noise.kind !== 'number')
    throw new CompileError('the noise of a concept is a probability ε: `noise 0`, `noise 0.1`', space.noise.range);
  return { inputs, target: generator.target.variable.text, positive, noise: space.noise?.value ?? 0 };
}

async function conceptProblem(
  ctx: HandlerContext,
  space: A.HypothesesDecl,
  given: readonly A.Assignment[],
): Promise<{ spec: ConceptSpec; problem: ConceptExamples }> {
  const spec = conceptSpec(space);
  const evidence = await hypothesisEvidence(ctx, given);
  const data = onlyDataset(evidence, 'a concept', space.name.range)?.data ?? noExamples(ctx, spec);
  const missing = [...spec.inputs, spec.target].find((c) => !data.attributes.some((a) => a.name === c));
  if (missing) throw new CompileError(`the data has no column '${missing}'`, space.name.range);
  return { spec, problem: conceptExamples(data, spec.inputs, spec.target, spec.positive) };
}

/** Before any data: the declared domains alone fix H. */
function noExamples(ctx: HandlerContext, spec: ConceptSpec): CategoricalDataset {
  const domains = declaredDomains(ctx.symbols);
  const header = [...spec.inputs, spec.target];
  const undeclared = header.find((c) => !domains[c]);
  if (undeclared) throw new CompileError(`'${undeclared}' needs declared states to count the hypotheses without data`);
  return encodeCategorical(header, [], domains);
}

export async function conceptSpacePosterior(
  ctx: HandlerContext,
  space: A.HypothesesDecl,
  given: readonly A.Assignment[],
): Promise<ConceptPosterior> {
  const { spec, problem } = await conceptProblem(ctx, space, given);
  return conceptPosterior(problem, { noise: spec.noise });
}

/** Hypotheses of nonzero posterior: |VS| with noise 0, all of H that can explain D otherwise. */
export function plausibleCount(posterior: ConceptPosterior): bigint {
  return posterior.errorClasses.filter((c) => c.posteriorEach > 0).reduce((n, c) => n + BigInt(c.hypotheses), 0n);
}

/** `<Sunny, Warm, ?, Strong, ?, ?>`, as Mitchell writes a conjunction. */
export function conjunctionText(constraints: readonly string[]): string {
  return `<${constraints.join(', ')}>`;
}

/**
 * P(h | D) of one conjunction written as text, e.g. `"<Sunny, ?, ?, ?, ?, ?>"`: the posterior
 * of its error class. For `P(Conj = "<…>") given Days`.
 */
export async function conjunctionProbability(
  ctx: HandlerContext,
  space: A.HypothesesDecl,
  text: string,
  range: A.Name['range'],
  given: readonly A.Assignment[],
): Promise<number> {
  const { spec, problem } = await conceptProblem(ctx, space, given);
  const h = parseConjunction(text, problem, range);
  const errors = problem.rows.filter((x, e) => covers(h, x) !== problem.positive[e]).length;
  const posterior = conceptPosterior(problem, { noise: spec.noise });
  return posterior.errorClasses.find((c) => c.errors === errors)?.posteriorEach ?? 0;
}

function parseConjunction(text: string, problem: ConceptExamples, range: A.Name['range']): Conjunction {
  const inner = text.trim().replace(/^<|>$/g, '');
  const parts = inner.split(',').map((p) => p.trim());
  if (parts.every((p) => p === '∅')) return null;
  if (parts.length !== problem.attributes.length) {
    throw new CompileError(
      `a conjunction has ${problem.attributes.length} constraints (${problem.attributes.map((a) => a.name).join(', ')}), "${text}" has ${parts.length}`,
      range,
    );
  }
  return Int32Array.from(parts, (p, i) => {
    if (p === '?') return ANY;
    const code = problem.attributes[i]!.values.indexOf(p);
    if (code < 0) throw new CompileError(`'${p}' is not a value of ${problem.attributes[i]!.name}`, range);
    return code;
  });
}

/** `mdl Conj given D` (Mitchell ex. 6.5): L(h) = literals × log2 N, L(D|h) = misclassified × log2 m. */
export async function conceptSpaceMdl(
  ctx: HandlerContext,
  space: A.HypothesesDecl,
  given: readonly A.Assignment[],
): Promise<{ mdl: ConjunctionMdl; text: (h: Int32Array) => string }> {
  const { problem } = await conceptProblem(ctx, space, given);
  const mdl = conjunctionMdl(problem, 20, ctx.signal);
  return { mdl, text: (h) => conjunctionText(describeConjunction(h, problem.attributes)) };
}
