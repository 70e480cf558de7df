/** observe, learn, query and expect: the names they use, and comparisons that fit the query. */
import type * as A from '../ast.js';
import { valueText } from '../ast.js';
import type { Scope, VariableInfo } from '../references/symbols.js';
import type { CheckContext } from './context.js';
import { checkOptions } from './calls.js';
import {
  checkAssignment,
  checkChoice,
  checkFinite,
  checkProbability,
  checkState,
  hasState,
  listStates,
} from './resolve.js';
import { lookupVariable, modelScope, requireGlobal } from '../references/lookup.js';
import { checkDecisionQuery, checkInterventions } from './decisions.js';
import { checkNoTime, checkTimeMoment, checkTimeQuery, networkOverTime, TIME_METHODS } from './dynamic.js';
import { LEARN_METHODS, LEARN_OPTIONS, STRUCTURE_METHODS, STRUCTURE_OPTIONS } from '../learnMethods.js';

export const INFERENCE_METHODS = [
  'exact',
  'variable_elimination',
  'junction_tree',
  'likelihood_weighting',
  'gibbs',
  'rejection',
] as const;
export const SAMPLER_OPTIONS = ['samples', 'seed', 'burn_in', 'budget'];
/** `validate N on D target X { … }`: its options, and the scores `score:` may choose as its value. */
export const VALIDATE_OPTIONS = ['seed', 'bins', 'positive', 'score'];
export const VALIDATION_SCORES = ['accuracy', 'log_loss', 'brier', 'spherical', 'auc'] as const;

/** Query forms whose answer is a name (a state, a hypothesis), not a number. */
export const CATEGORICAL_FORMS: ReadonlySet<A.QueryForm> = new Set([
  'map',
  'ml',
  'mdl',
  'classify',
  'optimal',
  'gibbs',
  'mpe',
  'independent',
  'eu',
]);

export function checkObserve(ctx: CheckContext, s: A.ObserveStmt): void {
  const scope = s.in ? observedScope(ctx, s.in) : ctx.symbols.defaultScope;
  for (const item of s.items) {
    // `observe Days` uses a whole data set as evidence.
    if (!item.value && !item.finding && !s.in && ctx.symbols.data.has(item.variable.text)) continue;
    checkAssignment(ctx, scope, item);
  }
}

/** `observe … in N`: N is a network or an imported network. */
function observedScope(ctx: CheckContext, name: A.Name): Scope {
  const symbol = requireGlobal(ctx, name, ['network', 'import'], 'a network or imported network');
  const scope = symbol && ctx.symbols.scopes.get(name.text);
  return scope ?? { kind: 'network', name: name.text, variables: new Map(), open: true };
}

export function checkLearn(ctx: CheckContext, s: A.LearnStmt): void {
  if (!s.structure)
    requireGlobal(
      ctx,
      s.model,
      ['network', 'import', 'mixture', 'classifier', 'hypotheses'],
      'a network, mixture or classifier',
    );
  if (s.from) requireGlobal(ctx, s.from, ['data', 'corpus'], 'a data set');
  else if (s.structure)
    ctx.report.error('arguments', 'structure learning needs data: learn structure N from Data by k2', s.model.range);
  if (s.method && checkChoice(ctx, s.method, LEARN_METHODS, 'a learning method')) {
    if (s.structure !== (STRUCTURE_METHODS as readonly string[]).includes(s.method.text)) {
      ctx.report.error(
        'unknown-option',
        s.structure
          ? 'structures are learnt by pc, k2, hillclimb or tabu'
          : `'${s.method.text}' learns structure: write 'learn structure …'`,
        s.method.range,
      );
    }
  }
  checkOptions(ctx, s.options, LEARN_OPTIONS, 'learn');
  if (!s.structure) checkLearnColumns(ctx, s);
  for (const entry of s.options?.entries ?? []) {
    if (entry.value.kind === 'number') checkFinite(ctx, entry.value);
    if (entry.name?.text === 'order' && entry.value.kind === 'list') {
      const scope = ctx.symbols.scopes.get(s.model.text) ?? ctx.symbols.defaultScope;
      for (const item of entry.value.items) if (item.kind === 'ref') lookupVariable(ctx, scope, item.name);
    }
    if (s.structure) checkKnowledge(ctx, s, entry);
  }
}

/** `require: [A -> B]`, `forbid: [A -> B]`, `tiers: [[A, B], [C]]`: arcs and groups of the data's columns. */
function checkKnowledge(ctx: CheckContext, s: A.LearnStmt | A.StrengthQuery, entry: A.Arg): void {
  const key = entry.name?.text;
  if (key !== 'require' && key !== 'forbid' && key !== 'tiers') return;
  const scope = ctx.symbols.scopes.get(s.model.text) ?? ctx.symbols.defaultScope;
  const v = entry.value;
  const form =
    key === 'tiers'
      ? 'a list of groups of columns, earliest first, e.g. [[A, B], [C]]'
      : 'a list of arcs, e.g. [A -> B, C -> D]';
  if (v.kind !== 'list') {
    ctx.report.error('arguments', `${key}: must be ${form}`, v.range);
    return;
  }
  for (const item of v.items) {
    if (key !== 'tiers' && item.kind === 'arc') {
      lookupVariable(ctx, scope, item.from);
      lookupVariable(ctx, scope, item.to);
      continue;
    }
    if (key === 'tiers' && item.kind === 'list' && item.items.every((i) => i.kind === 'ref')) {
      for (const i of item.items) lookupVariable(ctx, scope, (i as A.Ref).name);
      continue;
    }
    ctx.report.error('arguments', `${key}: must be ${form}`, item.range);
  }
}

export function checkExpect(ctx: CheckContext, s: A.ExpectStmt): void {
  checkQuery(ctx, s.query);
  const { comparison, query } = s;
  if (comparison.tolerance && checkFinite(ctx, comparison.tolerance) && comparison.tolerance.value < 0) {
    ctx.report.error('bad-number', 'a tolerance cannot be negative', comparison.tolerance.range);
  }
  if (comparison.value.kind === 'number') checkFinite(ctx, comparison.value);
  // `bic Trees given D` names the tree of smallest BIC; `bic t1 given D` is that tree's BIC in bits.
  const categorical =
    CATEGORICAL_FORMS.has(query.form) || (query.form === 'bic' && !ctx.symbols.hypothesisEntries.has(query.model.text));
  if (categorical && comparison.op !== '=' && query.form === 'bic') {
    const space = ctx.symbols.globals.get(query.model.text)?.node as A.HypothesesDecl | undefined;
    const tree = space?.entries?.[0]?.name.text ?? 't';
    const message =
      `'bic ${query.model.text}' names the tree of smallest BIC: compare it with =, ` +
      `or ask for one tree's BIC in bits: bic ${tree} given ${query.given.text}`;
    ctx.report.error('comparison', message, comparison.range);
  } else if (categorical && comparison.op !== '=') {
    ctx.report.error('comparison', `'${query.form}' gives a value, not a number: compare it with =`, comparison.range);
  } else if (!categorical && comparison.op === '=' && comparison.value.kind !== 'number') {
    ctx.report.error(
      'comparison',
      `'${query.form === 'probability' ? 'P(…)' : query.form}' gives a number: compare it with ≈ x ± t, <, <=, > or >=`,
      comparison.range,
    );
  }
  if (categorical && comparison.op === '=') checkExpectedValue(ctx, query, comparison.value);
}

/**
 * One state of `v`, or, where ties are answered (`map`, `ml`, `mdl`: "tied ones joined by `, `"),
 * a string of states joined by ', ' (`expect map H = "h1, h2"`), each of them a state.
 */
function checkAnswer(ctx: CheckContext, v: VariableInfo, value: A.Expr, ties: boolean): void {
  if (!ties || value.kind !== 'string' || !value.value.includes(', ') || !v.states) {
    checkState(ctx, v, value);
    return;
  }
  const parts = value.value.split(', ');
  const unknown = parts.filter((part) => !hasState(v.states!, part));
  if (unknown.length > 0) {
    const list = unknown.map((u) => `'${u}'`).join(', ');
    const verb = unknown.length > 1 ? 'are not states' : 'is not a state';
    const message = `${list} ${verb} of '${v.name}' (${listStates(v.states)})`;
    ctx.report.error('unknown-state', message, value.range);
  }
}

/** `expect map Diagnosis = healthy`: the expected answer must be one of the possible answers. */
function checkExpectedValue(ctx: CheckContext, query: A.Query, value: A.Expr): void {
  if (
    query.form === 'map' ||
    query.form === 'ml' ||
    query.form === 'mdl' ||
    query.form === 'optimal' ||
    query.form === 'gibbs'
  ) {
    const v = ctx.symbols.defaultScope.variables.get(query.target.text);
    if (v) checkAnswer(ctx, v, value, query.form === 'map' || query.form === 'ml' || query.form === 'mdl');
  } else if (query.form === 'bic') {
    const space = ctx.symbols.globals.get(query.model.text);
    const entries = space?.kind === 'hypotheses' ? (space.node as A.HypothesesDecl).entries : [];
    const named = value.kind === 'ref' ? value.name.text : value.kind === 'string' ? value.value : undefined;
    if (entries.length > 0 && !entries.some((e) => e.name.text === named)) {
      const names = entries.map((e) => e.name.text).join(', ');
      ctx.report.error('comparison', `bic names a tree of '${query.model.text}': ${names}`, value.range);
    }
  } else if (query.form === 'eu') {
    // The best alternative: one of the decision's (tied ones are joined by ', ' and not checked).
    const scope = query.in ? ctx.symbols.scopes.get(query.in.text) : ctx.symbols.defaultScope;
    const v = scope?.variables.get(query.decision.text) ?? ctx.symbols.defaultScope.variables.get(query.decision.text);
    if (v && value.kind !== 'string') checkState(ctx, v, value);
  } else if (query.form === 'independent' && !(value.kind === 'ref' && ['true', 'false'].includes(value.name.text))) {
    ctx.report.error('comparison', 'independence is true or false', value.range);
  }
}

export function checkQuery(ctx: CheckContext, q: A.Query): void {
  const defaultScope = ctx.symbols.defaultScope;
  checkInterventions(ctx, q);
  switch (q.form) {
    case 'policy':
    case 'eu':
    case 'voi':
    case 'effect':
      checkDecisionQuery(ctx, q);
      break;
    case 'posterior':
    case 'map':
    case 'ml':
    case 'mdl':
    case 'size':
      requireGlobal(ctx, q.target, ['hypotheses', 'variable'], 'a hypothesis space');
      checkEvidence(ctx, defaultScope, q.given);
      break;
    case 'optimal':
    case 'gibbs':
      lookupVariable(ctx, defaultScope, q.target);
      requireGlobal(ctx, q.over, ['hypotheses'], 'a hypothesis space');
      checkOptions(ctx, q.options, ['seed', 'samples', ...treeTests(ctx, q.over)], q.form);
      break;
    case 'probability': {
      const scope = modelScope(ctx, q.in);
      if (networkOverTime(ctx, q.in)) {
        if (q.using) checkChoice(ctx, q.using, TIME_METHODS, 'a method over time');
        // The particle filter's, when filtering or a forecast is over the budget.
        checkOptions(ctx, q.options, ['samples', 'seed'], q.using?.text ?? 'smoothing');
        checkTimeQuery(ctx, scope, q);
        break;
      }
      checkNoTime(ctx, [...q.prob.targets, ...q.prob.conditions, ...q.given]);
      checkProb(ctx, scope, q.prob);
      if (q.using) checkChoice(ctx, q.using, INFERENCE_METHODS, 'an inference method');
      checkOptions(ctx, q.options, SAMPLER_OPTIONS, q.using?.text ?? 'inference');
      checkEvidence(ctx, scope, q.given);
      checkRepeatedEvidence(ctx, [...q.prob.conditions, ...q.given]);
      break;
    }
    case 'mpe': {
      const scope = modelScope(ctx, q.network);
      if (networkOverTime(ctx, q.network)) {
        checkTimeQuery(ctx, scope, q);
        break;
      }
      checkEvidence(ctx, scope, q.given);
      checkRepeatedEvidence(ctx, q.given);
      break;
    }
    case 'sensitivity':
      checkProb(ctx, modelScope(ctx, q.in), q.prob);
      checkRepeatedEvidence(ctx, q.prob.conditions);
      break;
    case 'independent': {
      const scope = modelScope(ctx, q.in);
      for (const name of [...q.variables, ...q.given]) lookupVariable(ctx, scope, name);
      if (q.variables.length < 2)
        ctx.report.error('arguments', 'name at least two variables: independent A, B given C', q.range);
      break;
    }
    case 'classify': {
      if (!requireGlobal(ctx, q.classifier, ['classifier'], 'a classifier')) break;
      const scope = ctx.symbols.scopes.get(q.classifier.text);
      for (const entry of q.instance.entries) {
        const v = scope && lookupVariable(ctx, scope, entry.name!);
        // A column's states are the values its training data shows: another value is no error but
        // unseen in training, left out of the product (the run says so). A declared variable's
        // domain still holds.
        const declared = v?.type === 'column' ? ctx.symbols.defaultScope.variables.get(v.name) : v;
        if (declared && declared.type !== 'column') checkState(ctx, declared, entry.value);
      }
      break;
    }
    case 'evaluate':
      // `evaluate N on D folds k`: cross-validation of a network (its structure, or its search, re-fitted per fold).
      if (q.on && q.folds) requireGlobal(ctx, q.classifier, ['network', 'import'], 'a network');
      else requireGlobal(ctx, q.classifier, ['classifier'], 'a classifier');
      if (q.on) requireGlobal(ctx, q.on, ['data', 'corpus'], 'a data set');
      if (q.split && checkProbability(ctx, q.split) && (q.split.value === 0 || q.split.value === 1)) {
        ctx.report.error('bad-number', 'the training share must lie strictly between 0 and 1', q.split.range);
      }
      if (q.folds && checkFinite(ctx, q.folds) && (!Number.isInteger(q.folds.value) || q.folds.value < 2)) {
        ctx.report.error('bad-number', 'folds must be a whole number, at least 2', q.folds.range);
      }
      checkOptions(ctx, q.options, q.on && q.folds ? ['seed', 'target'] : ['seed'], 'evaluate');
      break;
    case 'predict': {
      lookupVariable(ctx, modelScope(ctx, q.in), q.variable);
      requireGlobal(ctx, q.on, ['data'], 'a data set');
      checkOptions(ctx, q.options, [], 'predict');
      break;
    }
    case 'validate': {
      lookupVariable(ctx, modelScope(ctx, q.network), q.target);
      requireGlobal(ctx, q.on, ['data'], 'a data set');
      if (q.folds && checkFinite(ctx, q.folds) && (!Number.isInteger(q.folds.value) || q.folds.value < 2)) {
        ctx.report.error('bad-number', 'folds must be a whole number, at least 2', q.folds.range);
      }
      checkOptions(ctx, q.options, VALIDATE_OPTIONS, 'validate');
      const score = q.options?.entries.find((e) => e.name?.text === 'score')?.value;
      if (score?.kind === 'ref') checkChoice(ctx, score.name, VALIDATION_SCORES, 'a validation score');
      break;
    }
    case 'moment': {
      const scope = modelScope(ctx, q.in);
      if (networkOverTime(ctx, q.in)) {
        if (q.using) checkChoice(ctx, q.using, TIME_METHODS, 'a method over time');
        checkTimeMoment(ctx, scope, q);
        break;
      }
      if (q.time)
        checkNoTime(ctx, [{ kind: 'assignment', variable: q.variable, time: q.time, range: q.variable.range }]);
      if (q.using)
        ctx.report.error(
          'time-query',
          '`using filtering` and `using smoothing` are for networks over time',
          q.using.range,
        );
      const variable = lookupVariable(ctx, scope, q.variable);
      if (variable && variable.type !== 'real')
        ctx.report.error(
          'not-continuous',
          `'${variable.name}' has states: \`${q.moment} X\` asks for a continuous ('real') variable; ask P(${variable.name}) for its distribution`,
          q.variable.range,
        );
      requireDefaultModel(ctx, scope, q.variable);
      checkEvidence(ctx, scope, q.given);
      checkRepeatedEvidence(ctx, q.given);
      break;
    }
    case 'mean':
    case 'mode':
      checkProb(ctx, defaultScope, q.prob);
      checkEvidence(ctx, defaultScope, q.given);
      break;
    case 'interval':
      checkProbability(ctx, q.level);
      checkProb(ctx, defaultScope, q.prob);
      checkEvidence(ctx, defaultScope, q.given);
      break;
    case 'bound':
      checkProbability(ctx, q.lower);
      checkProbability(ctx, q.upper);
      checkProb(ctx, defaultScope, q.prob);
      if (q.lower.value > q.upper.value)
        ctx.report.error('bad-number', `the range ${q.lower.text} … ${q.upper.text} is empty`, q.range);
      checkEvidence(ctx, defaultScope, q.given);
      break;
    case 'estimate':
      checkEstimate(ctx, q);
      break;
    case 'bic':
    case 'likelihood':
      {
        const entry = ctx.symbols.hypothesisEntries.get(q.model.text);
        if (entry) ctx.symbols.references.set(q.model, entry.entry.name);
        else requireGlobal(ctx, q.model, ['hypotheses', 'network', 'classifier', 'mixture'], 'a hypothesis or model');
      }
      requireGlobal(ctx, q.given, ['data', 'corpus'], 'a data set');
      break;
    case 'strength':
      requireGlobal(ctx, q.from, ['data'], 'a data set');
      checkOptions(ctx, q.options, ['replicates', 'method', ...STRUCTURE_OPTIONS], 'strength');
      for (const entry of q.options?.entries ?? []) {
        if (entry.value.kind === 'number') checkFinite(ctx, entry.value);
        checkKnowledge(ctx, q, entry);
      }
      break;
    case 'learning_curve':
      requireGlobal(ctx, q.classifier, ['classifier'], 'a classifier');
      checkOptions(ctx, q.options, ['sizes', 'seed'], 'learning_curve');
      break;
    case 'accuracy':
      requireGlobal(ctx, q.classifier, ['classifier'], 'a classifier');
      if (q.on) requireGlobal(ctx, q.on, ['data', 'corpus'], 'a data set');
      break;
  }
}

/** Over a space of trees the options also name the new instance's values of the attributes the trees test. */
function treeTests(ctx: CheckContext, over: A.Name): string[] {
  const node = ctx.symbols.globals.get(over.text)?.node;
  if (node?.kind !== 'hypotheses') return [];
  const names = new Set<string>();
  const visit = (tree: A.Tree | undefined): void => {
    for (const item of tree?.items ?? []) {
      if (item.kind === 'treeSplit') {
        names.add(item.test.variable.text);
        visit(item.then);
        visit(item.else);
      }
    }
  };
  for (const e of node.entries) visit(e.tree);
  return [...names];
}

function checkProb(ctx: CheckContext, scope: Scope, prob: A.ProbExpr): void {
  for (const a of [...prob.targets, ...prob.conditions]) {
    checkAssignment(ctx, scope, a);
    requireDefaultModel(ctx, scope, a.variable);
  }
  for (const a of prob.targets) {
    if (!a.finding) continue;
    const message = 'soft and virtual evidence are conditions: write them after | or given';
    ctx.report.error('soft-evidence', message, a.finding.range);
  }
}

/**
 * One query's evidence names a variable once: the run keeps only the last of `A = a, A = b` (a
 * map by name), so a contradiction — P(e) = 0 — would silently be answered as `A = b`. Repeating
 * the same state (`A = a, A = a`) is the same event and stays allowed.
 */
function checkRepeatedEvidence(ctx: CheckContext, items: readonly A.Assignment[]): void {
  const first = new Map<string, A.Assignment>();
  for (const a of items) {
    // An open condition or a data set is no observation, and do(…) no finding.
    if ((!a.value && !a.finding) || a.intervention) continue;
    const before = first.get(a.variable.text);
    if (!before) {
      first.set(a.variable.text, a);
      continue;
    }
    const same = !a.finding && !before.finding && sameValue(before.value!, a.value!);
    if (!same) {
      const message = `'${a.variable.text}' is already given in this query: a variable takes one observation or finding`;
      ctx.report.error('duplicate-evidence', message, a.variable.range);
    }
  }
}

function sameValue(a: A.Expr, b: A.Expr): boolean {
  const text = (e: A.Expr) => (e.kind === 'list' ? undefined : valueText(e));
  return text(a) !== undefined && text(a) === text(b);
}

function checkEvidence(ctx: CheckContext, scope: Scope, given: A.Assignment[]): void {
  for (const a of given) {
    if (!a.value && ctx.symbols.data.has(a.variable.text)) continue;
    checkAssignment(ctx, scope, a);
    requireDefaultModel(ctx, scope, a.variable);
  }
}

/**
 * A query without `in N` asks the default model: the file's top-level variables, hypothesis
 * spaces and tables. Names resolve file-wide, so a variable only a network declares is found,
 * but that model cannot answer for it: say which network does.
 */
function requireDefaultModel(ctx: CheckContext, scope: Scope, name: A.Name): void {
  if (scope.kind !== 'default' || ctx.symbols.defaultScope.variables.has(name.text)) return;
  const owner = [...ctx.symbols.scopes.values()].find(
    (s) => (s.kind === 'network' || s.kind === 'import') && s.variables.has(name.text),
  );
  if (!owner) return;
  ctx.report.error(
    'other-model',
    `'${name.text}' is a variable of network '${owner.name}', not of the default model: write \`in ${owner.name}\``,
    name.range,
    { network: owner.name },
  );
}

/** Parameters `estimate` can name: a mixture's `mean1…meanK`, `weight1…`, `sigma1…`. */
function checkEstimate(ctx: CheckContext, q: Extract<A.Query, { form: 'estimate' }>): void {
  const model = requireGlobal(ctx, q.model, ['mixture', 'network', 'classifier'], 'a learnt model');
  if (model?.kind !== 'mixture' || model.node.kind !== 'mixture') return;
  const k = model.node.definition.args.find((a) => a.name?.text === 'k')?.value;
  const count = k?.kind === 'number' ? k.value : Infinity;
  // A mixture over several columns names one of them: mean1_waiting, sigma2_eruptions.
  const match = /^(mean|weight|sigma)(\d+)(?:_.+)?$/.exec(q.parameter.text);
  if (!match || Number(match[2]) < 1 || Number(match[2]) > count) {
    const last = Number.isFinite(count) ? String(count) : 'K';
    ctx.report.error(
      'undefined-name',
      `a mixture's parameters are mean1…mean${last}, weight1…weight${last} and sigma1…sigma${last} (components in order of their means)`,
      q.parameter.range,
    );
  }
}

/**
 * Data for a network's parameters: counting needs a column for every variable (a variable
 * never observed is hidden: only EM or gradient ascent can learn its tables); columns that
 * are no variable of the network are ignored, which is worth a word.
 */
function checkLearnColumns(ctx: CheckContext, s: A.LearnStmt): void {
  const scope = ctx.symbols.scopes.get(s.model.text);
  const columns = s.from ? ctx.symbols.data.get(s.from.text)?.columns : undefined;
  if (!scope || scope.kind !== 'network' || scope.open || !columns) return;
  const hidden = [...scope.variables.keys()].filter((v) => !columns.has(v));
  // Without a method, hidden variables make the run learn by EM; only explicit counting cannot.
  if (hidden.length > 0 && s.method?.text === 'counting') {
    ctx.report.error(
      'hidden-variable',
      `${hidden.map((v) => `'${v}'`).join(', ')} ${hidden.length === 1 ? 'has' : 'have'} no column in '${s.from!.text}': counting needs every variable observed; learn … by em`,
      s.from!.range,
      { hidden },
    );
  }
  const unused = [...columns.keys()].filter((c) => !scope.variables.has(c));
  if (unused.length > 0) {
    ctx.report.info(
      'unused-column',
      `column${unused.length === 1 ? '' : 's'} ${unused.join(', ')} of '${s.from!.text}' ${unused.length === 1 ? 'is' : 'are'} not in network '${s.model.text}' and will be ignored`,
      s.from!.range,
      { unused },
    );
  }
}
