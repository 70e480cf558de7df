import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import {
  mdlChoice,
  bitsOfProbability,
  bitsOfLogProbability,
  bicBits,
} from '../../../../server/src/engine/hypotheses/mdl.js';
import {
  scoreTrees,
  treeLikelihood,
  fitLeaves,
  treeCodeBits,
  type ProbabilisticTree,
} from '../../../../server/src/engine/hypotheses/decisionTree.js';
import { posterior } from '../../../../server/src/engine/hypotheses/bayesTheorem.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { newsReading } from '../fixtures.js';

const leaf = (pReads: number): ProbabilisticTree => ({ kind: 'leaf', distribution: [pReads, 1 - pReads] });

// Poole ex. 10.6 on Figure 7.1: d0 (no split), d1a (split on Length), d2 (Figure 7.8 left, fits exactly).
const d0 = leaf(1 / 2);
const d1a: ProbabilisticTree = {
  kind: 'split',
  attribute: 'Length',
  value: 'long',
  ifTrue: leaf(0),
  ifFalse: leaf(9 / 11),
};
const d2: ProbabilisticTree = {
  kind: 'split',
  attribute: 'Length',
  value: 'long',
  ifTrue: leaf(0),
  ifFalse: {
    kind: 'split',
    attribute: 'Thread',
    value: 'new',
    ifTrue: leaf(1),
    ifFalse: { kind: 'split', attribute: 'Author', value: 'unknown', ifTrue: leaf(0), ifFalse: leaf(1) },
  },
};

test('Poole ex. 10.6: P(E|d0) = 0.5^18, P(E|d1a) = (9/11)^9 (2/11)^2, P(E|d2) = 1', () => {
  const data = newsReading();
  close(treeLikelihood(d0, data, 'UserAction').likelihood, 0.5 ** 18, 1e-18);
  assert.equal(treeLikelihood(d0, data, 'UserAction').likelihood.toExponential(3), '3.815e-6');
  close(treeLikelihood(d1a, data, 'UserAction').likelihood, (9 / 11) ** 9 * (2 / 11) ** 2, 1e-15);
  assert.equal(treeLikelihood(d1a, data, 'UserAction').likelihood.toFixed(6), '0.005432');
  assert.equal(treeLikelihood(d2, data, 'UserAction').likelihood, 1);
  // The leaves of d0 and d1a are the empirical frequencies: fitting them changes nothing.
  const leaves = (t: ProbabilisticTree): number[] =>
    t.kind === 'leaf' ? t.distribution : [...leaves(t.ifTrue), ...leaves(t.ifFalse)];
  for (const tree of [d0, d1a, d2])
    leaves(fitLeaves(tree, data, 'UserAction')).forEach((p, i) => close(p, leaves(tree)[i]!, 1e-15));
});

test('tree code lengths, MDL and BIC choose among trees (Poole §10.2.4)', () => {
  const data = newsReading();
  const scores = scoreTrees(
    [
      { name: 'd0', tree: d0 },
      { name: 'd1a', tree: d1a },
      { name: 'd2', tree: d2 },
    ],
    data,
    'UserAction',
  );
  const log2E = Math.log2(18);
  close(scores[0]!.bicBits, 18 + 1 * log2E, 1e-12);
  close(scores[1]!.bicBits, -Math.log2((9 / 11) ** 9 * (2 / 11) ** 2) + 2 * log2E, 1e-12);
  close(scores[2]!.bicBits, 4 * log2E, 1e-12);
  const byBic = [...scores].sort((a, b) => a.bicBits - b.bicBits).map((s) => s.name);
  assert.deepEqual(byBic, ['d1a', 'd2', 'd0']);
  // Code: 4 Boolean input attributes → a condition costs 2 bits; a probability log2 19 bits.
  const p = Math.log2(19);
  close(treeCodeBits(d0, { conditionBits: 2, probabilityBits: p }), 1 + p, 1e-12);
  close(scores[1]!.codeBits, 1 + 2 + 2 * (1 + p), 1e-12);
  close(scores[2]!.codeBits, 3 * (1 + 2) + 4 * (1 + p), 1e-12);
  assert.throws(() => treeLikelihood({ kind: 'leaf', distribution: [0.7, 0.7] }, data, 'UserAction'), /sum to 1/);
  assert.throws(
    () => treeLikelihood({ ...d1a, attribute: 'Colour' } as ProbabilisticTree, data, 'UserAction'),
    /no column 'Colour'/,
  );
});

test('BIC and MDL conventions', () => {
  close(bicBits(Math.log(0.25), 2, 8), 2 + 2 * 3, 1e-12);
  const c = mdlChoice([
    { hypothesis: 'h1', hypothesisBits: 10, dataBits: 5 },
    { hypothesis: 'h2', hypothesisBits: 3, dataBits: 9 },
  ]);
  assert.deepEqual(c.best, ['h2']);
  assert.equal(c.rows[0]!.totalBits, 15);
});

test('MDL = MAP when L(h) = −log2 P(h) and L(D|h) = −log2 P(D|h) (seeded random tables)', () => {
  const rng = createRng(11);
  for (let trial = 0; trial < 300; trial++) {
    const n = 2 + rng.int(6);
    const raw = Array.from({ length: n }, () => rng.next() + 1e-3);
    const z = raw.reduce((a, b) => a + b, 0);
    const hs = raw.map((r, i) => ({ name: `h${i}`, prior: r / z }));
    const ll = hs.map(() => Math.log(rng.next()) * (1 + rng.int(20)));
    const map = posterior(hs, ll).map;
    const mdl = mdlChoice(
      hs.map((h, i) => ({
        hypothesis: h.name,
        hypothesisBits: bitsOfProbability(h.prior),
        dataBits: bitsOfLogProbability(ll[i]!),
      })),
    ).best;
    assert.deepEqual(mdl, map);
  }
  // The cancer example: h_MAP = healthy is h_MDL too.
  const cancer = mdlChoice([
    { hypothesis: 'cancer', hypothesisBits: bitsOfProbability(0.008), dataBits: bitsOfProbability(0.98) },
    { hypothesis: 'healthy', hypothesisBits: bitsOfProbability(0.992), dataBits: bitsOfProbability(0.03) },
  ]);
  assert.deepEqual(cancer.best, ['healthy']);
});
