/** Hypothesis spaces, generated families, decision trees, classifiers and mixtures. */
import type * as A from '../ast.js';
import type { CheckContext } from './context.js';
import { checkArgs, type CallSpec } from './calls.js';
import { checkAssignment, checkChoice, checkFinite, checkProbability, showNumber } from './resolve.js';
import { lookupVariable, requireGlobal } from '../references/lookup.js';
import { SUM_TOLERANCE } from './tables.js';

export const HYPOTHESIS_PRIORS = ['uniform', 'code'] as const;
export const GENERATORS = ['conjunctions', 'linear', 'logistic'] as const;
/** `logistic(d ~ x, method: gradient, seed: 1, rate: η, iterations: N, tolerance: t)`. */
export const SIGMOID_METHODS = ['newton', 'gradient'] as const;
const SIGMOID_OPTIONS = ['method', 'seed', 'rate', 'iterations', 'tolerance'];
export const CLASSIFIERS = ['naive_bayes', 'text_naive_bayes'] as const;
export const SMOOTHING = ['none', 'laplace', 'm_estimate'] as const;

export function checkHypotheses(ctx: CheckContext, decl: A.HypothesesDecl): void {
  if (decl.prior) checkChoice(ctx, decl.prior, HYPOTHESIS_PRIORS, 'a prior over hypotheses');
  if (decl.noise?.kind === 'number') checkProbability(ctx, decl.noise);
  else if (decl.noise) checkChoice(ctx, decl.noise, ['normal'], 'a noise model (a probability or normal)');
  if (decl.generator) checkGenerator(ctx, decl.generator);
  else if (decl.noise) {
    ctx.report.warning(
      'unknown-option',
      `'noise' applies to generated spaces (conjunctions(…), linear(…)) and is ignored here: ` +
        `P(D | h) of '${decl.name.text}' comes from its tables P(X | ${decl.name.text}) or its trees`,
      decl.noise.range,
    );
  }
  const notTree = decl.prior?.text === 'code' && !decl.generator ? decl.entries.find((e) => !e.tree) : undefined;
  if (notTree) {
    ctx.report.error(
      'missing-prior',
      `'prior code' is the code length of trees (Poole ex. 10.7), and '${notTree.name.text}' is no tree: ` +
        `use 'prior uniform', or give each hypothesis a prior (h: 0.5)`,
      decl.prior!.range,
    );
  }
  for (const entry of decl.entries) {
    if (entry.prior) checkProbability(ctx, entry.prior);
    if (entry.bits && checkFinite(ctx, entry.bits) && entry.bits.value < 0) {
      ctx.report.error('bad-number', 'a code length cannot be negative', entry.bits.range);
    }
    if (entry.tree) checkTree(ctx, entry.tree);
  }
  checkPriors(ctx, decl);
}

/** Either every hypothesis has a prior (summing to 1) or the space names one (`prior uniform`). */
function checkPriors(ctx: CheckContext, decl: A.HypothesesDecl): void {
  const withPrior = decl.entries.filter((e) => e.prior);
  if (decl.prior) {
    for (const e of withPrior)
      ctx.report.warning('prior-conflict', `'prior ${decl.prior.text}' replaces this number`, e.prior!.range);
    return;
  }
  if (decl.generator || decl.entries.length === 0) return;
  if (withPrior.length === 0) {
    if (decl.entries.every((e) => e.bits)) return; // code lengths define the prior 2^-L(h)
    ctx.report.error(
      'missing-prior',
      `give each hypothesis a prior (h: 0.5) or add 'prior uniform' after the space`,
      decl.name.range,
    );
    return;
  }
  for (const e of decl.entries) {
    if (!e.prior) ctx.report.error('missing-prior', `'${e.name.text}' has no prior while others do`, e.name.range);
  }
  if (withPrior.length !== decl.entries.length || decl.recovered) return;
  const sum = withPrior.reduce((s, e) => s + e.prior!.value, 0);
  if (Math.abs(sum - 1) > SUM_TOLERANCE) {
    ctx.report.error('row-sum', `the priors of '${decl.name.text}' sum to ${showNumber(sum)}, not 1`, decl.name.range, {
      sum,
    });
  }
}

function checkGenerator(ctx: CheckContext, generator: A.Generator): void {
  const call = generator.call;
  if (!checkChoice(ctx, call.callee, GENERATORS, 'a hypothesis family')) return;
  const scope = ctx.symbols.defaultScope;
  if (call.callee.text === 'conjunctions') {
    checkArgs(ctx, call, { positional: 1, variadic: true, named: [] });
    for (const arg of call.args) if (!arg.name && arg.value.kind === 'ref') lookupVariable(ctx, scope, arg.value.name);
    if (!generator.target?.value)
      ctx.report.error('arguments', 'say what the conjunctions predict: conjunctions(…) -> Target = value', call.range);
    else checkAssignment(ctx, scope, generator.target);
    return;
  }
  const logistic = call.callee.text === 'logistic';
  checkArgs(ctx, call, { positional: 1, named: logistic ? ['data', ...SIGMOID_OPTIONS] : ['data'] });
  const method = logistic ? call.args.find((a) => a.name?.text === 'method')?.value : undefined;
  if (method?.kind === 'ref' && !method.member && !method.columns) {
    checkChoice(ctx, method.name, SIGMOID_METHODS, 'a way to fit a sigmoid unit');
  } else if (method) ctx.report.error('unknown-option', `method: is ${SIGMOID_METHODS.join(' or ')}`, method.range);
  const formula = call.args.find((a) => !a.name)?.value;
  if (formula?.kind !== 'formula') {
    ctx.report.error('arguments', `${call.callee.text} needs a formula: ${call.callee.text}(d ~ x1 + x2)`, call.range);
    return;
  }
  for (const term of [formula.response, ...formula.terms])
    if (term.kind === 'ref') lookupVariable(ctx, scope, term.name);
}

function checkTree(ctx: CheckContext, tree: A.Tree): void {
  const scope = ctx.symbols.defaultScope;
  for (const item of tree.items) {
    if (item.kind === 'treeLeaf') {
      for (const a of item.prob.targets) checkAssignment(ctx, scope, a);
      checkProbability(ctx, item.value);
    } else {
      checkAssignment(ctx, scope, item.test);
      checkTree(ctx, item.then);
      if (item.else) checkTree(ctx, item.else);
    }
  }
}

const classifierSpecs: Record<(typeof CLASSIFIERS)[number], CallSpec> = {
  naive_bayes: { positional: 1, named: ['target', 'smoothing'], required: ['target'] },
  text_naive_bayes: { positional: 1, named: ['drop_most_frequent', 'min_count', 'smoothing', 'vocabulary'] },
};

export function checkClassifier(ctx: CheckContext, decl: A.ClassifierDecl): void {
  const call = decl.definition;
  if (!checkChoice(ctx, call.callee, CLASSIFIERS, 'a classifier')) return;
  const fn = call.callee.text as (typeof CLASSIFIERS)[number];
  checkArgs(ctx, call, classifierSpecs[fn]);
  const source = call.args.find((a) => !a.name)?.value;
  if (source?.kind === 'ref')
    requireGlobal(
      ctx,
      source.name,
      fn === 'naive_bayes' ? ['data'] : ['corpus', 'data'],
      fn === 'naive_bayes' ? 'a data set' : 'a corpus',
    );
  for (const arg of call.args) {
    if (arg.name?.text === 'target' && arg.value.kind === 'ref') {
      const scope = ctx.symbols.scopes.get(decl.name.text);
      if (scope) lookupVariable(ctx, scope, arg.value.name);
    }
    if (arg.name?.text === 'smoothing') checkSmoothing(ctx, arg.value);
    if (arg.name && arg.value.kind === 'number') checkFinite(ctx, arg.value);
  }
}

function checkSmoothing(ctx: CheckContext, value: A.Expr): void {
  const name = value.kind === 'ref' ? value.name : value.kind === 'call' ? value.callee : undefined;
  if (!name) {
    ctx.report.error('unknown-option', 'smoothing is none, laplace or m_estimate(m: 2)', value.range);
    return;
  }
  if (!checkChoice(ctx, name, SMOOTHING, 'a smoothing')) return;
  if (value.kind !== 'call') return;
  checkArgs(ctx, value, { positional: 0, named: ['m', 'p'], required: ['m'] });
  // The numbers of the nested call: m: 1e309 checked clean and classified every row with
  // probability 0, m: -5 failed only at run time.
  for (const arg of value.args) {
    if (arg.value.kind !== 'number') continue;
    if (arg.name?.text === 'p') checkProbability(ctx, arg.value);
    else if (checkFinite(ctx, arg.value) && arg.name?.text === 'm' && arg.value.value < 0)
      ctx.report.error('bad-number', `pseudo-counts cannot be negative (${arg.value.text})`, arg.value.range);
  }
}

export function checkMixture(ctx: CheckContext, decl: A.MixtureDecl): void {
  const call = decl.definition;
  if (!checkChoice(ctx, call.callee, ['gaussians'], 'a mixture family')) return;
  checkArgs(ctx, call, {
    positional: 1,
    named: ['k', 'sigma', 'weights', 'seed', 'iterations', 'tolerance'],
    required: ['k'],
  });
  const source = call.args.find((a) => !a.name)?.value;
  if (source?.kind !== 'ref') {
    ctx.report.error(
      'arguments',
      'gaussians needs data: gaussians(Points.x, k: 2) or gaussians(Faithful[a, b], k: 2)',
      call.range,
    );
    return;
  }
  if (!requireGlobal(ctx, source.name, ['data'], 'a data set')) return;
  const data = ctx.symbols.data.get(source.name.text);
  for (const column of [...(source.member ? [source.member] : []), ...(source.columns ?? [])]) {
    if (data?.columns && !data.columns.has(column.text)) {
      ctx.report.error('undefined-name', `data '${source.name.text}' has no column '${column.text}'`, column.range);
    }
  }
  for (const arg of call.args) {
    if (arg.name?.text === 'weights' && arg.value.kind === 'ref')
      checkChoice(ctx, arg.value.name, ['uniform', 'learned'], 'a weighting');
    if (arg.name && arg.value.kind === 'number') checkFinite(ctx, arg.value);
  }
}
