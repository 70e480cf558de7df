import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JunctionTree, ImpossibleEvidenceError } from '../../../../server/src/engine/inference/junctionTree.js';
import {
  variableElimination,
  probabilityOfEvidence,
} from '../../../../server/src/engine/inference/variableElimination.js';
import {
  enumerate,
  jointTable,
  maxAbsDiff,
  randomEvidence,
  randomNetwork,
  twoNodes,
} from '../../../support/networks.js';

test('junction tree and variable elimination agree with brute-force enumeration on random networks', () => {
  for (let seed = 1; seed <= 25; seed++) {
    const net = randomNetwork(seed, 6 + (seed % 4), 3, seed % 2 === 0);
    const cards = net.variables.map((v) => v.states.length);
    const jt = JunctionTree.compile(net);
    for (let trial = 0; trial < 3; trial++) {
      const evidence = randomEvidence(seed * 100 + trial, cards);
      const truth = enumerate(net, evidence);
      jt.setEvidence(evidence);
      jt.propagate();
      if (truth.pEvidence === 0) {
        assert.ok(jt.impossible, `seed ${seed}: impossible evidence not detected`);
        assert.throws(() => jt.marginal(0), ImpossibleEvidenceError);
        assert.throws(() => variableElimination(net, [0], evidence), /evidence has probability 0/);
        assert.equal(probabilityOfEvidence(net, evidence), -Infinity);
        continue;
      }
      assert.ok(Math.abs(jt.logEvidence - Math.log(truth.pEvidence)) < 1e-10, `seed ${seed}: log P(e)`);
      assert.ok(Math.abs(probabilityOfEvidence(net, evidence) - Math.log(truth.pEvidence)) < 1e-10);
      for (let v = 0; v < cards.length; v++) {
        assert.ok(maxAbsDiff(jt.marginal(v), truth.marginals[v]!) < 1e-12, `seed ${seed} JT marginal of V${v}`);
        assert.ok(
          maxAbsDiff(variableElimination(net, [v], evidence).factor.values, truth.marginals[v]!) < 1e-12,
          `seed ${seed} VE marginal of V${v}`,
        );
      }
    }
  }
});

test('impossible evidence is reported, not NaN', () => {
  // A → B with P(B = b | A = a) = 0 and P(A = b) = 0: observing B = b is impossible.
  const net = twoNodes([1, 0], [1, 0, 0.5, 0.5]);
  const jt = JunctionTree.compile(net);
  jt.setEvidence(new Map([[1, 1]]));
  jt.propagate();
  assert.equal(jt.logEvidence, -Infinity);
  assert.throws(() => jt.marginal(0), /evidence has probability 0/);
  assert.throws(() => variableElimination(net, [0], new Map([[1, 1]])), ImpossibleEvidenceError);
});

test('family marginals are P(parents, child | e) in CPT layout', () => {
  for (let seed = 40; seed < 46; seed++) {
    const net = randomNetwork(seed, 7);
    const evidence = randomEvidence(
      seed,
      net.variables.map((v) => v.states.length),
    );
    const jt = JunctionTree.compile(net);
    jt.setEvidence(evidence);
    jt.propagate();
    for (const cpt of net.cpts) {
      const family = [...cpt.parents, cpt.child];
      const ve = variableElimination(net, family, evidence).factor.values;
      assert.ok(maxAbsDiff(jt.familyMarginal(cpt.child), ve) < 1e-12, `seed ${seed} family of V${cpt.child}`);
    }
  }
});

test('joint queries over several variables match the brute-force joint', () => {
  const net = randomNetwork(77, 8, 2, true);
  const { cards, values } = jointTable(net);
  const query = [7, 0, 4];
  const expected = new Float64Array(cards[7]! * cards[0]! * cards[4]!);
  let total = 0;
  for (let i = 0; i < values.length; i++) {
    let rest = i;
    const x = new Array<number>(cards.length);
    for (let v = cards.length - 1; v >= 0; v--) {
      x[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
    if (x[2] !== 1) continue; // evidence V2 = s1
    expected[(x[7]! * cards[0]! + x[0]!) * cards[4]! + x[4]!]! += values[i]!;
    total += values[i]!;
  }
  for (let i = 0; i < expected.length; i++) expected[i]! /= total;
  const ve = variableElimination(net, query, new Map([[2, 1]]));
  assert.deepEqual(ve.factor.vars, query);
  assert.ok(maxAbsDiff(ve.factor.values, expected) < 1e-12);
});

test('after CPT numbers change, reloadTables gives the same answers as a fresh compile', () => {
  const net = randomNetwork(90, 8);
  const jt = JunctionTree.compile(net);
  const evidence = new Map([[7, 1]]);
  const cpt = net.cpts[3]!;
  const k = net.variables[3]!.states.length;
  for (let o = 0; o < cpt.table.length; o += k) {
    cpt.table.fill(0, o, o + k);
    cpt.table[o] = 1;
  } // V3 now always s0
  jt.reloadTables();
  jt.setEvidence(evidence);
  jt.propagate();
  const truth = enumerate(net, evidence);
  assert.deepEqual(Array.from(jt.marginal(3)), [1, ...new Array(k - 1).fill(0)]);
  for (let v = 0; v < 8; v++) assert.ok(maxAbsDiff(jt.marginal(v), truth.marginals[v]!) < 1e-12);
  assert.ok(Math.abs(jt.logEvidence - Math.log(truth.pEvidence)) < 1e-12);
});
