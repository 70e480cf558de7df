import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close, errors, first, resultAt, run, runExample } from './helpers.js';

test('cancer (§6.6): with optimal codes L(h) = −log2 P(h), L(D|h) = −log2 P(D|h), h_MDL = h_MAP', async () => {
  const mdl = resultAt(await runExample('cancer.bayes'), 20, 'mdl');
  const [c, h] = mdl.rows;
  close(c!.hypothesisBits, -Math.log2(0.008));
  close(c!.dataBits, -Math.log2(0.98));
  close(h!.totalBits, -Math.log2(0.992) - Math.log2(0.03));
  assert.deepEqual(mdl.best, ['healthy']);
  assert.match(mdl.code, /−log2 P\(h\)/);
});

test('trees with `prior code` (Poole ex. 10.7): L(t) from the tree code plus −log2 P(E|t)', async () => {
  const mdl = resultAt(await runExample('decision_trees.bayes'), 53, 'mdl');
  // 4 one-bit conditions (every input is Boolean) → 2 bits each; a leaf is 1 + log2(18 + 1) bits.
  const leaf = 1 + Math.log2(19),
    split = 1 + 2;
  const expected = {
    d0: leaf + 18,
    d1a: split + 2 * leaf - Math.log2((9 / 11) ** 9 * (2 / 11) ** 2),
    d2: 3 * split + 4 * leaf,
  };
  assert.deepEqual(
    mdl.rows.map((r) => r.hypothesis),
    ['d0', 'd1a', 'd2'],
  );
  for (const r of mdl.rows) close(r.totalBits, expected[r.hypothesis as keyof typeof expected], 1e-9);
  assert.deepEqual(mdl.best, ['d1a']);
});

test('mdl over conjunctions before any data: nothing is misclassified, the shortest is <?>', async () => {
  const result = await run(`variable A { x, y }
variable T { yes, no }
hypotheses C = conjunctions(A) -> T = yes
  prior uniform
query mdl C
`);
  assert.deepEqual(errors(result), []);
  const mdl = first(result, 'mdl');
  // <?> lists no literal (0 bits); <x> and <y> one of the 2 literals each (1 bit); no examples, no errors.
  assert.deepEqual(
    mdl.rows.map((r) => [r.hypothesis, r.totalBits]),
    [
      ['<?>', 0],
      ['<x>', 1],
      ['<y>', 1],
    ],
  );
  assert.deepEqual(mdl.best, ['<?>']);
});
