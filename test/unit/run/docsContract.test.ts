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

test('m_estimate(m, p): eq. 6.22 (n_c + m·p) / (n + m) for each state; p that is no distribution is refused', async () => {
  const data = `data D {
  W
  a
  a
  b
}
`;
  const listed = await run(`variable W { a, b }
P(W) ~ m_estimate(m: 2, p: [0.3, 0.7])
${data}expect mean P(W = a) given D ≈ 2.6/5 ± 1e-12
expect mean P(W = b) given D ≈ 2.4/5 ± 1e-12
`);
  // (2 + 2·0.3) / (3 + 2) and (1 + 2·0.7) / (3 + 2).
  assert.deepEqual(errors(listed), []);
  assert.deepEqual(
    verdicts(listed).map(([line, passed]) => [line, passed]),
    [
      [9, true],
      [10, true],
    ],
  );
  const uniform = await run(
    `variable W { a, b }\nP(W) ~ m_estimate(m: 2, p: 1/2)\n${data}expect mean P(W = a) ≈ 1/2\n`,
  );
  assert.deepEqual(errors(uniform), []);
  // p: 0.3 for both states would add 0.6 to each: (2 + 0.6) / (3 + 1.2), which is not eq. 6.22.
  const scalar = await run(`variable W { a, b }\nP(W) ~ m_estimate(m: 2, p: 0.3)\n${data}`);
  assert.deepEqual(errors(scalar), [
    {
      code: 'arguments',
      line: 1,
      message:
        'p: 0.3 for each of the 2 states (a, b) sums to 0.6, not 1: give one prior estimate per state, ' +
        'in this order, summing to 1 (p: [0.3, 0.7])',
    },
  ]);
  const three = await run(`variable Z { z1, z2, z3 }\nP(Z) ~ m_estimate(m: 3, p: [0.5, 0.25, 0.5])\n`);
  assert.deepEqual(
    errors(three).map((e) => e.message),
    ['the prior estimates p: sum to 1.25, not 1'],
  );
});
