import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mostProbableExplanation } from '../../../../server/src/engine/inference/mpe.js';
import { jointTable, loadBif, randomNetwork } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

test('MPE equals the brute-force argmax of the joint on random networks', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const net = randomNetwork(seed, 7, 3, seed % 3 === 0);
    const { cards, values } = jointTable(net);
    const evidence = new Map([[seed % 7, 0]]);
    let best = -1,
      bestP = -1;
    for (let i = 0; i < values.length; i++) {
      let rest = i,
        ok = true;
      for (let v = cards.length - 1; v >= 0; v--) {
        if (evidence.has(v) && rest % cards[v]! !== evidence.get(v)) ok = false;
        rest = Math.floor(rest / cards[v]!);
      }
      if (ok && values[i]! > bestP) {
        bestP = values[i]!;
        best = i;
      }
    }
    if (bestP === 0) {
      assert.throws(() => mostProbableExplanation(net, evidence), /probability 0/);
      continue;
    }
    const mpe = mostProbableExplanation(net, evidence);
    assert.ok(Math.abs(mpe.logProbability - Math.log(bestP)) < 1e-12, `seed ${seed}`);
    // Ties are possible in principle; the decoded assignment must reach the maximum.
    let index = 0;
    mpe.assignment.forEach((s, v) => {
      index = index * cards[v]! + s;
    });
    assert.ok(
      Math.abs(values[index]! - bestP) < 1e-15,
      `seed ${seed}: decoded assignment ${mpe.assignment} is not a maximiser (best ${best})`,
    );
  }
});

test('MPE of impossible evidence says so', () => {
  const net = {
    name: 't',
    variables: [{ name: 'A', states: ['0', '1'] }],
    cpts: [{ child: 0, parents: [], table: Float64Array.of(1, 0) }],
  };
  assert.throws(() => mostProbableExplanation(net, new Map([[0, 1]])), /evidence has probability 0/);
});

test('alarm MPE with evidence is a consistent explanation', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const hr = net.variables.findIndex((v) => v.name === 'HR');
  const mpe = mostProbableExplanation(net, new Map([[hr, 2]]));
  assert.equal(mpe.assignment[hr], 2);
  // log P(x*, e) recomputed by the chain rule from the decoded assignment.
  let logP = 0;
  for (const cpt of net.cpts) {
    let row = 0;
    for (const p of cpt.parents) row = row * net.variables[p]!.states.length + mpe.assignment[p]!;
    logP += Math.log(cpt.table[row * net.variables[cpt.child]!.states.length + mpe.assignment[cpt.child]!]!);
  }
  assert.ok(Math.abs(logP - mpe.logProbability) < 1e-9);
});
