import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../../server/src/engine/dynamic/viterbi.js';
import { unroll } from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import { JunctionTree } from '../../../../server/src/engine/inference/junctionTree.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { pythonMissing, runPython } from '../../../support/python.js';
import { randomFindings, randomTwoSlice, sampleFindings } from '../../../support/dynamicNetworks.js';
import { repoRoot } from '../../../support/shared.js';

const SCRIPT = readFileSync(join(repoRoot, 'test', 'support', 'numpyForwardBackward.py'), 'utf8');

interface Peer {
  logLikelihood: number;
  filtered: number[][][];
  smoothed: number[][][];
  viterbi: number;
}

function maxDiff(ours: Float64Array[][], theirs: number[][][]): number {
  let m = 0;
  ours.forEach((slice, t) =>
    slice.forEach((p, v) => p.forEach((x, s) => (m = Math.max(m, Math.abs(x - theirs[t]![v]![s]!))))),
  );
  return m;
}

test('filtering, smoothing, log-likelihood and Viterbi equal an independent numpy forward-backward (T up to 10^4)', (t) => {
  const missing = pythonMissing(['numpy']);
  if (missing) return t.skip(missing);
  const cases: [number, number, number][] = [
    [1, 1, 10_000],
    [2, 2, 10_000],
    [3, 3, 2_000],
    [4, 4, 500],
    [5, 5, 200],
  ];
  for (const [seed, n, T] of cases) {
    const dbn = randomTwoSlice(seed, n);
    const rng = createRng(seed);
    // Drawn from the model, so no step is impossible; a few virtual findings besides.
    const findings = sampleFindings(rng, dbn, T, [n - 1]).map((f, i) =>
      i % 7 === 3
        ? { ...f, likelihoods: new Map([[0, Float64Array.from(dbn.variables[0]!.states, (_, s) => 0.3 + s)]]) }
        : f,
    );
    const peer = runPython<Peer>(SCRIPT, {
      cards: dbn.variables.map((v) => v.states.length),
      initial: dbn.initial.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
      transition: dbn.transition.map((c) => ({ child: c.child, parents: c.parents, table: [...c.table] })),
      findings: findings.map((f) => ({
        evidence: [...f.evidence],
        likelihoods: [...(f.likelihoods ?? [])].map(([v, l]) => [v, Array.from(l)]),
      })),
    });
    const r = forwardBackward(dbn, findings, { smooth: true });
    const ml = mostLikelySequence(dbn, findings);
    t.diagnostic(
      `n=${n} T=${T}: log-likelihood ${r.logLikelihood.toFixed(6)} (numpy ${peer.logLikelihood.toFixed(6)})`,
    );
    assert.ok(
      Math.abs(r.logLikelihood - peer.logLikelihood) < 1e-9 * Math.max(1, Math.abs(peer.logLikelihood)),
      `n=${n}: log-likelihood`,
    );
    assert.ok(maxDiff(r.filtered, peer.filtered) < 1e-9, `n=${n}: filtered`);
    assert.ok(maxDiff(r.smoothed!, peer.smoothed) < 1e-9, `n=${n}: smoothed`);
    assert.ok(
      Math.abs(ml.logProbability - peer.viterbi) < 1e-9 * Math.max(1, Math.abs(peer.viterbi)),
      `n=${n}: Viterbi`,
    );
  }
});

test('20 variables per slice (4 carried over): smoothing and filtering equal the junction tree of the unrolled network', () => {
  for (const seed of [1, 2]) {
    const n = 20;
    const T = 4;
    const dbn = randomTwoSlice(seed, n, 2, 1, 4);
    const findings = randomFindings(createRng(seed), dbn, T, 0.3).map((f) => ({
      evidence: new Map([...f.evidence].filter(([v]) => v >= 15)),
    }));
    const r = forwardBackward(dbn, findings, { smooth: true });
    const net = unroll(dbn, T);
    const evidenceUpTo = (k: number) =>
      new Map(
        findings
          .slice(0, k)
          .flatMap((f, i) => [...f.evidence].map(([v, s]) => [(i + 1) * n + v, s] as [number, number])),
      );
    const jt = JunctionTree.compile(net);
    jt.setEvidence(evidenceUpTo(T));
    jt.propagate();
    assert.ok(Math.abs(jt.logEvidence - r.logLikelihood) < 1e-9, `seed ${seed}: log-likelihood`);
    let m = 0;
    for (let k = 1; k <= T; k++)
      for (let v = 0; v < n; v++)
        jt.marginal(k * n + v).forEach((p, s) => (m = Math.max(m, Math.abs(p - r.smoothed![k - 1]![v]![s]!))));
    assert.ok(m < 1e-9, `seed ${seed}: smoothed ${m}`);
    jt.setEvidence(evidenceUpTo(2));
    jt.propagate();
    m = 0;
    for (let v = 0; v < n; v++)
      jt.marginal(2 * n + v).forEach((p, s) => (m = Math.max(m, Math.abs(p - r.filtered[1]![v]![s]!))));
    assert.ok(m < 1e-9, `seed ${seed}: filtered ${m}`);
  }
});
