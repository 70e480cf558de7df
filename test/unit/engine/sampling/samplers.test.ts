import { test } from 'node:test';
import assert from 'node:assert/strict';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';
import { likelihoodWeighting } from '../../../../server/src/engine/sampling/likelihoodWeighting.js';
import { gibbsSampling } from '../../../../server/src/engine/sampling/gibbsSampling.js';
import type { SampledMarginals } from '../../../../server/src/engine/sampling/sampledNetwork.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import { enumerate, evidenceOf, loadBif, loadReference, randomNetwork, twoNodes } from '../../../support/networks.js';
import { NO_SHARED } from '../../../support/shared.js';

/**
 * Largest |estimate − exact| / SE over all states. A state no sample reached has SE 0; allow it
 * a gap of 1/samples (what N samples cannot resolve) instead of dividing by 0.
 */
function worstZ(net: BayesianNetwork, exact: JunctionTree, r: SampledMarginals): number {
  let worst = 0;
  net.variables.forEach((_, v) =>
    exact.marginal(v).forEach((p, s) => {
      const gap = Math.abs(p - r.marginals[v]![s]!);
      const se = r.stderr[v]![s]!;
      if (gap < 1e-12) return; // rounding (a variable whose conditional never changes)
      worst = Math.max(worst, se > 0 ? gap / se : gap <= 1 / r.samples ? 0 : Infinity);
    }),
  );
  return worst;
}

const SAMPLERS = [
  { name: 'likelihood weighting', run: likelihoodWeighting, samples: 20000 },
  { name: 'Gibbs sampling', run: gibbsSampling, samples: 60000 },
];

for (const net of ['alarm', 'hailfinder']) {
  for (const sampler of SAMPLERS) {
    test(`${net}: ${sampler.name} is within 4 standard errors of the exact marginals`, (t) => {
      const bn = loadBif(net);
      const cases = loadReference(net);
      if (!bn || !cases) return t.skip(NO_SHARED);
      const jt = JunctionTree.compile(bn);
      for (const c of cases.slice(1, 3)) {
        const evidence = evidenceOf(bn, c.evidence);
        jt.setEvidence(evidence);
        jt.propagate();
        const r = sampler.run(bn, evidence, { samples: sampler.samples, seed: 11 });
        const z = worstZ(bn, jt, r);
        assert.ok(z < 4, `${JSON.stringify(c.evidence)}: worst deviation ${z.toFixed(2)} standard errors`);
      }
    });
  }
}

// Gibbs sampling needs an ergodic chain: zeros that are not whole deterministic rows can cut
// the state space apart (no sampler move crosses), so it is checked on positive tables only.
test('samplers agree with enumeration on small random networks (likelihood weighting also with zeros)', () => {
  for (let seed = 1; seed <= 8; seed++) {
    const zeros = seed % 2 === 0;
    const net = randomNetwork(seed, 7, 3, zeros);
    const evidence = new Map([[6, 0]]);
    const truth = enumerate(net, evidence);
    if (truth.pEvidence === 0) continue;
    const jt = JunctionTree.compile(net);
    jt.setEvidence(evidence);
    jt.propagate();
    for (const sampler of zeros ? [likelihoodWeighting] : [likelihoodWeighting, gibbsSampling]) {
      const r = sampler(net, evidence, { samples: 20000, seed });
      assert.ok(worstZ(net, jt, r) < 4.5, `seed ${seed}: ${sampler.name}`);
    }
  }
});

test('the same seed gives the same numbers, another seed others', () => {
  const net = randomNetwork(3, 8);
  const e = new Map([[7, 1]]);
  for (const sampler of [likelihoodWeighting, gibbsSampling]) {
    const a = sampler(net, e, { samples: 2000, seed: 5 });
    const b = sampler(net, e, { samples: 2000, seed: 5 });
    const c = sampler(net, e, { samples: 2000, seed: 6 });
    assert.deepEqual(a.marginals, b.marginals);
    assert.deepEqual(a.stderr, b.stderr);
    assert.notDeepEqual(a.marginals, c.marginals);
  }
});

test('an aborted signal stops the samplers and the junction tree', () => {
  const net = randomNetwork(4, 8);
  const signal = { aborted: true };
  assert.throws(() => likelihoodWeighting(net, new Map(), { samples: 1e9, signal }), CancelledError);
  assert.throws(() => gibbsSampling(net, new Map(), { samples: 1e9, signal }), CancelledError);
  const jt = JunctionTree.compile(net);
  assert.throws(() => jt.propagate(signal), CancelledError);
});

test('likelihood weighting: a state no sample reached has a standard error of one effective sample, not 0', () => {
  // A observed; P(B = b | A = a) = 0.001, so 200 samples mostly never draw it: `b 0 ±0` claimed
  // certainty where 200 samples cannot resolve 0.001.
  const net = twoNodes([0.5, 0.5], [0.999, 0.001, 0.5, 0.5]);
  let unseen = 0;
  for (let seed = 1; seed <= 20; seed++) {
    const r = likelihoodWeighting(net, new Map([[0, 0]]), { samples: 200, seed });
    if (r.marginals[1]![1] === 0) unseen++;
    for (const s of [0, 1]) {
      const se = r.stderr[1]![s]!;
      assert.ok(se >= 1 / 200, `seed ${seed}: B's standard error ${se}`);
      const gap = Math.abs(r.marginals[1]![s]! - (s === 1 ? 0.001 : 0.999));
      assert.ok(gap <= 4 * se, `seed ${seed}: B = ${s} misses by ${gap}, ${gap / se} standard errors`);
    }
    assert.deepEqual(Array.from(r.stderr[0]!), [0, 0]); // A is observed: a point mass
  }
  assert.ok(unseen >= 10, `only ${unseen} runs never drew B = b`);
});
