/**
 * Batch prediction (Netica's "test with cases", pgmpy's `predict`): for each record, the
 * posterior of a target variable given the record's other observed values, and log P(e) of that
 * evidence. The junction tree is compiled once; each row sets its evidence and propagates, and
 * rows sharing their evidence pattern (the same observed variables with the same states) share
 * one propagation through a bounded cache — forward-sampled data with missing values repeats
 * its common patterns often, and a full cache is simply cleared, so memory stays bounded.
 */
import type { BayesianNetwork } from '../network.js';
import { JunctionTree } from './junctionTree.js';
import type { CancelSignal } from '../cancellation.js';

/** One row's answer: P(target | e) over its states (null when P(e) = 0) and ln P(e). */
export interface RowPrediction {
  probabilities: Float64Array | null;
  logLikelihood: number;
}

export interface BatchPredictorOptions {
  /** Patterns kept before the cache is cleared (default 4,096: a bound on memory, not a speed knob). */
  cacheSize?: number;
  maxEntries?: number;
}

export class BatchPredictor {
  private readonly tree: JunctionTree;
  private readonly cache = new Map<string, RowPrediction>();
  private readonly cacheSize: number;
  /** Propagations done, and rows answered from the cache. */
  propagations = 0;
  cacheHits = 0;

  /**
   * `evidenceVariables[c]` is the network variable of evidence column c (the target is never
   * one: the caller drops it).
   */
  constructor(
    readonly net: BayesianNetwork,
    readonly target: number,
    readonly evidenceVariables: readonly number[],
    options: BatchPredictorOptions = {},
  ) {
    if (evidenceVariables.includes(target)) throw new RangeError('the target cannot be evidence');
    this.tree = JunctionTree.compile(net, { maxEntries: options.maxEntries });
    this.cacheSize = options.cacheSize ?? 4096;
  }

  /** `states[c]`: the state of evidence column c, or −1 when unobserved. The answer may be shared: do not modify it. */
  predict(states: ArrayLike<number>, signal?: CancelSignal): RowPrediction {
    const key = patternKey(states);
    const hit = this.cache.get(key);
    if (hit) {
      this.cacheHits++;
      return hit;
    }
    const evidence = new Map<number, number>();
    for (let c = 0; c < this.evidenceVariables.length; c++)
      if (states[c]! >= 0) evidence.set(this.evidenceVariables[c]!, states[c]!);
    this.tree.setEvidence(evidence);
    this.tree.propagate(signal);
    this.propagations++;
    const logLikelihood = this.tree.logEvidence;
    const answer: RowPrediction = {
      probabilities: logLikelihood === -Infinity ? null : this.tree.marginal(this.target),
      logLikelihood,
    };
    if (this.cache.size >= this.cacheSize) this.cache.clear();
    this.cache.set(key, answer);
    return answer;
  }
}

/** The observed states as a string key (−1 for unobserved). */
function patternKey(states: ArrayLike<number>): string {
  let key = '';
  for (let c = 0; c < states.length; c++) key += states[c]! + ',';
  return key;
}

/** The index of the largest probability (the first on ties), as argmax over the target's states. */
export function mostProbable(p: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < p.length; i++) if (p[i]! > p[best]!) best = i;
  return best;
}
