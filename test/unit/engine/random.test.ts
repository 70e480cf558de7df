import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createRng } from '../../../server/src/engine/random.js';

test('same seed, same stream; different seeds, different streams', () => {
  const a = createRng(7),
    b = createRng(7),
    c = createRng(8);
  const xs = Array.from({ length: 5 }, () => a.next());
  assert.deepEqual(
    xs,
    Array.from({ length: 5 }, () => b.next()),
  );
  assert.notDeepEqual(
    xs,
    Array.from({ length: 5 }, () => c.next()),
  );
});

test('uniform and normal moments match their distributions', () => {
  const rng = createRng(1);
  const n = 200_000;
  let s = 0,
    s2 = 0,
    z = 0,
    z2 = 0;
  for (let i = 0; i < n; i++) {
    const u = rng.next();
    s += u;
    s2 += u * u;
    const g = rng.normal();
    z += g;
    z2 += g * g;
    assert.ok(u >= 0 && u < 1);
  }
  // Means within 5 standard errors: uniform sd = 1/sqrt(12), normal sd = 1.
  assert.ok(Math.abs(s / n - 0.5) < 5 * Math.sqrt(1 / 12 / n));
  assert.ok(Math.abs(s2 / n - 1 / 3) < 0.005);
  assert.ok(Math.abs(z / n) < 5 / Math.sqrt(n));
  assert.ok(Math.abs(z2 / n - 1) < 0.02);
});

test('categorical draws follow the weights; shuffle is a permutation', () => {
  const rng = createRng(3);
  const counts = [0, 0, 0];
  for (let i = 0; i < 60_000; i++) counts[rng.categorical([1, 0, 3])]!++;
  assert.equal(counts[1], 0);
  assert.ok(Math.abs(counts[0]! / 60_000 - 0.25) < 0.01);
  const items = rng.shuffle([...Array(50).keys()]);
  assert.deepEqual(
    [...items].sort((x, y) => x - y),
    [...Array(50).keys()],
  );
});
