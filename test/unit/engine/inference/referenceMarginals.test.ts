/**
 * Exact marginals against ../shared/data/reference (pgmpy variable elimination on CPT rows
 * normalised to sum to 1), small networks. The BIF reader normalises every row, as the reference
 * does, so variable elimination and the junction tree must both match to a flat 1e-9 and agree
 * with each other to 1e-12. Large networks: `npm run test:slow`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { rowSumDeviation } from '../../../../server/src/engine/network.js';
import { variableElimination } from '../../../../server/src/engine/inference/variableElimination.js';
import { readBif, writeBif } from '../../../../server/src/model/bif.js';
import { evidenceOf, loadBif, loadReference, maxAbsDiff } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';
import { compareWithReference, referenceInconsistency } from '../../../support/reference.js';

const SMALL = ['asia', 'cancer', 'earthquake', 'survey', 'sachs', 'child', 'insurance', 'alarm'];

for (const name of SMALL) {
  test(`${name}: exact marginals match the pgmpy reference`, (t) => {
    const net = loadBif(name);
    const cases = loadReference(name);
    if (!net || !cases) return t.skip(NO_SHARED);
    const report = compareWithReference(net, cases, true, true);
    assert.ok(report.veError < 1e-9, `VE max error ${report.veError}`);
    assert.ok(report.jtError < 1e-9, `JT max error ${report.jtError}`);
    assert.ok(report.jtVsVe < 1e-12, `JT vs VE ${report.jtVsVe}`);
    // The tree reduced by each case's evidence: the same numbers, P(e) included.
    assert.ok(report.reducedError < 1e-9, `reduced tree max error ${report.reducedError}`);
    assert.ok(report.reducedVsJt < 1e-12, `reduced vs full tree ${report.reducedVsJt}`);
  });
}

test('the BIF reader normalises every CPT row of the rounded files, and a round trip keeps them', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  assert.ok(rowSumDeviation(net) < 1e-15, `row sums deviate by ${rowSumDeviation(net)}`);
  const again = readBif(writeBif(net));
  assert.ok('network' in again);
  for (const [v, cpt] of net.cpts.entries()) assert.ok(maxAbsDiff(cpt.table, again.network.cpts[v]!.table) < 1e-15);
  const evidence = evidenceOf(net, { HR: 'LOW', BP: 'HIGH' });
  const [a, b] = [JunctionTree.compile(net), JunctionTree.compile(again.network)];
  for (const jt of [a, b]) {
    jt.setEvidence(evidence);
    jt.propagate();
  }
  for (let v = 0; v < net.variables.length; v++) assert.ok(maxAbsDiff(a.marginal(v), b.marginal(v)) < 1e-12);
});

test('sachs: a variable cut off from the evidence keeps its prior, in the engine and in the reference', (t) => {
  const net = loadBif('sachs');
  const cases = loadReference('sachs');
  if (!net || !cases) return t.skip(NO_SHARED);
  // PKA and Plcg lie in different components of the DAG, so P(PKA | Plcg = LOW) = P(PKA) under any
  // CPT numbers. The previous reference broke this by 1.45e-8 (rows not normalised); the new one
  // must hold it far inside the 1e-9 the engine is held to, and so must the engine.
  assert.deepEqual(cases[1]!.evidence, { Plcg: 'LOW' });
  assert.ok(referenceInconsistency(net, cases) < 1e-12, `reference gap ${referenceInconsistency(net, cases)}`);
  const pka = net.variables.findIndex((v) => v.name === 'PKA');
  const prior = variableElimination(net, [pka], new Map()).factor.values;
  const given = variableElimination(net, [pka], evidenceOf(net, { Plcg: 'LOW' })).factor.values;
  assert.ok(maxAbsDiff(prior, given) < 1e-15, `engine gap ${maxAbsDiff(prior, given)}`);
});
