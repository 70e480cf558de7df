import { test } from 'node:test';
import assert from 'node:assert/strict';
import { noisyMaxTable, noisyOrTable } from '../../../../server/src/engine/factors/canonicalModels.js';
import { createRng } from '../../../../server/src/engine/random.js';

test("Henrion's leaky noisy-OR: P(Fever | Cold only) = 0.4, P(Fever | no cause) = 0.01, closed form elsewhere", () => {
  const p = [0.4, 0.8, 0.9],
    leak = 0.01;
  const table = noisyOrTable(p, leak);
  // Rows: Cold, Flu, Malaria each true (first) / false, first slowest; Fever true first.
  const at = (cold: number, flu: number, malaria: number) => table[((cold * 2 + flu) * 2 + malaria) * 2]!;
  assert.ok(Math.abs(at(0, 1, 1) - 0.4) < 1e-15);
  assert.ok(Math.abs(at(1, 0, 1) - 0.8) < 1e-15);
  assert.ok(Math.abs(at(1, 1, 1) - 0.01) < 1e-15);
  // All three: 1 − 0.99 · (0.6/0.99)(0.2/0.99)(0.1/0.99).
  assert.ok(Math.abs(at(0, 0, 0) - (1 - (0.6 * 0.2 * 0.1) / 0.99 ** 2)) < 1e-15);
  for (let r = 0; r < 8; r++) assert.ok(Math.abs(table[2 * r]! + table[2 * r + 1]! - 1) < 1e-15);
});

test('noisy-OR tables equal the closed form on random causes', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 50; trial++) {
    const n = 1 + rng.int(6);
    const leak = rng.next() < 0.3 ? 0 : rng.next() * 0.2;
    const p = Array.from({ length: n }, () => leak + (1 - leak) * rng.next());
    const table = noisyOrTable(p, leak);
    for (let r = 0; r < 2 ** n; r++) {
      // Cause i is present when its bit (first cause most significant) is 0: state 0 = present.
      let absent = 1 - leak;
      for (let i = 0; i < n; i++) if (((r >> (n - 1 - i)) & 1) === 0) absent *= (1 - p[i]!) / (1 - leak);
      assert.ok(Math.abs(table[2 * r]! - (1 - absent)) < 1e-12, `trial ${trial} row ${r}`);
    }
  }
});

test('noisy-MAX equals the max of independent latent link variables (enumerated)', () => {
  const rng = createRng(5);
  for (let trial = 0; trial < 30; trial++) {
    const k = 2 + rng.int(3);
    const n = 1 + rng.int(3);
    const dirichlet = (m: number) => {
      const w = Array.from({ length: m }, () => rng.next() + 0.01);
      const z = w.reduce((a, b) => a + b);
      return w.map((x) => x / z);
    };
    const leakPmf = dirichlet(k);
    // Links as distributions over Y (the latent effect of one cause alone, without the leak).
    const causeStates = Array.from({ length: n }, () => 2 + rng.int(2));
    const links = causeStates.map((m) => Array.from({ length: m - 1 }, () => dirichlet(k)));
    // What an expert states: P(Y | only cause i in state s) = distribution of max(latent, leak).
    const combine = (pmfs: number[][]): number[] => {
      // Y = the most severe (lowest index) of independent latents: enumerate every combination.
      const out = new Array<number>(k).fill(0);
      const idx = pmfs.map(() => 0);
      for (;;) {
        let p = 1,
          y = k - 1;
        pmfs.forEach((pmf, i) => {
          p *= pmf[idx[i]!]!;
          y = Math.min(y, idx[i]!);
        });
        out[y]! += p;
        let i = 0;
        while (i < idx.length && ++idx[i]! === k) {
          idx[i] = 0;
          i++;
        }
        if (i === idx.length) break;
      }
      return out;
    };
    const stated = links.map((perState) => perState.map((link) => Float64Array.from(combine([link, leakPmf]))));
    const table = noisyMaxTable(
      k,
      causeStates.map((m, i) => ({ states: m, distributions: stated[i]! })),
      Float64Array.from(leakPmf),
    );
    const rows = causeStates.reduce((a, b) => a * b, 1);
    for (let r = 0; r < rows; r++) {
      let rest = r;
      const state = new Array<number>(n);
      for (let i = n - 1; i >= 0; i--) {
        state[i] = rest % causeStates[i]!;
        rest = Math.floor(rest / causeStates[i]!);
      }
      const active = state.flatMap((s, i) => (s < causeStates[i]! - 1 ? [links[i]![s]!] : []));
      const expected = combine([...active, leakPmf]);
      for (let y = 0; y < k; y++)
        assert.ok(Math.abs(table[r * k + y]! - expected[y]!) < 1e-12, `trial ${trial} row ${r} state ${y}`);
    }
  }
});

test('a cause below the leak is refused', () => {
  assert.throws(
    () => noisyOrTable([0.005], 0.01, { causes: ['Cold'], effect: 'Fever' }),
    /P\(Fever \| only Cold\) = 0.005 is below the leak 0.01/,
  );
});
