import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crossValidate, predict, rowsOf } from '../../../../server/src/engine/structure/crossValidation.js';
import { partitions } from '../../../../server/src/engine/classifiers/evaluation.js';
import { forwardSample } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { networkFromStructure } from '../../../../server/src/engine/estimators/cptLearning.js';
import { randomNetwork } from '../../../support/networks.js';

test('log-likelihood loss of the empty structure equals the BDeu-smoothed frequencies by hand, fold by fold', () => {
  const net = randomNetwork(3, 4, 2);
  const data = forwardSample(net, 300, createRng(5));
  const ess = 1;
  const empty = () => data.attributes.map(() => []);
  const cv = crossValidate(data, empty, { folds: 5, seed: 2, prior: { kind: 'bdeu', ess } });
  const parts = partitions(300, { kind: 'folds', k: 5, seed: 2 });
  const expected = parts.map(({ train, test }) => {
    let loss = 0;
    for (const r of test) {
      for (let v = 0; v < data.attributes.length; v++) {
        const k = data.attributes[v]!.values.length;
        let count = 0;
        for (const t of train) if (data.columns[v]![t] === data.columns[v]![r]) count++;
        loss -= Math.log((count + ess / k) / (train.length + ess));
      }
    }
    return loss / test.length;
  });
  cv.foldLogLoss.forEach((x, i) => assert.ok(Math.abs(x - expected[i]!) < 1e-10, `${x} vs ${expected[i]}`));
  assert.ok(Math.abs(cv.logLoss - expected.reduce((s, x) => s + x, 0) / 5) < 1e-12);
  assert.equal(cv.tested, 300);
  assert.equal(cv.skipped, 0);
});

test('the true structure has a smaller loss than the empty one, and no larger error for a target', () => {
  const net = randomNetwork(11, 6, 2);
  const data = forwardSample(net, 2000, createRng(1));
  const truth = net.cpts.map((c) => [...c.parents]);
  const prior = { kind: 'bdeu' as const, ess: 1 };
  const full = crossValidate(data, () => truth, { folds: 10, seed: 1, prior, target: 5 });
  const empty = crossValidate(data, () => truth.map(() => []), { folds: 10, seed: 1, prior, target: 5 });
  assert.ok(full.logLoss < empty.logLoss, `${full.logLoss} vs ${empty.logLoss}`);
  assert.ok(full.error! <= empty.error! + 1e-12);
  assert.equal(full.foldError!.length, 10);
});

test('predict is the argmax of the full joint over the target, by enumeration', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const truth = randomNetwork(seed, 5, 3);
    const data = forwardSample(truth, 40, createRng(seed));
    const net = networkFromStructure(
      'n',
      data,
      truth.cpts.map((c) => c.parents),
      { kind: 'dirichlet', alpha: 1 },
    );
    for (let r = 0; r < data.rowCount; r++) {
      for (let target = 0; target < 5; target++) {
        const k = data.attributes[target]!.values.length;
        const joint = Array.from({ length: k }, (_, t) => {
          let p = 1;
          for (let v = 0; v < 5; v++) {
            const value = (u: number) => (u === target ? t : data.columns[u]![r]!);
            let row = 0;
            for (const q of net.cpts[v]!.parents) row = row * net.variables[q]!.states.length + value(q);
            p *= net.cpts[v]!.table[row * net.variables[v]!.states.length + value(v)]!;
          }
          return p;
        });
        const best = joint.indexOf(Math.max(...joint));
        const got = predict(net, data, r, target);
        // Ties (equal up to rounding) may go either way.
        const tie = Math.abs(joint[got]! - joint[best]!) <= 1e-12 * joint[best]!;
        assert.ok(got === best || tie, `seed ${seed} row ${r} target ${target}: ${joint}`);
      }
    }
  }
});

test('rows with a missing value are skipped in scoring, and rowsOf keeps the order asked', () => {
  const net = randomNetwork(2, 3, 1);
  const data = forwardSample(net, 100, createRng(3));
  data.columns[1]![7] = -1;
  const empty = (d: typeof data) => d.attributes.map(() => []);
  const cv = crossValidate(data, empty, { folds: 4, seed: 3, prior: { kind: 'bdeu', ess: 1 } });
  assert.equal(cv.skipped, 1);
  assert.equal(cv.tested, 99);
  const sub = rowsOf(data, Int32Array.from([5, 2, 9]));
  assert.deepEqual([...sub.columns[0]!], [data.columns[0]![5], data.columns[0]![2], data.columns[0]![9]]);
});
