import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hybridPosterior } from '../../../../server/src/engine/gaussian/clgInference.js';
import { hybridLikelihoodWeighting } from '../../../../server/src/engine/gaussian/hybridSampling.js';
import { hybridMarginals } from '../../../../server/src/engine/gaussian/hybridMarginals.js';
import { budgetsFor } from '../../../../server/src/engine/budget.js';
import { randomHybridNetwork, sampledEvidence } from '../../../support/hybridNetworks.js';

test('likelihood weighting with exact Gaussian parts agrees with exact inference within 4 standard errors', () => {
  const net = randomHybridNetwork({ continuous: 10, discrete: 5, seed: 21 });
  const evidence = sampledEvidence(net, [1, 7, 12], 4);
  const exact = hybridPosterior(net, evidence);
  const sampled = hybridLikelihoodWeighting(net, evidence, { samples: 20000, seed: 3 });
  let checked = 0;
  net.variables.forEach((v, i) => {
    if (v.kind === 'discrete') {
      exact.discrete[i]!.forEach((p, s) => {
        const se = sampled.discreteStderr[i]![s]!;
        assert.ok(
          Math.abs(sampled.discrete[i]![s]! - p) <= 4 * se + 1e-12,
          `${v.name}=${s}: ${sampled.discrete[i]![s]} vs ${p} ± ${se}`,
        );
        checked++;
      });
    } else {
      const se = sampled.meanStderr[i]!;
      const got = sampled.continuous[i]!.mean;
      assert.ok(
        Math.abs(got - exact.continuous[i]!.mean) <= 4 * se + 1e-12,
        `mean ${v.name}: ${got} vs ${exact.continuous[i]!.mean} ± ${se}`,
      );
      assert.ok(
        Math.abs(sampled.continuous[i]!.variance - exact.continuous[i]!.variance) <
          0.1 * exact.continuous[i]!.variance + 1e-9,
      );
      checked++;
    }
  });
  assert.ok(checked > 15);
  assert.ok(Math.abs(sampled.logEvidence - exact.logEvidence) < 0.05, `${sampled.logEvidence} vs ${exact.logEvidence}`);
  const again = hybridLikelihoodWeighting(net, evidence, { samples: 20000, seed: 3 });
  assert.deepEqual(again, sampled, 'the same seed gives the same answer');
});

test('auto answers exactly within the budget and by likelihood weighting over it, saying why', () => {
  const net = randomHybridNetwork({ continuous: 6, discrete: 8, maxParents: 3, seed: 2 });
  const evidence = sampledEvidence(net, [9], 1);
  assert.equal(hybridMarginals(net, evidence).method, 'exact');
  const over = hybridMarginals(net, evidence, { budgets: { ...budgetsFor(64), maxTotalEntries: 40 }, samples: 2000 });
  assert.equal(over.method, 'lw');
  assert.match(
    over.note!,
    /configurations of the discrete parents .* over the budget of 40: answered by likelihood weighting/,
  );
});
