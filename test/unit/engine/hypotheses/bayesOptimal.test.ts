import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../../support/close.js';
import { bayesOptimal } from '../../../../server/src/engine/hypotheses/bayesOptimal.js';
import { gibbsClassify } from '../../../../server/src/engine/hypotheses/gibbsAlgorithm.js';
import { createRng } from '../../../../server/src/engine/random.js';

// Mitchell §6.7: P(h1|D) = .4 predicts +, h2 and h3 (.3 each) predict −.
const mitchell = [
  { name: 'h1', posterior: 0.4, prediction: [1, 0] },
  { name: 'h2', posterior: 0.3, prediction: [0, 1] },
  { name: 'h3', posterior: 0.3, prediction: [0, 1] },
];

test('Bayes optimal, posteriors .4/.3/.3: P(+|D) = .4, P(−|D) = .6, optimal −, h_MAP predicts +', () => {
  const r = bayesOptimal(mitchell, ['+', '-']);
  close(r.values[0]!.probability, 0.4, 1e-15);
  close(r.values[1]!.probability, 0.6, 1e-15);
  assert.equal(r.optimal, '-');
  assert.equal(r.map, 'h1');
  assert.equal(r.mapPrediction, '+');
  assert.throws(
    () => bayesOptimal([{ name: 'h', posterior: 0.5, prediction: [1, 0] }], ['+', '-']),
    /P\(h\|D\) must sum to 1/,
  );
});

test('Bayes optimal equals the direct sum on random probabilistic hypotheses', () => {
  const rng = createRng(3);
  for (let trial = 0; trial < 100; trial++) {
    const H = 1 + rng.int(5),
      V = 2 + rng.int(3);
    const norm = (xs: number[]) => {
      const s = xs.reduce((a, b) => a + b, 0);
      return xs.map((x) => x / s);
    };
    const post = norm(Array.from({ length: H }, () => rng.next() + 0.01));
    const hs = post.map((p, i) => ({
      name: `h${i}`,
      posterior: p,
      prediction: norm(Array.from({ length: V }, () => rng.next() + 0.01)),
    }));
    const values = Array.from({ length: V }, (_, v) => `v${v}`);
    const r = bayesOptimal(hs, values);
    for (let v = 0; v < V; v++) {
      let direct = 0;
      for (const h of hs) direct += h.posterior * h.prediction[v]!;
      close(r.values[v]!.probability, direct, 1e-14);
    }
    const best = Math.max(...r.values.map((x) => x.probability));
    assert.equal(r.values.find((x) => x.value === r.optimal)!.probability, best);
  }
});

test('Gibbs algorithm: seeded, draws follow P(h|D)', () => {
  const a = gibbsClassify(mitchell, ['+', '-'], 1, 20_000);
  const b = gibbsClassify(mitchell, ['+', '-'], 1, 20_000);
  assert.deepEqual(a, b);
  close(a.frequencies[0]!.fraction, 0.4, 0.015);
  const one = gibbsClassify(mitchell, ['+', '-'], 5);
  assert.equal(one.draws.length, 1);
  assert.equal(one.draws[0]!.prediction, one.draws[0]!.hypothesis === 'h1' ? '+' : '-');
  assert.throws(() => gibbsClassify(mitchell, ['+', '-'], 1, 0), /positive integer/);
});
