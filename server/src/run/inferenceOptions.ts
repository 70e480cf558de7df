/**
 * Between a query's `using METHOD { samples, seed, budget }` and the inference engine's options,
 * and from the engine's answer back to diagnostics: a sampler that answered because exact
 * inference was over the budget is a warning naming the cost; evidence of probability 0 is an
 * error saying so.
 */
import type * as A from '../language/ast.js';
import type { Diagnostic, Range } from '../language/diagnostics.js';
import { ImpossibleEvidenceError } from '../engine/inference/junctionTree.js';
import {
  DEFAULT_BUDGET,
  exactPlan,
  inferenceProblem,
  type InferenceMethod,
  type MarginalsOptions,
} from '../engine/inference/marginals.js';
import type { BayesianNetwork } from '../engine/network.js';
import { EngineError } from '../engine/engineError.js';
import { CompileError } from '../model/compileError.js';
import type { InferenceInfo } from '../protocol/runResult.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';

/** The language's method names; the exact ones all run the junction tree (or elimination). */
const METHODS: Record<string, InferenceMethod> = {
  exact: 'exact',
  variable_elimination: 'exact',
  junction_tree: 'exact',
  likelihood_weighting: 'lw',
  gibbs: 'gibbs',
  rejection: 'rejection',
};

export function inferenceOptions(
  using: A.Name | undefined,
  options: A.Options | undefined,
  signal?: AbortSignal,
  budgets?: Budgets,
): MarginalsOptions {
  const out: MarginalsOptions = {
    method: 'auto',
    ...(signal ? { signal } : {}),
    // The run's memory setting decides when the junction tree is too large for exact inference.
    ...(budgets ? { memoryBytes: budgets.memoryBytes } : {}),
  };
  if (using) {
    const method = METHODS[using.text];
    if (!method) {
      const methods = 'exact, likelihood_weighting, gibbs or rejection';
      throw new CompileError(`'${using.text}' inference is not available: use ${methods}`, using.range);
    }
    out.method = method;
  }
  for (const entry of options?.entries ?? []) {
    const name = entry.name?.text;
    if (name === 'samples') out.samples = sampleCount(entry);
    else if (name === 'seed') out.seed = integerOption(entry, 0);
    else if (name === 'burn_in') out.burnIn = integerOption(entry, 0);
    else if (name === 'budget') {
      // `using exact { budget: N }`: exact while the largest clique table fits N entries, else
      // likelihood weighting with a warning — the automatic choice, with the user's budget.
      if (out.method !== 'exact')
        throw new CompileError('budget limits exact inference: using exact { budget: N }', entry.range);
      out.budget = integerOption(entry, 1);
      out.method = 'auto';
    }
  }
  return out;
}

/** A sample count within the budget: `samples: 1e12` would run for days. */
function sampleCount(entry: A.Arg): number {
  const samples = integerOption(entry, 1);
  const limit = DEFAULT_BUDGETS.maxSamples;
  if (samples > limit) {
    throw new CompileError(
      `${samples.toLocaleString('en-US')} samples is over the budget of ${limit.toLocaleString('en-US')} a query`,
      entry.value.range,
    );
  }
  return samples;
}

function integerOption(entry: A.Arg, min: number): number {
  const v = entry.value;
  if (v.kind !== 'number' || !Number.isInteger(v.value) || v.value < min) {
    throw new CompileError(`${entry.name!.text} is a whole number ≥ ${min}`, v.range);
  }
  return v.value;
}

type EngineAnswer = { ok: true; note?: string; method?: string } | { ok: false; message: string };

/** The warning or error an answer carries, on the statement's range. */
export function answerDiagnostics(answer: EngineAnswer, range: Range): Diagnostic[] {
  // A Gibbs answer's note is about the chains' mixing; any other's, about the budget that chose the sampler.
  const code = answer.ok && answer.method === 'gibbs' ? 'sampler-mixing' : 'inference-budget';
  if (answer.ok) return answer.note ? [{ severity: 'warning', code, message: answer.note, range }] : [];
  return [impossibleOr(answer.message, range)];
}

const IMPOSSIBLE = new ImpossibleEvidenceError().message;

function impossibleOr(message: string, range: Range): Diagnostic {
  if (message === IMPOSSIBLE) return impossibleEvidence(range);
  // Samplers say "no sample was consistent with the evidence": the same cause, seen by sampling.
  if (message.includes('no sample was consistent')) {
    return {
      severity: 'error',
      code: 'evidence-impossible',
      message: `evidence has probability 0 (or too small to sample): ${message}`,
      range,
    };
  }
  return { severity: 'error', code: 'engine-error', message, range };
}

export function impossibleEvidence(range: Range, message = 'evidence has probability 0'): Diagnostic {
  return { severity: 'error', code: 'evidence-impossible', message, range };
}

/** The InferenceInfo fields of a successful answer. */
export function inferenceInfo(answer: {
  method: InferenceMethod;
  cost: number;
  budget: number;
  samples?: number;
  seed?: number;
  note?: string;
  accepted?: number;
  acceptanceRate?: number;
  acceptanceStderr?: number;
}): InferenceInfo {
  const { method, cost, budget, samples, seed, note, accepted, acceptanceRate, acceptanceStderr } = answer;
  return {
    method,
    cost,
    budget,
    ...(samples !== undefined ? { samples } : {}),
    ...(seed !== undefined ? { seed } : {}),
    ...(note ? { note } : {}),
    ...(accepted !== undefined
      ? { accepted, acceptanceRate: acceptanceRate!, acceptanceStderr: acceptanceStderr! }
      : {}),
  };
}

/**
 * The exact plan of a query no sampler can answer (mpe, sensitivity): refused, with the cost,
 * when the network cannot be used or its largest clique table is over the budget.
 */
export function requireExact(net: BayesianNetwork, what: string): ReturnType<typeof exactPlan> {
  const problem = inferenceProblem(net);
  if (problem) throw new EngineError(problem);
  const plan = exactPlan(net);
  const cost = plan.order.maxCliqueSize;
  if (cost > DEFAULT_BUDGET)
    throw new EngineError(
      `${what} needs exact inference, whose largest clique table (${cost} entries) is over the budget of ${DEFAULT_BUDGET}`,
    );
  return plan;
}
