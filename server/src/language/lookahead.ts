/**
 * The parser's LL(k) lookahead with its paths read from a table (`lookaheadPaths.ts`) rather than
 * computed from the grammar whenever a process builds the parser: that analysis was half of the
 * parser's construction, paid by every fresh `bayes check`. The table is generated from the grammar
 * (`npm run grammar:lookahead`) and a test fails when it no longer matches what Chevrotain computes,
 * so it cannot go stale. A production the table lacks falls back to Chevrotain's own analysis.
 *
 * The functions built from the paths decide as Chevrotain's do (its lookahead.js,
 * `buildAlternativesLookAheadFunc` and `buildSingleAlternativeLookaheadFunction`): an alternation
 * takes the first alternative whose gate, if any, passes and one of whose paths the next tokens
 * match; an optional production is entered when one of its paths matches.
 */
import {
  EOF,
  getLookaheadPaths,
  LLkLookaheadStrategy,
  tokenMatcher,
  type ILookaheadStrategy,
  type IOrAlt,
  type IToken,
  type LookaheadProductionType,
  type Rule,
  type TokenType,
} from 'chevrotain';
import { allTokens } from './tokens.js';
import { LOOKAHEAD_PATHS } from './lookaheadPaths.js';

/** Per alternative (one for an optional production), the token sequences that choose it. */
type Paths = TokenType[][][];
/** `Paths` with token types by name, as the table holds them. */
export type PathNames = string[][][];

/** What a lookahead function reads: the parser it is called on. */
interface Lookahead {
  LA(howMuch: number): IToken;
}

const tokenByName = new Map([...allTokens, EOF].map((t) => [t.name, t]));

/** The table's key of a production: its rule, kind (`Alternation`, `Option`, `Repetition`, …) and occurrence. */
export function productionKey(rule: string, type: LookaheadProductionType, occurrence: number): string {
  return `${rule} ${type} ${occurrence}`;
}

/** Chevrotain's lookahead paths of a production, by token name (what the table holds). */
export function computedPaths(rule: Rule, type: LookaheadProductionType, occurrence: number, k: number): PathNames {
  return getLookaheadPaths({ occurrence, rule, prodType: type, maxLookahead: k }).map((alt) =>
    alt.map((path) => path.map((t) => t.name)),
  );
}

function tableEntry(rule: Rule, type: LookaheadProductionType, occurrence: number): Paths | undefined {
  const names = LOOKAHEAD_PATHS[productionKey(rule.name, type, occurrence)];
  const types = names?.map((alt) => alt.map((path) => path.map((name) => tokenByName.get(name))));
  // An unknown token name (the table is stale): let Chevrotain compute the paths.
  return types?.every((alt) => alt.every((path) => path.every((t) => t !== undefined))) ? (types as Paths) : undefined;
}

/** Whether the next tokens match `path`. */
function matches(parser: Lookahead, path: TokenType[]): boolean {
  for (let i = 0; i < path.length; i++) if (!tokenMatcher(parser.LA(i + 1), path[i])) return false;
  return true;
}

/** For one-token paths: the alternative (or `true`) each token type, by `tokenTypeIdx`, selects; first wins. */
function byFirstToken<V>(alts: TokenType[][][], value: (alt: number) => V): V[] {
  const choice: V[] = [];
  alts.forEach((alt, i) => {
    for (const [t] of alt)
      for (const idx of [t.tokenTypeIdx!, ...(t.categoryMatches ?? [])]) if (!(idx in choice)) choice[idx] = value(i);
  });
  return choice;
}

const oneToken = (alts: Paths) => alts.every((alt) => alt.every((path) => path.length === 1));

/** The alternative the next tokens choose (undefined for none). */
function alternation(
  alts: Paths,
  hasPredicates: boolean,
): (this: Lookahead, orAlts?: IOrAlt<unknown>[]) => number | undefined {
  if (!hasPredicates && oneToken(alts)) {
    const choice = byFirstToken(alts, (i) => i);
    return function () {
      return choice[this.LA(1).tokenTypeIdx];
    };
  }
  return function (orAlts) {
    for (let i = 0; i < alts.length; i++) {
      const gate = hasPredicates ? orAlts?.[i]?.GATE : undefined;
      if (gate && gate.call(this) === false) continue;
      for (const path of alts[i]) if (matches(this, path)) return i;
    }
    return undefined;
  };
}

/** Whether the next tokens enter an optional production. */
function optional(paths: TokenType[][]): (this: Lookahead) => boolean {
  if (oneToken([paths])) {
    const choice = byFirstToken([paths], () => true);
    return function () {
      return choice[this.LA(1).tokenTypeIdx] === true;
    };
  }
  return function () {
    return paths.some((path) => matches(this, path));
  };
}

export class TableLookahead extends LLkLookaheadStrategy {
  override buildLookaheadForAlternation(
    options: Parameters<ILookaheadStrategy['buildLookaheadForAlternation']>[0],
  ): (orAlts?: IOrAlt<unknown>[]) => number | undefined {
    const paths = options.dynamicTokensEnabled
      ? undefined
      : tableEntry(options.rule, 'Alternation', options.prodOccurrence);
    return paths ? alternation(paths, options.hasPredicates) : super.buildLookaheadForAlternation(options);
  }

  override buildLookaheadForOptional(
    options: Parameters<ILookaheadStrategy['buildLookaheadForOptional']>[0],
  ): () => boolean {
    const paths = options.dynamicTokensEnabled
      ? undefined
      : tableEntry(options.rule, options.prodType, options.prodOccurrence);
    return paths ? optional(paths[0]) : super.buildLookaheadForOptional(options);
  }
}
