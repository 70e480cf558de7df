/**
 * The UAI inference-competition format (BAYES networks) and its evidence files, in and out.
 *
 *   BAYES                      preamble: the network type (MARKOV networks are refused)
 *   3                          number of variables
 *   2 2 3                      their cardinalities
 *   3                          number of functions (one CPT per variable for BAYES)
 *   1 0                        each function's scope: its size, then variable indices,
 *   2 0 1                      the CPT's child LAST
 *   2 1 2
 *   2  0.4 0.6                 each table: its number of entries, then the entries with the
 *   4  0.1 0.9 0.8 0.2         scope's last variable (the child) fastest — the engine's layout
 *   …
 *
 * The format has no names: variables read as X0, X1, … and states as s0, s1, …; a network
 * written as UAI keeps its variables' order, so evidence files and converted networks line up.
 * An evidence file (`.evid`) is `n  v₁ s₁ … vₙ sₙ` (UAI 2010 and later) or, in the older
 * form, a number of samples each written that way; only single-sample evidence is used.
 * Every count is checked against the text before anything is allocated. Pure text in, text out.
 */
import type { BayesianNetwork } from '../engine/network.js';
import { DEFAULT_BUDGETS, type Budgets } from '../engine/budget.js';
import {
  assembleNetwork,
  formatNumber,
  NetworkSyntaxError,
  probability,
  readerWork,
  readWith,
  requireDeclarationsWithin,
  requireKnownTables,
  requireTotalWithin,
  tableSize,
  type DeclaredTable,
  type DeclaredVariable,
  type NetworkReadResult,
  type NetworkReadError,
} from './networkText.js';

interface Token {
  text: string;
  line: number;
}

/**
 * White-space separated tokens with their lines, in one pass: the line is counted over the space
 * between tokens only (searching for the next newline from each token read a 4 MB line once per
 * number on it).
 */
function tokens(text: string): Token[] {
  const out: Token[] = [];
  let line = 1;
  let at = 0;
  for (const m of text.matchAll(/\S+/g)) {
    for (let i = at; i < m.index; i++) if (text.charCodeAt(i) === 10) line++;
    readerWork.steps += m.index - at + 1;
    at = m.index + m[0].length;
    out.push({ text: m[0], line });
  }
  return out;
}

class Reader {
  private at = 0;
  constructor(private readonly toks: Token[]) {}

  get remaining(): number {
    return this.toks.length - this.at;
  }
  peekLine(): number {
    return (this.toks[this.at] ?? this.toks[this.toks.length - 1])?.line ?? 1;
  }
  next(what: string): Token {
    const t = this.toks[this.at++];
    if (!t) {
      throw new NetworkSyntaxError(
        `the file ends where ${what} was expected`,
        this.toks[this.toks.length - 1]?.line ?? 1,
      );
    }
    return t;
  }

  /** A count of items that follow, each at least one number: more than the file holds is refused. */
  count(what: string, items: string): number {
    const { value, line } = this.integer(what);
    if (value > this.remaining) {
      throw new NetworkSyntaxError(`the file declares ${value} ${items} but has too few numbers for them`, line);
    }
    return value;
  }

  /** A non-negative integer no larger than `max`. */
  integer(what: string, max = Number.MAX_SAFE_INTEGER, min = 0): { value: number; line: number } {
    const t = this.next(what);
    if (!/^[0-9]+$/.test(t.text)) {
      throw new NetworkSyntaxError(`expected ${what} (a whole number), found '${t.text}'`, t.line);
    }
    const value = Number(t.text);
    if (value < min) throw new NetworkSyntaxError(`${what} must be at least ${min}, found ${t.text}`, t.line);
    if (value > max) throw new NetworkSyntaxError(`${what} is ${t.text}, more than ${max}`, t.line);
    return { value, line: t.line };
  }
}

export function readUai(text: string, budgets: Budgets = DEFAULT_BUDGETS): NetworkReadResult {
  return readWith(() => parseUai(text, budgets));
}

function parseUai(text: string, budgets: Budgets): BayesianNetwork {
  const r = new Reader(tokens(text));
  const preamble = r.next("the network type ('BAYES')");
  const type = preamble.text.toUpperCase();
  if (type === 'MARKOV') {
    throw new NetworkSyntaxError(
      'this is a Markov network (MARKOV): only Bayesian networks (BAYES) are read',
      preamble.line,
    );
  }
  if (type !== 'BAYES') {
    throw new NetworkSyntaxError(`expected 'BAYES' (a UAI network file), found '${preamble.text}'`, preamble.line);
  }
  // each declared item needs at least one token: a count larger than what is left is refused before allocating
  const nLine = r.peekLine();
  const n = r.count('the number of variables', 'variables');
  requireDeclarationsWithin('the network', n, 'variables', nLine, budgets);
  const cards: { value: number; line: number }[] = [];
  for (let i = 0; i < n; i++) cards.push(r.integer(`the number of states of variable ${i}`, 2 ** 20, 1));
  // each variable's CPT lists at least its states: more states than the file has numbers is refused
  const total = cards.reduce((a, c) => a + c.value, 0);
  if (total > r.remaining) {
    throw new NetworkSyntaxError(
      `the variables have ${total} states in all, more than the file has entries for`,
      cards[0]?.line ?? 1,
    );
  }
  const variables: DeclaredVariable[] = cards.map((card, i) => ({
    name: `X${i}`,
    states: Array.from({ length: card.value }, (_, s) => `s${s}`),
    line: card.line,
  }));
  const f = { line: r.peekLine(), value: r.count('the number of functions', 'functions') };
  if (f.value !== n) {
    throw new NetworkSyntaxError(
      `a BAYES network has one function (CPT) per variable: ${n} variables but ${f.value} functions`,
      f.line,
    );
  }
  const scopes: { vars: number[]; line: number }[] = [];
  for (let i = 0; i < f.value; i++) {
    const size = r.integer(`the scope size of function ${i}`, n, 1);
    const vars: number[] = [];
    for (let j = 0; j < size.value; j++) vars.push(r.integer(`a variable of function ${i}`, n - 1).value);
    scopes.push({ vars, line: size.line });
  }
  // every table is sized from its scope, and the sizes checked, before any is read
  const sizes = scopes.map((scope, i) => {
    return tableSize(
      scope.vars.map((v) => variables[v]!.states.length),
      `function ${i}`,
      scope.line,
      budgets,
    );
  });
  requireTotalWithin(
    sizes.reduce((a, b) => a + b, 0),
    scopes[0]?.line ?? 1,
    budgets,
  );
  const tables: DeclaredTable[] = scopes.map((scope, i) => {
    const expected = sizes[i]!;
    const count = r.integer(`the number of entries of function ${i}`);
    if (count.value !== expected) {
      throw new NetworkSyntaxError(
        `function ${i} declares ${count.value} entries, but its scope needs ${expected}`,
        count.line,
      );
    }
    if (count.value > r.remaining) {
      throw new NetworkSyntaxError(`function ${i} declares ${count.value} entries but the file ends first`, count.line);
    }
    const values = new Float64Array(expected);
    for (let j = 0; j < expected; j++) {
      const t = r.next(`an entry of function ${i}`);
      values[j] = probability(t.text, t.line);
    }
    const child = scope.vars[scope.vars.length - 1]!;
    const parents = scope.vars.slice(0, -1).map((v) => `X${v}`);
    return { child: `X${child}`, parents, line: scope.line, values: () => values };
  });
  if (r.remaining > 0) {
    const line = r.peekLine();
    throw new NetworkSyntaxError(`unexpected '${r.next('').text}' after the last table`, line);
  }
  return assembleNetwork('unknown', variables, tables, budgets);
}

/** Writes a network as a UAI BAYES file: one function per variable, in variable order. */
export function writeUai(net: BayesianNetwork): string {
  requireKnownTables(net, 'UAI');
  const cards = net.variables.map((v) => v.states.length).join(' ');
  const out = ['BAYES', String(net.variables.length), cards, String(net.cpts.length)];
  for (const cpt of net.cpts) out.push([cpt.parents.length + 1, ...cpt.parents, cpt.child].join(' '));
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    out.push('', String(cpt.table.length));
    for (let o = 0; o < cpt.table.length; o += k) {
      out.push(' ' + Array.from(cpt.table.subarray(o, o + k), formatNumber).join(' '));
    }
  }
  return out.join('\n') + '\n';
}

/** Observations by variable and state index. */
export type UaiEvidence = { variable: number; state: number }[];

export type UaiEvidenceResult = { evidence: UaiEvidence } | { error: NetworkReadError };

/**
 * Reads an evidence file for `net` (variables and states by index, in the network's order).
 * Accepts the single-sample form `n v s …` and the older `samples  n v s …` form with one sample.
 */
export function readUaiEvidence(text: string, net: BayesianNetwork): UaiEvidenceResult {
  const toks = tokens(text);
  try {
    const ints = toks.map((t) => {
      if (!/^[0-9]+$/.test(t.text)) throw new NetworkSyntaxError(`expected a whole number, found '${t.text}'`, t.line);
      return Number(t.text);
    });
    let start: number;
    if (ints.length === 0) return { evidence: [] };
    if (ints.length === 1 + 2 * ints[0]!) start = 1;
    else if (ints.length === 2 + 2 * (ints[1] ?? -1)) {
      if (ints[0] !== 1) {
        throw new NetworkSyntaxError(`the file holds ${ints[0]} evidence samples; only one is read`, toks[0]!.line);
      }
      start = 2;
    } else if (ints[0]! > 1 && ints.length > 1) {
      throw new NetworkSyntaxError(`the file holds ${ints[0]} evidence samples; only one is read`, toks[0]!.line);
    } else {
      throw new NetworkSyntaxError(
        `expected the number of observed variables, then that many 'variable state' pairs`,
        toks[0]!.line,
      );
    }
    const evidence: UaiEvidence = [];
    const seen = new Set<number>();
    for (let i = start; i < ints.length; i += 2) {
      const v = ints[i]!;
      const s = ints[i + 1]!;
      const line = toks[i]!.line;
      if (v >= net.variables.length) {
        throw new NetworkSyntaxError(`variable ${v} does not exist: the network has ${net.variables.length}`, line);
      }
      const k = net.variables[v]!.states.length;
      if (s >= k) {
        throw new NetworkSyntaxError(
          `variable ${v} (${net.variables[v]!.name}) has ${k} states: state ${s} does not exist`,
          toks[i + 1]!.line,
        );
      }
      if (seen.has(v)) throw new NetworkSyntaxError(`variable ${v} is observed twice`, line);
      seen.add(v);
      evidence.push({ variable: v, state: s });
    }
    return { evidence };
  } catch (e) {
    if (e instanceof NetworkSyntaxError) return { error: { message: e.message, line: e.line } };
    throw e;
  }
}

/** Writes evidence in the single-sample form: `n v₁ s₁ … vₙ sₙ`. */
export function writeUaiEvidence(evidence: UaiEvidence): string {
  return [evidence.length, ...evidence.flatMap((e) => [e.variable, e.state])].join(' ') + '\n';
}
