import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { close, errors, resultAt, run, runExample, verdicts } from './helpers.js';
import { repoRoot } from '../../support/shared.js';

test('Poole ex. 10.6: P(E|t) of d0, d1a, d2 and BIC = −log2 P(E|t) + |t| log2 18', async () => {
  const result = await runExample('decision_trees.bayes');
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [50, true],
      [51, true],
      [52, true],
    ],
  );
  const likelihood = resultAt(result, 50, 'likelihood');
  close(likelihood.likelihood, (9 / 11) ** 9 * (2 / 11) ** 2);
  close(likelihood.bits!, -Math.log2((9 / 11) ** 9 * (2 / 11) ** 2), 1e-9);
  const scores = resultAt(result, 52, 'treeScores');
  const bits = Math.log2(18);
  const expected: Record<string, number> = {
    d0: 18 + bits,
    d1a: -Math.log2((9 / 11) ** 9 * (2 / 11) ** 2) + 2 * bits,
    d2: 4 * bits,
  };
  for (const t of scores.trees) close(t.bicBits, expected[t.name]!, 1e-9);
  assert.deepEqual([scores.examples, scores.bestBic, scores.bestMdl], [18, 'd1a', 'd1a']);
});

const trees = readFileSync(`${repoRoot}/examples/decision_trees.bayes`, 'utf8');
const emails = trees.slice(0, trees.indexOf('hypotheses Trees'));

/** The error of `query bic Bad given Emails` for a space holding `entries`: [message, 0-based line relative to the space]. */
async function treeError(entries: string): Promise<[string, number]> {
  const result = await run(`${emails}hypotheses Bad {\n${entries}\n} prior uniform\nquery bic Bad given Emails\n`);
  // The checker may report the same fault on the declaration; the run's own error is the one on the tree.
  const found = errors(result).filter((e) => e.code === 'compile-error');
  assert.equal(found.length, 1, JSON.stringify(found));
  return [found[0]!.message, found[0]!.line - (emails.split('\n').length - 1)];
}

const good = '  good: tree { P(Action = reads) = 1/2 }';

test('a tree without else, a leaf on another variable, or a test value outside the data are errors on their line', async () => {
  const [noElse, l1] = await treeError(`${good}\n  a: tree { if Length = long { P(Action = reads) = 0 } }`);
  assert.deepEqual([noElse, l1], ['this `if` needs an `else`: every example must reach a leaf', 2]);
  const [otherTarget, l2] = await treeError(`${good}\n  b: tree { P(Thread = new) = 1/2 }`);
  assert.deepEqual([otherTarget, l2], ['a leaf gives P(Action = v) = p', 2]);
  const [badValue, l3] = await treeError(
    `${good}\n  c: tree { if Length = medium { P(Action = reads) = 0 } else { P(Action = reads) = 1 } }`,
  );
  assert.equal(badValue, 'the test needs a value of Length (long, short)');
  assert.equal(l3, 2);
});

test('bic refuses a space that holds no tree', async () => {
  const result = await run(`${emails}hypotheses H { h1: 0.5, h2: 0.5 }
query bic H given Emails
`);
  assert.match(errors(result).at(-1)!.message, /holds no tree/);
});
