/**
 * `observe Toss = [heads, …]` on a parameter `P(Toss) ~ Beta(2, 2)` (issue 27 item 3): the
 * observations are the data of the parameter's posterior, and nothing else reads them as
 * evidence — the run used them and also said "'Toss' is not a variable of the default model".
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from './networkHelpers.js';

const expects = (r: Awaited<ReturnType<typeof run>>) => r.results.filter((e) => e.kind === 'expect');

const TOSS = `variable Toss { heads, tails }
P(Toss) ~ Beta(2, 2)
observe Toss = [heads, tails, tails, heads, tails, tails, tails, heads, tails, tails]
`;

test('observations of a parameter are its data, not an error', async () => {
  const result = await run(`${TOSS}query mean P(Toss = heads)\nexpect mean P(Toss = heads) ≈ 0.357143 ± 1e-6\n`);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  // (3 heads + 2) / (10 + 4), Beta(2, 2) updated by the ten tosses.
  assert.deepEqual(
    expects(result).map((e) => e.kind === 'expect' && e.passed),
    [true],
  );
});

test('beside a network of the default model: the parameter stays data, the network its own evidence', async () => {
  const result = await run(`${TOSS}variable Rain : bool
P(Rain) = 0.2
observe Rain = true
expect P(Rain = true) ≈ 1
expect mean P(Toss = heads) ≈ 0.357143 ± 1e-6
`);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  assert.deepEqual(
    expects(result).map((e) => e.kind === 'expect' && e.passed),
    [true, true],
  );
});
