/**
 * The `.bayes` grammar as a Chevrotain embedded-actions parser that builds the AST directly
 * (no CST: fewer allocations). `parse.ts` feeds it one statement's tokens at a time, which is
 * how error recovery stays local; `file` and `networkDecl` describe the whole language for the
 * generated grammar docs. Semantic actions run only outside Chevrotain's recording phase (when it
 * walks the rules once to learn the grammar): `if (this.RECORDING_PHASE) return RECORDED` rather
 * than `this.ACTION(() => …)`, which costs a closure and a call per AST node (a tenth of the
 * parse, and more in a fresh process where nothing is optimised yet).
 */
import { EmbeddedActionsParser, tokenMatcher, type ILookaheadStrategy, type IToken } from 'chevrotain';
import type * as A from './ast.js';
import type { Position, Range } from './diagnostics.js';
import * as T from './tokens.js';
import { errorMessages } from './parseErrors.js';
import { TableLookahead } from './lookahead.js';

const { Kw } = T;

/** LSP range from the first token's start to the last token's end (tokens are single-line). */
export function tokenRange(first: IToken, last: IToken = first): Range {
  return { start: { line: first.startLine! - 1, character: first.startColumn! - 1 }, end: endOf(last) };
}

/**
 * The position just past `token`, one object for the nodes that end there. A node is built
 * right after the last child it ends with (a row after its last entry, a statement after its
 * query), so keeping the last position made shares most of them: ranges and positions were half
 * of the tree a parse keeps, and the collector copies all of it. Shared positions stay inside
 * one statement (its tokens are its own, lexed afresh at every parse), which is what the
 * incremental re-parse's in-place moves allow (`moveDown` in incremental.ts); nothing else
 * writes to a position.
 */
let endToken: IToken | undefined;
let endPosition: Position = { line: 0, character: 0 };
function endOf(token: IToken): Position {
  if (token !== endToken) {
    endToken = token;
    endPosition = { line: token.startLine! - 1, character: token.startColumn! - 1 + token.image.length };
  }
  return endPosition;
}

/** Offset just past a token. */
export function tokenEnd(token: IToken): number {
  return token.startOffset + token.image.length;
}

/** Tokens of lookahead the grammar may need to choose between alternatives. */
export const MAX_LOOKAHEAD = 4;

/** What a rule returns while Chevrotain records the grammar: nothing (no AST is built then). */
const RECORDED = undefined as never;

function join(a: Range, b: Range): Range {
  return { start: a.start, end: b.end };
}

/**
 * The list as the AST keeps it. An array filled by `push` has room for 17 items (152 bytes) and a
 * model holds tens of thousands of short lists: an exact copy shrinks the tree a parse keeps by a
 * sixth, and with it the collector's copying, which is most of a large parse's cost.
 */
function fit<T>(list: T[]): T[] {
  return list.length < 64 ? list.slice() : list;
}

function unquote(image: string): string {
  return image.slice(1, -1).replace(/\\(.)/g, '$1');
}

/** The token type the `stateName` rule would consume for `token`, if it takes it. */
function stateNameType(token: IToken): typeof T.Identifier | undefined {
  if (token.tokenType === T.StringLit || token.tokenType === T.NumberLit) return token.tokenType;
  return tokenMatcher(token, T.Identifier) ? T.Identifier : undefined;
}

export class BayesParser extends EmbeddedActionsParser {
  /** The document text, so literals keep their exact source spelling. */
  text = '';
  /** Whether the shortcuts past rule invocations are taken (see `nameAt`); a test compares both ways. */
  shortcuts = true;

  /**
   * `validate`: check the grammar for ambiguities and other definition errors as it is built. A
   * test does (test/unit/language/parser.test.ts); the shipped parser skips it, a third of the
   * start-up cost of a fresh `bayes check`. `lookahead`: where the LL(k) lookahead comes from (see
   * `lookahead.ts`; the lookahead table's generator passes one that records what Chevrotain computes).
   */
  constructor(validate = false, lookahead: ILookaheadStrategy = new TableLookahead({ maxLookahead: MAX_LOOKAHEAD })) {
    super(T.allTokens, {
      maxLookahead: MAX_LOOKAHEAD,
      lookaheadStrategy: lookahead,
      recoveryEnabled: false,
      errorMessageProvider: errorMessages,
      skipValidations: !validate,
    });
    this.performSelfAnalysis();
  }

  private from(first: IToken): Range {
    return tokenRange(first, this.LA(0));
  }

  private nameOf(token: IToken): A.Name {
    // Two literals rather than a spread of `{ quoted }` or `{}`: names are a tenth of the nodes.
    if (token.tokenType === T.StringLit)
      return { kind: 'name', text: unquote(token.image), range: tokenRange(token), quoted: true };
    return { kind: 'name', text: token.image, range: tokenRange(token) };
  }

  // Parts that use nothing but the parser, built once: written inline, every call of a rule
  // would build its alternatives' array, objects and closures again (garbage per token).
  private readonly comma = () => this.CONSUME(T.Comma);
  private readonly minus = () => this.CONSUME(T.Minus);
  private readonly fraction = () => {
    this.CONSUME(T.Slash);
    return this.CONSUME2(T.NumberLit);
  };
  private readonly percent = () => this.CONSUME(T.Percent);
  private readonly stateNames = [
    { ALT: () => this.CONSUME(T.Identifier) },
    { ALT: () => this.CONSUME(T.StringLit) },
    { ALT: () => this.CONSUME(T.NumberLit) },
  ];
  private readonly expressions = [
    { ALT: () => this.numberAt(0) },
    { ALT: () => this.SUBRULE(this.string) },
    { ALT: () => this.SUBRULE(this.list) },
    { ALT: () => this.SUBRULE(this.refOrCall) },
  ];
  private readonly assignmentForms = [
    { GATE: () => this.LA(2).tokenType === T.LParen, ALT: () => this.SUBRULE(this.intervention) },
    { ALT: () => this.SUBRULE(this.plainAssignment) },
  ];

  private readonly statementForms = [
    { ALT: () => this.SUBRULE(this.variableDecl) },
    { ALT: () => this.SUBRULE(this.hypothesesDecl) },
    { ALT: () => this.SUBRULE(this.tableDecl) },
    { ALT: () => this.SUBRULE(this.networkDecl) },
    { ALT: () => this.SUBRULE(this.importDecl) },
    { ALT: () => this.SUBRULE(this.dataDecl) },
    { ALT: () => this.SUBRULE(this.corpusDecl) },
    { ALT: () => this.SUBRULE(this.observeStmt) },
    { ALT: () => this.SUBRULE(this.learnStmt) },
    { ALT: () => this.SUBRULE(this.classifierDecl) },
    { ALT: () => this.SUBRULE(this.mixtureDecl) },
    { ALT: () => this.SUBRULE(this.queryStmt) },
    { ALT: () => this.SUBRULE(this.expectStmt) },
    { ALT: () => this.SUBRULE(this.decisionDecl) },
    { ALT: () => this.SUBRULE(this.utilityDecl) },
  ];
  private readonly queryForms = [
    { ALT: () => this.SUBRULE(this.hypothesisQuery) },
    { ALT: () => this.SUBRULE(this.optimalQuery) },
    { ALT: () => this.SUBRULE(this.probabilityQuery) },
    { ALT: () => this.SUBRULE(this.mpeQuery) },
    { ALT: () => this.SUBRULE(this.sensitivityQuery) },
    { ALT: () => this.SUBRULE(this.independenceQuery) },
    { ALT: () => this.SUBRULE(this.classifyQuery) },
    { ALT: () => this.SUBRULE(this.evaluateQuery) },
    { ALT: () => this.SUBRULE(this.predictQuery) },
    { ALT: () => this.SUBRULE(this.validateQuery) },
    { GATE: () => this.isContinuousMoment(), ALT: () => this.SUBRULE(this.continuousMomentQuery) },
    { ALT: () => this.SUBRULE(this.momentQuery) },
    { ALT: () => this.SUBRULE(this.scoreQuery) },
    { ALT: () => this.SUBRULE(this.learningCurveQuery) },
    { ALT: () => this.SUBRULE(this.accuracyQuery) },
    { ALT: () => this.SUBRULE(this.estimateQuery) },
    { ALT: () => this.SUBRULE(this.policyQuery) },
    { ALT: () => this.SUBRULE(this.euQuery) },
    { ALT: () => this.SUBRULE(this.voiQuery) },
    { ALT: () => this.SUBRULE(this.effectQuery) },
    { ALT: () => this.SUBRULE(this.strengthQuery) },
  ];

  // ── shortcuts past the most frequent rule invocations ─────────────────────────────────────
  // A name, a state or a plain number is a third of the tokens. Invoking its rule costs more than
  // reading the token (Chevrotain's rule wrapper, its stacks, a try/finally), so when the next
  // token is one the rule takes whole, these read it here and build the same node; an assignment
  // goes straight to the alternative its rule would choose. In the grammar (recorded by
  // Chevrotain, drawn in the docs) and on any other token they invoke the rule itself, so the
  // grammar, its lookahead and every syntax error stay the rule's.

  private inline(): boolean {
    return this.shortcuts && !this.RECORDING_PHASE;
  }

  /** `SUBRULE<idx>(this.name)`. */
  private nameAt(idx: number): A.Name {
    if (this.inline() && tokenMatcher(this.LA(1), T.Identifier)) return this.nameOf(this.CONSUME(T.Identifier));
    return this.subrule(idx, this.name);
  }

  /**
   * `SUBRULE<idx>(this.assignment)`: a name that no `(` follows (`X`, `X = v`, `X ~ …`) starts the
   * alternative `plainAssignment`, which the rule's lookahead would choose (only `do(` is the other),
   * so that rule is invoked directly.
   */
  private assignmentAt(idx: number): A.Assignment {
    if (this.inline() && this.LA(2).tokenType !== T.LParen && tokenMatcher(this.LA(1), T.Identifier))
      return this.subrule(0, this.plainAssignment);
    return this.subrule(idx, this.assignment);
  }

  /** `SUBRULE<idx>(this.stateName)`. */
  private stateNameAt(idx: number): A.Name {
    if (this.inline()) {
      const type = stateNameType(this.LA(1));
      if (type) return this.nameOf(this.CONSUME(type));
    }
    return this.subrule(idx, this.stateName);
  }

  /** `SUBRULE<idx>(this.number)`: inline for a number that no `/` or `%` follows (no `-` before it either). */
  private numberAt(idx: number): A.NumberLit {
    if (this.inline() && this.LA(1).tokenType === T.NumberLit) {
      const next = this.LA(2).tokenType;
      if (next !== T.Slash && next !== T.Percent) {
        const n = this.CONSUME(T.NumberLit);
        return { kind: 'number', value: Number(n.image), text: n.image, range: tokenRange(n) };
      }
    }
    return this.subrule(idx, this.number);
  }

  // ── lexical pieces ────────────────────────────────────────────────────────────────────────

  name = this.RULE('name', (): A.Name => {
    const t = this.CONSUME(T.Identifier);
    return this.RECORDING_PHASE ? RECORDED : this.nameOf(t);
  });

  /** A state or key: `pos`, `"0-3_days"`, `1`. */
  stateName = this.RULE('stateName', (): A.Name => {
    const t = this.OR(this.stateNames);
    return this.RECORDING_PHASE ? RECORDED : this.nameOf(t);
  });

  /** `0.008`, `.008`, `8e-3`, `9/14`, `98%`, `-2.5`. */
  number = this.RULE('number', (): A.NumberLit => {
    const first = this.LA(1);
    const minus = this.OPTION(this.minus);
    const n = this.CONSUME(T.NumberLit);
    const d = this.OPTION2(this.fraction);
    const pct = this.OPTION3(this.percent);
    if (this.RECORDING_PHASE) return RECORDED;
    let value = Number(n.image);
    if (d) value /= Number(d.image);
    if (pct) value /= 100;
    if (minus) value = -value;
    const range = this.from(first);
    return { kind: 'number', value, text: this.text.slice(first.startOffset, tokenEnd(this.LA(0))), range };
  });

  string = this.RULE('string', (): A.StringLit => {
    const t = this.CONSUME(T.StringLit);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'string', value: unquote(t.image), range: tokenRange(t) };
  });

  // ── expressions ───────────────────────────────────────────────────────────────────────────

  expr = this.RULE('expr', (): A.Expr => this.OR(this.expressions));

  list = this.RULE('list', (): A.ListExpr => {
    const first = this.CONSUME(T.LBracket);
    const items: A.Expr[] = [];
    this.MANY_SEP({ SEP: T.Comma, DEF: () => items.push(this.SUBRULE(this.listItem)) });
    this.CONSUME(T.RBracket);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'list', items: fit(items), range: this.from(first) };
  });

  /** A list item: an expression, or an arc `A -> B` (background knowledge of structure learning). */
  listItem = this.RULE('listItem', (): A.Expr => {
    return this.OR([
      {
        GATE: () => this.LA(2).tokenType === T.Arrow,
        ALT: () => {
          const from = this.nameAt(0);
          this.CONSUME(T.Arrow);
          const to = this.nameAt(2);
          return this.RECORDING_PHASE
            ? RECORDED
            : { kind: 'arc' as const, from, to, range: join(from.range, to.range) };
        },
      },
      { ALT: () => this.SUBRULE(this.expr) },
    ]);
  });

  /** `pos`, `Points.x`, `Faithful[eruptions, waiting]` or a call `naive_bayes(…)`. */
  refOrCall = this.RULE('refOrCall', (): A.Ref | A.Call => {
    const name = this.nameAt(0);
    let member: A.Name | undefined;
    let columns: A.Name[] | undefined;
    let args: A.Arg[] | undefined;
    this.OPTION(() =>
      this.OR([
        {
          ALT: () => {
            args = this.SUBRULE(this.callArgs);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.Dot);
            member = this.nameAt(2);
          },
        },
        {
          ALT: () => {
            this.CONSUME(T.LBracket);
            columns = [];
            this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => columns!.push(this.nameAt(3)) });
            this.CONSUME(T.RBracket);
          },
        },
      ]),
    );
    if (this.RECORDING_PHASE) return RECORDED;
    // A plain reference (a state, a data set) ends with its name: it shares the name's range.
    const range = args || member || columns ? { start: name.range.start, end: endOf(this.LA(0)) } : name.range;
    if (args) return { kind: 'call', callee: name, args, range };
    return { kind: 'ref', name, ...(member ? { member } : {}), ...(columns ? { columns } : {}), range };
  });

  callArgs = this.RULE('callArgs', (): A.Arg[] => {
    const args: A.Arg[] = [];
    this.CONSUME(T.LParen);
    this.MANY_SEP({ SEP: T.Comma, DEF: () => args.push(this.SUBRULE(this.arg)) });
    this.CONSUME(T.RParen);
    return this.RECORDING_PHASE ? RECORDED : fit(args);
  });

  call = this.RULE('call', (): A.Call => {
    const callee = this.nameAt(0);
    const args = this.SUBRULE(this.callArgs);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'call', callee, args, range: { start: callee.range.start, end: endOf(this.LA(0)) } };
  });

  /** `value` or `name: value`; a value may be a formula `d ~ x1 + x2`. */
  arg = this.RULE('arg', (): A.Arg => {
    const first = this.LA(1);
    let time: A.TimeIndex | undefined;
    const name = this.OPTION({
      GATE: () => this.LA(2).tokenType === T.Colon,
      DEF: () => {
        const n = this.nameAt(0);
        this.CONSUME(T.Colon);
        return n;
      },
    });
    // `Position[t-1]: 1`: a linear Gaussian coefficient keyed by a parent in a network over time.
    // (After `name:` the gate is false: a value `D[a, b]` is not followed by a colon.)
    const timed = this.OPTION2({
      GATE: () => this.timedArgName(),
      DEF: () => {
        const n = this.nameAt(1);
        time = this.SUBRULE(this.timeIndex);
        this.CONSUME2(T.Colon);
        return n;
      },
    });
    const value = this.SUBRULE(this.argValue);
    if (this.RECORDING_PHASE) return RECORDED;
    const key = name ?? timed;
    return {
      kind: 'arg',
      ...(key ? { name: key } : {}),
      ...(time ? { time } : {}),
      value,
      range: this.from(first),
    };
  });

  /** `Name [ t-1 ] :` ahead (at most `[t-1]`'s five tokens): an argument named with a slice. */
  private timedArgName(): boolean {
    if (this.LA(2).tokenType !== T.LBracket) return false;
    for (let k = 3; k <= 7; k++) {
      const type = this.LA(k).tokenType;
      if (type === T.RBracket) return this.LA(k + 1).tokenType === T.Colon;
      if (type === T.Colon || type === T.LBracket) return false;
    }
    return false;
  }

  argValue = this.RULE('argValue', (): A.Expr => {
    const response = this.SUBRULE(this.expr);
    const terms: A.Expr[] = [];
    const formula = this.OPTION(() => {
      this.CONSUME(T.Tilde);
      this.AT_LEAST_ONE_SEP({ SEP: T.Plus, DEF: () => terms.push(this.SUBRULE2(this.expr)) });
      return true;
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : formula
        ? { kind: 'formula', response, terms, range: join(response.range, terms[terms.length - 1].range) }
        : response;
  });

  /** `{ key: value, … }`, commas or line breaks between entries. */
  options = this.RULE('options', (): A.Options => {
    const first = this.CONSUME(T.LCurly);
    const entries: A.Arg[] = [];
    this.MANY(() => {
      const name = this.nameAt(0);
      this.CONSUME(T.Colon);
      const value = this.SUBRULE(this.argValue);
      this.OPTION(this.comma);
      if (!this.RECORDING_PHASE) entries.push({ kind: 'arg', name, value, range: join(name.range, value.range) });
    });
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'options', entries: fit(entries), range: this.from(first) };
  });

  /** `X`, `X = v`, `X = [v, v]`. */
  assignment = this.RULE('assignment', (): A.Assignment => {
    return this.OR(this.assignmentForms);
  });

  /** `do(X = x)`: Pearl's intervention, X set from outside (its incoming arcs cut). */
  intervention = this.RULE('intervention', (): A.Assignment => {
    const first = this.CONSUME(Kw.do);
    this.CONSUME(T.LParen);
    const inner = this.SUBRULE(this.plainAssignment);
    this.CONSUME(T.RParen);
    return this.RECORDING_PHASE ? RECORDED : { ...inner, intervention: true, range: this.from(first) };
  });

  plainAssignment = this.RULE('plainAssignment', (): A.Assignment => {
    const variable = this.nameAt(0);
    const time = this.OPTION2(() => this.SUBRULE(this.timeIndex));
    const assigned = this.OPTION(this.assignedValue);
    if (this.RECORDING_PHASE) return RECORDED;
    // A bare name (most conditions and targets of P(…)) shares its name's range.
    const last = assigned ?? time;
    const range = last ? join(variable.range, last.range) : variable.range;
    // Keys in one order (AST digests are recorded): the time index, when written, after the name.
    if (time) {
      if (!assigned) return { kind: 'assignment', variable, time, range };
      if (assigned.kind === 'finding') return { kind: 'assignment', variable, time, finding: assigned, range };
      return { kind: 'assignment', variable, time, value: assigned, range };
    }
    if (!assigned) return { kind: 'assignment', variable, range };
    if (assigned.kind === 'finding') return { kind: 'assignment', variable, finding: assigned, range };
    return { kind: 'assignment', variable, value: assigned, range };
  });

  /** `[t]`, `[t-1]`, `[0]`: a variable's slice in a network over time. */
  timeIndex = this.RULE('timeIndex', (): A.TimeIndex => {
    const first = this.CONSUME(T.LBracket);
    const index = this.OR([
      {
        ALT: () => {
          const step = this.nameAt(1);
          const offset =
            this.OPTION(() => {
              const sign = this.OR2([{ ALT: () => this.CONSUME(T.Minus) }, { ALT: () => this.CONSUME(T.Plus) }]);
              const k = this.CONSUME(T.NumberLit);
              return this.RECORDING_PHASE ? 0 : (sign.tokenType === T.Minus ? -1 : 1) * Number(k.image);
            }) ?? 0;
          return { step, offset };
        },
      },
      { ALT: () => ({ step: undefined, offset: Number(this.CONSUME2(T.NumberLit).image) }) },
    ]);
    this.CONSUME(T.RBracket);
    if (this.RECORDING_PHASE) return RECORDED;
    const range = this.from(first);
    return index.step
      ? { kind: 'time', step: index.step, offset: index.offset, range }
      : { kind: 'time', offset: index.offset, range };
  });

  /** `= value` or a finding `~ { … }`, built once (assignments are in every query and table head). */
  private readonly assignedValueForms = [
    {
      ALT: (): A.Expr | A.Finding => {
        this.CONSUME(T.Equals);
        return this.SUBRULE(this.expr);
      },
    },
    { ALT: (): A.Expr | A.Finding => this.SUBRULE(this.finding) },
  ];
  private readonly assignedValue = () => this.OR(this.assignedValueForms);

  /** `~ { a: 0.7, b: 0.3 }` (soft evidence) or `~ likelihood { a: 0.8, b: 0.2 }` (virtual evidence). */
  finding = this.RULE('finding', (): A.Finding => {
    const first = this.CONSUME(T.Tilde);
    const likelihood = this.OPTION(() => this.CONSUME(Kw.likelihood)) !== undefined;
    this.CONSUME(T.LCurly);
    const entries: A.RowEntry[] = [];
    this.MANY(() => {
      const state = this.stateNameAt(0);
      this.CONSUME(T.Colon);
      const value = this.numberAt(0);
      this.OPTION2(this.comma);
      if (!this.RECORDING_PHASE)
        entries.push({ kind: 'rowEntry', state, value, range: join(state.range, value.range) });
    });
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'finding', likelihood, entries: fit(entries), range: this.from(first) };
  });

  assignments = this.RULE('assignments', (): A.Assignment[] => {
    const items: A.Assignment[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => items.push(this.assignmentAt(0)) });
    return this.RECORDING_PHASE ? RECORDED : fit(items);
  });

  /** `P(targets | conditions)`. */
  probExpr = this.RULE('probExpr', (): A.ProbExpr => {
    const first = this.CONSUME(Kw.P);
    this.CONSUME(T.LParen);
    const targets = this.SUBRULE(this.assignments);
    const conditions =
      this.OPTION(() => {
        this.CONSUME(T.Pipe);
        return this.SUBRULE2(this.assignments);
      }) ?? [];
    this.CONSUME(T.RParen);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'prob', targets, conditions, range: this.from(first) };
  });

  // ── declarations ──────────────────────────────────────────────────────────────────────────

  variableDecl = this.RULE('variableDecl', (): A.VariableDecl => {
    const first = this.CONSUME(Kw.variable);
    const names: A.Name[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => names.push(this.nameAt(0)) });
    const domain = this.SUBRULE(this.domain);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'variable', names: fit(names), domain, range: this.from(first) };
  });

  domain = this.RULE('domain', (): A.Domain => {
    const first = this.LA(1);
    const states: A.Name[] = [];
    const type = this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LCurly);
          this.AT_LEAST_ONE(() => {
            states.push(this.stateNameAt(0));
            this.OPTION(this.comma);
          });
          this.CONSUME(T.RCurly);
          return 'states' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Colon);
          return this.OR2([
            {
              ALT: () => {
                this.CONSUME(Kw.bool);
                return 'bool' as const;
              },
            },
            {
              ALT: () => {
                this.CONSUME(Kw.real);
                return 'real' as const;
              },
            },
          ]);
        },
      },
    ]);
    if (this.RECORDING_PHASE) return RECORDED;
    const range = this.from(first);
    if (type === 'bool') {
      // `bool` is shorthand for the states true, false: give them the keyword's range.
      const at = tokenRange(this.LA(0));
      states.push({ kind: 'name', text: 'true', range: at }, { kind: 'name', text: 'false', range: at });
    }
    return { kind: 'domain', type, states: fit(states), range };
  });

  hypothesesDecl = this.RULE('hypothesesDecl', (): A.HypothesesDecl => {
    const first = this.CONSUME(Kw.hypotheses);
    const name = this.nameAt(0);
    const entries: A.HypothesisEntry[] = [];
    let generator: A.Generator | undefined;
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LCurly);
          this.MANY(() => {
            entries.push(this.SUBRULE(this.hypothesisEntry));
            this.OPTION(this.comma);
          });
          this.CONSUME(T.RCurly);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          generator = this.SUBRULE(this.generator);
        },
      },
    ]);
    const prior = this.OPTION2(() => {
      this.CONSUME(Kw.prior);
      return this.nameAt(2);
    });
    const noise = this.OPTION3(() => {
      this.CONSUME(Kw.noise);
      return this.OR2([{ ALT: () => this.numberAt(0) }, { ALT: () => this.nameAt(3) }]);
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'hypotheses',
          name,
          entries: fit(entries),
          ...(generator ? { generator } : {}),
          ...(prior ? { prior } : {}),
          ...(noise ? { noise } : {}),
          range: this.from(first),
        };
  });

  /** `cancer: 0.008`, `fair`, `d1a: tree { … }`, `h1: 0.4 bits 3`, `h2: bits 5`. */
  hypothesisEntry = this.RULE('hypothesisEntry', (): A.HypothesisEntry => {
    const name = this.nameAt(0);
    let prior: A.NumberLit | undefined;
    let tree: A.Tree | undefined;
    let bits: A.NumberLit | undefined;
    this.OPTION(() => {
      this.CONSUME(T.Colon);
      this.OR([
        {
          ALT: () => {
            tree = this.SUBRULE(this.tree);
          },
        },
        {
          ALT: () => {
            prior = this.numberAt(0);
          },
        },
        {
          ALT: () => {
            bits = this.SUBRULE(this.bitsClause);
          },
        },
      ]);
    });
    this.OPTION2(() => {
      bits = this.SUBRULE2(this.bitsClause);
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'hypothesis',
          name,
          ...(prior ? { prior } : {}),
          ...(bits ? { bits } : {}),
          ...(tree ? { tree } : {}),
          range: { start: name.range.start, end: endOf(this.LA(0)) },
        };
  });

  /** `bits 3`: the code length L(h) of a hypothesis, for MDL. */
  bitsClause = this.RULE('bitsClause', (): A.NumberLit => {
    this.CONSUME(Kw.bits);
    return this.numberAt(0);
  });

  generator = this.RULE('generator', (): A.Generator => {
    const call = this.SUBRULE(this.call);
    const target = this.OPTION(() => {
      this.CONSUME(T.Arrow);
      return this.assignmentAt(0);
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'generator',
          call,
          ...(target ? { target } : {}),
          range: join(call.range, (target ?? call).range),
        };
  });

  tree = this.RULE('tree', (): A.Tree => {
    const first = this.CONSUME(Kw.tree);
    const body = this.SUBRULE(this.treeBody);
    return this.RECORDING_PHASE ? RECORDED : { ...body, range: join(tokenRange(first), body.range) };
  });

  treeBody = this.RULE('treeBody', (): A.Tree => {
    const first = this.CONSUME(T.LCurly);
    const items: A.TreeItem[] = [];
    this.MANY(() =>
      items.push(this.OR([{ ALT: () => this.SUBRULE(this.treeLeaf) }, { ALT: () => this.SUBRULE(this.treeSplit) }])),
    );
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'tree', items: fit(items), range: this.from(first) };
  });

  treeLeaf = this.RULE('treeLeaf', (): A.TreeLeaf => {
    const prob = this.SUBRULE(this.probExpr);
    this.CONSUME(T.Equals);
    const value = this.numberAt(0);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'treeLeaf', prob, value, range: join(prob.range, value.range) };
  });

  treeSplit = this.RULE('treeSplit', (): A.TreeSplit => {
    const first = this.CONSUME(Kw.if);
    const test = this.assignmentAt(0);
    const then = this.SUBRULE(this.treeBody);
    const otherwise = this.OPTION(() => {
      this.CONSUME(Kw.else);
      return this.OR([
        { ALT: () => this.SUBRULE2(this.treeBody) },
        {
          ALT: () => {
            const nested = this.SUBRULE(this.treeSplit);
            return this.RECORDING_PHASE ? RECORDED : { kind: 'tree' as const, items: [nested], range: nested.range };
          },
        },
      ]);
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'treeSplit',
          test,
          then,
          ...(otherwise ? { else: otherwise } : {}),
          range: this.from(first),
        };
  });

  /** `P(X | Y) { rows }`, `P(Storm) = 0.3`, `P(X | Y) ~ Dirichlet(1)`. */
  tableDecl = this.RULE('tableDecl', (): A.TableDecl => {
    const head = this.SUBRULE(this.probExpr);
    const rows: A.Row[] = [];
    let value: A.NumberLit | undefined;
    let parameterPrior: A.Call | A.Experts | undefined;
    let canonical: A.CanonicalModel | undefined;
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          this.OR3([
            {
              ALT: () => {
                value = this.numberAt(0);
              },
            },
            {
              ALT: () => {
                canonical = this.SUBRULE(this.canonicalModel);
              },
            },
          ]);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LCurly);
          this.MANY(() => {
            rows.push(this.SUBRULE(this.row));
            this.OPTION(this.comma);
          });
          this.CONSUME(T.RCurly);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Tilde);
          parameterPrior = this.OR2([
            { ALT: () => this.SUBRULE(this.experts) },
            { ALT: () => this.SUBRULE(this.call) },
          ]);
        },
      },
    ]);
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'table',
          head,
          rows: fit(rows),
          ...(value ? { value } : {}),
          ...(parameterPrior ? { parameterPrior } : {}),
          ...(canonical ? { canonical } : {}),
          range: { start: head.range.start, end: endOf(this.LA(0)) },
        };
  });

  /** `noisy_or { Cold: 0.4, leak: 0.01 }`, `noisy_max { Cause: { mild: [0.7, 0.2, 0.1] }, leak: [0, 0.1, 0.9] }`. */
  canonicalModel = this.RULE('canonicalModel', (): A.CanonicalModel => {
    const first = this.LA(1);
    const model = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.noisy_or);
          return 'noisy_or' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.noisy_max);
          return 'noisy_max' as const;
        },
      },
    ]);
    this.CONSUME(T.LCurly);
    const entries: A.CanonicalEntry[] = [];
    this.MANY(() => {
      entries.push(this.SUBRULE(this.canonicalEntry));
      this.OPTION(this.comma);
    });
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'canonical', model, entries: fit(entries), range: this.from(first) };
  });

  canonicalEntry = this.RULE('canonicalEntry', (): A.CanonicalEntry => {
    const cause = this.nameAt(0);
    this.CONSUME(T.Colon);
    const rows: A.Row[] = [];
    let value: A.NumberLit | undefined;
    let list: A.NumberLit[] | undefined;
    this.OR([
      {
        ALT: () => {
          value = this.numberAt(0);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LBracket);
          list = [];
          this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => list!.push(this.numberAt(2)) });
          this.CONSUME(T.RBracket);
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.LCurly);
          this.MANY(() => {
            rows.push(this.SUBRULE(this.row));
            this.OPTION(this.comma);
          });
          this.CONSUME(T.RCurly);
        },
      },
    ]);
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'canonicalEntry',
          cause,
          ...(value ? { value } : {}),
          ...(list ? { list: fit(list) } : {}),
          rows: fit(rows),
          range: { start: cause.range.start, end: endOf(this.LA(0)) },
        };
  });

  /** `decision Drill { yes, no } given Test, Seismic`. */
  decisionDecl = this.RULE('decisionDecl', (): A.DecisionDecl => {
    const first = this.CONSUME(Kw.decision);
    const name = this.nameAt(0);
    const domain = this.SUBRULE(this.domain);
    const information: A.Name[] = [];
    this.OPTION(() => {
      this.CONSUME(Kw.given);
      this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => information.push(this.nameAt(2)) });
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'decision', name, domain, information: fit(information), range: this.from(first) };
  });

  /** `utility Payoff(Drill, Oil) { yes, dry: -70, … }`. */
  utilityDecl = this.RULE('utilityDecl', (): A.UtilityDecl => {
    const first = this.CONSUME(Kw.utility);
    const name = this.nameAt(0);
    this.CONSUME(T.LParen);
    const parents: A.Name[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => parents.push(this.nameAt(2)) });
    this.CONSUME(T.RParen);
    this.CONSUME(T.LCurly);
    const rows: A.Row[] = [];
    this.MANY(() => {
      rows.push(this.SUBRULE(this.row));
      this.OPTION(this.comma);
    });
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'utility', name, parents: fit(parents), rows: fit(rows), range: this.from(first) };
  });

  row = this.RULE('row', (): A.Row => {
    const keys: A.Name[] = (this.rowKeys = []);
    this.AT_LEAST_ONE_SEP(this.rowKeyList);
    this.CONSUME(T.Colon);
    const entries: A.RowEntry[] = (this.rowEntries = []);
    this.rowCall = undefined;
    const form = this.OR(this.rowForms);
    const normal = this.rowCall;
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'row',
          keys: fit(keys),
          form,
          entries: fit(entries),
          ...(normal ? { normal } : {}),
          range: { start: keys[0].range.start, end: endOf(this.LA(0)) },
        };
  });

  // A row's parts, built once (tables are most of a model's rows): they add to the keys and
  // entries of the row being parsed, which `row` puts here (rows do not nest).
  private rowKeys: A.Name[] = [];
  private rowEntries: A.RowEntry[] = [];
  private rowCall: A.Call | undefined;
  private readonly rowKeyList = { SEP: T.Comma, DEF: () => this.rowKeys.push(this.stateNameAt(0)) };
  private readonly rowMapEntry = () => {
    const state = this.stateNameAt(2);
    this.CONSUME2(T.Colon);
    const value = this.numberAt(0);
    this.OPTION(this.comma2);
    if (!this.RECORDING_PHASE)
      this.rowEntries.push({ kind: 'rowEntry', state, value, range: join(state.range, value.range) });
  };
  private readonly comma2 = () => this.CONSUME2(T.Comma);
  private readonly rowListEntries = {
    SEP: T.Comma,
    DEF: () => {
      const value = this.numberAt(2);
      if (!this.RECORDING_PHASE) this.rowEntries.push({ kind: 'rowEntry', value, range: value.range });
    },
  };
  private readonly rowForms = [
    {
      ALT: () => {
        this.CONSUME(T.LCurly);
        this.MANY(this.rowMapEntry);
        this.CONSUME(T.RCurly);
        return 'map' as const;
      },
    },
    {
      ALT: () => {
        this.CONSUME(T.LBracket);
        this.AT_LEAST_ONE_SEP2(this.rowListEntries);
        this.CONSUME(T.RBracket);
        return 'list' as const;
      },
    },
    {
      ALT: () => {
        const value = this.numberAt(3);
        if (!this.RECORDING_PHASE) this.rowEntries.push({ kind: 'rowEntry', value, range: value.range });
        return 'single' as const;
      },
    },
    {
      // `male: Normal(mean: -90, Height: 0.95, variance: 36)`: a continuous variable's regression
      // for one configuration of its discrete parents (conditional linear Gaussian tables). Only
      // a name then '(': a row cut short before the next row's key is blamed on its own line.
      GATE: () => this.LA(2).tokenType === T.LParen,
      ALT: () => {
        this.rowCall = this.SUBRULE(this.call);
        return 'normal' as const;
      },
    },
  ];

  /** `experts { alice: 2 of 3, bob: 20 of 30 }`: pseudo-counts from experts (Poole §10.2). */
  experts = this.RULE('experts', (): A.Experts => {
    const first = this.CONSUME(Kw.experts);
    this.CONSUME(T.LCurly);
    const entries: A.ExpertEntry[] = [];
    this.MANY(() => {
      const name = this.nameAt(0);
      this.CONSUME(T.Colon);
      const successes = this.numberAt(0);
      this.CONSUME(Kw.of);
      const trials = this.numberAt(2);
      this.OPTION(this.comma);
      if (!this.RECORDING_PHASE)
        entries.push({ kind: 'expert', name, successes, trials, range: join(name.range, trials.range) });
    });
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'experts', entries: fit(entries), range: this.from(first) };
  });

  /** The opening line of a network; `parse.ts` collects the statements up to its `}`. */
  networkHeader = this.RULE('networkHeader', (): A.Name => {
    this.CONSUME(Kw.network);
    const name = this.nameAt(0);
    this.CONSUME(T.LCurly);
    return name;
  });

  networkDecl = this.RULE('networkDecl', (): A.NetworkDecl => {
    const first = this.LA(1);
    const name = this.SUBRULE(this.networkHeader);
    const statements: A.Statement[] = [];
    this.MANY(() => statements.push(this.SUBRULE(this.statement)));
    this.CONSUME(T.RCurly);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'network', name, statements: fit(statements), range: this.from(first) };
  });

  importDecl = this.RULE('importDecl', (): A.ImportDecl => {
    const first = this.CONSUME(Kw.import);
    this.CONSUME(Kw.network);
    const name = this.nameAt(0);
    this.CONSUME(Kw.from);
    const path = this.SUBRULE(this.string);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'import', name, path, range: this.from(first) };
  });

  /** Inline cells (rows are lines; the first row names the columns) or `from "file.csv"`. */
  dataDecl = this.RULE('dataDecl', (): A.DataDecl => {
    const first = this.CONSUME(Kw.data);
    const name = this.nameAt(0);
    const cells: A.Expr[] = [];
    const source = this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LCurly);
          this.MANY(() => {
            cells.push(this.SUBRULE(this.dataCell));
            this.OPTION(this.comma);
          });
          this.CONSUME(T.RCurly);
          return undefined;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.from);
          return this.SUBRULE(this.string);
        },
      },
    ]);
    if (this.RECORDING_PHASE) return RECORDED;
    const { header, rows } = rowsByLine(cells);
    return { kind: 'data', name, ...(source ? { source } : {}), header, rows, range: this.from(first) };
  });

  dataCell = this.RULE('dataCell', (): A.Expr => {
    return this.OR([
      {
        ALT: () => {
          const t = this.CONSUME(T.Question);
          return this.RECORDING_PHASE ? RECORDED : { kind: 'missing' as const, range: tokenRange(t) };
        },
      },
      { ALT: () => this.numberAt(0) },
      { ALT: () => this.SUBRULE(this.string) },
      {
        ALT: () => {
          const name = this.nameAt(0);
          return this.RECORDING_PHASE ? RECORDED : { kind: 'ref' as const, name, range: name.range };
        },
      },
    ]);
  });

  corpusDecl = this.RULE('corpusDecl', (): A.CorpusDecl => {
    const first = this.CONSUME(Kw.corpus);
    const name = this.nameAt(0);
    this.CONSUME(Kw.from);
    const source = this.SUBRULE(this.string);
    const label = this.OPTION(() => {
      this.CONSUME(Kw.label);
      return this.nameAt(2);
    });
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'corpus', name, source, ...(label ? { label } : {}), range: this.from(first) };
  });

  observeStmt = this.RULE('observeStmt', (): A.ObserveStmt => {
    const first = this.CONSUME(Kw.observe);
    const items = this.SUBRULE(this.assignments);
    const inName = this.SUBRULE(this.inNetwork);
    return this.RECORDING_PHASE
      ? RECORDED
      : { kind: 'observe', items, ...(inName ? { in: inName } : {}), range: this.from(first) };
  });

  learnStmt = this.RULE('learnStmt', (): A.LearnStmt => {
    const first = this.CONSUME(Kw.learn);
    const structure = this.OPTION(() => this.CONSUME(Kw.structure)) !== undefined;
    const model = this.nameAt(0);
    const from = this.OPTION2(() => {
      this.CONSUME(Kw.from);
      return this.nameAt(2);
    });
    const method = this.OPTION3(() => {
      this.CONSUME(Kw.by);
      return this.nameAt(3);
    });
    const options = this.OPTION4(() => this.SUBRULE(this.options));
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'learn',
          structure,
          model,
          ...(from ? { from } : {}),
          ...(method ? { method } : {}),
          ...(options ? { options } : {}),
          range: this.from(first),
        };
  });

  classifierDecl = this.RULE('classifierDecl', (): A.ClassifierDecl => {
    const first = this.CONSUME(Kw.classifier);
    const name = this.nameAt(0);
    this.CONSUME(T.Equals);
    const definition = this.SUBRULE(this.call);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'classifier', name, definition, range: this.from(first) };
  });

  mixtureDecl = this.RULE('mixtureDecl', (): A.MixtureDecl => {
    const first = this.CONSUME(Kw.mixture);
    const name = this.nameAt(0);
    this.CONSUME(T.Equals);
    const definition = this.SUBRULE(this.call);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'mixture', name, definition, range: this.from(first) };
  });

  // ── queries ───────────────────────────────────────────────────────────────────────────────

  givenAssignments = this.RULE('givenAssignments', (): A.Assignment[] => {
    return (
      this.OPTION(() => {
        this.CONSUME(Kw.given);
        return this.SUBRULE(this.assignments);
      }) ?? []
    );
  });

  inNetwork = this.RULE('inNetwork', (): A.Name | undefined => {
    return this.OPTION(() => {
      this.CONSUME(Kw.in);
      return this.nameAt(0);
    });
  });

  query = this.RULE('query', (): A.Query => {
    const first = this.LA(1);
    const body = this.OR(this.queryForms);
    return this.RECORDING_PHASE ? RECORDED : ({ ...body, kind: 'query', range: this.from(first) } as A.Query);
  });

  hypothesisQuery = this.RULE('hypothesisQuery', () => {
    const form = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.posterior);
          return 'posterior' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.map);
          return 'map' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.ml);
          return 'ml' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.mdl);
          return 'mdl' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.size);
          return 'size' as const;
        },
      },
    ]);
    const target = this.nameAt(0);
    const given = this.SUBRULE(this.givenAssignments);
    return { form, target, given };
  });

  optimalQuery = this.RULE('optimalQuery', () => {
    const form = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.optimal);
          return 'optimal' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.gibbs);
          return 'gibbs' as const;
        },
      },
    ]);
    const target = this.nameAt(0);
    this.CONSUME(Kw.over);
    const over = this.nameAt(2);
    const options = this.OPTION(() => this.SUBRULE(this.options));
    return { form, target, over, ...(options ? { options } : {}) };
  });

  /** `P(X | e) [in N] [using method {…}] [given e]` or the bound form `P(0.6 <= P(X = x) <= 0.8)`. */
  probabilityQuery = this.RULE('probabilityQuery', () => {
    return this.OR([
      { GATE: () => this.isBoundForm(), ALT: () => this.SUBRULE(this.boundQuery) },
      {
        ALT: () => {
          const prob = this.SUBRULE(this.probExpr);
          const inName = this.SUBRULE(this.inNetwork);
          const using = this.OPTION(() => {
            this.CONSUME(Kw.using);
            const method = this.nameAt(0);
            const options = this.OPTION2(() => this.SUBRULE(this.options));
            return { method, options };
          });
          const given = this.SUBRULE(this.givenAssignments);
          return this.RECORDING_PHASE
            ? RECORDED
            : {
                form: 'probability' as const,
                prob,
                ...(inName ? { in: inName } : {}),
                ...(using ? { using: using.method, ...(using.options ? { options: using.options } : {}) } : {}),
                given,
              };
        },
      },
    ]);
  });

  private isBoundForm(): boolean {
    const t = this.LA(3).tokenType;
    return t === T.NumberLit || t === T.Minus;
  }

  boundQuery = this.RULE('boundQuery', () => {
    this.CONSUME(Kw.P);
    this.CONSUME(T.LParen);
    const lower = this.numberAt(0);
    const lowerOp = this.SUBRULE(this.lessOp);
    const prob = this.SUBRULE(this.probExpr);
    const upperOp = this.SUBRULE2(this.lessOp);
    const upper = this.numberAt(2);
    this.CONSUME(T.RParen);
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'bound' as const, lower, lowerOp, prob, upperOp, upper, given };
  });

  lessOp = this.RULE('lessOp', (): '<' | '<=' =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LessEq);
          return '<=' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Less);
          return '<' as const;
        },
      },
    ]),
  );

  mpeQuery = this.RULE('mpeQuery', () => {
    this.CONSUME(Kw.mpe);
    // `mpe N given e`, or `mpe given e` / `mpe` for the default model.
    const network = this.OPTION({ GATE: () => this.LA(1).tokenType !== Kw.given, DEF: () => this.nameAt(0) });
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'mpe' as const, ...(network ? { network } : {}), given };
  });

  sensitivityQuery = this.RULE('sensitivityQuery', () => {
    this.CONSUME(Kw.sensitivity);
    const prob = this.SUBRULE(this.probExpr);
    const inName = this.SUBRULE(this.inNetwork);
    return { form: 'sensitivity' as const, prob, ...(inName ? { in: inName } : {}) };
  });

  independenceQuery = this.RULE('independenceQuery', () => {
    this.CONSUME(Kw.independent);
    const variables: A.Name[] = [];
    const given: A.Name[] = [];
    this.AT_LEAST_ONE_SEP({ SEP: T.Comma, DEF: () => variables.push(this.nameAt(0)) });
    this.OPTION(() => {
      this.CONSUME(Kw.given);
      this.AT_LEAST_ONE_SEP2({ SEP: T.Comma, DEF: () => given.push(this.nameAt(2)) });
    });
    const inName = this.SUBRULE(this.inNetwork);
    return {
      form: 'independent' as const,
      variables: fit(variables),
      given: fit(given),
      ...(inName ? { in: inName } : {}),
    };
  });

  classifyQuery = this.RULE('classifyQuery', () => {
    this.CONSUME(Kw.classify);
    const classifier = this.nameAt(0);
    const instance = this.SUBRULE(this.options);
    return { form: 'classify' as const, classifier, instance };
  });

  evaluateQuery = this.RULE('evaluateQuery', () => {
    this.CONSUME(Kw.evaluate);
    const classifier = this.nameAt(0);
    const how = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.split);
          return { split: this.numberAt(0) };
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.folds);
          return { folds: this.numberAt(2) };
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.on);
          const on = this.nameAt(2);
          const folds = this.OPTION2(() => {
            this.CONSUME2(Kw.folds);
            return this.numberAt(3);
          });
          return { on, ...(folds ? { folds } : {}) };
        },
      },
    ]);
    const options = this.OPTION(() => this.SUBRULE(this.options));
    return { form: 'evaluate' as const, classifier, ...how, ...(options ? { options } : {}) };
  });

  predictQuery = this.RULE('predictQuery', () => {
    this.CONSUME(Kw.predict);
    const variable = this.nameAt(0);
    this.CONSUME(Kw.in);
    const inName = this.nameAt(1);
    this.CONSUME(Kw.on);
    const on = this.nameAt(2);
    const options = this.OPTION(() => this.SUBRULE(this.options));
    return { form: 'predict' as const, variable, in: inName, on, ...(options ? { options } : {}) };
  });

  validateQuery = this.RULE('validateQuery', () => {
    this.CONSUME(Kw.validate);
    const network = this.nameAt(0);
    this.CONSUME(Kw.on);
    const on = this.nameAt(1);
    this.CONSUME(Kw.target);
    const target = this.nameAt(2);
    const folds = this.OPTION(() => {
      this.CONSUME(Kw.folds);
      return this.numberAt(0);
    });
    const options = this.OPTION2(() => this.SUBRULE(this.options));
    return {
      form: 'validate' as const,
      network,
      on,
      target,
      ...(folds ? { folds } : {}),
      ...(options ? { options } : {}),
    };
  });

  momentQuery = this.RULE('momentQuery', () => {
    const head = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.mean);
          return { form: 'mean' as const };
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.mode);
          return { form: 'mode' as const };
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.interval);
          return { form: 'interval' as const, level: this.numberAt(0) };
        },
      },
    ]);
    const prob = this.SUBRULE(this.probExpr);
    const given = this.SUBRULE(this.givenAssignments);
    return { ...head, prob, given };
  });

  /** `mean X` / `variance X` of a continuous variable, where `mean P(…)` is a parameter's posterior mean. */
  private isContinuousMoment(): boolean {
    const first = this.LA(1).tokenType;
    if (first === Kw.variance) return true;
    return first === Kw.mean && !(this.LA(2).tokenType === Kw.P && this.LA(3).tokenType === T.LParen);
  }

  /** `mean Height [in Body] [given Weight = 80]`, `variance Height …`: a continuous variable's posterior moment. */
  continuousMomentQuery = this.RULE('continuousMomentQuery', () => {
    const moment = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.mean);
          return 'mean' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.variance);
          return 'variance' as const;
        },
      },
    ]);
    const variable = this.nameAt(0);
    // `mean Position[3] in Tracking using filtering given Readings`: a step of a network over time.
    const time = this.OPTION(() => this.SUBRULE(this.timeIndex));
    const inName = this.SUBRULE(this.inNetwork);
    const using = this.OPTION2(() => {
      this.CONSUME(Kw.using);
      return this.nameAt(1);
    });
    const given = this.SUBRULE(this.givenAssignments);
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          form: 'moment' as const,
          moment,
          variable,
          ...(time ? { time } : {}),
          ...(inName ? { in: inName } : {}),
          ...(using ? { using } : {}),
          given,
        };
  });

  estimateQuery = this.RULE('estimateQuery', () => {
    this.CONSUME(Kw.estimate);
    const model = this.nameAt(0);
    this.CONSUME(T.Dot);
    const parameter = this.nameAt(2);
    return { form: 'estimate' as const, model, parameter };
  });

  scoreQuery = this.RULE('scoreQuery', () => {
    const form = this.OR([
      {
        ALT: () => {
          this.CONSUME(Kw.bic);
          return 'bic' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(Kw.likelihood);
          return 'likelihood' as const;
        },
      },
    ]);
    const model = this.nameAt(0);
    this.CONSUME(Kw.given);
    const given = this.nameAt(2);
    return { form, model, given };
  });

  learningCurveQuery = this.RULE('learningCurveQuery', () => {
    this.CONSUME(Kw.learning_curve);
    const classifier = this.nameAt(0);
    const options = this.OPTION(() => this.SUBRULE(this.options));
    return { form: 'learning_curve' as const, classifier, ...(options ? { options } : {}) };
  });

  strengthQuery = this.RULE('strengthQuery', () => {
    this.CONSUME(Kw.strength);
    const model = this.nameAt(0);
    this.CONSUME(Kw.from);
    const from = this.nameAt(2);
    const options = this.OPTION(() => this.SUBRULE(this.options));
    return { form: 'strength' as const, model, from, ...(options ? { options } : {}) };
  });

  accuracyQuery = this.RULE('accuracyQuery', () => {
    this.CONSUME(Kw.accuracy);
    const classifier = this.nameAt(0);
    const on = this.OPTION(() => {
      this.CONSUME(Kw.on);
      return this.nameAt(2);
    });
    return { form: 'accuracy' as const, classifier, ...(on ? { on } : {}) };
  });

  policyQuery = this.RULE('policyQuery', () => {
    this.CONSUME(Kw.policy);
    // `policy N given e`, or `policy given e` / `policy` for the default model.
    const network = this.OPTION({ GATE: () => this.LA(1).tokenType !== Kw.given, DEF: () => this.nameAt(0) });
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'policy' as const, ...(network ? { network } : {}), given };
  });

  euQuery = this.RULE('euQuery', () => {
    this.CONSUME(Kw.eu);
    const decision = this.nameAt(0);
    const inName = this.SUBRULE(this.inNetwork);
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'eu' as const, decision, ...(inName ? { in: inName } : {}), given };
  });

  voiQuery = this.RULE('voiQuery', () => {
    this.CONSUME(Kw.voi);
    const variable = this.nameAt(0);
    this.CONSUME(Kw.for);
    const decision = this.nameAt(2);
    const inName = this.SUBRULE(this.inNetwork);
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'voi' as const, variable, decision, ...(inName ? { in: inName } : {}), given };
  });

  effectQuery = this.RULE('effectQuery', () => {
    this.CONSUME(Kw.effect);
    const cause = this.nameAt(0);
    this.CONSUME(T.Arrow);
    const effect = this.nameAt(2);
    const inName = this.SUBRULE(this.inNetwork);
    const given = this.SUBRULE(this.givenAssignments);
    return { form: 'effect' as const, cause, effect, ...(inName ? { in: inName } : {}), given };
  });

  queryStmt = this.RULE('queryStmt', (): A.QueryStmt => {
    const first = this.CONSUME(Kw.query);
    const query = this.SUBRULE(this.query);
    return this.RECORDING_PHASE ? RECORDED : { kind: 'queryStatement', query, range: this.from(first) };
  });

  /**
   * `expect <query> <comparison>`. After `given D` (a data set) a final `= v` is the comparison:
   * `expect size Conj given Days = 6`. So when the query swallowed the last `= v` as evidence
   * and no comparison follows, that `= v` becomes the comparison.
   */
  expectStmt = this.RULE('expectStmt', (): A.ExpectStmt => {
    const first = this.CONSUME(Kw.expect);
    const query = this.SUBRULE(this.query);
    const comparison = this.OPTION(() => this.SUBRULE(this.comparison));
    if (this.RECORDING_PHASE) return RECORDED;
    const range = this.from(first);
    const compared = comparison ?? comparisonFromEvidence(query);
    return { kind: 'expectStatement', query, comparison: compared!, range };
  });

  /** `= v`, `≈ x ± t` (also `~= x +- t`), `< x`, `<= x`, `> x`, `>= x`. */
  comparison = this.RULE('comparison', (): A.Comparison => {
    const first = this.LA(1);
    let tolerance: A.NumberLit | undefined;
    let value: A.Expr | undefined;
    const op = this.OR([
      {
        ALT: () => {
          this.CONSUME(T.Equals);
          value = this.SUBRULE(this.expr);
          return '=' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Approx);
          value = this.numberAt(0);
          tolerance = this.OPTION(() => {
            this.CONSUME(T.PlusMinus);
            return this.numberAt(2);
          });
          return '≈' as const;
        },
      },
      {
        ALT: () => {
          const o = this.SUBRULE(this.orderOp);
          value = this.numberAt(3);
          return o;
        },
      },
    ]);
    return this.RECORDING_PHASE
      ? RECORDED
      : {
          kind: 'comparison',
          op,
          value: value!,
          ...(tolerance ? { tolerance } : {}),
          range: this.from(first),
        };
  });

  orderOp = this.RULE('orderOp', (): A.ComparisonOp =>
    this.OR([
      {
        ALT: () => {
          this.CONSUME(T.LessEq);
          return '<=' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Less);
          return '<' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.GreaterEq);
          return '>=' as const;
        },
      },
      {
        ALT: () => {
          this.CONSUME(T.Greater);
          return '>' as const;
        },
      },
    ]),
  );

  // ── statements and the file ───────────────────────────────────────────────────────────────

  statement = this.RULE('statement', (): A.Statement => this.OR(this.statementForms));

  /** The whole language (for the grammar docs); parsing goes statement by statement. */
  file = this.RULE('file', (): A.Statement[] => {
    const statements: A.Statement[] = [];
    this.MANY(() => statements.push(this.SUBRULE(this.statement)));
    return statements;
  });
}

/** Moves a trailing `given X = v` of an expect's query into the comparison `= v`, if there is one. */
function comparisonFromEvidence(query: A.Query): A.Comparison | undefined {
  const given = 'given' in query && Array.isArray(query.given) ? (query.given as A.Assignment[]) : undefined;
  const last = given?.[given.length - 1];
  if (!last || last.kind !== 'assignment' || !last.value) return undefined;
  const value = last.value;
  given![given!.length - 1] = { kind: 'assignment', variable: last.variable, range: last.variable.range };
  query.range = { start: query.range.start, end: last.variable.range.end };
  const start = { line: last.variable.range.end.line, character: last.variable.range.end.character + 1 };
  return { kind: 'comparison', op: '=', value, range: { start, end: value.range.end } };
}

/** Data cells grouped into rows by source line; the first row is the header. */
export function rowsByLine(cells: A.Expr[]): { header: A.Name[]; rows: A.DataRow[] } {
  return headerAndRows(groupRows(cells));
}

/** The first row names the columns; the rest are the data (`rows` is consumed). */
export function headerAndRows(rows: A.DataRow[]): { header: A.Name[]; rows: A.DataRow[] } {
  const headerRow = rows.shift();
  const header = (headerRow?.cells ?? []).map(cellName);
  return { header, rows };
}

/** Data cells grouped into rows by source line. */
export function groupRows(cells: A.Expr[]): A.DataRow[] {
  const rows: A.DataRow[] = [];
  let current: A.Expr[] = [];
  const flush = () => {
    if (current.length === 0) return;
    rows.push({
      kind: 'dataRow',
      cells: fit(current),
      range: join(current[0].range, current[current.length - 1].range),
    });
    current = [];
  };
  for (const cell of cells) {
    if (current.length > 0 && cell.range.start.line !== current[current.length - 1].range.end.line) flush();
    current.push(cell);
  }
  flush();
  return rows;
}

function cellName(cell: A.Expr): A.Name {
  if (cell.kind === 'ref') return cell.name;
  const text = cell.kind === 'string' ? cell.value : cell.kind === 'number' ? cell.text : '?';
  return { kind: 'name', text, range: cell.range, ...(cell.kind === 'string' ? { quoted: true } : {}) };
}

let parser: BayesParser | undefined;
/** The parser, built once: Chevrotain's grammar analysis is the slow part. */
export function bayesParser(): BayesParser {
  parser ??= new BayesParser();
  return parser;
}

/** Makes `other` the parser `parse.ts` uses until the returned function is called (tests compare parsers). */
export function useParser(other: BayesParser): () => void {
  const previous = parser;
  parser = other;
  return () => {
    parser = previous;
  };
}
