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

/**
 * Result kinds are added here by the engine features that produce them; keep each an
 * interface extending ResultBase with a literal `kind`.
 */
export type ResultEntry = ExpectResult | (ResultBase & Record<string, unknown>);
