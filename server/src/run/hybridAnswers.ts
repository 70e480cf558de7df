/**
 * Networks with continuous variables, answered by name for the CLI, the run's network entries
 * and the results panel's clicks: evidence by name (`Weight=80`, `B=stable`) resolved onto the
 * hybrid IR, the exact hybrid engine (engine/gaussian/hybridMarginals.ts: clgInference while it
 * fits the budgets, else likelihood weighting with exact Gaussian parts) and its answer as the
 * wire's shapes (protocol/runResult.ts GaussianMixtureJson).
 */
import { budgetsFor, DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import { EngineError } from '../engine/engineError.js';
import type { ContinuousPosterior, HybridEvidence } from '../engine/gaussian/clgInference.js';
import { hybridMarginals } from '../engine/gaussian/hybridMarginals.js';
import {
  configurationCount,
  configurationLabel,
  hybridIndexMap,
  type HybridNetwork,
  type LinearGaussianCpd,
} from '../engine/gaussian/hybridNetwork.js';
import { setOwn } from '../engine/records.js';
import type { MarginalsReply } from '../protocol/messages.js';
import type { GaussianMixtureJson } from '../protocol/runResult.js';
import { indexedFindings } from './namedEvidence.js';

/** VAR=STATE for discrete variables, VAR=NUMBER (a decimal number) for continuous ones. */
export function hybridEvidence(
  net: HybridNetwork,
  named: Readonly<Record<string, string>>,
): { evidence: HybridEvidence } | { error: string } {
  const index = hybridIndexMap(net);
  const discrete = new Map<number, number>();
  const continuous = new Map<number, number>();
  for (const [name, value] of Object.entries(named)) {
    const v = index.get(name);
    if (v === undefined) return { error: `unknown variable '${name}'` };
    const variable = net.variables[v]!;
    if (variable.kind === 'continuous') {
      const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(x)) return { error: `'${name}' is continuous: observe it as a number, not '${value}'` };
      continuous.set(v, x);
    } else {
      const s = variable.states.indexOf(value);
      if (s < 0) return { error: `'${value}' is not a state of '${name}' (${variable.states.join(', ')})` };
      discrete.set(v, s);
    }
  }
  return { evidence: { discrete, continuous } };
}

/**
 * Virtual (`likelihood`) and soft findings by name, each a vector in the variable's state order,
 * added to resolved evidence (the engine checks the vectors and refuses continuous variables).
 */
export function withHybridFindings(
  net: HybridNetwork,
  evidence: HybridEvidence,
  likelihood: Readonly<Record<string, number[]>> = {},
  soft: Readonly<Record<string, number[]>> = {},
): { evidence: HybridEvidence } | { error: string } {
  const maps = indexedFindings(net, likelihood, soft);
  if ('error' in maps) return maps;
  return {
    evidence: {
      ...evidence,
      ...(maps.likelihoods?.size ? { likelihoods: maps.likelihoods } : {}),
      ...(maps.soft?.size ? { soft: maps.soft } : {}),
    },
  };
}

export function mixtureJson(p: ContinuousPosterior): GaussianMixtureJson {
  return { mean: p.mean, variance: p.variance, components: p.components.map((c) => ({ ...c })) };
}

/**
 * The panel's click on a hybrid network: evidence by name, and virtual and soft findings on
 * discrete variables (the engine refuses them on a continuous one, in words). `memoryBytes`: the
 * run's memory setting, the budgets exact inference is held to, as in a run.
 */
export function interactiveHybridMarginals(
  net: HybridNetwork,
  request: {
    evidence?: Record<string, string>;
    likelihoods?: Record<string, number[]>;
    soft?: Record<string, number[]>;
  },
  memoryBytes?: number,
): MarginalsReply {
  const started = performance.now();
  const hard = hybridEvidence(net, request.evidence ?? {});
  const resolved = 'error' in hard ? hard : withHybridFindings(net, hard.evidence, request.likelihoods, request.soft);
  if ('error' in resolved) return resolved;
  const budgets: Budgets = memoryBytes === undefined ? DEFAULT_BUDGETS : budgetsFor(memoryBytes / 2 ** 20);
  let answer;
  try {
    answer = hybridMarginals(net, resolved.evidence, { budgets });
  } catch (e) {
    if (e instanceof EngineError) return { error: e.message };
    throw e;
  }
  const marginals: Record<string, number[]> = {};
  const continuous: Record<string, GaussianMixtureJson> = {};
  net.variables.forEach((v, i) => {
    if (v.kind === 'discrete') setOwn(marginals, v.name, Array.from(answer.discrete[i]!));
    else setOwn(continuous, v.name, mixtureJson(answer.continuous[i]!));
  });
  const sampled = answer.method === 'lw' ? answer : undefined;
  return {
    network: net.name,
    method: answer.method,
    marginals,
    continuous,
    logEvidence: answer.logEvidence,
    ...(sampled ? { samples: sampled.samples, seed: sampled.seed } : {}),
    ...(answer.note ? { note: answer.note } : {}),
    elapsed: performance.now() - started,
  };
}

/** A continuous variable's regression as text, one line per configuration of its discrete parents. */
export function regressionText(net: HybridNetwork, cpd: LinearGaussianCpd): string[] {
  const m = cpd.continuousParents.length;
  return Array.from({ length: configurationCount(net, cpd) }, (_, d) => {
    let mean = String(cpd.intercepts[d]);
    cpd.continuousParents.forEach((p, j) => {
      const b = cpd.coefficients[d * m + j]!;
      mean += ` ${b < 0 ? '−' : '+'} ${Math.abs(b)}·${net.variables[p]!.name}`;
    });
    const given = configurationLabel(net, cpd, d).replace(/^ given /, '');
    return `${given ? `${given}: ` : ''}Normal(${mean}, ${cpd.variances[d]})`;
  });
}
