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
import { maxAbsDiff, randomEvidence, randomNetwork } from '../../../support/networks.js';

/** Entries per run of the message loops (RUN_ENTRIES in junctionTree.ts): bigger cliques take several runs. */
const RUN = 2048;

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
