/**
 * `bayes filter` on a network over time of real variables (a linear Gaussian slice,
 * engine/dynamic/kalman.ts): the same answer as for discrete slices, each variable as
 * `{"mean": m, "variance": v}` (as `bayes marginals` prints continuous nodes), the most likely
 * sequence as numbers. An observed variable is printed as its reading with variance 0. `--json`
 * is written step by step (gaussianFilterJson.ts), never built as one object.
 */
import type { GaussianTwoSliceNetwork } from '../engine/dynamic/gaussianSlice.js';
import { kalmanSteps, type GaussianMarginals, type KalmanResult } from '../engine/dynamic/kalman.js';
import { ownValue, setOwn } from '../engine/records.js';
import { completeYielding } from '../engine/stepwise.js';
import { readNumericSequence } from '../model/observationSequence.js';
import type { CliIO } from './command.js';
import { cliBudgets } from './limits.js';
import { exactFilterAnswer, filterSteps } from './filterSteps.js';
import { writeGaussianJson } from './gaussianFilterJson.js';
import { readCommandLineText } from './workspace.js';

export interface GaussianFilterOptions {
  observations: string;
  predict: number;
  json: boolean;
  maxFileMb: string | undefined;
}

type Moments = { mean: number; variance: number };

export interface GaussianAnswer {
  network: string;
  method: 'exact';
  steps: { t: number; filtered: Record<string, Moments>; smoothed?: Record<string, Moments> }[];
  mostLikely?: Record<string, number>[];
  logLikelihood: number;
  predicted?: Record<string, unknown>[];
  note?: string;
}

export async function filterGaussian(
  net: GaussianTwoSliceNetwork,
  options: GaussianFilterOptions,
  io: CliIO,
): Promise<number> {
  const content = readCommandLineText(options.observations, io, options.maxFileMb);
  if (content === undefined) return 1;
  const read = readNumericSequence(content, net.variables);
  if ('error' in read) {
    io.err(`${options.observations}:${read.error.line}:${read.error.column}: error: ${read.error.message}\n`);
    return 1;
  }
  const T = read.steps.length;
  if (T === 0) {
    io.err(`${options.observations}:2:1: error: no steps: one row per step follows the header\n`);
    return 1;
  }
  const kalman = { smooth: true, predict: options.predict, maxEntries: cliBudgets.maxTotalEntries };
  return filterSteps(
    io,
    options.json,
    2 * T + options.predict,
    (signal, report) => completeYielding(kalmanSteps(net, read.steps, { ...kalman, signal }), report, signal),
    (r, out) => (options.json ? writeGaussianJson(net, r, out) : out(text(gaussianAnswer(net, r), read.steps, net))),
  );
}

/** The answer as one object, which the text output reads (`--json` writes the same fields as it goes). */
export function gaussianAnswer(net: GaussianTwoSliceNetwork, r: KalmanResult): GaussianAnswer {
  const named = (m: GaussianMarginals) => {
    const out: Record<string, Moments> = {};
    net.variables.forEach((v, i) => setOwn(out, v, { mean: m.means[i]!, variance: m.variances[i]! }));
    return out;
  };
  const values = (x: Float64Array) => {
    const out: Record<string, number> = {};
    net.variables.forEach((v, i) => setOwn(out, v, x[i]!));
    return out;
  };
  return exactFilterAnswer(net.name, r, named, r.mostLikely?.map(values), r.note);
}

/** For people: per step, what was read, then each other variable's filtered and smoothed mean ± sd. */
function text(a: GaussianAnswer, steps: readonly Map<number, number>[], net: GaussianTwoSliceNetwork): string {
  const show = (m: Moments) => `${m.mean.toFixed(4)} ± ${Math.sqrt(m.variance).toFixed(4)}`;
  const width = Math.max(...net.variables.map((v) => v.length));
  const lines = [`${a.network}: ${a.steps.length} steps, log-likelihood ${a.logLikelihood.toFixed(6)} (mean ± sd)`];
  if (a.note) lines.push(`note: ${a.note}`);
  a.steps.forEach((s, i) => {
    const seen = [...steps[i]!].map(([v, x]) => `${net.variables[v]}=${x}`);
    lines.push(`t=${s.t}  observed: ${seen.join(', ') || '(nothing)'}`);
    net.variables.forEach((v, j) => {
      if (steps[i]!.has(j)) return;
      const parts = [`filtered ${show(ownValue(s.filtered, v)!)}`];
      if (s.smoothed) parts.push(`smoothed ${show(ownValue(s.smoothed, v)!)}`);
      if (a.mostLikely) parts.push(`most likely ${ownValue(a.mostLikely[i]!, v)!.toFixed(4)}`);
      lines.push(`  ${v.padEnd(width)}  ${parts.join('  |  ')}`);
    });
  });
  for (const p of a.predicted ?? []) {
    lines.push(`t=${String(p.t)}  predicted`);
    for (const v of net.variables) lines.push(`  ${v.padEnd(width)}  ${show(ownValue(p, v) as Moments)}`);
  }
  return lines.join('\n') + '\n';
}
