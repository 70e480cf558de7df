/**
 * The most likely sequence argmax_{x_0..T} P(x_0..T, e_1..T) (Viterbi; for a DBN, max-product on
 * the forward interface, Murphy 2002 §3.6). Forward: δ_t(I_t) = max over the rest of slice t and
 * I_{t−1} of δ_{t−1}(I_{t−1}) · P(slice t | I_{t−1}) · findings_t, by max-product variable
 * elimination, each δ scaled to max 1 (its log kept). Only the δ's are stored (T·|I| numbers);
 * the backtrace re-solves each step with I_t fixed to its decoded state, reading the argmax of
 * I_{t−1} and of the rest of slice t off the elimination's products (as mpe.ts does).
 */
import { cptFactor, projectOnto, type Factor } from '../factors/factor.js';
import { eliminate, factorOrder } from '../inference/variableElimination.js';
import { bestState } from '../inference/mpe.js';
import type { BayesianNetwork } from '../network.js';
import { DEFAULT_BUDGETS, requireWithin } from '../budget.js';
import { EngineError } from '../engineError.js';
import { throwIfCancelled, type CancelSignal } from '../cancellation.js';
import { planSliceTree, sliceNetwork, type StepFindings } from './sliceTree.js';
import type { TwoSliceNetwork } from './twoSliceNetwork.js';
import { forwardBackwardSteps } from './forwardBackward.js';
import { complete, type Stepwise } from '../stepwise.js';

export interface MostLikelySequence {
  /** states[t][v]: the state of X_v in slice t, t = 0…T (slice 0 is the prior's). */
  states: Int32Array[];
  /** log P(x*_0..T, e_1..T). */
  logProbability: number;
}

interface Slice {
  net: BayesianNetwork;
  iface: number[];
}

export function mostLikelySequence(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  signal?: CancelSignal,
  maxEntries = DEFAULT_BUDGETS.maxTotalEntries,
): MostLikelySequence {
  return complete(mostLikelySequenceSteps(dbn, findings, signal, maxEntries));
}

/** mostLikelySequence, yielding after each step of the forward pass and of the backtrace. */
export function* mostLikelySequenceSteps(
  dbn: TwoSliceNetwork,
  findings: readonly StepFindings[],
  signal?: CancelSignal,
  maxEntries = DEFAULT_BUDGETS.maxTotalEntries,
): Stepwise<MostLikelySequence> {
  // Soft findings are defined on the filtered belief: the forward pass resolves them into likelihoods.
  if (findings.some((f) => f.soft?.size))
    findings = (yield* forwardBackwardSteps(dbn, findings, { maxEntries, signal })).findings;
  // Max-product over the same slices as the junction trees: held to their budget, refused from
  // the triangulation before any factor is built (a huge template would not fit in an array).
  planSliceTree(dbn, maxEntries);
  planSliceTree(dbn, maxEntries, true);
  const first = sliceNetwork(dbn, true);
  const step = sliceNetwork(dbn, false);
  const n = dbn.variables.length;
  const ifaceSize = step.iface.reduce((s, v) => s * dbn.variables[v]!.states.length, 1);
  requireWithin('the messages of the most likely sequence', (findings.length + 1) * ifaceSize, maxEntries);
  const prevVars = step.iface.map((_, j) => n + j);
  const deltas: Float64Array[] = [];
  let logProbability = 0;
  const forward = (slice: Slice, delta: Float64Array | undefined, f: StepFindings, t: number) => {
    const factors = sliceFactors(slice, n, delta, prevVars, f);
    const keep = new Set(slice.iface);
    const order = factorOrder(
      slice.net,
      factors,
      slice.net.variables.map((_, i) => i).filter((v) => !keep.has(v)),
    );
    const { factor, logScale } = eliminate(factors, order, 'max', signal);
    const d = slice.iface.length ? projectOnto(factor, slice.iface, 'max').values : Float64Array.of(factor.values[0]!);
    const top = d.reduce((m, x) => Math.max(m, x), 0);
    if (!(top > 0))
      throw new EngineError(`the observations at step ${t} are impossible given the model and the steps before`);
    for (let i = 0; i < d.length; i++) d[i]! /= top;
    logProbability += logScale + Math.log(top);
    deltas.push(d);
  };
  forward(first, undefined, { evidence: new Map() }, 0);
  for (let i = 0; i < findings.length; i++) {
    throwIfCancelled(signal);
    forward(step, deltas[i], findings[i]!, i + 1);
    yield { phase: 'most likely sequence', done: i + 1 };
  }
  // Backtrace: the best I_T, then each step's argmax given the decoded interface after it.
  const T = findings.length;
  let fixed = unravel(
    argmax(deltas[T]!),
    step.iface.map((v) => dbn.variables[v]!.states.length),
  );
  const states = new Array<Int32Array>(T + 1);
  for (let t = T; t >= 0; t--) {
    throwIfCancelled(signal);
    const slice = t === 0 ? first : step;
    const f = t === 0 ? { evidence: new Map() } : findings[t - 1]!;
    const pinned = new Map(f.evidence);
    step.iface.forEach((v, j) => pinned.set(v, fixed[j]!));
    const factors = sliceFactors(slice, n, t === 0 ? undefined : deltas[t - 1], prevVars, { ...f, evidence: pinned });
    const assignment = decode(slice.net, factors, signal);
    states[t] = Int32Array.from(assignment.slice(0, n));
    fixed = assignment.slice(n);
    yield { phase: 'most likely sequence', done: 2 * T - t };
  }
  return { states, logProbability };
}

/** The slice's CPTs, δ over the previous interface, and the findings as indicator / λ factors. */
function sliceFactors(
  slice: Slice,
  n: number,
  delta: Float64Array | undefined,
  prevVars: number[],
  f: StepFindings,
): Factor[] {
  const net = slice.net;
  const factors: Factor[] = [];
  for (let v = 0; v < n; v++) factors.push(cptFactor(net, v));
  if (delta)
    factors.push({ vars: prevVars, cards: prevVars.map((u) => net.variables[u]!.states.length), values: delta });
  for (const [v, s] of f.evidence) {
    const values = new Float64Array(net.variables[v]!.states.length);
    values[s] = 1;
    factors.push({ vars: [v], cards: [values.length], values });
  }
  for (const [v, lambda] of f.likelihoods ?? [])
    factors.push({ vars: [v], cards: [lambda.length], values: Float64Array.from(lambda) });
  return factors;
}

/** argmax of the product of `factors` over all of net's variables, by max-product with traceback. */
function decode(net: BayesianNetwork, factors: Factor[], signal?: CancelSignal): number[] {
  const all = net.variables.map((_, i) => i);
  const order = factorOrder(net, factors, all);
  const kept: [number, Factor][] = [];
  eliminate(factors, order, 'max', signal, (v, product) => kept.push([v, product]));
  const assignment = all.map(() => -1);
  for (let i = kept.length - 1; i >= 0; i--) {
    const [v, product] = kept[i]!;
    assignment[v] = bestState(product, v, assignment);
  }
  return assignment;
}

function argmax(values: Float64Array): number {
  let best = 0;
  for (let i = 1; i < values.length; i++) if (values[i]! > values[best]!) best = i;
  return best;
}

/** The states of a mixed-radix index (last variable fastest). */
function unravel(index: number, cards: readonly number[]): number[] {
  const out = new Array<number>(cards.length);
  for (let j = cards.length - 1; j >= 0; j--) {
    out[j] = index % cards[j]!;
    index = Math.floor(index / cards[j]!);
  }
  return out;
}
