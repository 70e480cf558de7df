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

// ── Bayesian learning (Mitchell §6.2–6.10, Poole §10.2): entries built from server/src/engine ──
// Numbers that can be impossible (P(D) = 0) are absent rather than NaN/±Infinity, so every entry
// survives JSON.stringify unchanged.
import type { ConceptPosterior } from '../engine/versionSpace.js';
import type { MdlRow } from '../engine/mdl.js';
import type { TreeScore } from '../engine/decisionTree.js';
import type { OptimalClassification } from '../engine/bayesOptimal.js';
import type { GibbsResult } from '../engine/gibbsAlgorithm.js';
import type { LeastSquaresFit } from '../engine/leastSquares.js';
import type { SigmoidFit } from '../engine/sigmoidUnit.js';
import type { ParameterSummary } from '../engine/parameterLearning.js';
import type { IgnoredValue } from '../engine/naiveBayes.js';
import type { Evaluation, LearningCurvePoint } from '../engine/evaluation.js';

/** `query posterior H` (also answers map/ml): Bayes theorem over an explicit hypothesis space. */
export interface PosteriorResult extends ResultBase {
  kind: 'posterior';
  rows: { hypothesis: string; prior: number; /** P(D|h) */ likelihood: number; /** P(D|h)P(h) */ product: number; /** P(h|D); absent when P(D) = 0 */ posterior?: number }[];
  /** P(D) by total probability. */
  evidence: number;
  /** False: "evidence has probability 0", no posterior exists. */
  evidencePossible: boolean;
  map: string[];
  ml: string[];
}

/**
 * Brute-force MAP over generated conjunctions (§6.3): |H| and |VS| as exact decimal text, error
 * classes (counts of hypotheses, not lists), S and G, and the members when few.
 * (ln P(D) is left out: it is −∞ when the evidence is impossible.)
 */
export interface VersionSpaceResult extends ResultBase, Omit<ConceptPosterior, 'logEvidence'> {
  kind: 'versionSpace';
}

/** `query mdl H`: L(h) + L(D|h) in bits per hypothesis. */
export interface MdlResult extends ResultBase {
  kind: 'mdl';
  rows: MdlRow[];
  best: string[];
  /** How L(h) and L(D|h) were measured, e.g. '−log2 P(h), −log2 P(D|h)' or 'exceptions: log2 m + log2 k each'. */
  code: string;
}

/** `query bic Trees given E` / tree MDL: Poole §10.2.3–10.2.4. */
export interface TreeScoresResult extends ResultBase {
  kind: 'treeScores';
  trees: TreeScore[];
  examples: number;
  bestBic: string;
  bestMdl: string;
}

/** `query likelihood h given E`: P(E|h), also in bits. */
export interface LikelihoodResult extends ResultBase {
  kind: 'likelihood';
  hypothesis: string;
  likelihood: number;
  bits?: number;
}

export interface OptimalResult extends ResultBase, OptimalClassification {
  kind: 'optimal';
}

export interface GibbsResultEntry extends ResultBase, GibbsResult {
  kind: 'gibbs';
}

export interface LeastSquaresResult extends ResultBase, LeastSquaresFit {
  kind: 'leastSquares';
}

export interface LogisticResult extends ResultBase, SigmoidFit {
  kind: 'logistic';
  method: 'gradient' | 'newton';
}

/** `query mean/mode/interval/P(a ≤ θ ≤ b)` on a learned parameter. */
export interface ParameterResult extends ResultBase, ParameterSummary {
  kind: 'parameter';
  /** e.g. `P(Toss)` or `P(Outlook | Play = Yes)`. */
  parameter: string;
}

/** `query classify C {…}`: naive Bayes (categorical or text). */
export interface ClassifyResult extends ResultBase {
  kind: 'classify';
  classifier: string;
  /** score = P(v) Π P(a_i|v) (categorical only); posterior absent when every class has probability 0. */
  classes: { value: string; score?: number; logScore?: number; posterior?: number }[];
  predicted?: string;
  /** Attribute values left out: missing, or never seen in training (glue emits information diagnostics). */
  ignored: IgnoredValue[];
  /** Text classifiers: word positions used and ignored (not in the vocabulary). */
  words?: { used: number; ignored: number };
}

export interface EvaluationResult extends ResultBase, Evaluation {
  kind: 'evaluation';
  classifier: string;
  /** e.g. 'split 2/3, seed 1', '10 folds, seed 1', 'on TestDays'. */
  method: string;
}

export interface LearningCurveResult extends ResultBase {
  kind: 'learningCurve';
  classifier: string;
  seed: number;
  points: LearningCurvePoint[];
}

/**
 * Every Bayesian-learning entry. Each is assignable to ResultEntry's open member; it is not added
 * to the ResultEntry union itself because that would stop untyped `r.passed`-style reads (cli/run.ts)
 * from compiling — consumers narrow with `kind` and cast to these interfaces.
 */
export type BayesLearningResult =
  | PosteriorResult | VersionSpaceResult | MdlResult | TreeScoresResult | LikelihoodResult | OptimalResult | GibbsResultEntry
  | LeastSquaresResult | LogisticResult | ParameterResult | ClassifyResult | EvaluationResult | LearningCurveResult;
