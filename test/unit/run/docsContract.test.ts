/**
 * Claims of docs/language.md tried in forms its own blocks do not show (each test names the
 * sentence it holds the product to); the numbers are derived by hand beside each case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { errors, run, verdicts } from './helpers.js';

test('map, ml, mdl: "tied ones joined by `, `" can be expected as written', async () => {
  // Equal priors and no data: every hypothesis is h_MAP, h_ML and h_MDL.
  const result = await run(`hypotheses H { h1: 0.5, h2: 0.5 }
expect map H = "h1, h2"
expect ml H = "h1, h2"
expect mdl H = "h1, h2"
expect map H = "h2, h1"
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [['expect-failed', 4]],
  );
  assert.deepEqual(verdicts(result), [
    [2, true, 'h1, h2'],
    [3, true, 'h1, h2'],
    [4, true, 'h1, h2'],
    [5, false, 'h1, h2'],
  ]);
});
