/**
 * `query posterior|map|ml|mdl|size H`: one answer per form, for explicit spaces (and trees)
 * through Bayes theorem, for generated conjunctions through the version space, and for
 * linear/logistic spaces through their ML fit.
 */
import type * as A from '../../language/ast.js';
import type { Diagnostic } from '../../language/diagnostics.js';
import { posterior, type PosteriorTable } from '../../engine/hypotheses/bayesTheorem.js';
import { bitsOfLogProbability, mdlChoice } from '../../engine/hypotheses/mdl.js';
import type { ConceptPosterior } from '../../engine/hypotheses/versionSpace.js';
import { CompileError } from '../../model/compileError.js';
import type { HandlerContext, HandlerOutput } from '../handlerContext.js';
import type { MdlResult, PosteriorResult, VersionSpaceResult } from '../../protocol/runResult.js';
import {
  hypothesisSpace,
  posteriorTable,
  scoredHypotheses,
  type DatumStep,
  type ScoredHypotheses,
} from './hypothesisSpace.js';
import { fmt, IMPOSSIBLE_EVIDENCE, queryOf } from './queryParts.js';
import { impossibleEvidence } from '../inferenceOptions.js';
import { isRegressionSpace, regressionAnswer } from './regression.js';
import {
  conceptSpaceMdl,
  conceptSpacePosterior,
  conjunctionText,
  isConceptSpace,
  plausibleCount,
} from './conceptSpace.js';

export type HypothesisForm = 'posterior' | 'map' | 'ml' | 'mdl' | 'size';

export async function answerHypothesisQuery(ctx: HandlerContext, form: HypothesisForm): Promise<HandlerOutput> {
  const query = queryOf<A.HypothesisQuery>(ctx);
  const space = hypothesisSpace(ctx, query.target);
  if (isConceptSpace(space) && form === 'mdl') return conceptMdlAnswer(ctx, space, query.given);
  if (isConceptSpace(space)) return conceptAnswer(ctx, form, await conceptSpacePosterior(ctx, space, query.given));
  if (isRegressionSpace(space)) return regressionAnswer(ctx, form, space, query.given);
  if (space.generator)
    throw new CompileError(
      `${form} over ${space.generator.call.callee.text}(…) hypotheses is not supported yet`,
      space.generator.range,
    );
  const scored = await scoredHypotheses(ctx, space, query.given);
  if (form === 'mdl') return mdlAnswer(ctx, scored);
  return posteriorAnswer(ctx, form, posteriorTable(scored), scored);
}

function posteriorAnswer(
  ctx: HandlerContext,
  form: Exclude<HypothesisForm, 'mdl'>,
  table: PosteriorTable,
  scored: ScoredHypotheses,
): HandlerOutput {
  const diagnostics: Diagnostic[] = [];
  if (!table.evidencePossible && form !== 'ml')
    diagnostics.push(impossibleEvidence(ctx.statement.range, IMPOSSIBLE_EVIDENCE));
  const rows = table.rows.map(({ hypothesis, prior, likelihood, product, posterior: p }) => ({
    hypothesis,
    prior,
    likelihood,
    product,
    ...(p !== undefined ? { posterior: p } : {}),
  }));
  const best = form === 'ml' ? table.ml : table.map;
  const size = table.rows.filter((r) => (r.posterior ?? 0) > 0).length;
  const top = table.rows.find((r) => r.hypothesis === best[0]);
  const headline =
    form === 'size'
      ? `${size} of ${table.rows.length} hypotheses`
      : form === 'ml'
        ? `h_ML = ${best.join(', ')} · P(D|h) = ${fmt(top?.likelihood ?? 0)}`
        : best.length
          ? `${best.join(', ')} · ${fmt(top?.posterior ?? 0)}`
          : 'evidence has probability 0';
  const result: PosteriorResult = {
    kind: 'posterior',
    range: ctx.statement.range,
    source: ctx.source,
    headline,
    rows,
    evidence: table.evidence,
    evidencePossible: table.evidencePossible,
    map: table.map,
    ml: table.ml,
    data: scored.data,
    ...(scored.steps ? { sequence: posteriorSequence(scored, scored.steps) } : {}),
  };
  // The checker compares `posterior` with numbers: its value is the largest posterior, P(h_MAP|D).
  const value =
    form === 'size' ? size : form === 'posterior' ? top?.posterior : best.length ? best.join(', ') : undefined;
  return { results: [result], diagnostics, ...(value !== undefined ? { value } : {}) };
}

/** Bayes theorem after each datum on the running ln P(d1…di|h) (Mitchell fig. 6.1); stops at impossible data. */
function posteriorSequence(scored: ScoredHypotheses, steps: DatumStep[]): NonNullable<PosteriorResult['sequence']> {
  const hypotheses = scored.names.map((name, i) => ({ name, prior: scored.priors[i]! }));
  const running = scored.names.map(() => 0);
  const sequence: NonNullable<PosteriorResult['sequence']> = [];
  for (const step of steps) {
    step.logLikelihoods.forEach((x, i) => {
      running[i]! += x;
    });
    const table = posterior(hypotheses, running);
    if (!table.evidencePossible) break;
    sequence.push({ datum: step.datum, posterior: table.rows.map((r) => r.posterior!) });
  }
  return sequence;
}

/** L(h) + L(D|h) (eq. 6.19) with L(D|h) = −log2 P(D|h). */
function mdlAnswer(ctx: HandlerContext, scored: ScoredHypotheses): HandlerOutput {
  const { rows, best } = mdlChoice(
    scored.names.map((hypothesis, i) => ({
      hypothesis,
      hypothesisBits: scored.hypothesisBits[i]!,
      dataBits: bitsOfLogProbability(scored.logLikelihoods[i]!),
    })),
  );
  const code = scored.code;
  const top = rows.find((r) => r.hypothesis === best[0]);
  const result: MdlResult = {
    kind: 'mdl',
    range: ctx.statement.range,
    source: ctx.source,
    rows,
    best,
    code,
    headline: best.length
      ? `h_MDL = ${best.join(', ')} · ${fmt(top!.totalBits)} bits`
      : 'every hypothesis needs infinitely many bits',
  };
  return { results: [result], diagnostics: [], ...(best.length ? { value: best.join(', ') } : {}) };
}

/** Mitchell ex. 6.5 over a generated conjunction space: the shortest descriptions, and h_MDL. */
async function conceptMdlAnswer(
  ctx: HandlerContext,
  space: A.HypothesesDecl,
  given: readonly A.Assignment[],
): Promise<HandlerOutput> {
  const { mdl, text } = await conceptSpaceMdl(ctx, space, given);
  const rows = mdl.shortest.map((l) => ({
    hypothesis: text(l.constraints),
    hypothesisBits: l.hypothesisBits,
    dataBits: l.dataBits,
    totalBits: l.totalBits,
  }));
  const best = mdl.best.map((l) => text(l.constraints));
  const code =
    `Mitchell ex. 6.5: L(h) = literals × log2 ${fmt(2 ** mdl.literalBits)} bits, ` +
    `L(D|h) = misclassified examples × log2 ${fmt(2 ** mdl.exceptionBits)} bits; ` +
    `the ${rows.length} shortest of ${mdl.count} conjunctions`;
  const result: MdlResult = {
    kind: 'mdl',
    range: ctx.statement.range,
    source: ctx.source,
    rows,
    best,
    code,
    headline: `h_MDL = ${best.join(', ')} · ${fmt(mdl.best[0]!.totalBits)} bits`,
  };
  return { results: [result], diagnostics: [], value: best.join(', ') };
}

function conceptAnswer(ctx: HandlerContext, form: HypothesisForm, concept: ConceptPosterior): HandlerOutput {
  if (form === 'mdl')
    throw new CompileError(
      'mdl over generated conjunctions is not supported: use an explicit space with code lengths',
      queryOf<A.HypothesisQuery>(ctx).target.range,
    );
  const { logEvidence: _, ...rest } = concept;
  const size = plausibleCount(concept);
  const result: VersionSpaceResult = {
    kind: 'versionSpace',
    range: ctx.statement.range,
    source: ctx.source,
    ...rest,
    headline:
      concept.noise === 0
        ? `|VS| = ${concept.versionSpaceSize} of |H| = ${concept.hypothesisCount}`
        : `${size} of ${concept.hypothesisCount} hypotheses explain D`,
  };
  const diagnostics: Diagnostic[] = [];
  if (!concept.evidencePossible) diagnostics.push(impossibleEvidence(ctx.statement.range, IMPOSSIBLE_EVIDENCE));
  if (form === 'size') return { results: [result], diagnostics, value: Number(size) };
  const mapClass = concept.errorClasses.find((c) => c.posteriorEach > 0);
  if (form === 'posterior')
    return { results: [result], diagnostics, ...(mapClass ? { value: mapClass.posteriorEach } : {}) };
  const map = mapConjunction(concept);
  if (map === undefined && concept.evidencePossible) {
    const tied = mapClass?.hypotheses ?? '0';
    diagnostics.push({
      severity: 'information',
      code: 'map-tie',
      message: `${tied} hypotheses share the largest posterior: there is no single h_MAP`,
      range: ctx.statement.range,
    });
  }
  return { results: [result], diagnostics, ...(map !== undefined ? { value: map } : {}) };
}

/** The single best conjunction, when one hypothesis alone has the largest posterior and is listed. */
function mapConjunction(concept: ConceptPosterior): string | undefined {
  const best = concept.errorClasses.find((c) => c.posteriorEach > 0);
  if (!best || best.hypotheses !== '1') return undefined;
  return best.errors === 0 && concept.members?.length === 1 ? conjunctionText(concept.members[0]!) : undefined;
}
