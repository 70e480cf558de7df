/**
 * The Minimum Description Length principle (Mitchell §6.6, Poole §10.2.4):
 *   h_MDL = argmin_h L_C1(h) + L_C2(D|h)   (eq. 6.19), lengths in bits.
 * With optimal codes L(h) = −log2 P(h) and L(D|h) = −log2 P(D|h), h_MDL = h_MAP.
 */
import { EngineError } from '../engineError.js';
import { minOf } from '../math/extremes.js';

export interface DescriptionLength {
  hypothesis: string;
  /** L(h). */
  hypothesisBits: number;
  /** L(D|h). */
  dataBits: number;
}

export interface MdlRow extends DescriptionLength {
  totalBits: number;
}

export interface MdlChoice {
  rows: MdlRow[];
  /** h_MDL and every hypothesis tied with it. */
  best: string[];
}

export function mdlChoice(lengths: readonly DescriptionLength[]): MdlChoice {
  if (lengths.length === 0) throw new EngineError('no hypotheses to compare');
  const rows = lengths.map((l) => {
    if (Number.isNaN(l.hypothesisBits) || Number.isNaN(l.dataBits) || l.hypothesisBits < 0 || l.dataBits < 0) {
      throw new EngineError(`description lengths of ${l.hypothesis} must be non-negative bits`);
    }
    return { ...l, totalBits: l.hypothesisBits + l.dataBits };
  });
  const min = minOf(rows.map((r) => r.totalBits));
  const best =
    min === Infinity ? [] : rows.filter((r) => r.totalBits - min <= 1e-9 * Math.max(1, min)).map((r) => r.hypothesis);
  return { rows, best };
}

/** −log2 p: the optimal code length of an event of probability p (Shannon). */
export function bitsOfProbability(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new EngineError(`a probability in [0, 1] is needed, got ${p}`);
  return -Math.log2(p);
}

/** −log2 of a probability given as a natural log (for likelihoods that underflow). */
export function bitsOfLogProbability(lnP: number): number {
  return -lnP / Math.LN2;
}

/**
 * The Bayesian information criterion in bits, as Poole §10.2.4 writes it:
 *   BIC(t) = −log2 P(E|t) + |t| log2 |E|
 * with |t| the number of free parameters and |E| the number of examples (each parameter costs
 * about log2 |E| bits: it is one of |E| + 1 empirical frequencies). Smaller is better. This is
 * the statisticians' BIC/(2 ln 2) with the sign flipped, so the rankings agree.
 */
export function bicBits(logLikelihood: number, parameters: number, examples: number): number {
  if (!(examples >= 1)) throw new EngineError('BIC needs at least one example');
  return bitsOfLogProbability(logLikelihood) + parameters * Math.log2(examples);
}
