/**
 * Mixtures of Gaussians (Mitchell §6.12): `mixture M = gaussians(Points.x, k: 2, sigma: 1,
 * weights: uniform)` is Mitchell's k means (known σ, equal weights, means only, eq. 6.29–6.31);
 * without `sigma` it is a full mixture (weights, means, full covariances). `learn M by em { seed }`
 * fits it; `query estimate M.mean1` reads the fit. Components are numbered in order of their
 * means (first column), so `mean1` is the same component whatever the random start.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic } from '../language/diagnostics.js';
import { gaussianMixture, kMeansEm, type MixtureFit } from '../engine/mixtures/gaussianMixture.js';
import type { NumericData } from '../engine/dataset.js';
import { createRng } from '../engine/random.js';
import { CompileError } from '../model/compileError.js';
import type { HandlerContext, HandlerOutput } from './handlerContext.js';
import { modelNumbers } from './modelInputs.js';
import { argument, positionalArgument } from './classifiers.js';
import { mixtureData } from './learningResults.js';
import { LearnOptions, MAX_ITERATIONS } from './learnOptions.js';
import type { MixtureResult } from '../protocol/runResult.js';

/** Above this many points the result carries a seeded sample of them for the plot. */
export const PLOTTED_POINTS = 5000;

function mixtureKey(name: string): string {
  return `mixture:${name}`;
}

function mixtureDecl(ctx: HandlerContext, name: A.Name): A.MixtureDecl {
  const global = ctx.symbols.globals.get(name.text);
  if (global?.kind !== 'mixture') throw new CompileError(`'${name.text}' is not a mixture`, name.range);
  return global.node as A.MixtureDecl;
}

/** The fit `learn M` made earlier in the run. */
export function learnedMixture(ctx: HandlerContext, name: A.Name): MixtureResult {
  mixtureDecl(ctx, name);
  const fit = ctx.shared.get(mixtureKey(name.text)) as MixtureResult | undefined;
  if (!fit)
    throw new CompileError(
      `'${name.text}' has not been learnt yet: put 'learn ${name.text} by em' before this line`,
      name.range,
    );
  return fit;
}

/** A number argument of the declaration (`k: 2`), checked. */
function declared(call: A.Call, name: string, rule: (x: number) => boolean, what: string): number | undefined {
  const value = argument(call, name);
  if (value === undefined) return undefined;
  if (value.kind !== 'number' || !rule(value.value)) throw new CompileError(`${name}: must be ${what}`, value.range);
  return value.value;
}

export async function learnMixture(ctx: HandlerContext, s: A.LearnStmt): Promise<HandlerOutput> {
  const call = mixtureDecl(ctx, s.model).definition;
  if (s.method && s.method.text !== 'em')
    throw new CompileError(`a mixture is learnt by em, not ${s.method.text}`, s.method.range);
  if (s.from)
    throw new CompileError(
      `a mixture learns from the data it is declared on: write 'learn ${s.model.text} by em'`,
      s.from.range,
    );
  const source = positionalArgument(call);
  if (source?.kind !== 'ref')
    throw new CompileError('gaussians(DATA.column, k: K) or gaussians(DATA[a, b], k: K)', call.range);
  const x = await modelNumbers(ctx, source);
  const k = declared(call, 'k', (v) => Number.isInteger(v) && v >= 1, 'a positive integer')!;
  const sigma = declared(call, 'sigma', (v) => v > 0, 'a positive number');
  const weights = argument(call, 'weights');
  const weightsText = weights?.kind === 'ref' ? weights.name.text : sigma === undefined ? 'learned' : 'uniform';
  if (sigma !== undefined && weightsText !== 'uniform')
    throw new CompileError(
      "with a known sigma the components have equal weights (Mitchell §6.12.1): drop 'weights: learned' or 'sigma'",
      weights!.range,
    );
  if (sigma === undefined && weightsText === 'uniform')
    throw new CompileError(
      "a full mixture learns its weights; equal weights go with a known sigma (Mitchell's k means): add 'sigma: …'",
      weights!.range,
    );
  const options = new LearnOptions(s.options);
  const diagnostics: Diagnostic[] = options.unused(['seed', 'iterations', 'tolerance'], 'a mixture');
  const maxIterations = options.number(
    'iterations',
    // The call's own iterations are held to the same budget as the learn line's option.
    declared(
      call,
      'iterations',
      (v) => Number.isInteger(v) && v >= 1 && v <= MAX_ITERATIONS,
      `a positive integer, at most ${MAX_ITERATIONS}`,
    ) ?? 100,
    { integer: true, min: 1, max: MAX_ITERATIONS },
  );
  const common = {
    k,
    maxIterations,
    seed: options.number('seed', declared(call, 'seed', Number.isInteger, 'an integer') ?? 1, {
      integer: true,
      min: 0,
    }),
    tolerance: options.number(
      'tolerance',
      declared(call, 'tolerance', (v) => v >= 0, 'non-negative') ?? (sigma === undefined ? 1e-3 : 1e-9),
      { min: 0 },
    ),
    signal: ctx.signal,
    onProgress: (i: number, ll: number) =>
      ctx.onProgress?.(
        Math.min(1, i / maxIterations),
        `EM on ${s.model.text}: iteration ${i}, log-likelihood ${ll.toFixed(4)}`,
      ),
  };
  const fit = orderByMeans(sigma === undefined ? gaussianMixture(x, common) : kMeansEm(x, { ...common, sigma }));
  const result: MixtureResult = {
    ...mixtureData(x.names, fit),
    ...plotted(x, fit, common.seed),
    range: s.range,
    source: ctx.source,
    headline: headline(s.model.text, fit),
  };
  ctx.shared.set(mixtureKey(s.model.text), result);
  return { results: [result], diagnostics };
}

function headline(name: string, fit: MixtureFit): string {
  const d = fit.dims;
  const means = Array.from({ length: fit.k }, (_, j) => {
    const m = [...fit.means.subarray(j * d, (j + 1) * d)].map((v) => v.toFixed(4));
    return d === 1 ? m[0] : `(${m.join(', ')})`;
  });
  return `${name} · means ${means.join(', ')} · ${fit.iterations} iterations · log L = ${fit.logLikelihood.toFixed(4)}`;
}

/** The same fit with its components sorted by the mean of the first column. */
export function orderByMeans(fit: MixtureFit): MixtureFit {
  const { k, dims: d } = fit;
  const order = Array.from({ length: k }, (_, j) => j).sort((a, b) => fit.means[a * d]! - fit.means[b * d]!);
  const n = fit.responsibilities.length / k;
  const pick = (values: Float64Array, size: number) => {
    const out = new Float64Array(values.length);
    order.forEach((from, to) => out.set(values.subarray(from * size, (from + 1) * size), to * size));
    return out;
  };
  const responsibilities = new Float64Array(fit.responsibilities.length);
  for (let i = 0; i < n; i++)
    order.forEach((from, to) => {
      responsibilities[i * k + to] = fit.responsibilities[i * k + from]!;
    });
  return {
    ...fit,
    weights: pick(fit.weights, 1),
    means: pick(fit.means, d),
    covariances: pick(fit.covariances, d * d),
    responsibilities,
  };
}

/** The points to plot the fit over, with their responsibilities: all, or a seeded sample of PLOTTED_POINTS. */
function plotted(
  x: NumericData,
  fit: MixtureFit,
  seed: number,
): Pick<MixtureResult, 'points' | 'pointCount' | 'responsibilities'> {
  const { k, dims: d } = fit;
  let rows = Array.from({ length: x.rows }, (_, i) => i);
  if (x.rows > PLOTTED_POINTS)
    rows = createRng(seed)
      .shuffle(rows)
      .slice(0, PLOTTED_POINTS)
      .sort((a, b) => a - b);
  return {
    points: rows.map((i) => [...x.values.subarray(i * d, (i + 1) * d)]),
    pointCount: x.rows,
    responsibilities: rows.map((i) => [...fit.responsibilities.subarray(i * k, (i + 1) * k)]),
  };
}

/** `mean2`, `weight1`, `sigma1`; a multi-column mixture names the column: `mean1_waiting`, `sigma2_eruptions`. */
export function estimateOf(fit: MixtureResult, parameter: A.Name): number {
  const match = /^(mean|weight|sigma)(\d+)(?:_(.+))?$/.exec(parameter.text);
  const k = fit.weights.length;
  const j = match ? Number(match[2]) - 1 : -1;
  if (!match || j < 0 || j >= k)
    throw new CompileError(
      `the parameters are mean1…mean${k}, weight1…weight${k} and sigma1…sigma${k}`,
      parameter.range,
    );
  if (match[1] === 'weight') {
    if (match[3] !== undefined)
      throw new CompileError(`a weight belongs to a whole component: write weight${j + 1}`, parameter.range);
    return fit.weights[j]!;
  }
  const column = match[3];
  const dims = fit.dimensions;
  const a = column === undefined ? (dims.length === 1 ? 0 : -1) : dims.indexOf(column);
  if (a < 0) {
    const hint = dims.map((c) => `${match[1]}${j + 1}_${c}`).join(' or ');
    throw new CompileError(
      column === undefined
        ? `this mixture has ${dims.length} columns: name one, ${hint}`
        : `no column '${column}' in this mixture: ${hint}`,
      parameter.range,
    );
  }
  return match[1] === 'mean' ? fit.means[j]![a]! : Math.sqrt(fit.covariances[j]![a]![a]!);
}
