/**
 * The grammar as documentation, generated from the parser itself (Chevrotain's GAST), so the
 * reference cannot drift from what is parsed: an EBNF-like listing, and the railroad diagrams
 * Chevrotain draws (`npm run docs:grammar` writes both into docs/).
 */
import {
  createSyntaxDiagramsCode,
  LLkLookaheadStrategy,
  type ILookaheadStrategy,
  type ISerializedGast,
  type LookaheadProductionType,
  type Rule,
} from 'chevrotain';
import { BayesParser, bayesParser, MAX_LOOKAHEAD } from './parser.js';
import { computedPaths, productionKey, type PathNames } from './lookahead.js';

type Gast = ISerializedGast & {
  name?: string;
  label?: string;
  definition?: Gast[];
  separator?: Gast;
};

/** Rules that exist for the parser's own bookkeeping, in the order a reader meets them. */
const ORDER = [
  'file',
  'statement',
  'variableDecl',
  'domain',
  'hypothesesDecl',
  'hypothesisEntry',
  'bitsClause',
  'generator',
  'tree',
  'treeBody',
  'treeLeaf',
  'treeSplit',
  'tableDecl',
  'row',
  'experts',
  'networkDecl',
  'networkHeader',
  'importDecl',
  'dataDecl',
  'dataCell',
  'corpusDecl',
  'observeStmt',
  'learnStmt',
  'classifierDecl',
  'mixtureDecl',
  'queryStmt',
  'expectStmt',
  'comparison',
  'orderOp',
  'query',
  'hypothesisQuery',
  'optimalQuery',
  'probabilityQuery',
  'boundQuery',
  'lessOp',
  'mpeQuery',
  'sensitivityQuery',
  'independenceQuery',
  'classifyQuery',
  'evaluateQuery',
  'predictQuery',
  'validateQuery',
  'momentQuery',
  'continuousMomentQuery',
  'scoreQuery',
  'learningCurveQuery',
  'accuracyQuery',
  'estimateQuery',
  'givenAssignments',
  'inNetwork',
  'probExpr',
  'assignments',
  'assignment',
  'options',
  'call',
  'callArgs',
  'arg',
  'argValue',
  'expr',
  'list',
  'refOrCall',
  'number',
  'string',
  'stateName',
  'name',
];

function terminal(g: Gast): string {
  const label = g.label ?? g.name ?? '?';
  return label.startsWith("'") ? label : label.replace(/^an? /, '').replace(/ /g, '_').toUpperCase();
}

function sequence(items: Gast[] | undefined): string {
  return (items ?? []).map(element).filter(Boolean).join(' ');
}

function element(g: Gast): string {
  switch (g.type) {
    case 'Terminal':
      return terminal(g);
    case 'NonTerminal':
      return g.name!;
    case 'Option':
      return `[ ${sequence(g.definition)} ]`;
    case 'Repetition':
      return `{ ${sequence(g.definition)} }`;
    case 'RepetitionMandatory':
      return `${group(g.definition)} { ${sequence(g.definition)} }`;
    case 'RepetitionWithSeparator':
      return `[ ${sequence(g.definition)} { ${terminal(g.separator!)} ${sequence(g.definition)} } ]`;
    case 'RepetitionMandatoryWithSeparator':
      return `${sequence(g.definition)} { ${terminal(g.separator!)} ${sequence(g.definition)} }`;
    case 'Alternation':
      return `( ${(g.definition ?? []).map((alt) => sequence(alt.definition)).join(' | ')} )`;
    case 'Alternative':
      return sequence(g.definition);
    default:
      return '';
  }
}

function group(items: Gast[] | undefined): string {
  const body = sequence(items);
  return (items?.length ?? 0) > 1 ? `( ${body} )` : body;
}

function rules(): Gast[] {
  const all = bayesParser().getSerializedGastProductions() as Gast[];
  const rank = (name: string | undefined) => {
    const i = ORDER.indexOf(name ?? '');
    return i < 0 ? ORDER.length : i;
  };
  return [...all].sort((a, b) => rank(a.name) - rank(b.name));
}

/** One line per rule: `name ::= …`, with `[ ]` optional, `{ }` repeated, `|` alternatives. */
export function grammarEbnf(): string {
  const list = rules();
  const width = Math.max(...list.map((r) => r.name!.length));
  return list
    .map((r) => {
      const body =
        r.definition!.length === 1 && r.definition![0].type === 'Alternation'
          ? (r.definition![0].definition ?? [])
              .map((alt) => sequence(alt.definition))
              .join(`\n${' '.repeat(width)}   | `)
          : sequence(r.definition);
      return `${r.name!.padEnd(width)} ::= ${body}`;
    })
    .join('\n');
}

/** An HTML page of railroad diagrams (Chevrotain's renderer; the docs script inlines its scripts). */
export function grammarDiagramsHtml(): string {
  return createSyntaxDiagramsCode(rules());
}

/**
 * The lookahead paths Chevrotain computes for every production of the grammar, by production
 * (see `lookahead.ts`): what `npm run grammar:lookahead` writes to lookaheadPaths.ts, and what a
 * test compares that file with.
 */
export function lookaheadTable(): Record<string, PathNames> {
  const table: Record<string, PathNames> = {};
  const record = (rule: Rule, type: LookaheadProductionType, occurrence: number, k: number) => {
    table[productionKey(rule.name, type, occurrence)] = computedPaths(rule, type, occurrence, k);
  };
  class Recording extends LLkLookaheadStrategy {
    override buildLookaheadForAlternation(options: Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0]) {
      record(options.rule, 'Alternation', options.prodOccurrence, options.maxLookahead);
      return super.buildLookaheadForAlternation(options);
    }
    override buildLookaheadForOptional(options: Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0]) {
      record(options.rule, options.prodType, options.prodOccurrence, options.maxLookahead);
      return super.buildLookaheadForOptional(options);
    }
  }
  new BayesParser(false, new Recording({ maxLookahead: MAX_LOOKAHEAD }));
  return table;
}
