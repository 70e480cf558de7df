/**
 * The data-conflict measure of Jensen, Chamberlain, Nordahl & Jensen (1990), Jensen & Nielsen
 * §10.1: for hard findings e = {e_1, …, e_n},
 *
 *   conf(e) = ln( P(e_1) · … · P(e_n) / P(e) )
 *
 * (natural logarithm). Findings that fit the model together are positively correlated, so
 * P(e) > Π P(e_i) and conf(e) < 0; a positive value flags findings that are surprising together
 * (a sensor fault, a rare case, a wrong model). Undefined for fewer than two findings.
 */
import type { BayesianNetwork } from '../network.js';
import { EngineError } from '../engineError.js';
import type { CancelSignal } from '../cancellation.js';
import { probabilityOfEvidence } from './variableElimination.js';
import type { Evidence } from './junctionTree.js';

export interface DataConflict {
  /** conf(e) in nats. */
  conflict: number;
  /** ln P(e). */
  logEvidence: number;
  /** ln P(e_i) per finding, in the evidence's order. */
  logFindings: Array<{ variable: number; logP: number }>;
}

export function dataConflict(net: BayesianNetwork, evidence: Evidence, signal?: CancelSignal): DataConflict {
  if (evidence.size < 2) throw new EngineError('the data-conflict measure needs at least two findings');
  const logFindings = [...evidence].map(([v, s]) => ({
    variable: v,
    logP: probabilityOfEvidence(net, new Map([[v, s]]), signal),
  }));
  const logEvidence = probabilityOfEvidence(net, evidence, signal);
  if (logEvidence === -Infinity) throw new EngineError('the findings are impossible together (P(e) = 0)');
  const sum = logFindings.reduce((a, f) => a + f.logP, 0);
  return { conflict: sum - logEvidence, logEvidence, logFindings };
}
