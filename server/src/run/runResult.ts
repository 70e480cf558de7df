/**
 * The one result object every consumer reads: the CLI prints it (`bayes run --json`), hover
 * and inlay hints look values up in it, the webview renders it. Each entry carries the source
 * range of the statement that asked for it. Bump RUN_RESULT_VERSION on breaking changes.
 */
import type { Diagnostic, Range } from '../language/diagnostics.js';

export const RUN_RESULT_VERSION = 1;

export interface RunResult {
  version: typeof RUN_RESULT_VERSION;
  /** The model file, as given (CLI) or as a URI (server). */
  file: string;
  diagnostics: Diagnostic[];
  results: ResultEntry[];
  /** Wall time of the whole run in milliseconds. */
  elapsedMs?: number;
}

/** Fields every result entry has; `kind` discriminates the rest. */
export interface ResultBase {
  kind: string;
  /** Range of the statement (query, learn, expect) that produced this entry. */
  range: Range;
  /** The statement's source text, for display. */
  source: string;
  /** One line a person reads first: `healthy · 0.7915`. Inlay hints show it. */
  headline: string;
}

/** An `expect` line: the query's own result plus the verdict. */
export interface ExpectResult extends ResultBase {
  kind: 'expect';
  passed: boolean;
  /** The value the query produced, as compared. */
  actual: number | string;
  /** The comparison as written, e.g. `≈ 0.2085 ± 0.001`. */
  expected: string;
  result?: ResultEntry;
}

/** One CPT as JSON: each parent configuration with the child's distribution. */
export interface CptJson {
  parents: string[];
  rows: Array<{ given: Record<string, string>; distribution: Record<string, number> }>;
}

/** `learn NET from DATA [by em|gradient]`: the learned CPTs and how the learning went. */
export interface LearnedNetworkResult extends ResultBase {
  kind: 'learnedNetwork';
  network: string;
  method: 'counting' | 'em' | 'gradient';
  records: number;
  /** Distinct record patterns (the E-step runs once per pattern). */
  patterns: number;
  iterations: number;
  converged: boolean;
  logLikelihood: number;
  /** Log-likelihood at the start and after each iteration of the best run (EM/gradient). */
  trace: number[];
  /** Per random restart: final log-likelihood and iterations. */
  runs: Array<{ restart: number; logLikelihood: number; iterations: number; converged: boolean }>;
  /** Variables with no data at all (learned only through EM). */
  hidden: string[];
  cpts: Record<string, CptJson>;
}

/** `learn structure … by k2|hillclimb`: the arcs found, their score, and (if known) the true structure's differences. */
export interface StructureResultEntry extends ResultBase {
  kind: 'structure';
  method: 'k2' | 'hillclimb';
  score: 'k2' | 'bdeu' | 'bic';
  scoreValue: number;
  arcs: Array<[string, string]>;
  comparison?: { reference: string; missing: Array<[string, string]>; extra: Array<[string, string]>; reversed: Array<[string, string]> };
}

/** `mixture … ; learn … by em`: a Gaussian mixture's parameters and fit. */
export interface MixtureResult extends ResultBase {
  kind: 'mixture';
  dimensions: string[];
  weights: number[];
  /** means[j][d] */
  means: number[][];
  /** covariances[j][a][b] */
  covariances: number[][][];
  trace: number[];
  logLikelihood: number;
  bic: number;
  iterations: number;
  converged: boolean;
  /** responsibilities[i][j] = P(component j | point i), for the results view. */
  responsibilities: number[][];
}

/**
 * Result kinds are added here by the engine features that produce them; keep each an
 * interface extending ResultBase with a literal `kind`.
 */
// LearnedNetworkResult, StructureResultEntry and MixtureResult (above) travel as the open member
// for now: adding them to the union breaks `r.passed` in cli/run.ts until it narrows on `kind`.
export type ResultEntry = ExpectResult | (ResultBase & Record<string, unknown>);
