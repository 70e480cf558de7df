import { test } from 'node:test';
import assert from 'node:assert/strict';
import { learnSequences } from '../../../../server/src/engine/dynamic/sequenceEm.js';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import type { TwoSliceNetwork } from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { randomTwoSlice, sampleStates } from '../../../support/dynamicNetworks.js';

/** An HMM: hidden H {a, b}, observed O {x, y, z}; slice 0 uses the emission table of t. */
function hmm(): TwoSliceNetwork {
  const emission = { child: 1, parents: [0], table: Float64Array.of(0.7, 0.2, 0.1, 0.1, 0.3, 0.6) };
  return {
    name: 'Hmm',
    variables: [
      { name: 'H', states: ['a', 'b'] },
      { name: 'O', states: ['x', 'y', 'z'] },
    ],
    initial: [{ child: 0, parents: [], table: Float64Array.of(0.6, 0.4) }, emission],
    transition: [{ child: 0, parents: [2], table: Float64Array.of(0.85, 0.15, 0.25, 0.75) }, emission],
  };
}

test("Baum–Welch (EM on sequences) recovers a known HMM's parameters within 0.05, never lowering the log-likelihood", () => {
  const truth = hmm();
  const rng = createRng(2024);
  // 20 sequences of 250 steps, only O observed (slice 0's O is not: steps start at 1).
  const sequences = Array.from({ length: 20 }, () =>
    sampleStates(rng, truth, 250)
      .slice(1)
      .map((x) => ({ evidence: new Map([[1, x[1]!]]) })),
  );
  const fit = learnSequences(truth, sequences, { seed: 7, maxIterations: 300, tolerance: 1e-8 });
  for (let i = 1; i < fit.logLikelihoods.length; i++)
    assert.ok(fit.logLikelihoods[i]! >= fit.logLikelihoods[i - 1]! - 1e-9, `iteration ${i} went down`);
  assert.ok(fit.iterations > 5);
  // Label switching: the learnt hidden states may be the true ones swapped; compare under the better match.
  const learnt = fit.dbn;
  const errorUnder = (perm: number[]) => {
    let worst = 0;
    for (let h = 0; h < 2; h++) {
      for (let o = 0; o < 3; o++)
        worst = Math.max(
          worst,
          Math.abs(learnt.transition[1]!.table[perm[h]! * 3 + o]! - truth.transition[1]!.table[h * 3 + o]!),
        );
      for (let g = 0; g < 2; g++)
        worst = Math.max(
          worst,
          Math.abs(learnt.transition[0]!.table[perm[h]! * 2 + perm[g]!]! - truth.transition[0]!.table[h * 2 + g]!),
        );
    }
    return worst;
  };
  const worst = Math.min(errorUnder([0, 1]), errorUnder([1, 0]));
  assert.ok(worst < 0.05, `largest error ${worst}`);
  // The learnt model explains the data at least as well as the truth (EM's optimum is a maximum of the likelihood).
  const ll = (d: TwoSliceNetwork) => sequences.reduce((s, q) => s + forwardBackward(d, q).logLikelihood, 0);
  assert.ok(ll(learnt) >= ll(truth) - 1e-6);
  assert.ok(Math.abs(ll(learnt) - fit.logLikelihoods[fit.logLikelihoods.length - 1]!) < 1e-6 * Math.abs(ll(learnt)));
});

test('on complete sequences one EM step is counting', () => {
  // Only V0 carries state from step to step: every other transition table has its parents in
  // its own slice, all observed at steps 1..T, so its EM step must equal the counts exactly.
  const dbn = randomTwoSlice(5, 4, 2, 1, 1);
  const rng = createRng(5);
  const runs = Array.from({ length: 5 }, () => sampleStates(rng, dbn, 30));
  const sequences = runs.map((xs) => xs.slice(1).map((x) => ({ evidence: new Map([...x].map((s, v) => [v, s])) })));
  const fit = learnSequences(dbn, sequences, { maxIterations: 1 });
  let checked = 0;
  dbn.transition.forEach((cpt, v) => {
    if (v === 0) return;
    const k = dbn.variables[v]!.states.length;
    const counts = new Float64Array(cpt.table.length);
    for (const xs of runs)
      for (let t = 1; t < xs.length; t++) {
        let row = 0;
        for (const p of cpt.parents) row = row * dbn.variables[p]!.states.length + xs[t]![p]!;
        counts[row * k + xs[t]![v]!]! += 1;
      }
    for (let r = 0; r < counts.length; r += k) {
      const sum = counts.slice(r, r + k).reduce((a, b) => a + b, 0);
      for (let x = 0; x < k; x++) {
        const expected = sum > 0 ? counts[r + x]! / sum : 1 / k;
        assert.ok(Math.abs(fit.dbn.transition[v]!.table[r + x]! - expected) < 1e-12, `V${v} row ${r / k}`);
        checked++;
      }
    }
  });
  assert.ok(checked > 10);
});
