import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  factorProduct,
  productOf,
  projectOnto,
  sumProductOut,
  tablePool,
  reduceFactor,
  sumOut,
  maxOut,
  indexMap,
  runIndexMap,
  runIndexMapEntries,
  zeroOtherStates,
  type Factor,
} from '../../../../server/src/engine/factors/factor.js';
import { createRng } from '../../../../server/src/engine/random.js';

// φ1(A, B) with A ∈ {0,1,2}, B ∈ {0,1}; φ2(B, C) with C ∈ {0,1} (Koller & Friedman fig. 4.3 shape).
const f1: Factor = { vars: [0, 1], cards: [3, 2], values: Float64Array.of(0.5, 0.8, 0.1, 0, 0.3, 0.9) };
const f2: Factor = { vars: [1, 2], cards: [2, 2], values: Float64Array.of(0.5, 0.7, 0.1, 0.2) };

test('factor product multiplies matching entries (checked entry by entry)', () => {
  const p = factorProduct(f1, f2);
  assert.deepEqual(p.vars, [0, 1, 2]);
  for (let a = 0; a < 3; a++)
    for (let b = 0; b < 2; b++)
      for (let c = 0; c < 2; c++) {
        assert.equal(p.values[a * 4 + b * 2 + c], f1.values[a * 2 + b]! * f2.values[b * 2 + c]!);
      }
});

test('summing out and maxing out follow the definitions', () => {
  const s = sumOut(f1, 0);
  assert.deepEqual(s.vars, [1]);
  assert.ok(Math.abs(s.values[0]! - 0.9) < 1e-15 && Math.abs(s.values[1]! - 1.7) < 1e-15);
  const m = maxOut(f1, 1);
  assert.deepEqual(Array.from(m.values), [0.8, 0.1, 0.9]);
  const reordered = projectOnto(factorProduct(f1, f2), [2, 0]);
  // Σ_b φ1(a, b) φ2(b, c) at c = 1, a = 2: 0.3·0.7 + 0.9·0.2
  assert.ok(Math.abs(reordered.values[1 * 3 + 2]! - (0.3 * 0.7 + 0.9 * 0.2)) < 1e-15);
});

test('reduction keeps the slice of the observed state', () => {
  const r = reduceFactor(f1, 1, 1);
  assert.deepEqual(r.vars, [0]);
  assert.deepEqual(Array.from(r.values), [0.8, 0, 0.9]);
  const z = Float64Array.from(f1.values);
  zeroOtherStates(z, f1.cards, 0, 2);
  assert.deepEqual(Array.from(z), [0, 0, 0, 0, 0.3, 0.9]);
});

test('index maps send every entry to its projection', () => {
  const map = indexMap([0, 1, 2], [3, 2, 2], [2, 0]);
  // entry (a, b, c) → c·3 + a
  for (let a = 0; a < 3; a++)
    for (let b = 0; b < 2; b++) for (let c = 0; c < 2; c++) assert.equal(map[a * 4 + b * 2 + c], c * 3 + a);
});

test('run index maps send every entry where the full index map does, for any split and target order', () => {
  const rng = createRng(5);
  let constantTails = 0,
    contiguousTails = 0;
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + rng.int(5);
    const vars = rng.shuffle(Array.from({ length: 8 }, (_, i) => i)).slice(0, n);
    const cards = vars.map(() => 1 + rng.int(4));
    const target = rng.shuffle([...vars]).slice(0, rng.int(n + 1));
    // Half the targets in the table's own order, which gives contiguous tails.
    if (trial % 2 === 0) target.sort((a, b) => vars.indexOf(a) - vars.indexOf(b));
    const at = rng.int(n + 1);
    const full = indexMap(vars, cards, target);
    const { outer, inner, tail, tailStep } = runIndexMap(vars, cards, target, at);
    const run = inner.length * tail;
    assert.equal(outer.length * run, full.length);
    assert.equal(runIndexMapEntries(vars, cards, target, at), outer.length + inner.length);
    for (let j = 0; j < full.length; j++) {
      const h = Math.floor(j / run),
        i = Math.floor((j % run) / tail),
        l = j % tail;
      assert.equal(outer[h]! + inner[i]! + l * tailStep, full[j], `trial ${trial} entry ${j}`);
    }
    if (tail > 1 && tailStep === 0) constantTails++;
    if (tail > 1 && tailStep === 1) contiguousTails++;
  }
  assert.ok(constantTails > 20 && contiguousTails > 20, `${constantTails} constant, ${contiguousTails} contiguous`);
});

/** 1 to `most` random factors over subsets of 5 variables, each holding variable 2: a bucket of elimination. */
function randomBucket(rng: ReturnType<typeof createRng>, most: number): Factor[] {
  const cards = [2, 3, 4, 2, 3];
  return Array.from({ length: 1 + rng.int(most) }, () => {
    const vars = rng.shuffle([0, 1, 3, 4]).slice(0, rng.int(4));
    vars.splice(rng.int(vars.length + 1), 0, 2);
    const fc = vars.map((v) => cards[v]!);
    const values = Float64Array.from({ length: fc.reduce((a, b) => a * b, 1) }, () => rng.next());
    return { vars, cards: fc, values };
  });
}

test('sumProductOut is Σ_v of the product, bit for bit, without the product table', () => {
  const rng = createRng(17);
  for (let trial = 0; trial < 50; trial++) {
    // 1–6 factors: every kernel (1, 2, 3, 4 factors and the general one).
    const bucket = randomBucket(rng, 6);
    const product = productOf(bucket);
    const expected = projectOnto(
      product,
      product.vars.filter((u) => u !== 2),
    );
    const fused = sumProductOut(bucket, 2);
    assert.deepEqual(fused.vars, expected.vars);
    assert.deepEqual(fused.cards, expected.cards);
    assert.deepEqual(Array.from(fused.values), Array.from(expected.values));
  }
  // By hand: Σ_B φ1(A, B) φ2(B, C) at A = 0, C = 1 is 0.5·0.7 + 0.8·0.2.
  const m = sumProductOut([f1, f2], 1);
  assert.deepEqual(m.vars, [0, 2]);
  assert.ok(Math.abs(m.values[1]! - (0.5 * 0.7 + 0.8 * 0.2)) < 1e-15);
});

test('a table pool hands back the smallest free table large enough, as a view of the size asked', () => {
  const pool = tablePool();
  const a = pool.take(100),
    b = pool.take(40);
  assert.equal(a.length, 100);
  assert.notEqual(a.buffer, b.buffer);
  pool.give(a);
  pool.give(b.subarray(0, 10)); // a view goes back whole: its buffer's 40 entries
  const c = pool.take(30);
  assert.equal(c.length, 30);
  assert.equal(c.buffer, b.buffer, 'the 40-entry table is the smallest that fits 30');
  const d = pool.take(100);
  assert.equal(d.buffer, a.buffer);
  assert.equal(d.length, 100);
  const e = pool.take(8);
  assert.ok(e.buffer !== a.buffer && e.buffer !== b.buffer, 'nothing free: a new table');
  assert.equal(e.length, 8);
});

test('sumProductOut into pooled tables left dirty gives the same bits as into new ones', () => {
  const rng = createRng(29);
  const pool = tablePool();
  const given = new Set<ArrayBufferLike>();
  let reused = 0;
  for (let trial = 0; trial < 30; trial++) {
    const bucket = randomBucket(rng, 5);
    const fresh = sumProductOut(bucket, 2);
    const pooled = sumProductOut(bucket, 2, pool);
    if (given.has(pooled.values.buffer)) reused++;
    assert.deepEqual(Array.from(pooled.values), Array.from(fresh.values));
    // Whatever the pool holds next is garbage: every entry must be written again.
    pooled.values.fill(NaN);
    pool.give(pooled.values);
    given.add(pooled.values.buffer);
  }
  assert.ok(reused >= 20, `pooled tables were written again (${reused} of 30)`);
});
