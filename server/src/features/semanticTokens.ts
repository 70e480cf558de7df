/**
 * Semantic tokens: names are coloured by what they resolve to (variable, value, hypothesis
 * space, network, data set, classifier), so `map` used as a state name is not a keyword.
 * Keywords, numbers, strings and `///` doc comments come from the lexer.
 */
import { SemanticTokensBuilder, type SemanticTokens, type SemanticTokensLegend } from 'vscode-languageserver/node';
import type { IToken } from 'chevrotain';
import type * as A from '../language/index.js';
import { tokenize, Identifier, NumberLit, StringLit } from '../language/tokens.js';
import type { NameKind } from './nameIndex.js';
import { nameIndex } from './nameResolution.js';

export const TOKEN_TYPES = ['keyword', 'variable', 'enumMember', 'type', 'namespace', 'struct', 'class', 'property', 'function', 'number', 'string', 'comment'] as const;
export const TOKEN_MODIFIERS = ['declaration', 'documentation', 'defaultLibrary'] as const;
export const legend: SemanticTokensLegend = { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] };

type TokenType = (typeof TOKEN_TYPES)[number];
const TYPE_OF: Record<NameKind, TokenType> = {
  variable: 'variable', state: 'enumMember', hypotheses: 'type', hypothesis: 'enumMember', network: 'namespace',
  data: 'struct', column: 'property', corpus: 'struct', classifier: 'class', mixture: 'class',
};
const bit = (m: (typeof TOKEN_MODIFIERS)[number]) => 1 << TOKEN_MODIFIERS.indexOf(m);

export function semanticTokens(file: A.BayesFile, text: string): SemanticTokens {
  const lexed = tokenize(text);
  const byStart = new Map<string, { type: TokenType; modifiers: number }>();
  for (const o of nameIndex(file).occurrences) {
    const builtIn = !o.symbol.declaration && o.symbol.owner?.kind === 'variable';
    byStart.set(key(o.name.range.start.line, o.name.range.start.character), {
      type: TYPE_OF[o.symbol.kind],
      modifiers: (o.declaration ? bit('declaration') : 0) | (builtIn ? bit('defaultLibrary') : 0),
    });
  }
  const tokens = [...lexed.tokens, ...(lexed.groups.doc ?? [])].sort((a, b) => a.startOffset - b.startOffset);
  const builder = new SemanticTokensBuilder();
  tokens.forEach((t, i) => {
    const line = t.startLine! - 1;
    const character = t.startColumn! - 1;
    const found = byStart.get(key(line, character)) ?? lexical(t, tokens[i + 1]);
    if (found) builder.push(line, character, t.image.length, TOKEN_TYPES.indexOf(found.type), found.modifiers);
  });
  return builder.build();
}

function key(line: number, character: number): string {
  return `${line}:${character}`;
}

/** A token no name resolved: keyword, literal, doc comment, function name or option key. */
function lexical(t: IToken, next: IToken | undefined): { type: TokenType; modifiers: number } | undefined {
  const type = t.tokenType;
  if (type === NumberLit) return { type: 'number', modifiers: 0 };
  if (type === StringLit) return { type: 'string', modifiers: 0 };
  if (type.name === 'DocComment') return { type: 'comment', modifiers: bit('documentation') };
  const isName = type === Identifier || type.CATEGORIES?.includes(Identifier);
  if (!isName) return undefined;
  if (next?.image === '(' && t.image !== 'P') return { type: 'function', modifiers: bit('defaultLibrary') };
  if (next?.image === ':') return { type: 'property', modifiers: 0 };
  if (type !== Identifier) return { type: 'keyword', modifiers: 0 };
  return undefined;
}
