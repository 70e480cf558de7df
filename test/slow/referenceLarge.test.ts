/**
 * `npm run test:slow`: exact marginals of the large bnlearn networks against
 * ../shared/data/reference, for every network whose junction tree fits the default budget
 * (largest clique table ≤ DEFAULT_BUDGET). Tolerances as in test/unit/engine/referenceMarginals:
 * VE a flat 1e-9 (plus the reference's own inconsistency, 0 on these), JT 1e-9 plus the file's
 * CPT row-sum rounding. Networks over the budget are listed, not compared.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_BUDGET } from '../../server/src/engine/inference.js';
import { junctionTreeOrder } from '../../server/src/engine/junctionTree.js';
import { rowSumDeviation } from '../../server/src/engine/network.js';
import { loadBif, loadReference } from '../support/networks.js';
import { compareWithReference, referenceInconsistency } from '../support/reference.js';
import { NO_SHARED } from '../support/shared.js';

const LARGE = ['hailfinder', 'hepar2', 'win95pts', 'water', 'mildew', 'barley', 'pathfinder', 'andes', 'pigs', 'diabetes', 'link', 'munin'];

for (const name of LARGE) {
  test(`${name}: exact marginals match the reference when the network fits the budget`, (t) => {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) return t.skip(NO_SHARED);
    const order = junctionTreeOrder(net);
    if (order.maxCliqueSize > DEFAULT_BUDGET) {
      t.diagnostic(`${name}: largest clique ${order.maxCliqueSize} > budget ${DEFAULT_BUDGET}: answered by sampling, not compared`);
      return;
    }
    const started = performance.now();
    // Every network is compared by both paths; the extra JT-vs-VE check on the row-normalised
    // network doubles the VE work, so it runs only where the junction tree is small.
    const crossCheck = order.totalSize < 1e6;
    const report = compareWithReference(net, cases, crossCheck);
    const tolerance = 1e-9 + rowSumDeviation(net);
    const veTolerance = 1e-9 + referenceInconsistency(net, cases);
    t.diagnostic(`${name}: largest clique ${order.maxCliqueSize}, JT max error ${report.jtError.toExponential(2)}, ` +
      `VE max error ${report.veError.toExponential(2)}, tolerance JT ${tolerance.toExponential(2)} VE ${veTolerance.toExponential(2)}, ` +
      `${(performance.now() - started).toFixed(0)} ms`);
    assert.ok(report.jtError < tolerance, `JT max error ${report.jtError}`);
    assert.ok(report.veError < veTolerance, `VE max error ${report.veError}`);
    if (crossCheck) assert.ok(report.jtVsVeNormalized < 1e-12, `JT vs VE on normalised rows ${report.jtVsVeNormalized}`);
  });
}
