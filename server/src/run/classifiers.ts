/**
 * Classifiers declared in the model, trained once per run from their data and shared by every
 * statement that uses them (classify, evaluate, P(… ) in C, accuracy).
 */
import type * as A from '../language/ast.js';
import { trainNaiveBayes, naiveBayesNetwork, type NaiveBayesModel } from '../engine/classifiers/naiveBayes.js';
import type { Smoothing } from '../engine/estimators/mEstimate.js';
import type { BayesianNetwork } from '../engine/network.js';
import { CompileError } from '../model/compileError.js';
import type { HandlerContext } from './handlerContext.js';
import { modelData } from './modelInputs.js';
import { DEFAULT_BUDGETS, SHOWN_CLASSES } from '../engine/budget.js';
import { mostFrequent } from '../engine/classifiers/evaluation.js';
import type { Diagnostic, Range } from '../language/diagnostics.js';

/**
 * The budget on classes (engine/budget.ts maxClasses), checked on the range that brought them
 * before anything per class is allocated: a class column of 50,000 values ran out of heap.
 */
export function requireClassCount(ctx: HandlerContext, count: number, range: Range, what: string): void {
  const limit = (ctx.env.budgets ?? DEFAULT_BUDGETS).maxClasses;
  if (count <= limit) return;
  throw new CompileError(
    `${what} has ${count.toLocaleString('en-US')} classes, over the budget of ${limit.toLocaleString('en-US')} ` +
      '(a classes × classes confusion matrix must fit one table)',
    range,
  );
}

export function classifierDecl(ctx: HandlerContext, name: A.Name): A.ClassifierDecl {
  const global = ctx.symbols.globals.get(name.text);
  if (global?.kind !== 'classifier') throw new CompileError(`'${name.text}' is not a classifier`, name.range);
  return global.node as A.ClassifierDecl;
}

export function argument(call: A.Call, name: string): A.Expr | undefined {
  return call.args.find((a) => a.name?.text === name)?.value;
}

/** The call's first unnamed argument: the data of `naive_bayes(DATA, …)`, `gaussians(DATA.x, …)`. */
export function positionalArgument(call: A.Call): A.Expr | undefined {
  return call.args.find((a) => !a.name)?.value;
}

/** `smoothing: none | laplace | m_estimate(m: 2[, p: …])`; the language's default is none (eq. 6.20). */
export function smoothingOf(call: A.Call): Smoothing {
  const value = argument(call, 'smoothing');
  if (!value || (value.kind === 'ref' && value.name.text === 'none')) return { kind: 'none' };
  if (value.kind === 'ref' && value.name.text === 'laplace') return { kind: 'laplace' };
  if (value.kind === 'call' && value.callee.text === 'm_estimate') {
    const m = argument(value, 'm'),
      p = argument(value, 'p');
    if (m?.kind !== 'number') throw new CompileError('m_estimate needs m: a number', value.range);
    return { kind: 'mEstimate', m: m.value, ...(p?.kind === 'number' ? { p: p.value } : {}) };
  }
  throw new CompileError('smoothing is none, laplace or m_estimate(m: 2)', value.range);
}

/** A categorical naive Bayes classifier trained on its whole data set. */
export async function naiveBayesClassifier(ctx: HandlerContext, name: A.Name): Promise<NaiveBayesModel> {
  const decl = classifierDecl(ctx, name);
  const call = decl.definition;
  if (call.callee.text !== 'naive_bayes')
    throw new CompileError(`'${name.text}' is a ${call.callee.text} classifier, not naive_bayes`, name.range);
  const key = `classifier:${name.text}`;
  if (!ctx.shared.has(key)) {
    const source = positionalArgument(call);
    const target = argument(call, 'target');
    if (source?.kind !== 'ref' || target?.kind !== 'ref')
      throw new CompileError('naive_bayes(DATA, target: VARIABLE, …)', call.range);
    const data = await modelData(ctx, source.name);
    const column = data.attributes.find((a) => a.name === target.name.text);
    if (column) requireClassCount(ctx, column.values.length, target.range, `'${target.name.text}'`);
    ctx.shared.set(key, trainNaiveBayes(data, target.name.text, smoothingOf(call)));
  }
  return ctx.shared.get(key) as NaiveBayesModel;
}

/** The classifier as a belief network, for `query P(…) in C`. */
export async function classifierNetwork(ctx: HandlerContext, name: A.Name): Promise<BayesianNetwork> {
  return naiveBayesNetwork(await naiveBayesClassifier(ctx, name), name.text);
}

/**
 * A classify answer's list of classes bounded to SHOWN_CLASSES, the most probable kept (in the
 * classes' order), with how many were left out: the predicted class is always among them.
 */
export function shownClasses<T extends { posterior?: number; logScore?: number }>(
  classes: readonly T[],
): { shown: { entry: T; index: number }[]; classesLeftOut?: number } {
  const weight = classes.map((c) => c.posterior ?? (c.logScore !== undefined ? Math.exp(c.logScore) : 0));
  const keep = mostFrequent(weight, SHOWN_CLASSES);
  return {
    shown: keep.map((index) => ({ entry: classes[index]!, index })),
    ...(keep.length < classes.length ? { classesLeftOut: classes.length - keep.length } : {}),
  };
}

/** A result over more classes than it lists says so on the statement. */
export function classesLeftOutNote(
  ctx: HandlerContext,
  listed: number,
  leftOut: number | undefined,
  kept = 'the most frequent',
): Diagnostic[] {
  if (!leftOut) return [];
  const total = (listed + leftOut).toLocaleString('en-US');
  return [
    {
      severity: 'information',
      code: 'classes-left-out',
      range: ctx.statement.range,
      message: `${listed} of ${total} classes listed (${kept}); ${leftOut.toLocaleString('en-US')} left out of the result`,
    },
  ];
}
