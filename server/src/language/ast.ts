/**
 * The `.bayes` abstract syntax tree. Every node has `kind` and an exact LSP `range`; every
 * name that refers to or declares something is its own `Name` node, so definition, references
 * and rename work on names alone. `forEachChild`/`walk` visit nodes generically.
 */
import type { Range } from './diagnostics.js';

export interface NodeBase {
  kind: string;
  range: Range;
}

/** A name as written; `quoted` names (`"0-3_days"`) hold their text without the quotes. */
export interface Name extends NodeBase {
  kind: 'name';
  text: string;
  quoted?: boolean;
}

/** A number or probability: `0.008`, `.008`, `8e-3`, `9/14`, `98%`, `-1.5`; `text` is the source. */
export interface NumberLit extends NodeBase {
  kind: 'number';
  value: number;
  text: string;
}
export interface StringLit extends NodeBase {
  kind: 'string';
  value: string;
}
/** `?` in a data cell: the value was not observed. */
export interface MissingLit extends NodeBase {
  kind: 'missing';
}
/** A name used as a value: a state (`pos`), a data set, `Points.x` (member) or `Faithful[a, b]` (columns). */
export interface Ref extends NodeBase {
  kind: 'ref';
  name: Name;
  member?: Name;
  columns?: Name[];
}
export interface ListExpr extends NodeBase {
  kind: 'list';
  items: Expr[];
}
/** `name(args)`: `naive_bayes(T, target: Play)`, `Beta(1, 1)`, `conjunctions(Sky, Wind)`. */
export interface Call extends NodeBase {
  kind: 'call';
  callee: Name;
  args: Arg[];
}
/** A positional (`T`) or named (`target: Play`) argument; options blocks hold named ones. */
export interface Arg extends NodeBase {
  kind: 'arg';
  name?: Name;
  /** `Position[t-1]: 1`: the slice of a coefficient's parent in a network over time. */
  time?: TimeIndex;
  value: Expr;
}
/** `d ~ x1 + x2`: response and terms of a linear or logistic family. */
export interface Formula extends NodeBase {
  kind: 'formula';
  response: Expr;
  terms: Expr[];
}
/** `A -> B` inside a list: an arc of background knowledge (`require: [A -> B]`). */
export interface ArcExpr extends NodeBase {
  kind: 'arc';
  from: Name;
  to: Name;
}
export type Expr = NumberLit | StringLit | MissingLit | Ref | ListExpr | Call | Formula | ArcExpr;

/**
 * `X`, `X = v` or `X = [v, v]` inside P(…), `given`, `observe`, tree tests; `X ~ { … }` as evidence;
 * `do(X = v)` (an `intervention`: Pearl's do-operator, X set from outside) in a query's conditions and `given`.
 */
export interface Assignment extends NodeBase {
  kind: 'assignment';
  variable: Name;
  /** `X[t]`, `X[t-1]`, `X[0]`: the slice of X in a network over time. */
  time?: TimeIndex;
  value?: Expr;
  finding?: Finding;
  intervention?: boolean;
}
/**
 * `[t]`, `[t-1]` (relative: `step` names the time, `offset` is −1) or `[0]` (absolute: slice
 * `offset`). The checker allows `[0]`, `[t]` and `[t-1]`.
 */
export interface TimeIndex extends NodeBase {
  kind: 'time';
  step?: Name;
  offset: number;
}
/** `~ { a: 0.7, b: 0.3 }`: soft evidence (Jeffrey); `~ likelihood { a: 0.8, b: 0.2 }`: virtual evidence (Pearl). */
export interface Finding extends NodeBase {
  kind: 'finding';
  likelihood: boolean;
  entries: RowEntry[];
}
/** `P(targets | conditions)`. */
export interface ProbExpr extends NodeBase {
  kind: 'prob';
  targets: Assignment[];
  conditions: Assignment[];
}
/** `{ key: value, … }` after learn, query and classify. */
export interface Options extends NodeBase {
  kind: 'options';
  entries: Arg[];
}

// ── declarations ────────────────────────────────────────────────────────────────────────────

interface StatementBase extends NodeBase {
  /** Text of the `///` comments right above the statement. */
  doc?: string;
  /** Set when error recovery dropped broken lines: completeness checks then stay quiet. */
  recovered?: boolean;
}

export interface Domain extends NodeBase {
  kind: 'domain';
  type: 'states' | 'bool' | 'real';
  states: Name[];
}
export interface VariableDecl extends StatementBase {
  kind: 'variable';
  names: Name[];
  domain: Domain;
}

export interface HypothesisEntry extends NodeBase {
  kind: 'hypothesis';
  name: Name;
  prior?: NumberLit;
  bits?: NumberLit;
  tree?: Tree;
}
/** `conjunctions(…) -> Enjoy = Yes`, `linear(d ~ x)`. */
export interface Generator extends NodeBase {
  kind: 'generator';
  call: Call;
  target?: Assignment;
}
export interface HypothesesDecl extends StatementBase {
  kind: 'hypotheses';
  name: Name;
  entries: HypothesisEntry[];
  generator?: Generator;
  /** `prior uniform` / `prior code`. */
  prior?: Name;
  /** `noise 0`, `noise 0.1` (a number) or `noise normal` (a name). */
  noise?: NumberLit | Name;
}

/** `tree { … }`: leaves and if/else splits. */
export interface Tree extends NodeBase {
  kind: 'tree';
  items: TreeItem[];
}
export interface TreeLeaf extends NodeBase {
  kind: 'treeLeaf';
  prob: ProbExpr;
  value: NumberLit;
}
export interface TreeSplit extends NodeBase {
  kind: 'treeSplit';
  test: Assignment;
  then: Tree;
  else?: Tree;
}
export type TreeItem = TreeLeaf | TreeSplit;

/** One probability inside a row: `pos: 0.98` (with state) or `0.98` (list / single). */
export interface RowEntry extends NodeBase {
  kind: 'rowEntry';
  state?: Name;
  value: NumberLit;
}
/**
 * `keys: value` — `cancer: { pos: 0.98, neg: 0.02 }`, `true, false: 0.4`, `cancer: [0.98, 0.02]`,
 * or (a continuous variable's table) `male: Normal(mean: -90, Height: 0.95, variance: 36)`.
 */
export interface Row extends NodeBase {
  kind: 'row';
  keys: Name[];
  form: 'map' | 'list' | 'single' | 'normal';
  entries: RowEntry[];
  /** form 'normal': the regression of this configuration of the discrete parents (entries is empty). */
  normal?: Call;
}
export interface ExpertEntry extends NodeBase {
  kind: 'expert';
  name: Name;
  successes: NumberLit;
  trials: NumberLit;
}
export interface Experts extends NodeBase {
  kind: 'experts';
  entries: ExpertEntry[];
}
/**
 * `P(X | Y) { rows }`, `P(Storm) = 0.3` (`value`), or `P(X | Y) ~ Beta(1, 1)` (`parameterPrior`).
 */
export interface TableDecl extends StatementBase {
  kind: 'table';
  head: ProbExpr;
  rows: Row[];
  value?: NumberLit;
  parameterPrior?: Call | Experts;
  /** `= noisy_or { … }` / `= noisy_max { … }`: a canonical model that expands to the table. */
  canonical?: CanonicalModel;
}

/**
 * `Cold: 0.4` (noisy-OR: P(effect | only this cause present)), `leak: 0.01`; for noisy-MAX
 * `Cause: { state: [P(effect states)], … }` (rows keyed by the cause's non-absent states) and
 * `leak: [P(effect states)]`.
 */
export interface CanonicalEntry extends NodeBase {
  kind: 'canonicalEntry';
  cause: Name;
  value?: NumberLit;
  list?: NumberLit[];
  rows: Row[];
}
export interface CanonicalModel extends NodeBase {
  kind: 'canonical';
  model: 'noisy_or' | 'noisy_max';
  entries: CanonicalEntry[];
}

/** `decision Drill { yes, no } given Test, Seismic`: a chosen variable and what is known when choosing. */
export interface DecisionDecl extends StatementBase {
  kind: 'decision';
  name: Name;
  domain: Domain;
  information: Name[];
}
/** `utility Payoff(Drill, Oil) { yes, dry: -70, … }`: one number per assignment of its variables. */
export interface UtilityDecl extends StatementBase {
  kind: 'utility';
  name: Name;
  parents: Name[];
  rows: Row[];
}

export interface NetworkDecl extends StatementBase {
  kind: 'network';
  name: Name;
  statements: Statement[];
}
export interface ImportDecl extends StatementBase {
  kind: 'import';
  name: Name;
  path: StringLit;
}

export interface DataRow extends NodeBase {
  kind: 'dataRow';
  cells: Expr[];
}
/** Inline (`header` + `rows`) or from a CSV file (`source`). */
export interface DataDecl extends StatementBase {
  kind: 'data';
  name: Name;
  source?: StringLit;
  header: Name[];
  rows: DataRow[];
}
export interface CorpusDecl extends StatementBase {
  kind: 'corpus';
  name: Name;
  source: StringLit;
  label?: Name;
}
export interface ObserveStmt extends StatementBase {
  kind: 'observe';
  items: Assignment[];
  in?: Name;
}
export interface LearnStmt extends StatementBase {
  kind: 'learn';
  structure: boolean;
  model: Name;
  from?: Name;
  method?: Name;
  options?: Options;
}
export interface ClassifierDecl extends StatementBase {
  kind: 'classifier';
  name: Name;
  definition: Call;
}
export interface MixtureDecl extends StatementBase {
  kind: 'mixture';
  name: Name;
  definition: Call;
}

// ── queries ─────────────────────────────────────────────────────────────────────────────────

interface QueryBase extends NodeBase {
  kind: 'query';
}
/** `posterior|map|ml|mdl H`, and `size H`: how many hypotheses keep a nonzero probability (|H|, |VS|). */
export interface HypothesisQuery extends QueryBase {
  form: 'posterior' | 'map' | 'ml' | 'mdl' | 'size';
  target: Name;
  given: Assignment[];
}
export interface OptimalQuery extends QueryBase {
  form: 'optimal' | 'gibbs';
  target: Name;
  over: Name;
  options?: Options;
}
export interface ProbabilityQuery extends QueryBase {
  form: 'probability';
  prob: ProbExpr;
  in?: Name;
  using?: Name;
  options?: Options;
  given: Assignment[];
}
/** `mpe [N] [given e]`: without N, the default model. */
export interface MpeQuery extends QueryBase {
  form: 'mpe';
  network?: Name;
  given: Assignment[];
}
export interface SensitivityQuery extends QueryBase {
  form: 'sensitivity';
  prob: ProbExpr;
  in?: Name;
}
export interface IndependenceQuery extends QueryBase {
  form: 'independent';
  variables: Name[];
  given: Name[];
  in?: Name;
}
export interface ClassifyQuery extends QueryBase {
  form: 'classify';
  classifier: Name;
  instance: Options;
}
export interface EvaluateQuery extends QueryBase {
  form: 'evaluate';
  classifier: Name;
  split?: NumberLit;
  folds?: NumberLit;
  on?: Name;
  options?: Options;
}
/** `predict X in N on D`: P(X | each record's other observed values). */
export interface PredictQuery extends QueryBase {
  form: 'predict';
  variable: Name;
  in: Name;
  on: Name;
  options?: Options;
}
/** `validate N on D target X [folds k]`: scores of N's predictions of X on D. */
export interface ValidateQuery extends QueryBase {
  form: 'validate';
  network: Name;
  on: Name;
  target: Name;
  folds?: NumberLit;
  options?: Options;
}
export interface MomentQuery extends QueryBase {
  form: 'mean' | 'mode';
  prob: ProbExpr;
  given: Assignment[];
}
/** `mean X [in N] [given e]`, `variance X …`: the posterior mean or variance of a continuous variable. */
export interface ContinuousMomentQuery extends QueryBase {
  form: 'moment';
  moment: 'mean' | 'variance';
  variable: Name;
  /** `mean Position[3] …`: the step, in a network over time. */
  time?: TimeIndex;
  in?: Name;
  /** `using filtering` / `using smoothing`, in a network over time. */
  using?: Name;
  given: Assignment[];
}
export interface IntervalQuery extends QueryBase {
  form: 'interval';
  level: NumberLit;
  prob: ProbExpr;
  given: Assignment[];
}
/** `P(0.6 <= P(Toss = heads) <= 0.8)`: the probability that a parameter lies in a range. */
export interface BoundQuery extends QueryBase {
  form: 'bound';
  lower: NumberLit;
  lowerOp: '<' | '<=';
  prob: ProbExpr;
  upper: NumberLit;
  upperOp: '<' | '<=';
  given: Assignment[];
}
/** `estimate Two.mean1`: one learnt parameter of a model (mixture means, weights, sigmas). */
export interface EstimateQuery extends QueryBase {
  form: 'estimate';
  model: Name;
  parameter: Name;
}
export interface ScoreQuery extends QueryBase {
  form: 'bic' | 'likelihood';
  model: Name;
  given: Name;
}
export interface LearningCurveQuery extends QueryBase {
  form: 'learning_curve';
  classifier: Name;
  options?: Options;
}
export interface AccuracyQuery extends QueryBase {
  form: 'accuracy';
  classifier: Name;
  on?: Name;
}
/**
 * `policy [N] [given e]`: the optimal rule of every decision and the maximum expected utility;
 * without N, of the default model's decisions.
 */
export interface PolicyQuery extends QueryBase {
  form: 'policy';
  network?: Name;
  given: Assignment[];
}
/** `eu D [in N] [given e]`: the expected utility of each alternative of decision D. */
export interface EuQuery extends QueryBase {
  form: 'eu';
  decision: Name;
  in?: Name;
  given: Assignment[];
}
/** `voi X for D [in N] [given e]`: the expected value of perfect information about X before D. */
export interface VoiQuery extends QueryBase {
  form: 'voi';
  variable: Name;
  decision: Name;
  in?: Name;
  given: Assignment[];
}
/** `effect X -> Y [in N]`: P(Y | do(X = x)) for every x, and the average causal effect. */
export interface EffectQuery extends QueryBase {
  form: 'effect';
  cause: Name;
  effect: Name;
  in?: Name;
  given: Assignment[];
}
/** `strength N from D { replicates, seed, method, … }`: bootstrap arc strength; declares the averaged network N. */
export interface StrengthQuery extends QueryBase {
  form: 'strength';
  model: Name;
  from: Name;
  options?: Options;
}

export type Query =
  | HypothesisQuery
  | OptimalQuery
  | ProbabilityQuery
  | MpeQuery
  | SensitivityQuery
  | IndependenceQuery
  | ClassifyQuery
  | EvaluateQuery
  | PredictQuery
  | ValidateQuery
  | MomentQuery
  | ContinuousMomentQuery
  | IntervalQuery
  | BoundQuery
  | ScoreQuery
  | LearningCurveQuery
  | AccuracyQuery
  | EstimateQuery
  | StrengthQuery
  | PolicyQuery
  | EuQuery
  | VoiQuery
  | EffectQuery;
export type QueryForm = Query['form'];

export interface QueryStmt extends StatementBase {
  kind: 'queryStatement';
  query: Query;
}
export type ComparisonOp = '=' | '≈' | '<' | '<=' | '>' | '>=';
export interface Comparison extends NodeBase {
  kind: 'comparison';
  op: ComparisonOp;
  value: Expr;
  tolerance?: NumberLit;
}
export interface ExpectStmt extends StatementBase {
  kind: 'expectStatement';
  query: Query;
  comparison: Comparison;
}

/**
 * A statement that did not parse. It keeps the keyword and the declared name (when there is
 * one; `others` are further names of `variable A, B, …`) so the checker does not report every
 * later use of those names as undefined.
 */
export interface ErrorStmt extends StatementBase {
  kind: 'error';
  keyword: string;
  name?: Name;
  others?: Name[];
}

export type Statement =
  | VariableDecl
  | HypothesesDecl
  | TableDecl
  | NetworkDecl
  | ImportDecl
  | DataDecl
  | CorpusDecl
  | ObserveStmt
  | LearnStmt
  | ClassifierDecl
  | MixtureDecl
  | QueryStmt
  | ExpectStmt
  | ErrorStmt
  | DecisionDecl
  | UtilityDecl;

export interface BayesFile extends NodeBase {
  kind: 'file';
  statements: Statement[];
}

export type AstNode =
  | BayesFile
  | Statement
  | Query
  | Name
  | Expr
  | Arg
  | Assignment
  | TimeIndex
  | ProbExpr
  | Options
  | Domain
  | HypothesisEntry
  | Generator
  | Tree
  | TreeItem
  | Row
  | RowEntry
  | Experts
  | ExpertEntry
  | DataRow
  | Comparison
  | Finding
  | CanonicalModel
  | CanonicalEntry;

function isNode(value: unknown): value is AstNode {
  return (
    typeof value === 'object' && value !== null && typeof (value as NodeBase).kind === 'string' && 'range' in value
  );
}

/** Calls `visit` on each direct child node, in source order of the fields. */
export function forEachChild(node: AstNode, visit: (child: AstNode) => void): void {
  // A scanned row's cells are not a field but built on request (see `dataCells.ts`).
  if (node.kind === 'dataRow') return node.cells.forEach(visit);
  for (const key in node) {
    if (key === 'range') continue;
    const value = (node as unknown as Record<string, unknown>)[key];
    if (Array.isArray(value)) {
      for (const item of value) if (isNode(item)) visit(item);
    } else if (isNode(value)) {
      visit(value);
    }
  }
}

/** Depth-first pre-order walk; return `false` from `visit` to skip a node's children. */
export function walk(
  node: AstNode,
  visit: (node: AstNode, parent: AstNode | undefined) => boolean | void,
  parent?: AstNode,
): void {
  if (visit(node, parent) === false) return;
  forEachChild(node, (child) => walk(child, visit, node));
}

/** The text of a value used as a state or name: `pos`, `"12+"`, `1`; undefined for other values. */
export function valueText(expr: Expr | undefined): string | undefined {
  if (!expr) return undefined;
  if (expr.kind === 'ref' && !expr.member && !expr.columns) return expr.name.text;
  if (expr.kind === 'string') return expr.value;
  if (expr.kind === 'number') return expr.text;
  return undefined;
}
