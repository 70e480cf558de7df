import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type * as A from '../../../server/src/language/ast.js';
import { HANDLERS } from '../../../server/src/run/handlers/index.js';
import { generatedHypothesisProbability } from '../../../server/src/run/learning/hypothesisProbability.js';
import { close, errors, resultAt, run, verdicts } from './helpers.js';
import { repoRoot } from '../../support/shared.js';

/** Runs `text` with a `query probability` handler that asks generatedHypothesisProbability, as the network handler
 * must. */
async function withDelegate(text: string) {
  return run(text, 'inline.bayes', {
    ...HANDLERS,
    'query probability': async (ctx) => {
      const query = (ctx.statement.kind === 'learn' ? undefined : ctx.statement.query) as A.ProbabilityQuery;
      return (await generatedHypothesisProbability(ctx, query)) ?? { results: [], diagnostics: [] };
    },
  });
}

const enjoy = readFileSync(`${repoRoot}/examples/enjoysport.bayes`, 'utf8');

test('EnjoySport: each member of the version space has P(h|D) = 1/|VS| = 1/6, a non-member 0', async () => {
  const result = await withDelegate(
    `${enjoy}query P(Conj = "<Rainy, ?, ?, ?, ?, ?>") given Days\nquery P(Conj = "<Sunny, ?>") given Days\n`,
  );
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [30, true],
      [31, true],
      [33, true],
      [34, true],
      [35, true],
    ],
  );
  const line = enjoy.split('\n').length - 1;
  assert.equal(resultAt(result, line, 'probability').value, 0);
  close(resultAt(result, 32, 'probability').value!, 1 / 6);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [['compile-error', line + 1]],
  );
  assert.match(errors(result)[0]!.message, /6 constraints/);
});

test('code lengths of 2,000 bits: the prior 2^−L(h) normalised without underflow, in inference and MDL', async () => {
  // 2^−2000 is 0 in doubles: the prior was 0 / 0 (NaN), refused as "not a probability".
  const result = await run(`variable T : bool
hypotheses H { a: bits 2000, b: bits 2001 }
P(T | H) { a: 0.9, b: 0.3 }
expect P(H = a) ≈ 2/3 ± 1e-12
expect posterior H given T = true ≈ 6/7 ± 1e-12
expect mdl H given T = false = b`);
  assert.deepEqual(errors(result), []);
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [4, true],
      [5, true],
      [6, true],
    ],
  );
});
