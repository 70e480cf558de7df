import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  JunctionTree,
  ImpossibleEvidenceError,
  familiesOf,
  junctionTreeLayout,
  junctionTreeOrder,
  junctionTreeSize,
} from '../../../../server/src/engine/inference/junctionTree.js';
import {
  probabilityOfEvidence,
  variableElimination,
} from '../../../../server/src/engine/inference/variableElimination.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { maxAbsDiff, randomEvidence, randomNetwork } from '../../../support/networks.js';

/** Entries per run of the message loops (RUN_ENTRIES in junctionTree.ts): bigger cliques take several runs. */
const RUN = 2048;

/** New numbers in every CPT, in place: each row reversed (a tree's kept messages are stale after it). */
function reverseRows(net: BayesianNetwork): void {
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    for (let o = 0; o < cpt.table.length; o += k) cpt.table.subarray(o, o + k).reverse();
  }
}

test('cliques of several runs with several children each: marginals, P(e) and families match variable elimination', () => {
  let severalRuns = 0,
    severalChildren = 0,
    impossible = 0,
    checked = 0;
  for (let seed = 1; seed <= 6; seed++) {
    // Every other network has zero CPT entries, so some evidence sets are impossible.
    const net = randomNetwork(seed, 26, 4, seed % 2 === 0);
    const cards = net.variables.map((v) => v.states.length);
    const layout = junctionTreeLayout(junctionTreeOrder(net), cards, familiesOf(net));
    const kids = layout.parent.map((_, i) => layout.parent.filter((p) => p === i).length);
    layout.cliques.forEach((c, i) => {
      if (c.reduce((m, v) => m * cards[v]!, 1) <= RUN) return;
      severalRuns++;
      if (kids[i]! >= 2) severalChildren++;
    });
    const jt = JunctionTree.compile(net);
    assert.equal(
      junctionTreeSize(layout, cards).bytes,
      jt.bytes,
      `seed ${seed}: the size estimate is what is allocated`,
    );
    for (let trial = 0; trial < 3; trial++) {
      const evidence = randomEvidence(seed * 10 + trial, cards);
      jt.setEvidence(evidence);
      jt.propagate();
      const logP = probabilityOfEvidence(net, evidence);
      if (logP === -Infinity) {
        impossible++;
        assert.ok(jt.impossible, `seed ${seed} trial ${trial}: impossible evidence not detected`);
        assert.throws(() => jt.marginal(0), ImpossibleEvidenceError);
        continue;
      }
      checked++;
      assert.ok(Math.abs(jt.logEvidence - logP) < 1e-9, `seed ${seed} trial ${trial}: log P(e)`);
      for (let v = 0; v < cards.length; v++) {
        const ve = variableElimination(net, [v], evidence).factor.values;
        assert.ok(maxAbsDiff(jt.marginal(v), ve) < 1e-12, `seed ${seed} trial ${trial}: marginal of V${v}`);
      }
      for (const cpt of net.cpts.filter((_, v) => v % 3 === trial)) {
        const ve = variableElimination(net, [...cpt.parents, cpt.child], evidence).factor.values;
        assert.ok(maxAbsDiff(jt.familyMarginal(cpt.child), ve) < 1e-12, `seed ${seed}: family of V${cpt.child}`);
      }
    }
  }
  // The networks must exercise what the test is about.
  assert.ok(
    severalRuns >= 10 && severalChildren >= 5,
    `${severalRuns} cliques of several runs, ${severalChildren} with ≥ 2 children`,
  );
  assert.ok(checked >= 12, `${checked} possible evidence sets, ${impossible} impossible`);
});

test('messages kept from subtrees without evidence follow evidence changes and reloaded numbers', () => {
  for (let seed = 1; seed <= 3; seed++) {
    const net = randomNetwork(seed, 26, 4);
    const cards = net.variables.map((v) => v.states.length);
    const jt = JunctionTree.compile(net);
    const check = (evidence: Map<number, number>, what: string) => {
      jt.setEvidence(evidence);
      jt.propagate();
      const fresh = JunctionTree.compile(net);
      fresh.setEvidence(evidence);
      fresh.propagate();
      assert.ok(Math.abs(jt.logEvidence - fresh.logEvidence) < 1e-12, `seed ${seed} ${what}: log P(e)`);
      for (let v = 0; v < cards.length; v++)
        assert.ok(maxAbsDiff(jt.marginal(v), fresh.marginal(v)) < 1e-12, `seed ${seed} ${what}: V${v}`);
    };
    const sets = [new Map<number, number>(), randomEvidence(seed, cards), new Map([[0, 0]]), new Map<number, number>()];
    sets.forEach((e, i) => check(e, `evidence set ${i}`));
    // New numbers in every CPT (each row reversed): kept messages are stale now.
    reverseRows(net);
    jt.reloadTables();
    sets.forEach((e, i) => check(e, `evidence set ${i} after reloadTables`));
  }
});

test('lazy distribution: any read order, families after marginals, new evidence or numbers between reads', () => {
  for (let seed = 1; seed <= 4; seed++) {
    const net = randomNetwork(seed, 26, 4, seed % 2 === 0);
    const cards = net.variables.map((v) => v.states.length);
    const jt = JunctionTree.compile(net);
    const n = cards.length;
    // Each read is checked against variable elimination, so a pending ratio lost or applied twice shows.
    const expectMarginal = (v: number, evidence: Map<number, number>, what: string) => {
      const ve = variableElimination(net, [v], evidence).factor.values;
      assert.ok(maxAbsDiff(jt.marginal(v), ve) < 1e-12, `seed ${seed} ${what}: marginal of V${v}`);
    };
    const expectFamily = (v: number, evidence: Map<number, number>, what: string) => {
      const ve = variableElimination(net, [...net.cpts[v]!.parents, v], evidence).factor.values;
      assert.ok(maxAbsDiff(jt.familyMarginal(v), ve) < 1e-12, `seed ${seed} ${what}: family of V${v}`);
    };
    const sets = [
      new Map<number, number>(),
      randomEvidence(seed, cards),
      new Map([[n - 1, 0]]),
      new Map([[n - 1, 0]]), // the same again: kept tables of evidence-free subtrees are reused as they are
      new Map<number, number>(),
    ];
    const propagate = (e: Map<number, number>) => {
      jt.setEvidence(e);
      jt.propagate();
      return !jt.impossible;
    };
    sets.forEach((e, i) => {
      if (!propagate(e)) return;
      const order = i % 2 === 0 ? [...Array(n).keys()].reverse() : [...Array(n).keys()];
      // Family first for some, marginal first for others: both ways of reading a clique.
      for (const v of order) {
        if (v % 2 === i % 2) expectFamily(v, e, `set ${i}`);
        expectMarginal(v, e, `set ${i}`);
        if (v % 2 !== i % 2) expectFamily(v, e, `set ${i}`);
      }
      const joint = jt.jointMarginal([...net.cpts[n - 1]!.parents, n - 1])!;
      const ve = variableElimination(net, joint.vars, e).factor.values;
      assert.ok(maxAbsDiff(joint.values, ve) < 1e-12, `seed ${seed} set ${i}: joint`);
    });
    // Half the marginals read, then new evidence; half read, then new numbers (EM's pattern).
    if (propagate(sets[1]!)) for (let v = 0; v < n; v += 2) jt.marginal(v);
    if (propagate(sets[2]!)) {
      for (let v = 0; v < n; v++) expectMarginal(v, sets[2]!, 'after a partial read');
      for (let v = 1; v < n; v += 2) jt.familyMarginal(v);
    }
    reverseRows(net);
    jt.reloadTables();
    for (const e of [sets[2]!, sets[0]!])
      if (propagate(e))
        for (let v = n - 1; v >= 0; v--) {
          expectFamily(v, e, 'after reloadTables');
          expectMarginal(v, e, 'after reloadTables');
        }
  }
});

test('transient tables give the same bits as a table per clique, across evidence sets and reloaded numbers', () => {
  let checked = 0,
    impossible = 0;
  for (let seed = 11; seed <= 18; seed++) {
    const net = randomNetwork(seed, 26, 4, seed % 2 === 0);
    const cards = net.variables.map((v) => v.states.length);
    const kept = JunctionTree.compile(net);
    const transient = JunctionTree.compile(net, { transient: true });
    // Only the largest clique's room is allocated for the tables.
    assert.equal(kept.bytes - transient.bytes, 8 * (kept.totalSize - kept.maxCliqueSize), `seed ${seed}: bytes`);
    const n = cards.length;
    const sets = [new Map<number, number>(), randomEvidence(seed, cards), new Map([[0, 1]]), new Map([[0, 1]])];
    const compare = (what: string) => {
      sets.forEach((e, i) => {
        for (const jt of [kept, transient]) {
          jt.setEvidence(e);
          jt.propagate();
        }
        assert.equal(transient.logEvidence, kept.logEvidence, `seed ${seed} ${what} set ${i}: log P(e)`);
        if (kept.impossible) {
          impossible++;
          assert.throws(() => transient.marginal(0), ImpossibleEvidenceError);
          return;
        }
        checked++;
        for (let v = n - 1; v >= 0; v--)
          assert.deepEqual(transient.marginal(v), kept.marginal(v), `seed ${seed} ${what} set ${i}: V${v}`);
        assert.deepEqual(transient.marginals(), kept.marginals(), `seed ${seed} ${what} set ${i}: all marginals`);
      });
    };
    compare('');
    // New numbers in every CPT (each row reversed): the kept messages of evidence-free subtrees are stale.
    reverseRows(net);
    kept.reloadTables();
    transient.reloadTables();
    compare('reloaded');
    // Its tables are gone once read: families and joints need a table per clique, and say so.
    if (!transient.impossible) {
      assert.throws(() => transient.familyMarginal(0), /familyMarginal needs a table per clique/);
      assert.throws(() => transient.jointMarginal([0]), /jointMarginal needs a table per clique/);
    }
  }
  assert.ok(checked >= 40 && impossible >= 2, `${checked} possible evidence sets checked, ${impossible} impossible`);
});

test('a propagation cancelled part-way keeps nothing stale: the next one matches variable elimination', () => {
  const net = randomNetwork(7, 26, 4);
  const cards = net.variables.map((v) => v.states.length);
  const jt = JunctionTree.compile(net);
  const before = randomEvidence(71, cards),
    after = new Map<number, number>();
  jt.setEvidence(after);
  jt.propagate();
  for (const stopAt of [2, 5, 9]) {
    let checks = 0;
    const signal = {
      get aborted() {
        return ++checks > stopAt;
      },
    };
    jt.setEvidence(before);
    assert.throws(() => jt.propagate(signal), CancelledError);
    assert.throws(() => jt.marginal(0), /propagate/);
    jt.setEvidence(after);
    jt.propagate();
    for (let v = 0; v < cards.length; v++) {
      const ve = variableElimination(net, [v], after).factor.values;
      assert.ok(maxAbsDiff(jt.marginal(v), ve) < 1e-12, `stopped at ${stopAt}: V${v}`);
    }
  }
});

test('a variable with 1,500 children: messages scaled to their largest entry do not underflow in the product', () => {
  // H with 1,500 two-state children; messages summed to 1 were [0.5, 0.5] from every child
  // without evidence, and 0.5^1500 is 0 in doubles: the evidence was called impossible.
  const n = 1500;
  const net: BayesianNetwork = {
    name: 'star',
    variables: [
      { name: 'H', states: ['t', 'f'] },
      ...Array.from({ length: n }, (_, i) => ({ name: `X${i}`, states: ['t', 'f'] })),
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.of(0.5, 0.5) },
      ...Array.from({ length: n }, (_, i) => ({
        child: i + 1,
        parents: [0],
        table: Float64Array.of(0.9, 0.1, 0.2, 0.8),
      })),
    ],
  };
  const jt = JunctionTree.compile(net);
  jt.setEvidence(new Map([[1, 0]]));
  jt.propagate();
  const h = jt.marginal(0);
  assert.ok(Math.abs(h[0]! - 9 / 11) < 1e-12, `P(H = t | X0 = t) = ${h[0]}`);
  assert.ok(Math.abs(jt.logEvidence - Math.log(0.55)) < 1e-12, `log P(e) = ${jt.logEvidence}`);
});
