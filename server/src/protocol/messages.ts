/**
 * What travels with the custom methods (methods.ts): run states and records, the answers of the
 * custom requests, and the server's initialization options.
 */
import type { GaussianMixtureJson, RunResult } from './runResult.js';
import type { Range } from '../language/diagnostics.js';

export type RunState = 'running' | 'done' | 'failed' | 'cancelled';

/** What the server keeps per document: a finished run and the text it saw. */
export interface RunRecord {
  uri: string;
  /** The text the run saw: its ranges are valid only while the document still reads so. */
  text: string;
  state: Exclude<RunState, 'running' | 'cancelled'>;
  result: RunResult;
  cached: boolean;
}

/** `bayes/runResult`: the run record without the text it saw. */
export type RunResultMessage = Omit<RunRecord, 'text'>;

/** What the status bar shows of a finished run. */
export interface RunSummary {
  queries: number;
  failures: number;
  elapsedMs?: number;
  cached: boolean;
}

/** `bayes/runState`: a finished run carries its summary. */
export type RunStateMessage = { uri: string; state: RunState } & Partial<RunSummary>;

/** The answer of `bayes/lastResult`. */
export interface LastResult {
  state: 'done' | 'failed';
  cached: boolean;
  /** The document still reads as the run saw it. */
  current: boolean;
  result: RunResult;
}

/** One network of a model, as `bayes/networks` lists it. */
export interface NetworkSummary {
  name: string;
  source: 'file' | 'import';
  variables: { name: string; states: string[]; parents: string[] }[];
}

export interface InitializationOptions {
  /**
   * Workspace trust: VS Code sends its trust state. Other editors have no trust prompt: they opt in
   * with `trusted: true` (docs/editors.md); without it the server is in restricted mode (checks, no
   * data read, no runs). Confinement and budgets hold either way.
   */
  trusted?: boolean;
}

/** `bayes/marginals`: a network of the document (a run's `network` name) under evidence set in the panel. */
export interface MarginalsParams {
  uri: string;
  /** As the run's network entry names it: `default` for the default model. */
  network: string;
  /** Hard evidence: variable → state (a continuous variable: its value as a decimal number). */
  evidence: Record<string, string>;
  /** Virtual evidence: variable → λ per state, in the variable's state order. */
  likelihoods?: Record<string, number[]>;
  /** Soft evidence (Jeffrey's rule): variable → distribution, in state order. */
  soft?: Record<string, number[]>;
}

export interface DecisionsParams {
  uri: string;
  /** As the run's network entry names it: `default` for the default model. */
  network: string;
  /** Hard evidence: variable → state (a decision names the alternative taken). */
  evidence: Record<string, string>;
}

export type DecisionsReply =
  | {
      network: string;
      /** The maximum expected utility given the evidence (every free decision optimal). */
      meu: number;
      /** Each decision the evidence leaves free: EU of each alternative (others optimal), the best ones. */
      decisions: Array<{ name: string; alternatives: string[]; expectedUtility: number[]; best: string[] }>;
      /**
       * P(X | e) of every variable with the free decisions taken by their optimal rules (a
       * decision's: the probability that the strategy takes each alternative).
       */
      marginals: Record<string, number[]>;
      /** Each utility node's expected value under the optimal strategy (they add up to the MEU). */
      utilities: Array<{ name: string; expected: number }>;
      /**
       * Diagnosis for the diagram: the expected value of perfect information of each unobserved
       * chance variable that can be learnt before the first free decision (`query voi`), largest first.
       */
      voi?: { decision: string; ranking: Array<{ variable: string; value: number }> };
      /** Milliseconds spent. */
      elapsed: number;
    }
  | { error: string };

export interface DiagnosisParams {
  uri: string;
  network: string;
  /** The variable to learn about. */
  target: string;
  /** Hard evidence: variable → state. */
  evidence: Record<string, string>;
}

export type DiagnosisReply =
  | {
      network: string;
      target: string;
      /** H(target | e) in nats. */
      entropy: number;
      /** Every unobserved variable but the target, by I(target; X | e) in nats, largest first. */
      ranking: Array<{ variable: string; nats: number }>;
      /** conf(e) = ln(Π P(e_i) / P(e)) in nats, with two or more findings. */
      conflict?: number;
      elapsed: number;
    }
  | { error: string };

export type MarginalsReply =
  | {
      network: string;
      method: 'exact' | 'lw' | 'gibbs' | 'rejection';
      /** variable → P(state | evidence) in state order. */
      marginals: Record<string, number[]>;
      stderr?: Record<string, number[]>;
      samples?: number;
      seed?: number;
      /** Why a sampler answered. */
      note?: string;
      /** Networks with continuous variables: each continuous variable's posterior density. */
      continuous?: Record<string, GaussianMixtureJson>;
      /** Networks with continuous variables: the log density of the evidence. */
      logEvidence?: number;
      /** Milliseconds the worker spent. */
      elapsed: number;
    }
  | { error: string };

/** One `expect` statement of a document (`bayes/expects`): its range and its first line's text. */
export interface ExpectItem {
  range: Range;
  source: string;
}
