/**
 * Editor features on scanned data rows, whose cells live in a compact store (dataCells.ts) and
 * are never occurrences of the name index each: they must give what the grammar's cell nodes
 * give. The reference is the same text parsed without the scanner (every cell a node, every
 * name cell an occurrence), and for semantic tokens the way they were computed before: the
 * whole text lexed, each token looked up among all occurrences by its start.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IToken } from 'chevrotain';
import type * as A from '../../../server/src/language/index.js';
import { documentRange, fullParse, parseDocument, reparse, ScannedRow } from '../../../server/src/language/index.js';
import { parseRegion } from '../../../server/src/language/parse.js';
import { Identifier, NumberLit, StringLit } from '../../../server/src/language/tokens.js';
import { tokenize } from '../../../server/src/language/lexer.js';
import { nameIndex } from '../../../server/src/language/index.js';
import { semanticTokens, TOKEN_MODIFIERS, TOKEN_TYPES } from '../../../server/src/features/semanticTokens.js';
import { references } from '../../../server/src/features/navigation.js';
import { rename } from '../../../server/src/features/rename.js';
import { hover } from '../../../server/src/features/hover.js';
import { decodeSemanticTokens, positionOf } from '../../support/edits.js';
import { repoRoot } from '../../support/shared.js';

/** Every kind of cell: declared and undeclared columns, bool values, keywords as values, numbers (negative too),
 * strings, `?`, comments, stray cells. */
const MODEL = `/// Patients.
variable Test { pos, neg }
variable Sick : bool
network N {
  variable Weather { sunny, map, rain }
  data Inner {
    Weather, Sick
    map, true
    sunny, false  // a comment
  }
}
data Patients {
  Test, Sick, Age, Ward, Note, Test
  pos, true, 34, east, "first visit", neg
  neg, false, -2.5e1, west, "x", pos
  ?, ?, 0.5, data, "", map, posx

  // blank and comment lines
  pos, yes, .5, east, "a, b", neg, extra, 7, in
}
data Patients2 { Test
  neg
  pos }
query P(Test = pos | Sick = true)
`;

function generated(rows: number): string {
  const states = ['pos', 'neg'];
  const lines = [
    'variable Test { pos, neg }',
    'variable Level { low, mid, high }',
    'data Big {',
    '  Test, Level, Free, Score',
  ];
  for (let i = 0; i < rows; i++)
    lines.push(`  ${states[i % 2]}, ${['low', 'mid', 'high', '?'][i % 4]}, v${i % 7}, ${(i * 0.37 - 20).toFixed(2)}`);
  lines.push('}', 'query P(Level | Test = pos)');
  return lines.join('\n') + '\n';
}

const examples = join(repoRoot, 'examples');
const texts: [string, string][] = [
  ['every kind of cell', MODEL],
  ['generated rows', generated(500)],
  ...readdirSync(examples)
    .filter((f) => f.endsWith('.bayes'))
    .map((f): [string, string] => [f, readFileSync(join(examples, f), 'utf8')]),
];

/** The parse without the scanner: data rows as grammar nodes. */
function unscanned(text: string): A.BayesFile {
  return parseRegion(text, 0, documentRange(text), false).ast;
}

function countScanned(statements: A.Statement[]): number {
  return statements.reduce(
    (n, s) =>
      n +
      (s.kind === 'network'
        ? countScanned(s.statements)
        : s.kind === 'data'
          ? s.rows.filter((r) => r instanceof ScannedRow).length
          : 0),
    0,
  );
}

/** Semantic tokens as computed before the cell store: the whole text lexed, each token looked up by its start among
 * all occurrences. */
function referenceTokens(file: A.BayesFile, text: string): number[] {
  const lexed = tokenize(text);
  const byStart = new Map<string, { type: number; modifiers: number }>();
  const bit = (m: (typeof TOKEN_MODIFIERS)[number]) => 1 << TOKEN_MODIFIERS.indexOf(m);
  const type = (t: (typeof TOKEN_TYPES)[number]) => TOKEN_TYPES.indexOf(t);
  const kinds = {
    variable: 'variable',
    state: 'enumMember',
    hypotheses: 'type',
    hypothesis: 'enumMember',
    network: 'namespace',
    data: 'struct',
    column: 'property',
    corpus: 'struct',
    classifier: 'class',
    mixture: 'class',
  } as const;
  for (const o of nameIndex(file).occurrences) {
    const builtIn = !o.symbol.declaration && o.symbol.owner?.kind === 'variable';
    byStart.set(`${o.name.range.start.line}:${o.name.range.start.character}`, {
      type: type(kinds[o.symbol.kind]),
      modifiers: (o.declaration ? bit('declaration') : 0) | (builtIn ? bit('defaultLibrary') : 0),
    });
  }
  const lexical = (t: IToken, next: IToken | undefined) => {
    if (t.tokenType === NumberLit) return { type: type('number'), modifiers: 0 };
    if (t.tokenType === StringLit) return { type: type('string'), modifiers: 0 };
    if (t.tokenType.name === 'DocComment') return { type: type('comment'), modifiers: bit('documentation') };
    if (t.tokenType !== Identifier && !t.tokenType.CATEGORIES?.includes(Identifier)) return undefined;
    if (next?.image === '(' && t.image !== 'P') return { type: type('function'), modifiers: bit('defaultLibrary') };
    if (next?.image === ':') return { type: type('property'), modifiers: 0 };
    return t.tokenType !== Identifier ? { type: type('keyword'), modifiers: 0 } : undefined;
  };
  const tokens = [...lexed.tokens, ...(lexed.groups.doc ?? [])].sort((a, b) => a.startOffset - b.startOffset);
  const data: number[] = [];
  let line = 0,
    character = 0;
  tokens.forEach((t, i) => {
    const l = t.startLine! - 1,
      c = t.startColumn! - 1;
    const found = byStart.get(`${l}:${c}`) ?? lexical(t, tokens[i + 1]);
    if (!found) return;
    data.push(l - line, l === line ? c - character : c, t.image.length, found.type, found.modifiers);
    [line, character] = [l, c];
  });
  return data;
}

const decode = (data: number[], text: string) =>
  decodeSemanticTokens(data, text, [...TOKEN_TYPES], [...TOKEN_MODIFIERS]);

test('semantic tokens of scanned data rows equal those of the grammar path, computed the old way', () => {
  let cells = 0;
  for (const [label, text] of texts) {
    const scanned = parseDocument(text).ast;
    const expected = decode(referenceTokens(unscanned(text), text), text);
    assert.deepEqual(decode(semanticTokens(scanned, text).data, text), expected, label);
    assert.deepEqual(
      decode(semanticTokens(unscanned(text), text).data, text),
      expected,
      `${label}, without the scanner`,
    );
    cells += countScanned(scanned.statements);
  }
  assert.ok(cells > 500, `only ${cells} scanned rows compared`);
  // The model above must really exercise the scanned path for every block.
  assert.equal(countScanned(parseDocument(MODEL).ast.statements), 8);
});

test('semantic tokens of a range are the full tokens on its lines', () => {
  const text = generated(200);
  const file = parseDocument(text).ast;
  const full = decode(semanticTokens(file, text).data, text);
  for (const [start, end] of [
    [0, 3],
    [50, 90],
    [195, 400],
  ]) {
    const range = { start: { line: start, character: 0 }, end: { line: end, character: 0 } };
    assert.deepEqual(
      decode(semanticTokens(file, text, range).data, text),
      full.filter((t) => t.line >= start && t.line <= end),
      `lines ${start}–${end}`,
    );
  }
});

test('the name index resolves every name cell of scanned rows as the grammar path does', () => {
  for (const [label, text] of texts) {
    const scanned = nameIndex(parseDocument(text).ast);
    const reference = nameIndex(unscanned(text));
    for (const o of reference.occurrences) {
      for (const p of [o.name.range.start, o.name.range.end]) {
        const found = scanned.at(p);
        const where = `${label}:${p.line + 1}:${p.character + 1} '${o.name.text}'`;
        assert.equal(found?.symbol.id, reference.at(p)?.symbol.id, where);
        assert.deepEqual(found?.name.range, reference.at(p)?.name.range, where);
      }
      const uses = (index: typeof scanned) =>
        index.uses(index.at(o.name.range.start)!.symbol).map((u) => [u.name.range, u.declaration]);
      if (o.symbol.kind === 'state')
        assert.deepEqual(uses(scanned), uses(reference), `uses of ${o.symbol.id} in ${label}`);
    }
    const states = (index: typeof scanned) =>
      [...index.symbols.values()].map((s) => `${s.id}: ${s.states?.map((x) => x.name).join(',')}`);
    assert.deepEqual(states(scanned), states(reference), label);
  }
});

test('references, rename and hover of a value used in every row of a big data block', () => {
  const text = generated(4000);
  const file = parseDocument(text).ast;
  const cell = positionOf(text, '  neg, mid', 100, 2);
  const uri = 'file:///big.bayes';
  const refs = references(file, uri, cell, true);
  assert.equal(refs.length, 1 + 2000, 'the declaration and 2000 cells');
  assert.deepEqual(refs[1].range, { start: { line: 5, character: 2 }, end: { line: 5, character: 5 } });
  const edit = rename(file, uri, cell, 'negative');
  assert.equal(edit.changes![uri].length, 2001);
  assert.ok(
    edit.changes![uri].every(
      (e) => text.split('\n')[e.range.start.line].slice(e.range.start.character, e.range.end.character) === 'neg',
    ),
  );
  assert.equal((hover(file, cell, undefined)!.contents as { value: string }).value, 'value **neg** of Test');
  const free = hover(file, positionOf(text, 'v3,', 0, 1), undefined);
  assert.equal((free!.contents as { value: string }).value, 'value **v3** of Free');
});

test('after incremental edits inside scanned rows, semantic tokens and the name index still match the grammar path', () => {
  let state = fullParse(MODEL);
  const edits: [string, string][] = [
    ['  neg, false, -2.5e1', '  neg, false, -2.5e1, extra'], // a cell more
    ['    map, true\n', '    map, true\n    rain, false\n'], // a row more, in a network's block
    ['  pos, true, 34, east', '  neg, true, 34, west'], // values swapped
    ['"first visit"', '"second visit"'], // a string cell, longer
  ];
  for (const [from, to] of edits) {
    assert.ok(state.text.includes(from), from);
    const text = state.text.replace(from, to);
    state = reparse(state, text);
    const file = state.output.ast;
    assert.ok(countScanned(file.statements) >= 8, `still scanned after '${to}'`);
    assert.deepEqual(
      decode(semanticTokens(file, text, undefined, state.starts).data, text),
      decode(referenceTokens(unscanned(text), text), text),
      to,
    );
    const cell = positionOf(text, to.trim().split(',')[0]);
    assert.equal(nameIndex(file).at(cell)?.symbol.id, nameIndex(unscanned(text)).at(cell)?.symbol.id, to);
  }
});
