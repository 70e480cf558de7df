/**
 * `bayes filter MODEL.bayes --network N --observations obs.csv`: filtering, smoothing, the most
 * likely sequence, the log-likelihood and (--predict K) forecasts of a network over time
 * (engine/dynamic). Step t = 1 is the first row of the observations; slice 0 is the prior.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { TwoSliceNetwork } from '../engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../engine/dynamic/sliceTree.js';
import { forwardBackward, type SliceMarginals } from '../engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../engine/dynamic/viterbi.js';
import { EngineError } from '../engine/engineError.js';
import { setOwn } from '../engine/records.js';
import { readObservationSequence } from '../model/observationSequence.js';
import { UsageError, type CliCommand, type CliIO } from './command.js';
import { integerOption } from './learningInputs.js';
import { cliBudgets } from './limits.js';
import { NETWORK_FILE_USAGE } from './networkFile.js';
import { readDynamicNetwork } from './dynamicFile.js';

const OPTIONS = {
  network: { type: 'string' },
  observations: { type: 'string' },
  predict: { type: 'string' },
  likelihood: { type: 'string', multiple: true },
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

Options:
  --network N            the network over time (required)
  --observations F       the observations, one row per step (required)
  --predict K            also forecast P(X[T+k] | e_1..T) for k = 1…K
  --likelihood T:VAR=L1,L2,…  virtual evidence on VAR at step T: λ per state in its state order
                         (repeatable)
  --json                 {"network", "steps": [{"t", "filtered": {VAR: {STATE: p}},
                         "smoothed": {VAR: {STATE: p}}}], "mostLikely": [{VAR: STATE}] (t = 1…T),
                         "logLikelihood" (natural log of P(e_1..T)), "predicted"?: [{"t": T+k,
                         VAR: {STATE: p}}]}
${NETWORK_FILE_USAGE}`,
  async run(args: string[], io: CliIO): Promise<number> {
    const { values, positionals } = parseArgs({ args, options: OPTIONS, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError('give one model file');
    if (!values.network) throw new UsageError('give the network over time: --network N');
    if (!values.observations) throw new UsageError('give the observations: --observations F.csv');
    const predict = values.predict === undefined ? 0 : integerOption('predict', values.predict, 0, 1);
    const dbn = readDynamicNetwork(positionals[0]!, io, { ...values, network: values.network });
    if (!dbn) return 1;
    const findings = readObservations(values.observations, dbn, io);
    if (!findings) return 1;
    const likelihood = addLikelihoods(dbn, findings, values.likelihood ?? []);
    if (typeof likelihood === 'string') {
      io.err(`bayes filter: ${likelihood}\n`);
      return 1;
    }
    try {
      const maxEntries = cliBudgets.maxTotalEntries;
      const r = forwardBackward(dbn, findings, { smooth: true, predict, maxEntries });
      const ml = mostLikelySequence(dbn, findings, undefined, maxEntries);
      const named = (m: SliceMarginals) => namedSlice(dbn, m);
      const answer = {
        network: dbn.name,
        steps: r.filtered.map((f, i) => ({ t: i + 1, filtered: named(f), smoothed: named(r.smoothed![i]!) })),
        mostLikely: ml.states.slice(1).map((s) => namedStates(dbn, s)),
        logLikelihood: r.logLikelihood,
        ...(predict ? { predicted: r.predicted!.map((p, k) => ({ t: findings.length + k + 1, ...named(p) })) } : {}),
      };
      io.out(values.json ? JSON.stringify(answer) + '\n' : text(answer, findings, dbn));
      return 0;
    } catch (e) {
      if (!(e instanceof EngineError)) throw e;
      io.err(`bayes filter: ${e.message}\n`);
      return 1;
    }
  },
};

function readObservations(file: string, dbn: TwoSliceNetwork, io: CliIO): StepFindings[] | undefined {
  let content: string;
  try {
    content = readFileSync(file, 'utf8');
  } catch (e) {
    io.err(`bayes: cannot read ${file}: ${(e as Error).message}\n`);
    return undefined;
  }
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

/** `--likelihood 3:Rain=0.8,0.2` onto step 3's findings; an error message when malformed. */
function addLikelihoods(dbn: TwoSliceNetwork, findings: StepFindings[], specs: readonly string[]): string | undefined {
  for (const spec of specs) {
    const m = /^(\d+):([^=]+)=(.+)$/.exec(spec);
    if (!m) return `--likelihood ${spec}: write T:VAR=L1,L2,…`;
    const t = Number(m[1]);
    if (t < 1 || t > findings.length) return `--likelihood ${spec}: step ${t} is not one of 1…${findings.length}`;
    const v = dbn.variables.findIndex((x) => x.name === m[2]);
    if (v < 0) return `--likelihood ${spec}: '${m[2]}' is not a variable of ${dbn.name}`;
    const lambda = m[3]!.split(',').map(Number);
    const k = dbn.variables[v]!.states.length;
    if (lambda.length !== k || lambda.some((x) => !(x >= 0) || !Number.isFinite(x)) || !lambda.some((x) => x > 0))
      return `--likelihood ${spec}: give ${k} finite numbers ≥ 0, not all 0`;
    const f = findings[t - 1]!;
    const likelihoods = new Map(f.likelihoods ?? []);
    likelihoods.set(v, lambda);
    findings[t - 1] = { ...f, likelihoods };
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

interface Answer {
  network: string;
  steps: { t: number; filtered: Record<string, Distribution>; smoothed: Record<string, Distribution> }[];
  mostLikely: Record<string, string>[];
  logLikelihood: number;
  predicted?: Record<string, unknown>[];
}

/** For people: per step, what was observed, then each variable's filtered and smoothed numbers. */
function text(a: Answer, findings: StepFindings[], dbn: TwoSliceNetwork): string {
  const dist = (d: Distribution) =>
    Object.entries(d)
      .map(([s, p]) => `${s} ${p.toFixed(4)}`)
      .join('  ');
  const width = Math.max(...dbn.variables.map((v) => v.name.length));
  const lines = [`${a.network}: ${a.steps.length} steps, log-likelihood ${a.logLikelihood.toFixed(6)}`];
  a.steps.forEach((s, i) => {
    const seen = [...findings[i]!.evidence].map(([v, x]) => `${dbn.variables[v]!.name}=${dbn.variables[v]!.states[x]}`);
    lines.push(`t=${s.t}  observed: ${seen.join(', ') || '(nothing)'}`);
    for (const v of dbn.variables) {
      if (findings[i]!.evidence.has(dbn.variables.indexOf(v))) continue;
      lines.push(
        `  ${v.name.padEnd(width)}  filtered ${dist(s.filtered[v.name]!)}  |  smoothed ${dist(s.smoothed[v.name]!)}  |  most likely ${a.mostLikely[i]![v.name]}`,
      );
    }
  });
  for (const p of a.predicted ?? []) {
    lines.push(`t=${String(p.t)}  predicted`);
    for (const v of dbn.variables) lines.push(`  ${v.name.padEnd(width)}  ${dist(p[v.name] as Distribution)}`);
  }
  return lines.join('\n') + '\n';
}
