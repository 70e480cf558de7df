/**
 * Learned models as JSON-serialisable result data (RunResult entries, `bayes learn --json`):
 * CPTs as named rows, mixtures as nested arrays.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { cardinality, rowAssignment, rowCount } from '../engine/network.js';
import type { MixtureFit } from '../engine/mixtures/gaussianMixture.js';
import type { NetworkEmResult } from '../engine/estimators/networkEm.js';
import type { CptJson, LearnedNetworkResult, MixtureResult, ResultBase } from '../protocol/runResult.js';
import { setOwn } from '../engine/records.js';

export function cptsToJson(net: BayesianNetwork): Record<string, CptJson> {
  const out: Record<string, CptJson> = {};
  net.cpts.forEach((cpt, v) => {
    const k = cardinality(net, v);
    const states = net.variables[v]!.states;
    const parents = cpt.parents.map((p) => net.variables[p]!.name);
    const rows = Array.from({ length: rowCount(net, v) }, (_, r) => {
      const given: Record<string, string> = {};
      rowAssignment(net, v, r).forEach((s, i) => {
        setOwn(given, parents[i]!, net.variables[cpt.parents[i]!]!.states[s]!);
      });
      const distribution: Record<string, number> = {};
      states.forEach((name, x) => {
        setOwn(distribution, name, cpt.table[r * k + x]!);
      });
      return { given, distribution };
    });
    setOwn(out, net.variables[v]!.name, { parents, rows });
  });
  return out;
}

/** A learned network's result data, without the source fields (range, source, headline) the pipeline adds. */
export function learnedNetworkData(
  method: LearnedNetworkResult['method'],
  records: number,
  hidden: string[],
  fit: Omit<NetworkEmResult, 'cancelled'>,
): Omit<LearnedNetworkResult, keyof ResultBase> & { kind: 'learnedNetwork' } {
  return {
    kind: 'learnedNetwork',
    network: fit.network.name,
    method,
    records,
    patterns: fit.patterns,
    hidden,
    iterations: fit.iterations,
    converged: fit.converged,
    logLikelihood: fit.logLikelihood,
    trace: fit.trace,
    runs: fit.runs,
    cpts: cptsToJson(fit.network),
    ...(fit.impossible ? { impossible: { ...fit.impossible } } : {}),
  };
}

/** A mixture fit's result data, without the source fields the pipeline adds. */
export function mixtureData(
  dimensions: string[],
  fit: MixtureFit,
): Omit<MixtureResult, keyof ResultBase> & { kind: 'mixture' } {
  const { k, dims: d } = fit;
  const n = fit.responsibilities.length / k;
  return {
    kind: 'mixture',
    dimensions,
    weights: [...fit.weights],
    means: Array.from({ length: k }, (_, j) => [...fit.means.subarray(j * d, (j + 1) * d)]),
    covariances: Array.from({ length: k }, (_, j) =>
      Array.from({ length: d }, (_, a) => [...fit.covariances.subarray(j * d * d + a * d, j * d * d + (a + 1) * d)]),
    ),
    trace: fit.trace,
    logLikelihood: fit.logLikelihood,
    bic: fit.bic,
    iterations: fit.iterations,
    converged: fit.converged,
    responsibilities: Array.from({ length: n }, (_, i) => [...fit.responsibilities.subarray(i * k, (i + 1) * k)]),
  };
}
