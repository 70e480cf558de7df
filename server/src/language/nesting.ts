/**
 * The nesting limit. The parser (Chevrotain, recursive descent) and every walk of the tree
 * recurse once per level, so a file nested deep enough would overflow the stack. Before a
 * statement is parsed its tokens are measured (one pass, no recursion); a statement that nests
 * deeper than `MAX_NESTING` is not parsed: it gets one diagnostic on the part that is too deep
 * and stands as an error statement. Every tree that reaches the checker, the run and the editor
 * features is thus at most `MAX_NESTING` levels deep, which each of them handles with room to
 * spare (the fuzz test holds them to it at exactly this depth, on a reduced stack).
 *
 * A level is an open bracket (`(`, `[`, `{`), a network the statement lies in, or a link of an
 * `else if` chain (each `else if` is a split nested in the one before).
 */
import type { IToken } from 'chevrotain';
import type { Diagnostic } from './diagnostics.js';
import { tokenRange } from './parser.js';
import * as T from './tokens.js';

/** Far deeper than any model needs, and far from the stack: a call nested 100 deep uses under half of it. */
export const MAX_NESTING = 100;

export function nestingMessage(what = 'nesting'): string {
  return `${what} deeper than ${MAX_NESTING} levels: flatten this part (the statement is not read further)`;
}

export function nestingDiagnostic(range: Diagnostic['range'], what?: string): Diagnostic {
  return { severity: 'error', message: nestingMessage(what), range, code: 'nesting-too-deep' };
}

/**
 * The first place where a statement's `tokens` nest deeper than the limit, given the statement
 * already lies `base` levels deep (inside networks): the diagnostic spans the bracket that goes
 * too deep up to its matching closer (or the statement's end when it is never closed).
 */
export function tooDeep(tokens: readonly IToken[], base = 0): Diagnostic | undefined {
  const end = tokens.length;
  // Per open bracket: the `else if` links counted at its level (they end when it closes).
  const links: number[] = [0];
  let depth = base;
  let opener = -1; // index of the bracket that went past the limit
  let openerLevel = 0;
  for (let i = 0; i < end; i++) {
    const type = tokens[i].tokenType;
    let deeper = false;
    if (type === T.LParen || type === T.LBracket || type === T.LCurly) {
      links.push(0);
      depth++;
      deeper = true;
    } else if (type === T.RParen || type === T.RBracket || type === T.RCurly) {
      if (links.length > 1) depth -= 1 + links.pop()!;
      if (opener >= 0 && links.length - 1 < openerLevel) {
        return nestingDiagnostic(tokenRange(tokens[opener], tokens[i]));
      }
    } else if (type === T.Kw.else && tokens[i + 1]?.tokenType === T.Kw.if && i + 1 < end) {
      links[links.length - 1]++;
      depth++;
      deeper = true;
    }
    if (deeper && depth > MAX_NESTING && opener < 0) {
      opener = i;
      openerLevel = links.length - 1; // a bracket's own level; for an `else if`, the bracket holding the chain
    }
  }
  return opener >= 0 ? nestingDiagnostic(tokenRange(tokens[opener], tokens[end - 1])) : undefined;
}
