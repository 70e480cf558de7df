/**
 * Exact marginals against ../shared/data/reference (pgmpy variable elimination), small networks.
 * Some BIF files round CPT rows to sums of 1 ± 1e-7 (alarm, sachs, hepar2, …); on those, answers
 * depend on where a tool prunes or renormalises (pgmpy prunes barren nodes per query), by up to
 * that rounding. So the tolerance is 1e-9 plus the file's largest row-sum deviation (exactly 1e-9
 * on files whose rows sum to 1), and on the row-normalised network the junction tree and variable
 * elimination must agree to 1e-12. The large networks run in `npm run test:slow`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowSumDeviation } from '../../../server/src/engine/network.js';
import { loadBif, loadReference } from '../../support/networks.js';
import { NO_SHARED } from '../../support/shared.js';
import { compareWithReference } from '../../support/reference.js';

const SMALL = ['asia', 'cancer', 'earthquake', 'survey', 'sachs', 'child', 'insurance', 'alarm'];

for (const name of SMALL) {
  test(`${name}: exact marginals match the pgmpy reference`, (t) => {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) return t.skip(NO_SHARED);
    const report = compareWithReference(net, cases);
    const tolerance = 1e-9 + rowSumDeviation(net);
    assert.ok(report.veError < tolerance, `VE max error ${report.veError}`);
    assert.ok(report.jtError < tolerance, `JT max error ${report.jtError}`);
    assert.ok(report.jtVsVeNormalized < 1e-12, `JT vs VE on normalised rows ${report.jtVsVeNormalized}`);
  });
}

