/**
 * `bayes filter MODEL.bayes --network N --observations obs.csv`: filtering, smoothing, the most
 * likely sequence, the log-likelihood and (--predict K) forecasts of a network over time
 * (engine/dynamic). Step t = 1 is the first row of the observations; slice 0 is the prior.
 */
import { parseArgs } from 'node:util';
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import type { DynamicResult, SliceMarginals } from '../engine/dynamic/forwardBackward.js';
import { filterSequenceSteps } from '../engine/dynamic/filtering.js';
import { DEFAULT_PARTICLES, PARTICLE_REPLICATES, type ParticleResult } from '../engine/dynamic/particleFilter.js';
import { mostLikelySequenceSteps, type MostLikelySequence } from '../engine/dynamic/viterbi.js';
import { BudgetError } from '../engine/budget.js';
import type { CancelSignal } from '../engine/cancellation.js';
import { ownValue, setOwn } from '../engine/records.js';
import { completeYielding, type StepReport } from '../engine/stepwise.js';
import { exactFilterAnswer, filterSteps } from './filterSteps.js';
import { readObservationSequence } from '../model/observationSequence.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { integerOption } from './learningInputs.js';
import { cliBudgets } from './limits.js';
import { NETWORK_FILE_USAGE } from './networkFile.js';
import { readNetworkOverTime } from './dynamicFile.js';
import { filterGaussian } from './filterGaussian.js';
import { readCommandLineText } from './workspace.js';

const OPTIONS = {
  network: { type: 'string' },
  observations: { type: 'string' },
  predict: { type: 'string' },
  likelihood: { type: 'string', multiple: true },
  soft: { type: 'string', multiple: true },
  particles: { type: 'string' },
  seed: { type: 'string' },
  json: { type: 'boolean' },
  workspace: { type: 'string' },
  'data-root': { type: 'string', multiple: true },
  'max-file-mb': { type: 'string' },
} as const;

type Distribution = Record<string, number>;

export const filterCommand: CliCommand = {
  name: 'filter',
  summary: 'filtering, smoothing, the most likely sequence and forecasts of a network over time',
  usage: `bayes filter MODEL.bayes --network N --observations OBS.csv [options]

N is a network over time (a 2-slice template: P(X[0] …), P(X[t] | … X[t-1] …)). OBS.csv has a
header of observed variable names and one row per step; '?' or an empty cell is a missing value.
The first row is step t = 1; slice 0 is the prior P(X[0]) and has no observations.

Inference is exact while the 1.5-slice junction tree fits the memory budget (--max-memory). When
only the smoothing messages (one table over the interface per step) do not fit, filtering stays
exact and smoothing is left out; when the tree does not fit, a particle filter estimates the
filtered distributions, each with its standard error ("method": "particle").

Options:
  --network N            the network over time (required)
  --observations F       the observations, one row per step (required)
  --predict K            also forecast P(X[T+k] | e_1..T) for k = 1…K
  --likelihood T:VAR=L1,L2,…  virtual evidence on VAR at step T: λ per state in its state order
                         (repeatable)
  --soft T:VAR=P1,P2,…   soft evidence (Jeffrey's rule) on VAR at step T: its belief given steps
                         1…T and step T's other findings becomes P1,P2,… (summing to 1; repeatable)
  --particles N          particles of the particle filter, if it is used (default ${DEFAULT_PARTICLES}, at least
                         ${10 * PARTICLE_REPLICATES}; split into ${PARTICLE_REPLICATES} independent filters for the standard errors)
  --seed S               the particle filter's seed (default 1)
  --json                 {"network", "method": "exact"|"particle", "steps": [{"t", "filtered": {VAR:
                         {STATE: p}}, "smoothed": {VAR: {STATE: p}}}], "mostLikely": [{VAR: STATE}]
                         (t = 1…T), "logLikelihood" (natural log of P(e_1..T)), "predicted"?:
                         [{"t": T+k, VAR: {STATE: p}}], "note"? (why something is left out)}; with
                         "method": "particle", each step has "standardErrors" instead of "smoothed",
                         "predicted" entries have "standardErrors", "particles" and "seed" are
                         given, and there is no "mostLikely"

A network over time whose variables are all real, with linear Gaussian tables (~ Normal(…)), is
filtered exactly by a Kalman filter and smoothed by the Rauch–Tung–Striebel smoother: each variable
is {"mean": m, "variance": v} instead of {STATE: p}, an observed one its reading with variance 0,
"mostLikely" gives numbers (the smoothed means: the joint posterior is Gaussian, its mode its mean),
"logLikelihood" is the natural log of the observations' density, and the cells are numbers
(--likelihood, --soft, --particles and --seed do not apply).
${NETWORK_FILE_USAGE}`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError('give one model file');
    if (!values.network) throw new UsageError('give the network over time: --network N');
    if (!values.observations) throw new UsageError('give the observations: --observations F.csv');
    const predict = values.predict === undefined ? 0 : integerOption('predict', values.predict, 0, 1);
    const particles = integerOption('particles', values.particles, DEFAULT_PARTICLES, 10 * PARTICLE_REPLICATES);
    const seed = integerOption('seed', values.seed, 1);
    const read = readNetworkOverTime(positionals[0]!, io, { ...values, network: values.network });
    if (!read) return 1;
    if (read.kind === 'gaussian') {
      const discreteOnly = (['likelihood', 'soft', 'particles', 'seed'] as const).find((o) => values[o] !== undefined);
      if (discreteOnly)
        throw new UsageError(
          `--${discreteOnly} is for discrete networks over time; '${read.net.name}' has real variables`,
        );
      const options = { observations: values.observations, predict, json: values.json ?? false };
      return filterGaussian(read.net, { ...options, maxFileMb: values['max-file-mb'] }, io);
    }
    const dbn = read.dbn;
    const findings = readObservations(values.observations, dbn, io, values['max-file-mb']);
    if (!findings) return 1;
    const extra =
      addFindings(dbn, findings, values.likelihood ?? [], 'likelihood') ??
      addFindings(dbn, findings, values.soft ?? [], 'soft');
    if (extra) {
      io.err(`bayes filter: ${extra}\n`);
      return 1;
    }
    // The forward pass, the backward pass and Viterbi's two passes (its backtrace reaches slice 0): 4T + 1 steps.
    const options = {
      smooth: true,
      predict,
      maxEntries: cliBudgets.maxTotalEntries,
      maxSamples: cliBudgets.maxSamples,
    };
    return filterSteps(
      io,
      values.json ?? false,
      4 * findings.length + 1,
      async (signal, report) => {
        const work = filterSequenceSteps(dbn, findings, { ...options, particles, seed, signal });
        const r = await completeYielding(work, report, signal);
        const ml = r.method === 'exact' ? await mostLikely(dbn, r.findings, signal, report) : undefined;
        return r.method === 'exact' ? exactAnswer(dbn, r, ml) : particleAnswer(dbn, r);
      },
      (answer, out) => out(values.json ? JSON.stringify(answer) + '\n' : text(answer, findings, dbn)),
    );
  },
};

/** The most likely sequence, or a note when its messages are over the budget. */
async function mostLikely(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  signal: CancelSignal,
  report: (r: StepReport) => void,
): Promise<MostLikelySequence | string> {
  try {
    return await completeYielding(
      mostLikelySequenceSteps(dbn, findings, signal, cliBudgets.maxTotalEntries),
      report,
      signal,
    );
  } catch (e) {
    if (e instanceof BudgetError) return `${e.message}: no most likely sequence`;
    throw e;
  }
}

interface Answer {
  network: string;
  method: 'exact' | 'particle';
  particles?: number;
  seed?: number;
  steps: {
    t: number;
    filtered: Record<string, Distribution>;
    smoothed?: Record<string, Distribution>;
    standardErrors?: Record<string, Distribution>;
  }[];
  mostLikely?: Record<string, string>[];
  logLikelihood: number;
  predicted?: Record<string, unknown>[];
  note?: string;
}

function exactAnswer(
  dbn: TwoSliceNetwork,
  r: DynamicResult & { note?: string },
  ml: MostLikelySequence | string | undefined,
): Answer {
  const named = (m: SliceMarginals) => namedSlice(dbn, m);
  const notes = [r.note, typeof ml === 'string' ? ml : undefined].filter(Boolean);
  const mostLikely = ml && typeof ml !== 'string' ? ml.states.slice(1).map((s) => namedStates(dbn, s)) : undefined;
  return exactFilterAnswer(dbn.name, r, named, mostLikely, notes.length ? notes.join('; ') : undefined);
}

function particleAnswer(dbn: TwoSliceNetwork, r: ParticleResult & { note: string }): Answer {
  const named = (m: SliceMarginals) => namedSlice(dbn, m);
  return {
    network: dbn.name,
    method: 'particle',
    particles: r.particles,
    seed: r.seed,
    steps: r.filtered.map((f, i) => ({ t: i + 1, filtered: named(f), standardErrors: named(r.filteredErrors[i]!) })),
    logLikelihood: r.logLikelihood,
    ...(r.predicted
      ? {
          predicted: r.predicted.map((p, k) => ({
            t: r.filtered.length + k + 1,
            ...named(p),
            standardErrors: named(r.predictedErrors![k]!),
          })),
        }
      : {}),
    note: r.note,
  };
}

function readObservations(
  file: string,
  dbn: TwoSliceNetwork,
  io: CliIO,
  maxFileMb: string | undefined,
): StepFindings[] | undefined {
  const content = readCommandLineText(file, io, maxFileMb);
  if (content === undefined) return undefined;
  const r = readObservationSequence(content, dbn.variables);
  if ('error' in r) {
    io.err(`${file}:${r.error.line}:${r.error.column}: error: ${r.error.message}\n`);
    return undefined;
  }
  if (r.findings.length === 0) {
    io.err(`${file}:2:1: error: no steps: one row per step follows the header\n`);
    return undefined;
  }
  return r.findings;
}

/**
 * `--likelihood 3:Rain=0.8,0.2` (λ per state) or `--soft 3:Rain=0.7,0.3` (the belief, summing to 1)
 * onto step 3's findings; an error message when malformed.
 */
function addFindings(
  dbn: TwoSliceNetwork,
  findings: StepFindings[],
  specs: readonly string[],
  kind: 'likelihood' | 'soft',
): string | undefined {
  for (const spec of specs) {
    const m = /^(\d+):([^=]+)=(.+)$/.exec(spec);
    if (!m) return `--${kind} ${spec}: write T:VAR=${kind === 'soft' ? 'P1,P2' : 'L1,L2'},…`;
    const t = Number(m[1]);
    if (t < 1 || t > findings.length) return `--${kind} ${spec}: step ${t} is not one of 1…${findings.length}`;
    const v = dbn.variables.findIndex((x) => x.name === m[2]);
    if (v < 0) return `--${kind} ${spec}: '${m[2]}' is not a variable of ${dbn.name}`;
    const numbers = m[3]!.split(',').map(Number);
    const k = dbn.variables[v]!.states.length;
    if (numbers.length !== k || numbers.some((x) => !(x >= 0) || !Number.isFinite(x)) || !numbers.some((x) => x > 0))
      return `--${kind} ${spec}: give ${k} finite numbers ≥ 0, not all 0`;
    const f = findings[t - 1]!;
    if (kind === 'likelihood') {
      const likelihoods = new Map(f.likelihoods ?? []);
      likelihoods.set(v, numbers);
      findings[t - 1] = { ...f, likelihoods };
      continue;
    }
    const sum = numbers.reduce((a, b) => a + b, 0);
    if (Math.abs(sum - 1) > 1e-6) return `--soft ${spec}: the probabilities sum to ${sum}, not 1`;
    if (f.evidence.has(v)) return `--soft ${spec}: ${m[2]} is observed at step ${t}`;
    if (f.soft?.has(v)) return `--soft ${spec}: ${m[2]} already has a soft finding at step ${t}`;
    findings[t - 1] = {
      ...f,
      soft: new Map(f.soft ?? []).set(
        v,
        numbers.map((x) => x / sum),
      ),
    };
  }
  return undefined;
}

function namedSlice(dbn: TwoSliceNetwork, m: SliceMarginals): Record<string, Distribution> {
  const out: Record<string, Distribution> = {};
  dbn.variables.forEach((v, i) => {
    const d: Distribution = {};
    v.states.forEach((s, x) => setOwn(d, s, m[i]![x]!));
    setOwn(out, v.name, d);
  });
  return out;
}

function namedStates(dbn: TwoSliceNetwork, s: Int32Array): Record<string, string> {
  const out: Record<string, string> = {};
  dbn.variables.forEach((v, i) => setOwn(out, v.name, v.states[s[i]!]!));
  return out;
}

/** For people: per step, what was observed, then each variable's filtered and smoothed numbers. */
function text(a: Answer, findings: StepFindings[], dbn: TwoSliceNetwork): string {
  const dist = (d: Distribution, se?: Distribution) =>
    Object.entries(d)
      .map(([s, p]) => `${s} ${p.toFixed(4)}${se ? ` ± ${ownValue(se, s)!.toFixed(4)}` : ''}`)
      .join('  ');
  const width = Math.max(...dbn.variables.map((v) => v.name.length));
  const how =
    a.method === 'particle' ? `, particle filter (${a.particles} particles, seed ${a.seed}; ± standard error)` : '';
  const lines = [`${a.network}: ${a.steps.length} steps, log-likelihood ${a.logLikelihood.toFixed(6)}${how}`];
  if (a.note) lines.push(`note: ${a.note}`);
  a.steps.forEach((s, i) => {
    const seen = [...findings[i]!.evidence].map(([v, x]) => `${dbn.variables[v]!.name}=${dbn.variables[v]!.states[x]}`);
    lines.push(`t=${s.t}  observed: ${seen.join(', ') || '(nothing)'}`);
    dbn.variables.forEach((v, j) => {
      if (findings[i]!.evidence.has(j)) return;
      const parts = [
        `filtered ${dist(ownValue(s.filtered, v.name)!, s.standardErrors && ownValue(s.standardErrors, v.name))}`,
      ];
      if (s.smoothed) parts.push(`smoothed ${dist(ownValue(s.smoothed, v.name)!)}`);
      if (a.mostLikely) parts.push(`most likely ${ownValue(a.mostLikely[i]!, v.name)}`);
      lines.push(`  ${v.name.padEnd(width)}  ${parts.join('  |  ')}`);
    });
  });
  for (const p of a.predicted ?? []) {
    lines.push(`t=${String(p.t)}  predicted`);
    const se = p.standardErrors as Record<string, Distribution> | undefined;
    for (const v of dbn.variables)
      lines.push(`  ${v.name.padEnd(width)}  ${dist(ownValue(p, v.name) as Distribution, se && ownValue(se, v.name))}`);
  }
  return lines.join('\n') + '\n';
}
