/**
 * The recovery experiment at full size (npm run test:slow, ~1–2 minutes): 20,000 ALARM records
 * from our forward sampler, 20% of the values hidden at random and LVFAILURE hidden entirely.
 * EM from random Dirichlet starts must fit the data at least as well as the generating CPTs
 * (minus a small slack) and recover the 36 observed variables' CPTs within a mean total-variation
 * distance of 0.05 (rows weighted by how often their parent configuration occurs).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { networkEm } from '../../server/src/engine/estimators/networkEm.js';
import { ExpectationStep } from '../../server/src/engine/estimators/expectedCounts.js';
import { forwardSample, hideAtRandom } from '../../server/src/engine/sampling/forwardSampling.js';
import { meanTotalVariation, alignHiddenStates } from '../../server/src/engine/estimators/cptDistance.js';
import { countConfigurations } from '../../server/src/engine/estimators/cptLearning.js';
import { createRng } from '../../server/src/engine/random.js';
import { NO_SHARED } from '../support/shared.js';
import { loadBif } from '../support/networks.js';

test('ALARM recovery: 20,000 records, 20% missing, one variable hidden, EM from 2 random starts', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const full = forwardSample(net, 20000, createRng(1));
  const data = hideAtRandom(full, 0.2, createRng(2));
  const h = net.variables.findIndex((v) => v.name === 'LVFAILURE');
  data.columns[h]!.fill(-1);
  const started = performance.now();
  const em = networkEm(net, data, { seed: 3, restarts: 2, maxIterations: 200, tolerance: 1e-6, checkMonotone: true });
  const seconds = (performance.now() - started) / 1000;
  const truth = new ExpectationStep(net, data).run(net.cpts.map((c) => c.table)).logLikelihood;
  const observed = net.variables.map((_, v) => v).filter((v) => v !== h);
  const aligned = alignHiddenStates(em.network, net, h);
  const weighted = meanTotalVariation(aligned, net, {
    variables: observed,
    rowWeights: (v) => countConfigurations(full, net.cpts[v]!.parents),
  }).mean;
  const plain = meanTotalVariation(aligned, net, { variables: observed }).mean;
  t.diagnostic(
    `EM ${seconds.toFixed(1)} s, runs ${em.runs.map((r) => `${r.logLikelihood.toFixed(1)}/${r.iterations}it`).join(', ')}; generating CPTs ${truth.toFixed(1)}`,
  );
  t.diagnostic(
    `mean TV over observed variables: ${weighted.toFixed(4)} (rows weighted by frequency), ${plain.toFixed(4)} (rows equal)`,
  );
  assert.ok(em.logLikelihood > truth - 1e-4 * Math.abs(truth), `EM ${em.logLikelihood} vs generating ${truth}`);
  assert.ok(weighted < 0.05, `mean TV ${weighted}`);
});
