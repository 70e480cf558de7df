import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeCategorical } from '../../../../server/src/engine/categoricalData.js';
import { ANY, conceptExamples } from '../../../../server/src/engine/hypotheses/conjunctiveHypotheses.js';
import { conjunctionMdl } from '../../../../server/src/engine/hypotheses/conjunctionMdl.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';

/** Mitchell's EnjoySport examples (Table 2.1). */
const header = ['Sky', 'AirTemp', 'Humidity', 'Wind', 'Water', 'Forecast', 'Enjoy'];
const rows = [
  ['Sunny', 'Warm', 'Normal', 'Strong', 'Warm', 'Same', 'Yes'],
  ['Sunny', 'Warm', 'High', 'Strong', 'Warm', 'Same', 'Yes'],
  ['Rainy', 'Cold', 'High', 'Strong', 'Warm', 'Change', 'No'],
  ['Sunny', 'Warm', 'High', 'Strong', 'Cool', 'Change', 'Yes'],
];

function problem(data: string[][]) {
  return conceptExamples(encodeCategorical(header, data), header.slice(0, 6), 'Enjoy', 'Yes');
}

/** Independent brute force: every conjunction as a list of (attribute, value) literals, built recursively. */
function bruteForce(examples: string[][]): { min: number; best: string[] } {
  const domains = header.slice(0, 6).map((_, i) => [...new Set(examples.map((r) => r[i]!))]);
  const n = domains.reduce((s, d) => s + d.length, 0);
  const m = examples.length;
  let min = Infinity,
    best: string[] = [];
  const visit = (i: number, chosen: (string | null)[]) => {
    if (i === domains.length) {
      const literals = chosen.filter((c) => c !== null).length;
      const errors = examples.filter(
        (r) => chosen.every((c, j) => c === null || r[j] === c) !== (r[6] === 'Yes'),
      ).length;
      const bits = literals * Math.log2(n) + errors * Math.log2(m);
      const text = chosen.map((c) => c ?? '?').join(',');
      if (bits < min - 1e-9) {
        min = bits;
        best = [text];
      } else if (Math.abs(bits - min) <= 1e-9) best.push(text);
      return;
    }
    for (const v of [null, ...domains[i]!]) visit(i + 1, [...chosen, v]);
  };
  visit(0, []);
  return { min, best: best.sort() };
}

const text = (h: Int32Array, p: ReturnType<typeof problem>) =>
  [...h].map((v, i) => (v === ANY ? '?' : p.attributes[i]!.values[v]!)).join(',');

test('MDL over conjunctions (Mitchell ex. 6.5) matches brute force; on EnjoySport it prefers the inconsistent <?, …, ?>', () => {
  const p = problem(rows);
  const mdl = conjunctionMdl(p);
  const brute = bruteForce(rows);
  assert.equal(mdl.count, 3 * 3 * 3 * 2 * 3 * 3);
  assert.ok(Math.abs(mdl.best[0]!.totalBits - brute.min) < 1e-12);
  assert.deepEqual(mdl.best.map((l) => text(l.constraints, p)).sort(), brute.best);
  // 11 literals, 4 examples: ⟨?, …, ?⟩ misclassifies the one negative day (log2 4 = 2 bits) and beats
  // the consistent one-literal ⟨Sunny, ?, …⟩ and ⟨?, Warm, …⟩ (log2 11 = 3.46 bits): ex. 6.5(b).
  assert.deepEqual(brute.best, ['?,?,?,?,?,?']);
  assert.equal(mdl.best[0]!.totalBits, 2);
  assert.ok(Math.abs(mdl.literalBits - Math.log2(11)) < 1e-15);
  assert.deepEqual(
    mdl.shortest.slice(1, 3).map((l) => [l.literals, l.errors]),
    [
      [1, 0],
      [1, 0],
    ],
  );
});

test('MDL over conjunctions: more negatives, the same choice as brute force', () => {
  const more = [
    ...rows,
    ['Rainy', 'Warm', 'High', 'Strong', 'Cool', 'Change', 'No'],
    ['Sunny', 'Cold', 'High', 'Strong', 'Warm', 'Same', 'No'],
    ['Rainy', 'Cold', 'Normal', 'Strong', 'Cool', 'Same', 'No'],
  ];
  const p = problem(more);
  const mdl = conjunctionMdl(p);
  const brute = bruteForce(more);
  assert.ok(Math.abs(mdl.best[0]!.totalBits - brute.min) < 1e-12);
  assert.deepEqual(mdl.best.map((l) => text(l.constraints, p)).sort(), brute.best);
  assert.notDeepEqual(brute.best, ['?,?,?,?,?,?']);
});

test('MDL over conjunctions stops when cancelled', () => {
  assert.throws(() => conjunctionMdl(problem(rows), 20, { aborted: true }), CancelledError);
});
