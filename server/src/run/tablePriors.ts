/**
 * Parameter priors declared table by table (`P(X | U) ~ Dirichlet(1)`, `~ Beta(2, 3)`,
 * `~ m_estimate(m: 2)`, `~ experts { … }`) as the pseudo-counts the learning engines add to
 * every row of the table: one per state of X (Mitchell eq. 6.22: m·p per state).
 */
import type * as A from '../language/ast.js';
import type { SymbolTable } from '../language/index.js';
import type { BayesianNetwork } from '../engine/network.js';
import type { Prior } from '../engine/estimators/cptLearning.js';
import { mEstimatePseudoCounts } from '../engine/estimators/mEstimate.js';
import { expertPseudoCounts } from '../engine/estimators/betaDistribution.js';
import { parameterPriors } from '../model/compileNetwork.js';
import { CompileError } from '../model/compileError.js';
import { dirichletMismatch, mEstimateMismatch } from '../language/check/parameterPriors.js';

/** The network's per-table prior; tables without a declared prior get none (maximum likelihood). */
export function declaredPrior(
  ast: A.BayesFile,
  symbols: SymbolTable,
  scopeName: string | undefined,
  net: BayesianNetwork,
): Prior {
  const tables = parameterPriors(ast, symbols, scopeName);
  const pseudoCounts = net.variables.map((v) => {
    const table = tables.get(v.name);
    return table?.parameterPrior ? statePseudoCountsOf(table.parameterPrior, v.states) : undefined;
  });
  return { kind: 'perTable', pseudoCounts };
}

/** Pseudo-counts, one per state, of one declared prior. */
export function statePseudoCountsOf(prior: A.Call | A.Experts, states: readonly string[]): number[] {
  const k = states.length;
  if (prior.kind === 'experts') {
    // Poole §10.2.1: each expert's "s of n" adds s to the first state and n − s to the second.
    twoStates(k, prior.range, 'experts');
    const { alpha, beta } = expertPseudoCounts(
      prior.entries.map((e) => ({ name: e.name.text, successes: e.successes.value, trials: e.trials.value })),
    );
    return [alpha, beta];
  }
  const args = prior.args.map((a) => a.value);
  switch (prior.callee.text) {
    case 'Beta':
      twoStates(k, prior.range, 'Beta(a, b)');
      return args.map((a) => number(a, 'Beta(a, b) takes two numbers'));
    case 'Dirichlet': {
      // Dirichlet(α): α for every state; Dirichlet(a1, …, ak) or Dirichlet([a1, …, ak]): one per state.
      const mismatch = dirichletMismatch(prior, states);
      if (mismatch) throw new CompileError(mismatch.message, mismatch.range);
      if (args.length === k && args.length > 1) {
        return args.map((a) => number(a, 'Dirichlet(a1, …, ak) takes numbers'));
      }
      return perState(args[0], k, 'Dirichlet(α) takes one number, or one per state');
    }
    case 'm_estimate': {
      const m = number(named(prior, 'm'), 'm_estimate needs m: a positive number');
      const p = named(prior, 'p');
      const mismatch = mEstimateMismatch(prior, states);
      if (mismatch) throw new CompileError(mismatch.message, mismatch.range);
      return mEstimatePseudoCounts(
        k,
        m,
        p === undefined ? undefined : perState(p, k, 'p: is one probability, or a list with one per state'),
      );
    }
    default:
      throw new CompileError(
        `'${prior.callee.text}' is not a parameter prior (Beta, Dirichlet, m_estimate or experts)`,
        prior.callee.range,
      );
  }
}

function named(call: A.Call, name: string): A.Expr | undefined {
  return call.args.find((a) => a.name?.text === name)?.value;
}

function number(e: A.Expr | undefined, message: string): number {
  if (e?.kind !== 'number') throw new CompileError(message, e?.range);
  return e.value;
}

/** One number for every state, or a list of exactly one per state. */
function perState(e: A.Expr | undefined, k: number, message: string): number[] {
  if (e?.kind === 'number') return new Array<number>(k).fill(e.value);
  if (e?.kind === 'list' && e.items.length === k) return e.items.map((item) => number(item, message));
  throw new CompileError(`${message} (${k} states)`, e?.range);
}

function twoStates(k: number, range: A.Call['range'], what: string): void {
  if (k !== 2)
    throw new CompileError(
      `${what} is a prior for a two-state variable; this one has ${k} states: use Dirichlet`,
      range,
    );
}
