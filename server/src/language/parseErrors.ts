/**
 * Short syntax-error messages a student can act on ("expected ':' after 'cancer'"), instead of
 * Chevrotain's full lists of token sequences.
 */
import { EOF, tokenMatcher, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';

const ruleWords: Record<string, string> = {
  variableDecl: 'a variable declaration',
  hypothesesDecl: 'a hypothesis space',
  tableDecl: 'a probability table',
  row: 'a table row',
  domain: 'a domain',
  importDecl: 'an import',
  dataDecl: 'a data set',
  corpusDecl: 'a corpus',
  observeStmt: 'an observation',
  learnStmt: 'a learn statement',
  classifierDecl: 'a classifier',
  mixtureDecl: 'a mixture',
  query: 'a query',
  queryStmt: 'a query',
  expectStmt: 'an expectation',
  comparison: 'a comparison',
  number: 'a number',
  probExpr: 'P(…)',
  finding: 'a soft or virtual finding',
  options: 'options',
  treeBody: 'a tree',
  tree: 'a tree',
  experts: 'experts',
  statement: 'a statement',
  hypothesisEntry: 'a hypothesis',
  callArgs: 'arguments',
  expr: 'a value',
  networkHeader: 'a network',
};

export function tokenLabel(t: TokenType): string {
  if (t === EOF) return 'the end of the statement';
  return t.LABEL ?? t.name;
}

export function found(t: IToken): string {
  return t.tokenType === EOF ? 'the end of the statement' : `'${t.image}'`;
}

function unexpected(t: IToken): string {
  return t.tokenType === EOF ? 'unexpected end of the statement' : `unexpected '${t.image}'`;
}

function after(previous: IToken | undefined): string {
  return previous && previous.tokenType !== EOF && previous.image ? ` after '${previous.image}'` : '';
}

function expectedFirsts(paths: TokenType[][][]): string {
  const labels = new Set<string>();
  for (const alt of paths) for (const path of alt) if (path.length > 0) labels.add(tokenLabel(path[0]));
  const list = [...labels];
  if (list.length === 0) return 'something else';
  if (list.length > 8) return `${list.slice(0, 8).join(', ')}, …`;
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(', ')} or ${list[list.length - 1]}`;
}

/**
 * Where the lookahead tokens leave every alternative when that is past the first token: `query P()`
 * fits `P(` of both P-queries and fails at `)`. Reported at the first token, it read
 * "unexpected 'P' after 'query'; expected 'P'"; this names the token that fits no alternative.
 */
function deeperMismatch(paths: TokenType[][][], actual: IToken[]): { at: number; expected: string } | undefined {
  let alive = paths.flat();
  for (let i = 0; i < actual.length; i++) {
    const next = alive.filter((path) => path.length > i && tokenMatcher(actual[i]!, path[i]!));
    if (next.length === 0) {
      if (i === 0) return undefined;
      const labels = [...new Set(alive.filter((path) => path.length > i).map((path) => tokenLabel(path[i]!)))];
      if (labels.length === 0) return undefined;
      const expected = labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
      return { at: i, expected };
    }
    alive = next;
  }
  return undefined;
}

/** The token a no-viable-alternative error at a token really failed on (deeperMismatch): its range. */
export const deeperToken = new WeakMap<IToken, IToken>();

/** What the latest syntax error expected; recovery uses it to word "this line is incomplete". */
export const lastExpectation = { text: '' };

export const errorMessages: IParserErrorMessageProvider = {
  buildMismatchTokenMessage({ expected, actual, previous }) {
    lastExpectation.text = tokenLabel(expected);
    return `expected ${tokenLabel(expected)}${after(previous)} but found ${found(actual)}`;
  },
  buildNotAllInputParsedMessage({ firstRedundant }) {
    lastExpectation.text = 'the end of the statement';
    return `${unexpected(firstRedundant)}: the statement is already complete`;
  },
  buildNoViableAltMessage({ expectedPathsPerAlt, actual, previous, ruleName }) {
    const where = ruleWords[ruleName] ? ` in ${ruleWords[ruleName]}` : '';
    const deeper = deeperMismatch(expectedPathsPerAlt, actual);
    if (deeper) {
      lastExpectation.text = deeper.expected;
      deeperToken.set(actual[0]!, actual[deeper.at]!);
      return `${unexpected(actual[deeper.at]!)}${where}${after(actual[deeper.at - 1])}; expected ${deeper.expected}`;
    }
    lastExpectation.text = expectedFirsts(expectedPathsPerAlt);
    return `${unexpected(actual[0])}${where}${after(previous)}; expected ${lastExpectation.text}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }) {
    const where = ruleWords[ruleName] ? ` in ${ruleWords[ruleName]}` : '';
    lastExpectation.text = expectedFirsts([expectedIterationPaths]);
    return `${unexpected(actual[0])}${where}${after(previous)}; expected ${lastExpectation.text}`;
  },
};
