/**
 * Scanned data rows keep their cells in a compact store (see `dataCells.ts`). Every accessor
 * must say of a scanned row exactly what the grammar's plain row says, and the checker's
 * findings on data must stay exact — ranges included — after incremental edits move the rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRegion } from '../../../server/src/language/parse.js';
import { documentRange } from '../../../server/src/language/lines.js';
import { ScannedRow } from '../../../server/src/language/dataCells.js';
import { fullParse, reparse, type ParseState } from '../../../server/src/language/incremental.js';
import {
  cellCount,
  cellIsName,
  cellKind,
  cellNode,
  cellNumber,
  cellRange,
  cellText,
  check,
  type DataDecl,
  type DataRow,
  type Diagnostic,
} from '../../../server/src/language/index.js';
import { fakeEnv, random } from './helpers.js';

const cells = [
  'a',
  'b_2',
  'true',
  'from',
  '"x y"',
  '"q\\"uote"',
  '0',
  '12',
  '-3',
  '-0.5',
  '.25',
  '1e-3',
  '2.5E+2',
  '-0',
  '1e400',
  '?',
  '1abc',
];

function randomData(rnd: () => number, rows: number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const lines = ['data D {', '  A, B, C'];
  for (let r = 0; r < rows; r++) {
    const row = Array.from({ length: 1 + Math.floor(rnd() * 5) }, () => pick(cells));
    lines.push(
      ' '.repeat(Math.floor(rnd() * 3)) + row.join(rnd() < 0.7 ? ', ' : ' ') + (rnd() < 0.1 ? ' // note' : ''),
    );
  }
  return `${lines.join(rnd() < 0.2 ? '\r\n' : '\n')}\n}\n`;
}

function dataRows(text: string, scan: boolean): DataRow[] {
  const decl = parseRegion(text, 0, documentRange(text), scan).ast.statements[0] as DataDecl;
  return decl.rows;
}

test('the accessors read a scanned row as the grammar parses it', () => {
  const rnd = random(5);
  for (let i = 0; i < 100; i++) {
    const text = randomData(rnd, 1 + Math.floor(rnd() * 8));
    const scanned = dataRows(text, true);
    const parsed = dataRows(text, false);
    assert.ok(
      scanned.every((row) => row instanceof ScannedRow),
      `the scanner takes the block:\n${text}`,
    );
    assert.equal(scanned.length, parsed.length);
    scanned.forEach((row, r) => {
      const plain = parsed[r];
      assert.deepStrictEqual(row.range, plain.range);
      assert.deepStrictEqual(row.cells, plain.cells, `row ${r} of:\n${text}`);
      assert.equal(cellCount(row), plain.cells.length);
      for (let c = -1; c <= plain.cells.length; c++) {
        const where = `cell ${c} of row ${r}:\n${text}`;
        assert.equal(cellKind(row, c), cellKind(plain, c), where);
        assert.equal(cellKind(row, c), plain.cells[c]?.kind, where);
        assert.equal(cellText(row, c), cellText(plain, c), where);
        assert.ok(Object.is(cellNumber(row, c), cellNumber(plain, c)), where);
        assert.equal(cellIsName(row, c), cellIsName(plain, c), where);
        assert.deepStrictEqual(cellRange(row, c), plain.cells[c]?.range, where);
        assert.deepStrictEqual(cellNode(row, c), plain.cells[c], where);
      }
    });
  }
});

test('the accessors give the values the cells hold', () => {
  const [row] = dataRows('data D {\n  H\n  x, "a\\"b", -0.5, ?, 1e3\n}\n', true);
  assert.deepStrictEqual(
    [0, 1, 2, 3, 4].map((i) => cellText(row, i)),
    ['x', 'a"b', '-0.5', undefined, '1e3'],
  );
  assert.deepStrictEqual(
    [0, 1, 2, 3, 4].map((i) => cellKind(row, i)),
    ['ref', 'string', 'number', 'missing', 'number'],
  );
  assert.deepStrictEqual(
    [2, 4].map((i) => cellNumber(row, i)),
    [-0.5, 1000],
  );
  assert.deepStrictEqual(cellRange(row, 1), { start: { line: 2, character: 5 }, end: { line: 2, character: 11 } });
  assert.equal(cellNode(row, 5), undefined);
});

const model = (rows: string[]) =>
  [
    'variable Sky { Sunny, Rainy }',
    'variable x : real',
    '',
    'data D {',
    '  Sky, x, Wind',
    ...rows,
    '}',
    'query P(Sky)',
    '',
  ].join('\n');

function diagnosticsOf(state: ParseState): Diagnostic[] {
  return [...state.output.diagnostics, ...check(state.output.ast, fakeEnv()).diagnostics];
}

test('data findings stay exact, ranges included, as edits above and inside a block move its rows', () => {
  const rows = Array.from({ length: 300 }, (_, i) =>
    i % 50 === 7
      ? '  Cloudy, 1, Strong'
      : i % 50 === 9
        ? '  Sunny, big, Weak'
        : i % 50 === 11
          ? '  Rainy, 2'
          : `  ${i % 2 ? 'Sunny' : 'Rainy'}, ${i}.5, ${i % 3 ? 'Weak' : 'Strong'}`,
  );
  let state = fullParse(model(rows));
  const first = diagnosticsOf(state);
  assert.deepStrictEqual(
    first
      .filter((d) => d.code === 'unknown-state')
      .slice(0, 2)
      .map((d) => [d.range, d.message]),
    [
      [
        { start: { line: 12, character: 2 }, end: { line: 12, character: 8 } },
        "'Cloudy' is not a state of 'Sky' (Sunny, Rainy)",
      ],
      [{ start: { line: 14, character: 9 }, end: { line: 14, character: 12 } }, "'x' takes numbers, not 'big'"],
    ],
  );
  assert.equal(first.filter((d) => d.code === 'data-width').length, 6);
  const rnd = random(9);
  for (let step = 0; step < 30; step++) {
    const lines = state.text.split('\n');
    const at = step % 3 === 0 ? 2 : 6 + Math.floor(rnd() * 250); // a line above the block, or a row inside it
    if (step % 2 === 0) lines.splice(at, 0, at === 2 ? '' : '  Sunny, 3, Weak');
    else if (at === 2) lines.splice(at, 1, '// a comment', '');
    else lines.splice(at, 1);
    state = reparse(state, lines.join('\n'));
    const fresh = fullParse(state.text);
    assert.deepStrictEqual(diagnosticsOf(state), diagnosticsOf(fresh), `step ${step}`);
  }
});
