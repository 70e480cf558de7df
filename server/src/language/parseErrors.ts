/**
 * Short syntax-error messages a student can act on ("expected ':' after 'cancer'"), instead of
 * Chevrotain's full lists of token sequences.
 */
import { EOF, type IParserErrorMessageProvider, type IToken, type TokenType } from 'chevrotain';

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
    lastExpectation.text = expectedFirsts(expectedPathsPerAlt);
    return `${unexpected(actual[0])}${where}${after(previous)}; expected ${lastExpectation.text}`;
  },
  buildEarlyExitMessage({ expectedIterationPaths, actual, previous, ruleName }) {
    const where = ruleWords[ruleName] ? ` in ${ruleWords[ruleName]}` : '';
    lastExpectation.text = expectedFirsts([expectedIterationPaths]);
    return `${unexpected(actual[0])}${where}${after(previous)}; expected ${lastExpectation.text}`;
  },
};
