/**
 * The data-body scanner must give exactly the AST and diagnostics the lexer and grammar give.
 * Seeded random data blocks — names, keywords, quoted names with escapes, numbers with signs,
 * exponents, fractions and percentages, `?`, comments, CRLF, broken cells — are parsed with
 * and without the scanner and compared; the scanner must also really take the plain bodies.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse, parseRegion } from '../../../server/src/language/parse.js';
import { lexAround, scanDataBlocks } from '../../../server/src/language/dataScan.js';
import { tokenize } from '../../../server/src/language/lexer.js';
import { documentRange } from '../../../server/src/language/lines.js';
import { plainAst, random } from './helpers.js';

const plainCells = [
  'a',
  'b_2',
  'true',
  'false',
  'data',
  'from',
  'P',
  '"x y"',
  '"q\\"uote"',
  '0',
  '12',
  '-3',
  '-0.5',
  '.25',
  '1e-3',
  '2.5E+2',
  '?',
  '1abc',
];
const oddCells = ['1/2', '50%', '- 4', '/', '"open', '(', '{', '///doc', '/* c */', '≈', '->', '1..2', 'x.y'];

function randomBlock(rnd: () => number, odd: boolean): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const eol = rnd() < 0.2 ? '\r\n' : '\n';
  const rows: string[] = [];
  for (let r = 0; r < 1 + Math.floor(rnd() * 6); r++) {
    const cells: string[] = [];
    for (let c = 0; c < 1 + Math.floor(rnd() * 5); c++)
      cells.push(odd && rnd() < 0.1 ? pick(oddCells) : pick(plainCells));
    const sep = rnd() < 0.7 ? ', ' : ' ';
    rows.push('  '.repeat(Math.floor(rnd() * 2)) + cells.join(sep) + (rnd() < 0.1 ? ' // note' : ''));
  }
  const name = pick(['D', 'data', 'Rows']);
  const close = rnd() < 0.8 ? `${eol}}` : ' }';
  return `data ${name} {${rnd() < 0.2 ? ' a, b' : ''}${eol}${rows.join(eol)}${close}${eol}`;
}

function both(text: string) {
  const range = documentRange(text);
  const scanned = parseRegion(text, 0, range);
  const lexed = parseRegion(text, 0, range, false);
  return { scanned, lexed };
}

test('scanned data bodies parse exactly as the grammar parses them', () => {
  const rnd = random(11);
  for (let i = 0; i < 400; i++) {
    const text = `variable A : bool\n${randomBlock(rnd, i % 2 === 1)}${rnd() < 0.3 ? 'query P(A)\n' : ''}${randomBlock(rnd, false)}`;
    const { scanned, lexed } = both(text);
    assert.deepStrictEqual(plainAst(scanned), plainAst(lexed), `case ${i}:\n${text}`);
  }
});

test('the scanner takes plain bodies and leaves odd ones to the grammar', () => {
  const text = 'data D {\n  a, b\n  -1, "x"\n}\ndata E {\n  a\n  1/2\n}\n';
  const blocks = scanDataBlocks(text, 0);
  assert.deepStrictEqual([...blocks.keys()], [text.indexOf('{')]);
  assert.deepStrictEqual(
    [...blocks.values()].map((b) => [b.close, b.closeLine, b.closeColumn]),
    [[text.indexOf('}'), 3, 0]],
  );
  const rows = parse(text).ast.statements.map((s) =>
    s.kind === 'data' ? s.rows.map((r) => r.cells.map((c) => (c.kind === 'number' ? c.value : c.kind))) : [],
  );
  assert.deepStrictEqual(rows, [[[-1, 'string']], [[0.5]]]);
});

test('a bad cell in a scanned-size block is one diagnostic on its exact range', () => {
  const text = 'data D {\n  a, b\n  1, 2\n  3, $\n  4, 5\n}\n';
  const out = parse(text);
  assert.deepStrictEqual(
    out.diagnostics.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character]),
    [[3, 5, 6]],
  );
  const data = out.ast.statements[0];
  assert.ok(data.kind === 'data');
  assert.equal(data.rows.length, 3);
});

test('a data header inside an open bracket is not taken as a block of its own', () => {
  const text = 'query P(A\n  data D {\n    a\n    1\n  }\n';
  const { scanned, lexed } = both(text);
  assert.deepStrictEqual(scanned, lexed);
});

/** The text with the scanned bodies blanked (line breaks kept): the lexer's tokens must be where `lexAround` puts
 * them. */
function blanked(text: string, blocks: ReturnType<typeof scanDataBlocks>): string {
  let out = text;
  for (const b of blocks.values())
    out = out.slice(0, b.open + 1) + out.slice(b.open + 1, b.close).replace(/[^\r\n]/g, ' ') + out.slice(b.close);
  return out;
}

test('lexing around the scanned bodies gives the tokens, doc comments and errors of lexing the whole text', () => {
  const rnd = random(23);
  const brief = (lexed: ReturnType<typeof tokenize>) => ({
    tokens: lexed.tokens.map((t) => [t.image, t.tokenType.name, t.startOffset, t.startLine, t.startColumn]),
    doc: (lexed.groups.doc ?? []).map((t) => [t.image, t.startOffset, t.startLine, t.startColumn]),
    errors: lexed.errors.map((e) => [e.offset, e.line, e.column, e.length]),
  });
  let scannedSome = 0;
  for (let i = 0; i < 300; i++) {
    const after = ['', 'query P(A) $\n', '/// doc\nvariable B : bool }\n', ' x, y\n'][i % 4];
    const text = `/// A\nvariable A : bool\n${randomBlock(rnd, i % 3 === 1)}${after}${randomBlock(rnd, false).replace(/\n$/, ' data')} ${randomBlock(rnd, false)}`;
    const blocks = scanDataBlocks(text, 0);
    scannedSome += blocks.size;
    assert.deepStrictEqual(
      brief(lexAround(text, blocks)),
      brief(tokenize(blanked(text, blocks))),
      `case ${i}:\n${text}`,
    );
  }
  assert.ok(scannedSome > 300, `the scanner took ${scannedSome} blocks`);
});
