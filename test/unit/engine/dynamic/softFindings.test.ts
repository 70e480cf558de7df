import { test } from 'node:test';
import assert from 'node:assert/strict';
import { forwardBackward } from '../../../../server/src/engine/dynamic/forwardBackward.js';
import { mostLikelySequence } from '../../../../server/src/engine/dynamic/viterbi.js';
import { unroll, type TwoSliceNetwork } from '../../../../server/src/engine/dynamic/twoSliceNetwork.js';
import type { StepFindings } from '../../../../server/src/engine/dynamic/sliceTree.js';
import { EngineError } from '../../../../server/src/engine/engineError.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { jointTable } from '../../../support/networks.js';
import { randomTwoSlice, sampleFindings } from '../../../support/dynamicNetworks.js';

/**
 * Jeffrey's rule on the unrolled network by enumeration: the soft finding q on X_v at step t0 says
 * P'(·) = Σ_x q(x) P(· | X_v,t0 = x, e_1..t0); later evidence then conditions P'. Each joint entry
 * consistent with e_1..t0 is weighed by q(x_t0) / P(X_v,t0 = x_t0, e_1..t0) — the definition, with
 * P(x, e_1..t0) summed from the joint table, not taken from the engine.
 */
function jeffreyByEnumeration(dbn: TwoSliceNetwork, findings: StepFindings[], t0: number, v0: number, q: number[]) {
  const n = dbn.variables.length;
  const T = findings.length;
  const { cards, values } = jointTable(unroll(dbn, T));
  const states = (i: number) => {
    const x = new Array<number>(cards.length);
    for (let v = cards.length - 1; v >= 0; v--) {
      x[v] = i % cards[v]!;
      i = Math.floor(i / cards[v]!);
    }
    return x;
  };
  const matches = (x: number[], from: number, to: number) => {
    for (let t = from; t <= to; t++)
      for (const [v, s] of findings[t - 1]!.evidence) if (x[t * n + v] !== s) return false;
    return true;
  };
  // P(X_v0,t0 = x, e_1..t0) and P(e_1..t0).
  const joint = new Float64Array(cards[t0 * n + v0]!);
  for (let i = 0; i < values.length; i++) {
    const x = states(i);
    if (matches(x, 1, t0)) joint[x[t0 * n + v0]!]! += values[i]!;
  }
  const evidenceBefore = joint.reduce((a, b) => a + b, 0);
  /** P'(slice s | e_{t0+1..s}) for s ≥ t0 (s = T: smoothing of every slice), and P'(e_{t0+1..upTo}). */
  const revised = (upTo: number) => {
    const m = cards.map((k) => new Float64Array(k));
    let z = 0;
    for (let i = 0; i < values.length; i++) {
      const x = states(i);
      if (!matches(x, 1, upTo)) continue;
      const xt = x[t0 * n + v0]!;
      const w = joint[xt]! > 0 ? (values[i]! * q[xt]!) / joint[xt]! : 0;
      z += w;
      for (let v = 0; v < cards.length; v++) m[v]![x[v]!]! += w;
    }
    return { z, m: m.map((a) => a.map((p) => p / z)) };
  };
  const all = revised(T);
  let best = -1;
  let bestWeight = 0;
  for (let i = 0; i < values.length; i++) {
    const x = states(i);
    if (!matches(x, 1, T)) continue;
    const xt = x[t0 * n + v0]!;
    const w = joint[xt]! > 0 ? (values[i]! * q[xt]!) / joint[xt]! : 0;
    if (w > bestWeight) [best, bestWeight] = [i, w];
  }
  return {
    filteredAt: (s: number) => revised(s).m.slice(s * n, (s + 1) * n),
    smoothedAt: (s: number) => all.m.slice(s * n, (s + 1) * n),
    logLikelihood: Math.log(evidenceBefore) + Math.log(all.z),
    best: states(best),
  };
}

function close(a: ArrayLike<number>, b: ArrayLike<number>, what: string) {
  for (let i = 0; i < a.length; i++) assert.ok(Math.abs(a[i]! - b[i]!) < 1e-9, `${what}: ${a[i]} vs ${b[i]}`);
}

test("a soft finding at step t: filtering, smoothing, log-likelihood and Viterbi equal Jeffrey's rule on the unrolled network", () => {
  let cases = 0;
  for (let seed = 1; seed <= 12; seed++) {
    const n = 1 + (seed % 3);
    const T = n === 3 ? 3 : 4;
    const dbn = randomTwoSlice(seed, n);
    const rng = createRng(500 + seed);
    const findings = sampleFindings(rng, dbn, T, n > 1 ? [n - 1] : []);
    const t0 = 1 + (seed % (T - 1));
    const v0 = 0;
    const k = dbn.variables[v0]!.states.length;
    const raw = Array.from({ length: k }, () => 0.1 + rng.next());
    const q = raw.map((x) => x / raw.reduce((a, b) => a + b, 0));
    const withSoft = findings.map((f, i) =>
      i === t0 - 1
        ? { ...f, evidence: new Map([...f.evidence].filter(([v]) => v !== v0)), soft: new Map([[v0, q]]) }
        : f,
    );
    const brute = jeffreyByEnumeration(dbn, withSoft, t0, v0, q);
    const r = forwardBackward(dbn, withSoft, { smooth: true });
    close(r.filtered[t0 - 1]![v0]!, q, `seed ${seed}: the belief at t0 is q`);
    for (let s = t0; s <= T; s++)
      brute.filteredAt(s).forEach((m, v) => close(r.filtered[s - 1]![v]!, m, `seed ${seed}: filtered ${s} ${v}`));
    for (let s = 1; s <= T; s++)
      brute.smoothedAt(s).forEach((m, v) => close(r.smoothed![s - 1]![v]!, m, `seed ${seed}: smoothed ${s} ${v}`));
    assert.ok(Math.abs(r.logLikelihood - brute.logLikelihood) < 1e-9, `seed ${seed}: log-likelihood`);
    const ml = mostLikelySequence(dbn, withSoft);
    assert.deepEqual(
      ml.states.flatMap((s) => [...s]),
      brute.best,
      `seed ${seed}: Viterbi`,
    );
    assert.equal(r.findings[t0 - 1]!.soft, undefined);
    cases++;
  }
  assert.equal(cases, 12);
});

test('a soft finding that gives probability to an impossible state is an error naming it', () => {
  const yn = ['yes', 'no'];
  const dbn: TwoSliceNetwork = {
    name: 'Sure',
    variables: [{ name: 'Rain', states: yn }],
    initial: [{ child: 0, parents: [], table: Float64Array.of(1, 0) }],
    transition: [{ child: 0, parents: [1], table: Float64Array.of(1, 0, 0, 1) }],
  };
  assert.throws(
    () => forwardBackward(dbn, [{ evidence: new Map(), soft: new Map([[0, [0.5, 0.5]]]) }]),
    (e: Error) =>
      e instanceof EngineError && /soft finding on Rain at step 1 .*no, which is impossible/.test(e.message),
  );
});
