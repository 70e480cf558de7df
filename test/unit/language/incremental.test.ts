/**
 * Incremental re-parsing must give exactly what a full parse gives. Seeded random edits —
 * lines and characters inserted, deleted and replaced, pieces of syntax that break statements,
 * and undo of earlier edits that repairs them — are applied one after another to every example
 * and to a generated 10,000-line model; after each, the incremental AST and diagnostics are
 * compared with a fresh parse of the new text.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parse } from '../../../server/src/language/parse.js';
import { fullParse, reparse, type ParseState } from '../../../server/src/language/incremental.js';
import { lineStarts } from '../../../server/src/language/lines.js';
import { examples, plainAst, random } from './helpers.js';

const sources = examples();

const pieces = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ',',
  ':',
  '|',
  '=',
  '?',
  '"',
  '///',
  ' x',
  '\n',
  '\r\n',
  'P(',
  'query ',
  'network N {',
  'data D {',
  'variable ',
  'expect ',
  '0.5',
  '-',
  '/*',
  '*/',
  '\n}\n',
  'given ',
  '\n  true, false\n',
];

/** One random edit of `text`: characters or whole lines, inserted, deleted or replaced. */
function edit(text: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const at = Math.floor(rnd() * (text.length + 1));
  switch (Math.floor(rnd() * 6)) {
    case 0:
      return text.slice(0, at) + pick(pieces) + text.slice(at);
    case 1:
      return text.slice(0, at) + text.slice(at + 1 + Math.floor(rnd() * 8));
    case 2:
      return text.slice(0, at) + pick(pieces) + text.slice(at + 1 + Math.floor(rnd() * 3));
    default: {
      const lines = text.split('\n');
      const line = Math.floor(rnd() * lines.length);
      const kind = Math.floor(rnd() * 3);
      if (kind === 0)
        lines.splice(line, 0, lines[Math.floor(rnd() * lines.length)]); // duplicate a line elsewhere
      else if (kind === 1) lines.splice(line, 1 + Math.floor(rnd() * 3));
      else lines[line] = lines[line].replace(/\d/, () => String(Math.floor(rnd() * 10)));
      return lines.join('\n');
    }
  }
}

/** Applies `steps` edits in a row (a third of them undo the previous edit), checking each. */
function checkEdits(name: string, text: string, seed: number, steps: number, change = edit): void {
  const rnd = random(seed);
  let state: ParseState = fullParse(text);
  const history: string[] = [text];
  for (let step = 0; step < steps; step++) {
    const next = history.length > 1 && rnd() < 0.3 ? history[history.length - 2] : change(state.text, rnd);
    history.push(next);
    state = reparse(state, next);
    const fresh = parse(next);
    const where = `${name}, seed ${seed}, step ${step}`;
    assert.deepStrictEqual(state.starts, lineStarts(next), `line starts differ: ${where}`);
    assert.deepStrictEqual(state.output.diagnostics, fresh.diagnostics, `diagnostics differ: ${where}`);
    assert.deepStrictEqual(plainAst(state.output.ast), plainAst(fresh.ast), `AST differs: ${where}`);
  }
}

test('incremental parse equals a full parse after random edits of every example', () => {
  for (const [name, text] of sources) {
    for (let seed = 1; seed <= 3; seed++) checkEdits(name, text, seed, 25);
  }
});

/** A 10,000-line model: the examples one after another, repeated. */
function bigModel(): string {
  const out: string[] = [];
  for (let i = 0; out.length < 10_000; i++) out.push(...sources[i % sources.length][1].split('\n'));
  return out.slice(0, 10_000).join('\n');
}

test('incremental parse equals a full parse after random edits of a 10,000-line model', () => {
  checkEdits('10,000 lines', bigModel(), 7, 8);
});

test('an edit inside one statement re-parses only around it', () => {
  const text = bigModel();
  const before = fullParse(text);
  const at = text.indexOf('0.008');
  const after = reparse(before, text.slice(0, at) + '0.009' + text.slice(at + 5));
  const i = before.output.ast.statements.findIndex((s) => s.range.end.line >= text.slice(0, at).split('\n').length);
  // Statements away from the edit are the very same objects (kept, not re-parsed).
  assert.equal(after.output.ast.statements[0], before.output.ast.statements[0]);
  assert.equal(after.output.ast.statements.at(-1), before.output.ast.statements.at(-1));
  assert.notEqual(after.output.ast.statements[i], before.output.ast.statements[i]);
  assert.deepStrictEqual(plainAst(after.output.ast), plainAst(parse(after.text).ast));
});

test('an edit in the statement above a data block leaves the block as it was', () => {
  const text = 'variable A : bool\nquery P(A)\n\ndata D {\n  A\n  true\n  false\n}\n';
  const before = fullParse(text);
  const after = reparse(before, text.replace('query P(A)', 'query P(A = true)'));
  assert.equal(after.output.ast.statements[2], before.output.ast.statements[2]);
  assert.deepStrictEqual(plainAst(after.output.ast), plainAst(parse(after.text).ast));
  // Left open, a bracket swallows a block indented deeper than its statement (see chunks.ts).
  const indented = text.replace('\ndata D', '\n  data D');
  const broken = reparse(fullParse(indented), indented.replace('query P(A)', 'query P(A'));
  const fresh = parse(broken.text);
  assert.equal(fresh.ast.statements.length, 2);
  assert.deepStrictEqual(
    plainAst([broken.output.ast, broken.output.diagnostics]),
    plainAst([fresh.ast, fresh.diagnostics]),
  );
});

const cellPieces = [
  'a',
  'b',
  'true',
  '-1.5',
  '2e3',
  '"q"',
  '?',
  ', ',
  ' ',
  '',
  '1/2',
  '50%',
  '-',
  '/',
  '//',
  '///',
  '"',
  '{',
  '}',
  '\n',
  '\r\n',
  'query',
  'data',
  'P',
  '/*',
];

/** A data model: variables, a block of rows (some indented, some commented), a query after it. */
function dataModel(rows: number): string {
  const lines = ['variable A : bool', 'variable B : {x, y, z}', '', '/// the data', 'data D {', '  A, B, C'];
  const rnd = random(3);
  for (let i = 0; i < rows; i++)
    lines.push(
      `  ${rnd() < 0.5 ? 'true' : 'false'}, ${['x', 'y', 'z', '?'][Math.floor(rnd() * 4)]}, ${(rnd() * 10 - 5).toFixed(2)}${i % 7 === 0 ? ' // note' : ''}`,
    );
  lines.push('}', '', 'query P(A | B = x)', 'data E {', '  B', '  y', '}');
  return lines.join('\n');
}

/** One random edit of the rows of a data block: characters, cells and whole lines, plain and odd. */
function dataEdit(text: string, rnd: () => number): string {
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const lines = text.split('\n');
  const line = 6 + Math.floor(rnd() * Math.max(1, lines.length - 14));
  const row = lines[line] ?? '';
  const at = Math.floor(rnd() * (row.length + 1));
  switch (Math.floor(rnd() * 5)) {
    case 0:
      lines[line] = row.slice(0, at) + pick(cellPieces) + row.slice(at);
      break;
    case 1:
      lines[line] = row.slice(0, at) + row.slice(at + 1 + Math.floor(rnd() * 4));
      break;
    case 2:
      lines.splice(line, 0, lines[6 + Math.floor(rnd() * 20)] ?? '');
      break;
    case 3:
      lines.splice(line, 1 + Math.floor(rnd() * 3));
      break;
    default:
      lines[line] = row.replace(/-?\d+(\.\d+)?/, () => (rnd() * 10 - 5).toFixed(1));
  }
  return lines.join('\n');
}

test('incremental parse equals a full parse after random edits inside data blocks', () => {
  for (let seed = 1; seed <= 6; seed++) checkEdits('data rows', dataModel(60), seed, 40, dataEdit);
});

test('a keystroke inside a data block scans only its rows again', () => {
  const text = dataModel(2000);
  const before = fullParse(text);
  const data = before.output.ast.statements[2];
  assert.ok(data.kind === 'data');
  const firstRow = data.rows[0];
  const at = text.indexOf('\n', text.indexOf('\n', text.length / 2) + 1) + 3; // inside a row mid-block
  const after = reparse(before, `${text.slice(0, at)}1${text.slice(at)}`);
  const edited = after.output.ast.statements[2];
  assert.ok(edited.kind === 'data');
  assert.equal(edited.rows[0], firstRow, 'the rows above the edit are kept, not scanned again');
  assert.equal(after.output.ast.statements[4], before.output.ast.statements[4]);
  assert.deepStrictEqual(
    plainAst([after.output.ast, after.output.diagnostics]),
    plainAst([parse(after.text).ast, parse(after.text).diagnostics]),
  );
});
