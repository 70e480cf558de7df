/**
 * `npm run test:slow`: exact marginals of the large bnlearn networks against
 * ../shared/data/reference, for every network `auto` answers exactly (its whole junction tree
 * fits its share of the default memory budget, in bytes). Tolerances as in test/unit/engine/referenceMarginals:
 * a flat 1e-9 for VE and JT (the reader normalises rows, as the reference does), 1e-12 between
 * them. Networks over the budget are listed, not compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chooseExact, exactPlan } from '../../server/src/engine/inference/marginals.js';
import { TRANSIENT_MIN_ENTRIES } from '../../server/src/engine/inference/junctionTree.js';
import { loadBif, loadReference } from '../support/networks.js';
import { compareWithReference } from '../support/reference.js';
import { NO_SHARED } from '../support/shared.js';

const LARGE = [
  'hailfinder',
  'hepar2',
  'win95pts',
  'water',
  'mildew',
  'barley',
  'pathfinder',
  'andes',
  'pigs',
  'diabetes',
  'link',
  'munin',
];

for (const name of LARGE) {
  test(`${name}: exact marginals match the reference when the network fits the budget`, (t) => {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) return t.skip(NO_SHARED);
    const plan = exactPlan(net);
    const order = plan.order;
    const choice = chooseExact(plan, {});
    if (!choice.exact) {
      t.diagnostic(`${name}: ${choice.reason}: answered by sampling, not compared`);
      return;
    }
    const started = performance.now();
    // VE on every variable repeats the elimination per variable, so large trees check it on the
    // first variable of each case only.
    const crossCheck = order.totalSize < 1e6;
    // Trees a one-shot answer compiles with transient tables: those give the same bits.
    const transient = plan.entries >= TRANSIENT_MIN_ENTRIES;
    const report = compareWithReference(net, cases, crossCheck, false, transient);
    t.diagnostic(
      `${name}: largest clique ${order.maxCliqueSize}, JT max error ${report.jtError.toExponential(2)}, ` +
        `VE max error ${report.veError.toExponential(2)}, JT vs VE ${report.jtVsVe.toExponential(2)}, ` +
        (transient ? `transient vs JT ${report.transientVsJt}, ` : '') +
        `${(performance.now() - started).toFixed(0)} ms`,
    );
    assert.ok(report.jtError < 1e-9, `JT max error ${report.jtError}`);
    assert.ok(report.veError < 1e-9, `VE max error ${report.veError}`);
    assert.ok(report.jtVsVe < 1e-12, `JT vs VE ${report.jtVsVe}`);
    assert.equal(report.transientVsJt, 0, 'transient tables vs a table per clique');
  });
}
