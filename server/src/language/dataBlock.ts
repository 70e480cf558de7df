/**
 * A fast path for the body of inline data, which is most of any large model: cells are read
 * straight off the tokens instead of through the parser's rules (same AST as `dataDecl`).
 * Any token that is not a plain cell makes it give up, and the grammar parses the block
 * instead — so errors still come from the parser, with its messages.
 */
import type { IToken, TokenType } from 'chevrotain';
import type * as A from './ast.js';
import * as T from './tokens.js';
import { rowsByLine, tokenRange } from './parser.js';
import type { ScannedBlock } from './dataScan.js';

function isName(type: TokenType): boolean {
  return type === T.Identifier || type.CATEGORIES?.includes(T.Identifier) === true;
}

/** `data Name { cells }` from `tokens[start]` to `tokens[end - 1]`, or undefined when it is not that simple. */
export function fastDataDecl(tokens: readonly IToken[], start: number, end: number): A.DataDecl | undefined {
  if (end - start < 4 || tokens[start].tokenType !== T.Kw.data || !isName(tokens[start + 1].tokenType)
    || tokens[start + 2].tokenType !== T.LCurly || tokens[end - 1].tokenType !== T.RCurly) return undefined;
  const cells: A.Expr[] = [];
  for (let i = start + 3; i < end - 1; i++) {
    const t = tokens[i];
    const type = t.tokenType;
    if (type === T.Comma) continue;
    const range = tokenRange(t);
    if (type === T.NumberLit) {
      if (tokens[i + 1].tokenType === T.Slash || tokens[i + 1].tokenType === T.Percent) return undefined;
      cells.push({ kind: 'number', value: Number(t.image), text: t.image, range });
    } else if (type === T.Question) {
      cells.push({ kind: 'missing', range });
    } else if (type === T.StringLit) {
      cells.push({ kind: 'string', value: t.image.slice(1, -1).replace(/\\(.)/g, '$1'), range });
    } else if (isName(type)) {
      cells.push({ kind: 'ref', name: { kind: 'name', text: t.image, range }, range });
    } else {
      return undefined; // negative numbers, fractions, stray symbols: the grammar decides
    }
  }
  return dataDeclOf(tokens, start, end, cells);
}

/**
 * `data Name { }` from `tokens[start]` to `tokens[end - 1]` whose body `scanDataBlocks` read
 * (and blanked), or undefined when the tokens are not exactly that statement.
 */
export function scannedDataDecl(tokens: readonly IToken[], start: number, end: number, blocks: ReadonlyMap<number, ScannedBlock>): A.DataDecl | undefined {
  if (end - start !== 4 || tokens[start].tokenType !== T.Kw.data || !isName(tokens[start + 1].tokenType)
    || tokens[start + 2].tokenType !== T.LCurly || tokens[start + 3].tokenType !== T.RCurly) return undefined;
  const block = blocks.get(tokens[start + 2].startOffset);
  if (!block || block.close !== tokens[start + 3].startOffset) return undefined;
  return dataDeclOf(tokens, start, end, block.cells);
}

function dataDeclOf(tokens: readonly IToken[], start: number, end: number, cells: A.Expr[]): A.DataDecl {
  const { header, rows } = rowsByLine(cells);
  const name: A.Name = { kind: 'name', text: tokens[start + 1].image, range: tokenRange(tokens[start + 1]) };
  return { kind: 'data', name, header, rows, range: tokenRange(tokens[start], tokens[end - 1]) };
}
