/** The checker on continuous variables: `P(X | …) ~ Normal(mean: m, variance: v, Parent: b)`. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brief, diagnose, r } from './helpers.js';
import { parseDocument, type Range } from '../../../server/src/language/index.js';
import { rename } from '../../../server/src/features/rename.js';
import { formatText } from '../../../server/src/features/formatting.js';
import { completion } from '../../../server/src/features/completion.js';

const errors = (text: string) => diagnose(text).map((d) => [d.code, d.message, d.range]);

test('a linear Gaussian network checks clean', () => {
  const text = `variable Height, Weight : real
variable Sex { male, female }
P(Sex) { male: 0.5, female: 0.5 }
P(Height) ~ Normal(mean: 170, variance: 49)
P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)
`;
  assert.deepEqual(brief(diagnose(text)), []);
});

test('variance > 0, coefficients on continuous parents only, discrete parents refused, on their ranges', () => {
  const text = `variable X, Y : real
variable S { a, b }
P(S) { a: 0.5, b: 0.5 }
P(X) ~ Normal(mean: 0, variance: 0)
P(Y | X, S) ~ Normal(mean: 1, Z: 2, variance: 1)
`;
  assert.deepEqual(errors(text), [
    ['bad-number', 'a variance must be greater than 0, not 0', r(3, 33, 3, 34)],
    [
      'not-continuous',
      "'S' is discrete: give one regression per state, in rows — P(Y | …) { a: Normal(…), … }",
      r(4, 9, 4, 10),
    ],
    [
      'arguments',
      "'Z' is not a continuous parent of this table: a coefficient names a 'real' variable after '|'",
      r(4, 30, 4, 31),
    ],
  ]);
});

test('a discrete variable with a continuous parent: an error on that parent, with the CLG reason', () => {
  const text = `variable X : real
variable S { a, b }
P(X) ~ Normal(mean: 0, variance: 1)
P(S | X) { a: [0.5, 0.5] }
`;
  assert.deepEqual(errors(text), [
    [
      'continuous-parent',
      "'X' is continuous: in CLG networks a discrete variable may not have a continuous parent",
      r(3, 6, 3, 7),
    ],
  ]);
});

test('Normal(…) on a discrete variable, a missing variance, and a rows table for a real variable', () => {
  const text = `variable X : real
variable S { a, b }
P(S) ~ Normal(mean: 0, variance: 1)
P(X) ~ Normal(mean: 0)
`;
  assert.deepEqual(errors(text), [
    ['not-continuous', "'S' has states; Normal(…) gives the density of a 'real' variable", r(2, 2, 2, 3)],
    ['arguments', "Normal(…) needs 'variance: NUMBER'", r(3, 7, 3, 22)],
  ]);
  const rows = diagnose('variable X : real\nP(X) = 0.5').filter((d) => d.code === 'not-discrete');
  assert.match(rows[0]!.message, /Normal\(mean: m, variance: v\)/);
});

test('renaming a continuous parent renames its coefficient; formatting keeps Normal tables', () => {
  const text = `variable Height, Weight : real
P(Height) ~ Normal(mean: 170, variance: 49)
P(Weight | Height) ~ Normal(mean: -10, Height: 0.5, variance: 4)
`;
  const file = parseDocument(text).ast;
  const edit = rename(file, 'file:///g.bayes', { line: 0, character: 10 }, 'Stature');
  const renamed = applyEdits(text, edit.changes!['file:///g.bayes']!);
  assert.equal(
    renamed,
    `variable Stature, Weight : real
P(Stature) ~ Normal(mean: 170, variance: 49)
P(Weight | Stature) ~ Normal(mean: -10, Stature: 0.5, variance: 4)
`,
  );
  assert.deepEqual(brief(diagnose(renamed)), []);
  assert.equal(formatText(parseDocument(text).ast, text), text);
});

/** Applies same-line edits from the last to the first. */
function applyEdits(text: string, edits: { range: Range; newText: string }[]): string {
  const lines = text.split('\n');
  for (const e of [...edits].sort((a, b) => b.range.start.character - a.range.start.character)) {
    const line = lines[e.range.start.line]!;
    lines[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
  }
  return lines.join('\n');
}

const CLG = `variable Sex { male, female }
variable Smoker : bool
variable Height, Weight : real
P(Sex) { male: 0.5, female: 0.5 }
P(Smoker) = 0.2
P(Height | Sex) { male: Normal(mean: 178, variance: 49), female: Normal(mean: 165, variance: 36) }
P(Weight | Sex, Smoker, Height) {
  male,   true:  Normal(mean: -90, Height: 0.95, variance: 36)
  male,   false: Normal(mean: -95, Height: 0.98, variance: 30)
  female, true:  Normal(mean: -70, Height: 0.8, variance: 25)
  female, false: Normal(mean: -72, Height: 0.82, variance: 25)
}
`;

test('a conditional linear Gaussian table (rows per configuration of the discrete parents) checks clean', () => {
  assert.deepEqual(brief(diagnose(CLG)), []);
  // formatting is a fixed point of the aligned rows
  assert.equal(formatText(parseDocument(CLG).ast, CLG), CLG);
});

test('CLG rows: missing configurations on the head, duplicates, widths, states and variances on their ranges', () => {
  const text = `variable S { a, b }
variable T : bool
variable X, Y : real
P(S) { a: 0.5, b: 0.5 }
P(T) = 0.5
P(X) ~ Normal(mean: 0, variance: 1)
P(Y | S, X, T) {
  a, true: Normal(mean: 1, X: 2, variance: 0)
  a, true: Normal(mean: 1, variance: 1)
  c, false: Normal(mean: 1, variance: 1)
  b: Normal(mean: 1, variance: 1)
  b, false: [0.5, 0.5]
}
`;
  assert.deepEqual(errors(text), [
    ['bad-number', 'a variance must be greater than 0, not 0', r(7, 43, 7, 44)],
    ['duplicate-row', 'there is already a regression for S = a, T = true', r(8, 2, 8, 39)],
    ['unknown-state', "'c' is not a state of 'S' (a, b)", r(9, 2, 9, 3)],
    ['row-width', 'this row gives 1 parent value but the table has 2 discrete parents (S, T)', r(10, 2, 10, 3)],
    [
      'row-width',
      "each row of a continuous variable's table is a regression: Normal(mean: m, variance: v, …)",
      r(11, 2, 11, 22),
    ],
    ['missing-row', 'no row for S = a, T = false; S = b, T = true; S = b, T = false', r(6, 0, 6, 14)],
  ]);
});

test('~ Normal(…) with a discrete parent points to the rows form; a discrete table with Normal rows is refused', () => {
  const text = `variable S { a, b }
variable X : real
P(S) { a: Normal(mean: 0, variance: 1), b: Normal(mean: 1, variance: 1) }
P(X | S) ~ Normal(mean: 0, variance: 1)
`;
  assert.deepEqual(errors(text), [
    ['not-continuous', "'S' has states; Normal(…) gives the density of a 'real' variable", r(2, 2, 2, 3)],
    [
      'not-continuous',
      "'S' is discrete: give one regression per state, in rows — P(X | …) { a: Normal(…), … }",
      r(3, 6, 3, 7),
    ],
  ]);
});

test('renaming in a CLG table: a discrete parent state renames its row keys, a continuous parent its coefficients', () => {
  const file = () => parseDocument(CLG).ast;
  const byState = rename(file(), 'file:///c.bayes', { line: 0, character: 16 }, 'man');
  const keys = byState.changes!['file:///c.bayes']!.map((e) => e.range.start.line).sort((a, b) => a - b);
  assert.deepEqual(keys, [0, 3, 5, 7, 8]);
  const byParent = applyEdits(
    CLG,
    rename(file(), 'file:///c.bayes', { line: 2, character: 10 }, 'Stature').changes!['file:///c.bayes']!,
  );
  assert.equal((byParent.match(/Stature/g) ?? []).length, 7);
  assert.equal((byParent.match(/Height/g) ?? []).length, 0);
  assert.deepEqual(brief(diagnose(byParent)), []);
});

test('completion in a CLG table: the discrete parents’ states as keys, Normal(…) with a coefficient per continuous parent, its argument names', () => {
  const text = `variable Sex { male, female }
variable Height, Weight : real
P(Sex) { male: 0.5, female: 0.5 }
P(Height | Sex) { male: Normal(mean: 1, variance: 1), female: Normal(mean: 1, variance: 1) }
P(Weight | Height, Sex) {
  male: Normal(mean: 1, Height: 0.5, variance: 1)
  
  female: 
}
`;
  const at = (line: number, character: number, t = text) =>
    completion(parseDocument(t).ast, t, { line, character }).map((c) => c.insertText ?? c.label);
  assert.deepEqual(at(6, 2), ['male', 'female']);
  assert.deepEqual(at(7, 10), ['Normal(mean: ${1:0}, Height: ${2:0}, variance: ${3:1})']);
  const inside = text.replace('  female: \n', '  female: Normal(\n');
  assert.deepEqual(at(7, 17, inside), ['mean: ', 'variance: ', 'Height: ']);
});
