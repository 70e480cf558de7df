/**
 * A fast path for the body of inline data, which is most of any large model: cells are read
 * straight off the tokens instead of through the parser's rules (same AST as `dataDecl`).
 * Any token that is not a plain cell makes it give up, and the grammar parses the block
 * instead — so errors still come from the parser, with its messages.
 */
import type { IToken, TokenType } from 'chevrotain';
import type * as A from './ast.js';
import * as T from './tokens.js';
import { groupRows, headerAndRows, tokenRange } from './parser.js';
import { scanRows, type ScannedBlock, type ScannedBlocks } from './dataScan.js';
import { firstAtOrAfter } from './lines.js';

function isName(type: TokenType): boolean {
  return type === T.Identifier || type.CATEGORIES?.includes(T.Identifier) === true;
}

/** `data Name { cells }`: a statement's `tokens`, or undefined when it is not that simple. */
export function fastDataDecl(tokens: readonly IToken[]): A.DataDecl | undefined {
  const end = tokens.length;
  if (
    end < 4 ||
    tokens[0].tokenType !== T.Kw.data ||
    !isName(tokens[1].tokenType) ||
    tokens[2].tokenType !== T.LCurly ||
    tokens[end - 1].tokenType !== T.RCurly
  )
    return undefined;
  const cells: A.Expr[] = [];
  for (let i = 3; i < end - 1; i++) {
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
  return dataDeclOf(tokens, groupRows(cells));
}

/**
 * `data Name { }` (a statement's `tokens`) whose body `scanDataBlocks` read (and the lexer
 * skipped), or undefined when the tokens are not exactly that statement.
 */
export function scannedDataDecl(tokens: readonly IToken[], blocks: ScannedBlocks): A.DataDecl | undefined {
  if (
    tokens.length !== 4 ||
    tokens[0].tokenType !== T.Kw.data ||
    !isName(tokens[1].tokenType) ||
    tokens[2].tokenType !== T.LCurly ||
    tokens[3].tokenType !== T.RCurly
  )
    return undefined;
  const block = blocks.get(tokens[2].startOffset);
  if (!block || block.close !== tokens[3].startOffset) return undefined;
  const decl = dataDeclOf(tokens, block.rows);
  scannedDecls.add(decl);
  return decl;
}

/** Data statements whose body the scanner read: plain cells only, one row per line, no diagnostics. */
const scannedDecls = new WeakSet<A.DataDecl>();

/**
 * The scanned data statements of a parsed file (top level and in networks) as `lexAround`
 * skips them, by the offset of their `{` in `text` (whose line starts are `starts`): for
 * editor features that re-lex the text but read the cells from their store.
 */
export function scannedBodies(
  file: A.BayesFile,
  text: string,
  starts: readonly number[],
): Map<number, ScannedBlock & { decl: A.DataDecl }> {
  const bodies = new Map<number, ScannedBlock & { decl: A.DataDecl }>();
  const visit = (statements: A.Statement[]) => {
    for (const s of statements) {
      if (s.kind === 'network') visit(s.statements);
      if (s.kind !== 'data' || !scannedDecls.has(s)) continue;
      const open = text.indexOf('{', starts[s.name.range.end.line] + s.name.range.end.character);
      const { line, character } = s.range.end;
      bodies.set(open, {
        open,
        close: starts[line] + character - 1,
        closeLine: line,
        closeColumn: character - 1,
        rows: s.rows,
        decl: s,
      });
    }
  };
  visit(file.statements);
  return bodies;
}

/**
 * `decl` with the lines `first` to `lastOld` of its body — `oldText` — replaced by `newText`
 * (`delta` more lines), re-scanning only those rows; `moved` are the rows below, still to be
 * moved by `delta` lines. Undefined unless `decl` was scanned, the edit leaves its header and
 * braces alone, and both the old and the new lines are plain cells: a full parse would then
 * scan the block again, and scanning is line by line, so the other rows come out the same.
 */
export function editDataRows(
  decl: A.DataDecl,
  first: number,
  lastOld: number,
  delta: number,
  oldText: string,
  newText: string,
): { decl: A.DataDecl; moved: A.DataRow[] } | undefined {
  if (!scannedDecls.has(decl) || decl.header.length === 0) return undefined;
  if (first <= decl.header[0].range.start.line || lastOld >= decl.range.end.line) return undefined;
  const fresh = scanRows(oldText, first) && scanRows(newText, first);
  if (!fresh) return undefined;
  const below = rowIndex(decl.rows, lastOld + 1);
  const moved = decl.rows.slice(below);
  const rows = [...decl.rows.slice(0, rowIndex(decl.rows, first)), ...fresh, ...moved];
  const { end } = decl.range;
  const edited: A.DataDecl = {
    ...decl,
    rows,
    range: { start: decl.range.start, end: { line: end.line + delta, character: end.character } },
  };
  scannedDecls.add(edited);
  return { decl: edited, moved };
}

/** The first row on or after `line` (rows are sorted, one per line). */
function rowIndex(rows: readonly A.DataRow[], line: number): number {
  return firstAtOrAfter(rows.length, (i) => rows[i].range.start.line, line);
}

function dataDeclOf(tokens: readonly IToken[], lines: A.DataRow[]): A.DataDecl {
  const { header, rows } = headerAndRows(lines);
  const name: A.Name = { kind: 'name', text: tokens[1].image, range: tokenRange(tokens[1]) };
  return { kind: 'data', name, header, rows, range: tokenRange(tokens[0], tokens[tokens.length - 1]) };
}
