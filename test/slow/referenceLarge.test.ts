/**
 * `npm run test:slow`: exact marginals of the large bnlearn networks against
 * ../shared/data/reference, for every network whose junction tree fits the default budget
 * (largest clique table ≤ DEFAULT_BUDGET). Tolerances as in test/unit/engine/referenceMarginals:
 * a flat 1e-9 for VE and JT (the reader normalises rows, as the reference does), 1e-12 between
 * them. Networks over the budget are listed, not compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_BUDGET } from '../../server/src/engine/inference/marginals.js';
import { junctionTreeOrder } from '../../server/src/engine/inference/junctionTree.js';
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
    const order = junctionTreeOrder(net);
    if (order.maxCliqueSize > DEFAULT_BUDGET) {
      t.diagnostic(
        `${name}: largest clique ${order.maxCliqueSize} > budget ${DEFAULT_BUDGET}: answered by sampling, not compared`,
      );
      return;
    }
    const started = performance.now();
    // VE on every variable repeats the elimination per variable, so large trees check it on the
    // first variable of each case only.
    const crossCheck = order.totalSize < 1e6;
    const report = compareWithReference(net, cases, crossCheck);
    t.diagnostic(
      `${name}: largest clique ${order.maxCliqueSize}, JT max error ${report.jtError.toExponential(2)}, ` +
        `VE max error ${report.veError.toExponential(2)}, JT vs VE ${report.jtVsVe.toExponential(2)}, ` +
        `${(performance.now() - started).toFixed(0)} ms`,
    );
    assert.ok(report.jtError < 1e-9, `JT max error ${report.jtError}`);
    assert.ok(report.veError < 1e-9, `VE max error ${report.veError}`);
    assert.ok(report.jtVsVe < 1e-12, `JT vs VE ${report.jtVsVe}`);
  });
}
