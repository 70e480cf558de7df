/**
 * `bayes marginals` on a network with continuous nodes (Hugin NET `continuous node`s): exact
 * posteriors by engine/gaussian/clgInference.ts. A continuous node prints as
 * `{"mean", "variance"}` (and, in a CLG network, the mixture's `"components"`), a discrete one as
 * `{STATE: p}` like every other network, with the evidence's log density.
 */
import { hybridIndexMap, type HybridNetwork } from '../engine/gaussian/hybridNetwork.js';
import { exactCost, type ContinuousPosterior } from '../engine/gaussian/clgInference.js';
import type { SamplesDone } from '../engine/sampling/sampledNetwork.js';
import { hybridEvidence, withHybridFindings } from '../run/hybridAnswers.js';
import { inferOnTerminal } from './samplingProgress.js';
import { hybridMarginals, type HybridAnswer } from '../engine/gaussian/hybridMarginals.js';
import { EngineError } from '../engine/engineError.js';
import type { NamedEvidence } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';
import { cliBudgets } from './limits.js';
import type { CliIO } from './command.js';

/** Options of `bayes marginals` that have no meaning here; each is refused by name. */
export interface HybridMarginalsOptions {
  json?: boolean;
  refused: string[];
  method?: 'auto' | 'exact' | 'lw';
  samples?: number;
  seed?: number;
  /** Virtual findings (`--likelihood VAR=λ1,λ2,…`) on discrete nodes. */
  likelihood?: Record<string, number[]>;
  /** Soft findings (`--soft VAR=q1,q2,…`, Jeffrey's rule) on discrete nodes. */
  soft?: Record<string, number[]>;
}

export function runHybridMarginals(
  net: HybridNetwork,
  named: NamedEvidence,
  options: HybridMarginalsOptions,
  io: CliIO,
): number {
  if (options.refused.length) {
    io.err(
      `bayes marginals: ${options.refused.join(', ')} ${options.refused.length > 1 ? 'are' : 'is'} not available for networks with continuous nodes (exact inference answers them)\n`,
    );
    return 1;
  }
  const hard = hybridEvidence(net, named);
  const evidence = 'error' in hard ? hard : withHybridFindings(net, hard.evidence, options.likelihood, options.soft);
  if ('error' in evidence) {
    io.err(`bayes marginals: ${evidence.error}\n`);
    return 1;
  }
  let answer: HybridAnswer;
  try {
    const { method, samples, seed } = options;
    const infer = (onSamples?: SamplesDone) =>
      hybridMarginals(net, evidence.evidence, { budgets: cliBudgets, method, samples, seed, onSamples });
    // Only a sampler draws a progress line or runs long enough to interrupt: exact inference is
    // answered without the interruptible context (whose set-up is a share of a fast answer).
    const sampled =
      method === 'lw' || (method !== 'exact' && exactCost(net, evidence.evidence).entries > cliBudgets.maxTotalEntries);
    const inferred = sampled ? inferOnTerminal(io, 'lw', infer) : infer();
    if (typeof inferred === 'number') return inferred;
    answer = inferred;
  } catch (e) {
    if (!(e instanceof EngineError)) throw e;
    io.err(`bayes marginals: ${e.message}\n`);
    return 1;
  }
  const clg = net.variables.some((v) => v.kind === 'discrete');
  const marginals: Record<string, Record<string, number> | ContinuousAnswer> = {};
  net.variables.forEach((v, i) => {
    if (v.kind === 'discrete') {
      const p = answer.discrete[i]!;
      const dist: Record<string, number> = {};
      v.states.forEach((s, k) => setOwn(dist, s, p[k]!));
      setOwn(marginals, v.name, dist);
    } else setOwn(marginals, v.name, continuousAnswer(answer.continuous[i]!, clg));
  });
  const evidenceOut: Record<string, string | number> = {};
  const index = hybridIndexMap(net);
  for (const [name, value] of Object.entries(named))
    setOwn(evidenceOut, name, net.variables[index.get(name)!]!.kind === 'continuous' ? Number(value) : value);
  if (answer.note) io.err(`bayes marginals: warning: ${answer.note}\n`);
  const sampled = answer.method === 'lw' ? answer : undefined;
  const stderr = sampled ? stderrRecord(net, sampled) : undefined;
  if (options.json) {
    const mpe =
      'mostProbable' in answer && answer.mostProbable
        ? Object.fromEntries(net.variables.map((v, i) => [v.name, answer.continuous[i]!.mean]))
        : undefined;
    const { likelihood, soft } = options;
    const out = {
      network: net.name,
      evidence: evidenceOut,
      ...(likelihood && Object.keys(likelihood).length ? { likelihood } : {}),
      ...(soft && Object.keys(soft).length ? { soft } : {}),
      method: answer.method,
      marginals,
      logEvidence: answer.logEvidence,
      ...(mpe ? { mostProbable: mpe } : {}),
      ...(sampled ? { stderr, samples: sampled.samples, seed: sampled.seed } : {}),
      configurations: answer.configurations,
      ...(answer.note ? { note: answer.note } : {}),
    };
    io.out(JSON.stringify(out, null, 1) + '\n');
    return 0;
  }
  io.out(
    `${net.name}: exact (${clg ? `conditional linear Gaussian, ${answer.configurations} configuration(s) of the discrete parents` : 'Gaussian'})\n`,
  );
  io.out(`log density of the evidence: ${answer.logEvidence.toFixed(6)}\n`);
  for (const [name, m] of Object.entries(marginals)) {
    const mark = Object.hasOwn(named, name)
      ? ' (observed)'
      : options.soft && Object.hasOwn(options.soft, name)
        ? ' (soft evidence)'
        : options.likelihood && Object.hasOwn(options.likelihood, name)
          ? ' (virtual evidence)'
          : '';
    io.out(`${name}${mark}: ${describe(m)}\n`);
  }
  return 0;
}

/** Standard errors by name: a discrete variable's per state, a continuous one's of its mean. */
function stderrRecord(
  net: HybridNetwork,
  answer: Extract<HybridAnswer, { method: 'lw' }>,
): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  net.variables.forEach((v, i) => {
    const se: Record<string, number> = {};
    if (v.kind === 'discrete') v.states.forEach((s, k) => setOwn(se, s, answer.discreteStderr[i]![k]!));
    else se.mean = answer.meanStderr[i]!;
    setOwn(out, v.name, se);
  });
  return out;
}

interface ContinuousAnswer {
  mean: number;
  variance: number;
  components?: { weight: number; mean: number; variance: number }[];
}

function continuousAnswer(p: ContinuousPosterior, clg: boolean): ContinuousAnswer {
  return clg
    ? { mean: p.mean, variance: p.variance, components: p.components.map((k) => ({ ...k })) }
    : { mean: p.mean, variance: p.variance };
}

function describe(m: Record<string, number> | ContinuousAnswer): string {
  if (!('mean' in m && 'variance' in m && typeof m.mean === 'number')) {
    return Object.entries(m as Record<string, number>)
      .map(([s, p]) => `${s} ${p.toFixed(6)}`)
      .join('  ');
  }
  const c = m as ContinuousAnswer;
  const head = `mean ${c.mean.toPrecision(8)}  variance ${c.variance.toPrecision(8)}`;
  if (!c.components || c.components.length < 2) return head;
  const parts = c.components.map(
    (k) => `${k.weight.toFixed(6)} × N(${k.mean.toPrecision(6)}, ${k.variance.toPrecision(6)})`,
  );
  return `${head}  = ${parts.join(' + ')}`;
}
