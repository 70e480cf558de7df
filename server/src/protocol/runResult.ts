/**
 * The one result object every consumer reads: the CLI prints it (`bayes run --json`), hover
 * and inlay hints look values up in it, the webview renders it. Each entry carries the source
 * range of the statement that asked for it. Bump RUN_RESULT_VERSION on breaking changes.
 */
import type { Diagnostic, Range } from '../language/diagnostics.js';
import type { ConceptPosterior } from '../engine/hypotheses/versionSpace.js';
import type { MdlRow } from '../engine/hypotheses/mdl.js';
import type { TreeScore } from '../engine/hypotheses/decisionTree.js';
import type { OptimalClassification } from '../engine/hypotheses/bayesOptimal.js';
import type { GibbsResult } from '../engine/hypotheses/gibbsAlgorithm.js';
import type { LeastSquaresFit } from '../engine/hypotheses/leastSquares.js';
import type { SigmoidFit } from '../engine/hypotheses/sigmoidUnit.js';
import type { ParameterSummary } from '../engine/estimators/parameterLearning.js';
import type { IgnoredValue } from '../engine/classifiers/naiveBayes.js';
import type { Evaluation, LearningCurvePoint } from '../engine/classifiers/evaluation.js';
import type { ProbabilisticScores } from '../engine/classifiers/probabilisticScores.js';

export const RUN_RESULT_VERSION = 1;

export interface RunResult {
  version: typeof RUN_RESULT_VERSION;
  /** The model file, as given (CLI) or as a URI (server). */
  file: string;
  diagnostics: Diagnostic[];
  results: ResultEntry[];
  /** Wall time of the whole run in milliseconds. */
  elapsedMs?: number;
  /** `expect` statements that gave no verdict, each with why (an error on its line, a cancelled run). */
  notEvaluated?: NotEvaluated[];
}

export interface NotEvaluated {
  range: Range;
  source: string;
  reason: string;
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
  /** Wall time of the statement's query (the Test Explorer and `bayes test` report it). */
  elapsedMs?: number;
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
  /** Networks with continuous variables: each one's learnt regressions (its CPT is not in `cpts`). */
  regressions?: Record<string, RegressionJson>;
  /**
   * Counting: records the counted tables give probability 0 (logLikelihood is then −∞), the
   * first of them, why, and the log-likelihood of the other records.
   */
  impossible?: { records: number; patterns: number; example: string; reason: string; otherLogLikelihood: number };
}

/**
 * A continuous variable's learnt linear Gaussian table: per configuration of its discrete parents
 * (`given`, their states in order; the first parent slowest) the intercept, a coefficient per
 * continuous parent, the variance and the records the regression was fitted on.
 */
export interface RegressionJson {
  discreteParents: string[];
  continuousParents: string[];
  configurations: {
    given: string[];
    intercept: number;
    coefficients: Record<string, number>;
    variance: number;
    records: number;
  }[];
}

/** `learn structure … by k2|hillclimb|tabu`: the arcs found, their score, and (if known) the true structure's
 * differences. */
export interface StructureResultEntry extends ResultBase {
  kind: 'structure';
  method: 'k2' | 'hillclimb' | 'tabu' | 'pc';
  /** The structure's score (log scale, larger is better) under `scoreName`. */
  score: number;
  scoreName: 'k2' | 'bdeu' | 'bic' | 'bic-g' | 'bic-cg';
  arcs: Array<[string, string]>;
  /** pc: the CPDAG's undirected edges (either direction gives a Markov-equivalent network). */
  edges?: Array<[string, string]>;
  /**
   * `query strength`: per ordered pair adjacent in some replicate, the fraction of bootstrap
   * replicates with the pair adjacent and, of those, the fraction with the arc from → to; the
   * threshold the averaged network (arcs, edges) used.
   */
  strength?: Array<{ from: string; to: string; strength: number; direction: number }>;
  threshold?: number;
  replicates?: number;
  /** pc: independence tests run, the test and its level, v-structures left out as conflicting. */
  tests?: number;
  test?: 'g2' | 'x2' | 'zf';
  alpha?: number;
  conflicts?: number;
  /** `bayes run`: the structure's CPTs, learnt by counting (the network later `… in S` queries use). */
  cpts?: Record<string, CptJson>;
  comparison?: {
    reference: string;
    missing: Array<[string, string]>;
    extra: Array<[string, string]>;
    reversed: Array<[string, string]>;
    /**
     * Per missing arc, what it adds to its family's score in the reference; per extra arc, what it
     * adds to its learned family (log scale, under `scoreName`). A negative change for a missing
     * arc: the data does not support it, so no search under this score finds it.
     */
    scoreChange: { missing: number[]; extra: number[] };
    /** Structural Hamming distance between the learned and the reference CPDAGs, and between their skeletons. */
    shd?: { cpdag: number; skeleton: number };
  };
}

/** `evaluate N on D folds k { seed, target }`: k-fold cross-validation of a network (bnlearn's `bn.cv`). */
export interface NetworkEvaluationResult extends ResultBase {
  kind: 'networkEvaluation';
  network: string;
  data: string;
  folds: number;
  seed: number;
  /** What is re-learnt in each fold. */
  how: string;
  /** Mean over folds of −(1/n) Σ ln P(record), nats. */
  logLoss: number;
  foldLogLoss: number[];
  target?: string;
  /** Mean over folds of the target's classification error. */
  error?: number;
  foldError?: number[];
  tested: number;
  skipped: number;
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
  /** responsibilities[i][j] = P(component j | point i), for the results view; with `points`, of those points. */
  responsibilities: number[][];
  /** The data points (`bayes run`): all of them, or a seeded sample when there are many (see `pointCount`). */
  points?: number[][];
  /** How many points the data has (when `points` is a sample, more than its length). */
  pointCount?: number;
}

/** `query estimate M.mean1`: one learnt parameter of a mixture. */
export interface EstimateResult extends ResultBase {
  kind: 'estimate';
  model: string;
  /** As written: `mean1`, `weight2`, `sigma1`, or `mean1_waiting` for one column of a multi-column mixture. */
  parameter: string;
  value: number;
}

/** How a belief-network answer was computed; sampled answers carry standard errors. */
export interface InferenceInfo {
  /** `particle`: a network over time's filtering beyond the budget (samples = particles). */
  method: 'exact' | 'lw' | 'gibbs' | 'rejection' | 'particle';
  /** Largest clique table (entries) exact inference needs, and the budget it was held to. */
  cost: number;
  budget: number;
  samples?: number;
  seed?: number;
  /** Rejection sampling: samples consistent with the evidence, and accepted / samples (≈ P(e)) with its standard
   * error. */
  accepted?: number;
  acceptanceRate?: number;
  acceptanceStderr?: number;
  /** Set when a sampler answered because exact inference was over the budget. */
  note?: string;
}

/** Named evidence: variable → observed state. */
export type NamedEvidence = Record<string, string>;

/** `X ~ { … }` (soft) and `X ~ likelihood { … }` (virtual) findings per variable. */
export type NamedFindings = Record<
  string,
  {
    kind: 'soft' | 'likelihood';
    /** state → the number written (states left out: 0). */
    values: Record<string, number>;
    /** state → λ(x) in force, largest 1 (for soft evidence: the one iterative proportional fitting found). */
    likelihood: Record<string, number>;
  }
>;

/** Every posterior marginal of a network (`bayes marginals`, the results panel's network view). */
export interface MarginalsResult extends ResultBase, InferenceInfo {
  kind: 'marginals';
  network: string;
  evidence: NamedEvidence;
  findings?: NamedFindings;
  /** variable → state → P(state | evidence). */
  marginals: Record<string, Record<string, number>>;
  stderr?: Record<string, Record<string, number>>;
  /** log P(evidence), exact answers only. */
  logEvidence?: number;
}

/** `query P(X, Y | e)` / `P(X = x | e)`: the posterior table of the query variables. */
export interface ProbabilityResult extends ResultBase, InferenceInfo {
  kind: 'probability';
  network: string;
  variables: string[];
  evidence: NamedEvidence;
  /** Soft and virtual evidence, when given. */
  findings?: NamedFindings;
  /** One row per joint assignment of `variables`, first variable slowest. */
  table: { states: string[]; p: number; stderr?: number }[];
  /** P(X = x | e) when the query named states. */
  value?: number;
  /** Networks with continuous variables: ln of the evidence's probability × density. */
  logEvidence?: number;
  /** With `do(…)`: the same table when the intervened variables are only observed, P(Y | X = x, e). */
  observational?: { states: string[]; p: number }[];
  /** The variables set by `do(…)`, with their states. */
  interventions?: NamedEvidence;
}

/**
 * A continuous variable's posterior (`query P(Height)`, `query mean Height`, `query variance
 * Height`): its mean and variance, and for a conditional linear Gaussian network the mixture —
 * one normal per configuration of the discrete parents the evidence leaves open.
 */
export interface ContinuousResult extends ResultBase {
  kind: 'continuous';
  network: string;
  variable: string;
  /** Observed states and (continuous variables) values as written. */
  evidence: NamedEvidence;
  method: 'exact' | 'lw';
  mean: number;
  variance: number;
  /** Weights sum to 1; one component for a Gaussian network (absent when a sampler saw too many). */
  components?: { weight: number; mean: number; variance: number }[];
  /** ln of the evidence's probability × density (absent when there is no evidence). */
  logEvidence?: number;
  /** Likelihood weighting: the standard error of the mean, the samples and the seed. */
  meanStderr?: number;
  samples?: number;
  seed?: number;
  note?: string;
  /** `mean X` / `variance X`: which moment the query asked for (its `value`). */
  moment?: 'mean' | 'variance';
  value?: number;
}

/** `query mpe given e`: the most probable joint assignment of the unobserved variables. */
export interface MpeResultEntry extends ResultBase {
  kind: 'mpe';
  network: string;
  evidence: NamedEvidence;
  findings?: NamedFindings;
  assignment: Record<string, string>;
  /** P(assignment, evidence). */
  probability: number;
  logProbability: number;
}

/** One-way sensitivity of P(target | e) to the CPT parameters (largest |derivative| first). */
export interface SensitivityResult extends ResultBase {
  kind: 'sensitivity';
  network: string;
  target: { variable: string; state: string };
  evidence: NamedEvidence;
  findings?: NamedFindings;
  value: number;
  parameters: {
    variable: string;
    parents: Record<string, string>;
    state: string;
    value: number;
    derivative: number;
    /** Parameter values over which the target variable's most probable state stays the same. */
    interval?: [number, number];
  }[];
}

/** `query independent X, Y given Z`: d-separation, with an active trail when dependent. */
export interface IndependenceResult extends ResultBase {
  kind: 'independence';
  network: string;
  x: string[];
  y: string[];
  given: string[];
  independent: boolean;
  activePath?: string[];
}

// ── Bayesian learning (Mitchell §6.2–6.10, Poole §10.2) ──
// Numbers that can be impossible (P(D) = 0) are absent rather than NaN/±Infinity, so every entry
// survives JSON.stringify unchanged.

/** `query posterior H` (also answers map/ml): Bayes theorem over an explicit hypothesis space. */
export interface PosteriorResult extends ResultBase {
  kind: 'posterior';
  rows: {
    hypothesis: string;
    prior: number;
    /** P(D|h) */ likelihood: number;
    /** P(D|h)P(h) */ product: number;
    /** P(h|D); absent when P(D) = 0 */ posterior?: number;
  }[];
  /** P(D) by total probability. */
  evidence: number;
  /** False: "evidence has probability 0", no posterior exists. */
  evidencePossible: boolean;
  map: string[];
  ml: string[];
  /** D as written: `Test = pos`, `Test = pos, Test = pos`, `Days (14 rows)`; empty when there is none. */
  data?: string;
  /**
   * Mitchell fig. 6.1: P(h|d1…di) after each datum, in `rows` order (before the first datum the
   * posterior is the prior). Present for 2–200 data; it ends where the data become impossible.
   */
  sequence?: { datum: string; posterior: number[] }[];
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
  classes: { value: string; score?: number; logScore?: number; posterior?: number; factors?: ClassifyFactor[] }[];
  /** Classes not in `classes` (at most SHOWN_CLASSES are listed, the most probable). */
  classesLeftOut?: number;
  predicted?: string;
  /** Attribute values left out: missing, or never seen in training (glue emits information diagnostics). */
  ignored: IgnoredValue[];
  /** Text classifiers: word positions used and ignored (not in the vocabulary). */
  words?: { used: number; ignored: number };
}

/**
 * One factor of P(v) Π P(a_i|v): `P(Sunny|Yes)` = 2/9. `count`/`total` are the training counts
 * when the estimate is their plain ratio (smoothing none); smoothed estimates give `p` only.
 */
export interface ClassifyFactor {
  term: string;
  p: number;
  count?: number;
  total?: number;
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
 * A continuous variable's distribution: a mixture of Gaussians (one component in a Gaussian
 * network; one per configuration of its discrete parents with positive weight in a conditional
 * linear Gaussian one), its mean and variance. An observed variable has variance 0.
 */
export interface GaussianMixtureJson {
  mean: number;
  variance: number;
  components: Array<{ weight: number; mean: number; variance: number }>;
}

/**
 * A network of the model with its posterior marginals given the file's `observe` evidence: what
 * the results panel draws as a graph (range: the network's declaration).
 */
export interface NetworkResult extends ResultBase, InferenceInfo {
  kind: 'network';
  network: string;
  variables: Array<{
    name: string;
    states: string[];
    parents: string[];
    cpt: CptJson;
    /** P(state | evidence), in `states` order. */
    marginal: number[];
    stderr?: number[];
    /** The observed state, when the variable is evidence. */
    evidence?: string;
    /** A soft or virtual finding on the variable. */
    finding?: NamedFindings[string];
    /** Where its table is declared, for "reveal in editor". */
    declaration?: Range;
    /**
     * A continuous variable (no states, no CPT rows: `marginal` is empty): its density with no
     * evidence (prior) and given the evidence (posterior), and its regression as text, e.g.
     * `Normal(-10 + 0.5·Height, 4)`, one line per configuration of its discrete parents.
     */
    continuous?: { prior: GaussianMixtureJson; posterior: GaussianMixtureJson; distribution: string[] };
  }>;
  /**
   * Strength of influence per arc (engine/inference/arcStrength.ts): the child's distributions
   * over the parent's states compared by their Jensen–Shannon divergence, the other parents
   * weighted by their prior marginals, in nats. Absent when the tables are not all known.
   */
  arcs?: Array<{ from: string; to: string; strength: number }>;
  /** Influence diagrams: the decisions in order (also among `variables`) with what each knows. */
  decisions?: Array<{ name: string; information: string[] }>;
  /** Influence diagrams: the utility nodes, one number per assignment of their variables. */
  utilities?: Array<{
    name: string;
    parents: string[];
    rows: Array<{ given: Record<string, string>; utility: number }>;
    declaration: Range;
  }>;
}

/** Every kind of result entry; consumers narrow on `kind`. Add new kinds here. */
export type ResultEntry =
  | ExpectResult
  | NetworkResult
  | MarginalsResult
  | ProbabilityResult
  | ContinuousResult
  | MpeResultEntry
  | SensitivityResult
  | IndependenceResult
  | LearnedNetworkResult
  | StructureResultEntry
  | MixtureResult
  | EstimateResult
  | PosteriorResult
  | VersionSpaceResult
  | MdlResult
  | TreeScoresResult
  | LikelihoodResult
  | OptimalResult
  | GibbsResultEntry
  | LeastSquaresResult
  | LogisticResult
  | ParameterResult
  | ClassifyResult
  | EvaluationResult
  | LearningCurveResult
  | NetworkEvaluationResult
  | PredictionResult
  | ValidationResult
  | SequenceResult
  | GaussianSequenceResult
  | PolicyResult
  | ExpectedUtilityResult
  | ValueOfInformationResult
  | CausalEffectResult;

/** One decision's optimal rule: a row per state of what it knows (no-forgetting), first variable slowest. */
export interface DecisionRuleJson {
  decision: string;
  alternatives: string[];
  /** What is known when deciding: earlier decisions and their information first. */
  context: string[];
  rows: Array<{
    given: Record<string, string>;
    choice: string;
    /** EU of each alternative here, later decisions optimal; absent for large rules or impossible contexts. */
    expectedUtility?: Record<string, number>;
    /** P(the observed part of the context | evidence, the earlier choices of the row). */
    probability?: number;
  }>;
  /** Rows left out past the first 4096. */
  truncated?: number;
}

/** `query policy N [given e]`: the optimal rule of every decision and the maximum expected utility. */
export interface PolicyResult extends ResultBase {
  kind: 'policy';
  network: string;
  evidence: NamedEvidence;
  meu: number;
  rules: DecisionRuleJson[];
}

/** `query eu D in N [given e]`: the expected utility of each alternative, later decisions optimal. */
export interface ExpectedUtilityResult extends ResultBase {
  kind: 'expectedUtility';
  network: string;
  decision: string;
  evidence: NamedEvidence;
  expectedUtility: Record<string, number>;
  /** The best alternatives (several when tied). */
  best: string[];
}

/** `query voi X for D in N`: the expected value of perfect information about X before D. */
export interface ValueOfInformationResult extends ResultBase {
  kind: 'valueOfInformation';
  network: string;
  variable: string;
  decision: string;
  evidence: NamedEvidence;
  voi: number;
  /** MEU as declared, and with X known when deciding D. */
  meu: number;
  meuInformed: number;
}

/** `query effect X -> Y in N`: P(Y | do(X = x), e) for every x. */
export interface CausalEffectResult extends ResultBase {
  kind: 'effect';
  network: string;
  cause: string;
  effect: string;
  evidence: NamedEvidence;
  /** cause state → effect state → P(effect state | do(cause state), e). */
  interventional: Record<string, Record<string, number>>;
  /** The same with the cause only observed: P(effect | cause = x, e) (absent where P(x, e) = 0). */
  observational: Record<string, Record<string, number>>;
  /** Two-state cause: P(Y = y₀ | do(X = x₀)) − P(Y = y₀ | do(X = x₁)), y₀ and x₀ the first states. */
  averageCausalEffect?: number;
}

/** One row of `query predict`: P(target | the row's other observed values), null when P(e) = 0. */
export interface PredictionRow {
  /** 1-based record number in the data set. */
  row: number;
  probabilities: number[] | null;
  predicted: string | null;
  /** ln P(the row's evidence); null when it is 0. */
  logLikelihood: number | null;
  actual?: string;
}

/** `query predict X in N on D`: the first PREDICTION_ROWS_SHOWN rows; `rowCount` counts them all. */
export interface PredictionResult extends ResultBase {
  kind: 'prediction';
  network: string;
  data: string;
  target: string;
  states: string[];
  /** The columns used as evidence, and those naming no variable of the network. */
  evidence: string[];
  ignored: string[];
  rows: PredictionRow[];
  rowCount: number;
  propagations: number;
}

export const PREDICTION_ROWS_SHOWN = 1000;

/** `query validate N on D target X [folds k]`: the scores of N's predictions of X on D (bayes validate --json). */
export interface ValidationResult extends ResultBase, ProbabilisticScores {
  kind: 'validation';
  network: string;
  data: string;
  target: string;
  states: string[];
  folds?: number;
  seed?: number;
  bins: number;
  unlabelled: number;
  impossible: number;
  /** Which score is the query's value (an expect compares it). */
  score: string;
}

/**
 * Per state, a series over the steps of a sequence in buckets of `SequenceResult.bucket` steps:
 * bucket b holds steps 1 + b·bucket … min(T, (b + 1)·bucket). With one step per bucket `mean` is
 * the step's own number and there is no `min`/`max`.
 */
export interface SequenceBands {
  /** mean[s][b]: the mean over the bucket's steps of P(state s). */
  mean: number[][];
  /** The least and greatest P(state s) over the bucket's steps: the envelope a long sequence draws. */
  min?: number[][];
  max?: number[][];
}

/** One variable of a network over time along the sequence (SequenceResult). */
export interface SequenceVariable {
  name: string;
  states: string[];
  /** P(X_t | e_1..t). */
  filtered: SequenceBands;
  /** P(X_t | e_1..T); absent when smoothing was over the budget or the particle filter ran. */
  smoothed?: SequenceBands;
  /** The particle filter's standard errors of `filtered.mean` (their mean over the bucket). */
  standardErrors?: number[][];
  /** observed[b]: the state observed at the step (a bucket: the one observed most often), null when unobserved. */
  observed: Array<string | null>;
  /** Steps of the bucket at which the variable was observed (only with more than one step per bucket). */
  observedSteps?: number[];
  /** mostLikely[b]: the variable's state in the most likely sequence (a bucket: its most frequent state). */
  mostLikely?: string[];
  /** Steps of the bucket at which the most likely sequence has that state (more than one step per bucket). */
  mostLikelySteps?: number[];
}

/**
 * One network over time with one data set of observations (a row per step), as the statements
 * asking about it read them: every step's filtered and smoothed posterior of every variable, the
 * most likely sequence and the log-likelihood (run/sequenceResults.ts). The results panel draws
 * it over t; range: the first statement that asked.
 */
export interface SequenceResult extends ResultBase {
  kind: 'sequence';
  network: string;
  data: string;
  /** T: the number of steps (rows of the data). */
  steps: number;
  /** Steps per point of every series: 1 up to SEQUENCE_POINTS steps, then ⌈T / SEQUENCE_POINTS⌉. */
  bucket: number;
  method: 'exact' | 'particle';
  particles?: number;
  seed?: number;
  /** ln P(e_1..T). */
  logLikelihood: number;
  /** What was left out and why (smoothing or the most likely sequence over the budget). */
  note?: string;
  variables: SequenceVariable[];
}

/**
 * A real variable's normal posterior along a sequence, in buckets of `GaussianSequenceResult.bucket`
 * steps as SequenceBands: at one step per bucket the step's mean and variance and the band
 * mean ± 2σ (σ = √variance); a bucket gives the mean of its steps' means and variances, the band's
 * envelope (the least mean − 2σ, the greatest mean + 2σ of its steps) and its least and greatest mean.
 */
export interface GaussianSequenceBands {
  mean: number[];
  variance: number[];
  lower: number[];
  upper: number[];
  min?: number[];
  max?: number[];
}

/** One real variable of a Gaussian network over time along the sequence (GaussianSequenceResult). */
export interface GaussianSequenceVariable {
  name: string;
  /** N(x_t | y_1..t), steps 1…T. */
  filtered: GaussianSequenceBands;
  /**
   * N(x_t | y_1..T), steps 1…T; absent when smoothing was over the budget. Its means are also the
   * most likely sequence (a Gaussian posterior's mode is its mean).
   */
  smoothed?: GaussianSequenceBands;
  /** N(x_{T+k} | y_1..T), k = 1…GaussianSequenceResult.forecast, bucketed from step T + 1. */
  forecast?: GaussianSequenceBands;
  /** observed[b]: the reading at the step (a bucket: the mean of its readings), null when unobserved. */
  observed: Array<number | null>;
  /** A bucket's number of readings and their least and greatest value (more than one step per bucket). */
  observedSteps?: number[];
  observedMin?: Array<number | null>;
  observedMax?: Array<number | null>;
}

/**
 * A Gaussian network over time (every variable real) with its data set of readings: the Kalman
 * filter's and the RTS smoother's mean and variance of every variable at every step, the readings,
 * the forecast past the data the statements asked for, and the log-likelihood (run/sequenceResults.ts).
 * The most likely sequence is the smoothed means. range: the first statement that asked.
 */
export interface GaussianSequenceResult extends ResultBase {
  kind: 'sequence';
  method: 'kalman';
  network: string;
  data: string;
  /** T: the number of steps (rows of the data). */
  steps: number;
  /** K: steps forecast past the data (the furthest step a statement asked about, less T). */
  forecast: number;
  /** Steps per point of every series: 1 up to SEQUENCE_POINTS steps (T + K), then ⌈(T + K) / SEQUENCE_POINTS⌉. */
  bucket: number;
  /** ln p(y_1..T). */
  logLikelihood: number;
  note?: string;
  variables: GaussianSequenceVariable[];
}

/** Points per series a SequenceResult sends at most (longer sequences are bucketed). */
export const SEQUENCE_POINTS = 500;
