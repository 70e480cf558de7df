import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logGamma } from '../../../../server/src/engine/estimators/betaDistribution.js';
import {
  familyScore,
  compareStructures,
  ScoreCache,
  type ScoreName,
} from '../../../../server/src/engine/structure/structureScore.js';
import { k2 } from '../../../../server/src/engine/structure/k2.js';
import { networkFromStructure } from '../../../../server/src/engine/estimators/cptLearning.js';
import { hillClimb } from '../../../../server/src/engine/structure/hillClimb.js';
import { forwardSample } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { topologicalOrder } from '../../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../../server/src/engine/categoricalData.js';
import { NO_SHARED } from '../../../support/shared.js';
import { loadBif } from '../../../support/networks.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';

test('logGamma matches closed forms', () => {
  assert.ok(Math.abs(logGamma(0.5) - 0.5 * Math.log(Math.PI)) < 1e-14);
  assert.ok(Math.abs(logGamma(10) - Math.log(362880)) < 1e-12);
  assert.ok(Math.abs(logGamma(1)) < 1e-15 && Math.abs(logGamma(2)) < 1e-15);
  assert.ok(Math.abs(logGamma(1e-3) - 6.907178885383853) < 1e-12);
  let lf = 0;
  for (let i = 2; i < 150; i++) lf += Math.log(i);
  assert.ok(Math.abs(logGamma(150) - lf) < 1e-10 * lf);
});

// Two binary variables A, B; rows (A, B).
const ab: CategoricalDataset = {
  attributes: [
    { name: 'A', values: ['0', '1'] },
    { name: 'B', values: ['0', '1'] },
  ],
  columns: [Int32Array.from([0, 0, 0, 1, 1, 1, 1, 0]), Int32Array.from([0, 0, 1, 1, 1, 1, 0, -1])],
  rowCount: 8,
};

test('K2, BDeu and BIC family scores equal their formulas on hand counts', () => {
  // B | A over the 7 complete rows: A=0 → B (2, 1); A=1 → B (1, 3).
  const lf = (n: number) => logGamma(n + 1);
  const k2Expected =
    Math.log(lf(2) === 0 ? 1 : 1) +
    (logGamma(2) - logGamma(3 + 2) + lf(2) + lf(1)) +
    (logGamma(2) - logGamma(4 + 2) + lf(1) + lf(3));
  assert.ok(Math.abs(familyScore(ab, 1, [0], { score: 'k2' }) - k2Expected) < 1e-12);
  // Cooper–Herskovits in factorials: (r−1)!/(N_j+r−1)! Π N_jk!  → 1!/4!·2!·1! × 1!/5!·1!·3!
  assert.ok(Math.abs(Math.exp(k2Expected) - (2 / 24) * (6 / 120)) < 1e-15);
  const a = 2 / 4; // ess 2 over q·r = 4 cells
  const bdeu = [
    [2, 1],
    [1, 3],
  ].reduce(
    (s, [x, y]) =>
      s + logGamma(1) - logGamma(1 + x! + y!) + logGamma(a + x!) - logGamma(a) + logGamma(a + y!) - logGamma(a),
    0,
  );
  assert.ok(Math.abs(familyScore(ab, 1, [0], { score: 'bdeu', ess: 2 }) - bdeu) < 1e-12);
  const ll = 2 * Math.log(2 / 3) + Math.log(1 / 3) + Math.log(1 / 4) + 3 * Math.log(3 / 4);
  assert.ok(Math.abs(familyScore(ab, 1, [0], { score: 'bic' }) - (ll - 0.5 * Math.log(7) * 2)) < 1e-12);
});

test('compareStructures reports missing, extra and reversed arcs', () => {
  const c = compareStructures([[], [0], [1], [2]], [[], [0], [], [1, 2]]);
  assert.deepEqual(c, { missing: [[1, 3]], extra: [[1, 2]], reversed: [] });
  assert.deepEqual(compareStructures([[1], []], [[], [0]]).reversed, [[1, 0]]);
});

/** Every DAG on n ≤ 4 nodes as parent lists (brute force for the search tests). */
function allDags(n: number): number[][][] {
  const pairs: Array<[number, number]> = [];
  for (let i = 0; i < n; i++) for (let j = i + 1; j < n; j++) pairs.push([i, j]);
  const out: number[][][] = [];
  const walk = (k: number, ps: number[][]) => {
    if (k === pairs.length) {
      if (acyclic(ps)) out.push(ps.map((p) => [...p]));
      return;
    }
    const [i, j] = pairs[k]!;
    walk(k + 1, ps);
    ps[j]!.push(i);
    walk(k + 1, ps);
    ps[j]!.pop();
    ps[i]!.push(j);
    walk(k + 1, ps);
    ps[i]!.pop();
  };
  walk(
    0,
    Array.from({ length: n }, () => []),
  );
  return out;
}
function acyclic(ps: number[][]): boolean {
  const net = {
    name: '',
    variables: ps.map((_, i) => ({ name: `${i}`, states: ['a'] })),
    cpts: ps.map((p, i) => ({ child: i, parents: p, table: new Float64Array() })),
  };
  return 'order' in topologicalOrder(net);
}

test('hill climbing ends at a local maximum among all 543 DAGs on 4 variables (and the global one for BIC here)', (t) => {
  const net = loadBif('earthquake');
  if (!net) return t.skip(NO_SHARED);
  const full = forwardSample(net, 5000, createRng(4));
  const keep = [0, 1, 2, 3];
  const data: CategoricalDataset = {
    attributes: keep.map((v) => full.attributes[v]!),
    columns: keep.map((v) => full.columns[v]!),
    rowCount: full.rowCount,
  };
  const dags = allDags(4);
  assert.equal(dags.length, 543);
  for (const score of ['bic', 'bdeu'] as ScoreName[]) {
    const cache = new ScoreCache(data, { score, ess: 1 });
    const found = hillClimb(data, { score });
    assert.ok(acyclic(found.parents));
    assert.ok(Math.abs(found.score - cache.total(found.parents)) < 1e-9);
    // No DAG one arc addition, removal or reversal away scores higher.
    const neighbours = dags.filter((d) => {
      const c = compareStructures(d, found.parents);
      return c.missing.length + c.extra.length + c.reversed.length === 1;
    });
    assert.ok(neighbours.length > 0);
    for (const d of neighbours) assert.ok(cache.total(d) <= found.score + 1e-9, `${score}: a neighbour scores higher`);
    if (score === 'bic')
      assert.ok(
        Math.abs(found.score - Math.max(...dags.map((d) => cache.total(d)))) < 1e-9,
        'BIC: the best of all DAGs',
      );
  }
});

/**
 * Cooper & Herskovits' K2 written straight from their paper, independently of k2.ts: g(i, π) =
 * Π_j (r−1)!/(N_ij + r − 1)! Π_k N_ijk! over ALL q_i parent configurations (an unseen one gives
 * (r−1)!/(r−1)! = 1), factorials as sums of logs, counts keyed by the parents' values; each node
 * adds the predecessor that most increases g while that beats the current g and |π| < u.
 */
function cooperHerskovitsK2(data: CategoricalDataset, order: number[], u: number): number[][] {
  const lnFactorial = (n: number) => {
    let s = 0;
    for (let m = 2; m <= n; m++) s += Math.log(m);
    return s;
  };
  const g = (i: number, pi: number[]) => {
    const r = data.attributes[i]!.values.length;
    const counts = new Map<string, number[]>();
    for (let row = 0; row < data.rowCount; row++) {
      const key = pi.map((p) => data.columns[p]![row]).join(',');
      const n = counts.get(key) ?? new Array<number>(r).fill(0);
      n[data.columns[i]![row]!]!++;
      counts.set(key, n);
    }
    // The q_i − |counts| unseen configurations each contribute ln((r−1)!/(r−1)!) = 0.
    let s = 0;
    for (const n of counts.values())
      s +=
        lnFactorial(r - 1) -
        lnFactorial(n.reduce((a, b) => a + b, 0) + r - 1) +
        n.reduce((a, b) => a + lnFactorial(b), 0);
    return s;
  };
  const parents: number[][] = data.attributes.map(() => []);
  order.forEach((i, at) => {
    const pi = parents[i]!;
    let pOld = g(i, pi);
    while (pi.length < u) {
      const candidates = order.slice(0, at).filter((z) => !pi.includes(z));
      const scored = candidates.map((z) => ({ z, g: g(i, [...pi, z]) }));
      const best = scored.reduce((a, b) => (b.g > a.g ? b : a), { z: -1, g: -Infinity });
      if (!(best.g > pOld)) break;
      pi.push(best.z);
      pOld = best.g;
    }
  });
  return parents;
}

test("k2() chooses the same parents as Cooper & Herskovits' K2 written from the paper (ALARM, 1,000 cases, u = 4 and 2)", (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const sorted = topologicalOrder(net);
  assert.ok('order' in sorted);
  const data = forwardSample(net, 1000, createRng(3));
  const [free, bounded] = [4, 2].map((u) => {
    const reference = cooperHerskovitsK2(data, sorted.order, u);
    assert.deepEqual(k2(data, { order: sorted.order, maxParents: u }).parents, reference);
    return reference;
  });
  assert.notDeepEqual(free, bounded, 'u = 2 binds somewhere');
});

/**
 * Mitchell (§6.11.6): Cooper & Herskovits' K2, given 3,000 ALARM cases and a correct order, missed
 * one arc and added one. On bnlearn's ALARM (npm run bench:k2, seeds 1–30, u = 4) faithful K2
 * gives 5–8 differences at 3,000 cases, never ≤ 3, for two reasons the test pins down:
 *  - INSUFFANESTH→CATECHOL and SAO2→CATECHOL are missing in every seed because the K2 metric
 *    itself rejects them: the true CATECHOL family (54 parent rows) scores ~22 nats higher
 *    without either. No search under this metric can find them at 3,000 cases.
 *  - Three sibling arcs (LVEDVOLUME→STROKEVOLUME, HREKG→HRSAT, MINVOL→VENTALV, or reversed under
 *    another topological order) are added in every seed: a sibling carrying both shared parents'
 *    signal is the best single parent, the true parents follow, and plain K2 never removes it
 *    although the final family scores 15–50 nats higher without it. So the learned DAG scores
 *    below the true one: a search failure, not a metric one. The pruning pass removes exactly
 *    these: 2–5 differences (≤ 3 in 15 of 30 seeds), and ≤ 3 in 30 of 30 at 10,000 cases.
 *  - The other extra arcs (0–3 per seed) are weak, mostly from rare-event roots such as
 *    PULMEMBOLUS and ANAPHYLAXIS: 0.1–5.7 nats over 30 seeds, under 3 (Bayes factor < 20) in
 *    seeds 1–2. No tie decides anything: every choice beats the runner-up by ≥ 0.07 nats.
 */
test('K2 on 3,000 sampled ALARM cases with the true order: what it misses, what it adds, and why', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const sorted = topologicalOrder(net);
  assert.ok('order' in sorted);
  const truth = net.cpts.map((c) => c.parents);
  const index = (name: string) => net.variables.findIndex((v) => v.name === name);
  const arc = (from: string, to: string): [number, number] => [index(from), index(to)];
  const name = ([a, b]: [number, number]) => `${net.variables[a]!.name}→${net.variables[b]!.name}`;
  const catecholArcs = [arc('INSUFFANESTH', 'CATECHOL'), arc('SAO2', 'CATECHOL')];
  const siblingArcs = [arc('LVEDVOLUME', 'STROKEVOLUME'), arc('HREKG', 'HRSAT'), arc('MINVOL', 'VENTALV')].map(name);
  for (const seed of [1, 2]) {
    const data = forwardSample(net, 3000, createRng(seed));
    const scores = new ScoreCache(data, { score: 'k2' });
    const change = ([from, to]: [number, number], ps: readonly number[]) =>
      scores.family(to, ps) -
      scores.family(
        to,
        ps.filter((p) => p !== from),
      );
    const plain = k2(data, { order: sorted.order, maxParents: 4 });
    const pruned = k2(data, { order: sorted.order, maxParents: 4, prune: true });
    const [d, dp] = [plain, pruned].map((found) => compareStructures(found.parents, truth));
    t.diagnostic(
      `seed ${seed}: missing ${d!.missing.map(name).join(' ')}; extra ${d!.extra.map((a) => `${name(a)} (${change(a, plain.parents[a[1]]!).toFixed(2)})`).join(' ')}; pruned extra ${dp!.extra.map(name).join(' ') || '-'}`,
    );
    assert.equal(d!.reversed.length + dp!.reversed.length, 0, 'a correct order cannot reverse an arc');
    assert.deepEqual(d!.missing.map(name).sort(), catecholArcs.map(name).sort());
    for (const a of catecholArcs) assert.ok(change(a, truth[a[1]]!) < -10, `the metric rejects ${name(a)}`);
    const extra = d!.extra.map(name);
    for (const s of siblingArcs) assert.ok(extra.includes(s), `plain K2 adds ${s}`);
    for (const a of d!.extra) {
      const gain = change(a, plain.parents[a[1]]!);
      if (siblingArcs.includes(name(a)))
        assert.ok(gain < -10, `${name(a)} is kept although dropping it gains ${-gain}`);
      else assert.ok(gain > 0 && gain < 3, `${name(a)}: weak, ${gain} nats`);
    }
    assert.ok(plain.score < scores.total(truth), 'plain K2 ends below the true DAG: the search, not the metric');
    assert.deepEqual(dp!.missing, d!.missing);
    assert.deepEqual(
      dp!.extra.map(name),
      extra.filter((a) => !siblingArcs.includes(a)),
      'pruning removes exactly the sibling arcs',
    );
    assert.ok(pruned.score > scores.total(truth), 'pruned K2 beats the true DAG under the K2 metric');
    assert.ok(dp!.missing.length + dp!.extra.length <= 5);
    const more = compareStructures(
      k2(forwardSample(net, 10000, createRng(seed)), { order: sorted.order, maxParents: 4, prune: true }).parents,
      truth,
    );
    t.diagnostic(
      `seed ${seed}, 10,000 cases pruned: missing ${more.missing.map(name).join(' ') || '-'}; extra ${more.extra.map(name).join(' ') || '-'}`,
    );
    assert.ok(more.missing.length + more.extra.length + more.reversed.length <= 3);
  }
});

test('K2 rejects an order that is not a permutation', () => {
  assert.throws(() => k2(ab, { order: [0, 0] }), /exactly once/);
});

test('hill climbing checks its starting DAG and stops when cancelled; an empty start with a strong arc finds it', () => {
  assert.throws(() => hillClimb(ab, { start: [[1], [0]] }), /must be a DAG/);
  assert.throws(() => hillClimb(ab, { start: [[]] }), /must be a DAG/);
  assert.throws(() => hillClimb(ab, { signal: { aborted: true } }), CancelledError);
  assert.throws(() => k2(ab, { signal: { aborted: true } }), CancelledError);
  const strong: CategoricalDataset = {
    ...ab,
    rowCount: 400,
    columns: [Int32Array.from({ length: 400 }, (_, i) => i % 2), Int32Array.from({ length: 400 }, (_, i) => i % 2)],
  };
  const found = hillClimb(strong, { score: 'bic', climbs: 1 });
  assert.equal(found.steps, 1);
  assert.equal(found.parents[0]!.length + found.parents[1]!.length, 1);
});

test('networkFromStructure turns K2 parent lists into a network with counted CPTs (earthquake, 20,000 cases)', (t) => {
  const net = loadBif('earthquake');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 20000, createRng(5));
  const found = k2(data, { order: [0, 1, 2, 3, 4] });
  const learned = networkFromStructure('learned', data, found.parents);
  assert.deepEqual(
    learned.cpts.map((c) => c.parents),
    net.cpts.map((c) => c.parents),
  );
  // Burglary's prior P = 0.01: 20,000 draws estimate it within 0.003 (4 standard errors).
  assert.ok(Math.abs(learned.cpts[0]!.table[0]! - net.cpts[0]!.table[0]!) < 0.003);
  assert.deepEqual(learned.variables, net.variables);
});

/** Four of asia's variables (1,000 cases, seed 2) on which plain hill climbing stops below the BIC optimum. */
function asiaFour(keep: number[]): CategoricalDataset | undefined {
  const net = loadBif('asia');
  if (!net) return undefined;
  const full = forwardSample(net, 1000, createRng(2));
  return {
    attributes: keep.map((v) => full.attributes[v]!),
    columns: keep.map((v) => full.columns[v]!),
    rowCount: full.rowCount,
  };
}

test('tabu search and random restarts reach the BIC optimum of all 543 DAGs where plain hill climbing stops short (asia)', (t) => {
  const dags = allDags(4);
  for (const [keep, restartsReach] of [
    [[4, 5, 6, 7], true],
    [[1, 3, 5, 7], false],
  ] as Array<[number[], boolean]>) {
    const data = asiaFour(keep);
    if (!data) return t.skip(NO_SHARED);
    const cache = new ScoreCache(data, { score: 'bic' });
    const optimum = Math.max(...dags.map((d) => cache.total(d)));
    const plain = hillClimb(data, { score: 'bic', climbs: 1 });
    assert.ok(
      plain.score < optimum - 0.5,
      `${keep}: plain hill climbing ends at a local maximum (${plain.score - optimum})`,
    );
    const tabu = hillClimb(data, { score: 'bic', tabu: 10, climbs: 1 });
    assert.ok(
      Math.abs(tabu.score - optimum) < 1e-9 && Math.abs(cache.total(tabu.parents) - tabu.score) < 1e-9,
      `${keep}: tabu reaches the optimum`,
    );
    assert.ok(acyclic(tabu.parents));
    const restarts = hillClimb(data, { score: 'bic', restarts: 5, perturb: 2, seed: 1, climbs: 1 });
    assert.ok(acyclic(restarts.parents) && restarts.score >= plain.score - 1e-9);
    // On [1, 3, 5, 7] five restarts of two random moves (seed 1) fall back into the same basin.
    assert.equal(
      Math.abs(restarts.score - optimum) < 1e-9,
      restartsReach,
      `${keep}: restarts ${restarts.score - optimum}`,
    );
  }
});

test('on ALARM samples tabu search and restarts end at or above plain hill climbing, strictly on seeded cases; same seed, same result', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  for (const [rows, seed] of [
    [500, 1],
    [500, 2],
  ]) {
    const data = forwardSample(net, rows, createRng(seed!));
    const one = { score: 'bic', climbs: 1 } as const;
    const plain = hillClimb(data, one).score;
    const tabu = hillClimb(data, { ...one, tabu: 10, patience: 10 });
    const restarts = hillClimb(data, { ...one, restarts: 6, perturb: 20, seed: 3 });
    const both = hillClimb(data, { ...one, tabu: 10, restarts: 3, seed: 3 });
    for (const r of [tabu, restarts, both]) {
      assert.ok(r.score >= plain - 1e-9);
      assert.ok(acyclic(r.parents));
    }
    assert.ok(both.score >= tabu.score - 1e-9, "restarts keep the first tabu climb's best");
    // Measured (one climb, ties to the first move in order): 500 rows, seed 1: plain, tabu and
    // restarts all −6259.58 (no escape); seed 2: plain −6425.18, tabu −6367.31, restarts −6420.15.
    if (seed === 2) {
      assert.ok(tabu.score > plain + 1, `${rows}/${seed}: tabu ${tabu.score} vs plain ${plain}`);
      assert.ok(restarts.score > plain + 1, `restarts ${restarts.score} vs plain ${plain}`);
    }
    assert.deepEqual(hillClimb(data, { ...one, restarts: 6, perturb: 20, seed: 3 }), restarts);
  }
});

test('tabu search and restarts honour maxSteps, maxParents and cancellation', () => {
  const strong: CategoricalDataset = {
    ...ab,
    rowCount: 400,
    columns: [Int32Array.from({ length: 400 }, (_, i) => i % 2), Int32Array.from({ length: 400 }, (_, i) => i % 2)],
  };
  const capped = hillClimb(strong, { tabu: 10, restarts: 50, maxSteps: 7 });
  assert.equal(capped.steps, 7);
  assert.throws(() => hillClimb(strong, { tabu: 10, restarts: 3, signal: { aborted: true } }), CancelledError);
  const none = hillClimb(strong, { tabu: 10, restarts: 3, maxParents: 0 });
  assert.deepEqual(none.parents, [[], []]);
  // The only DAGs are ∅, A→B, B→A: tabu walks through them and still returns an optimum (one arc).
  const tabu = hillClimb(strong, { tabu: 10 });
  assert.equal(tabu.parents.flat().length, 1);
  assert.ok(tabu.steps > 1);
});

test('several climbs (the later ones breaking ties at random) end at a local maximum at or above the first climb, the same for the same seed', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  for (const seed of [1, 2]) {
    const data = forwardSample(net, 500, createRng(seed));
    const cache = new ScoreCache(data, { score: 'bic' });
    const first = hillClimb(data, { score: 'bic', climbs: 1 });
    const best = hillClimb(data, { score: 'bic' });
    assert.ok(acyclic(best.parents));
    assert.ok(Math.abs(best.score - cache.total(best.parents)) < 1e-9);
    // Measured: seed 1, first −6259.58, best of 8 −6224.14; seed 2, first −6425.18, best −6415.94.
    assert.ok(best.score > first.score + 5, `seed ${seed}: best of 8 ${best.score} vs first ${first.score}`);
    assert.deepEqual(hillClimb(data, { score: 'bic', seed: 1 }), best);
    // A local maximum: no single addition, removal or reversal (that keeps a DAG) scores higher.
    const n = data.attributes.length;
    for (let from = 0; from < n; from++) {
      for (let to = 0; to < n; to++) {
        if (from === to) continue;
        const ps = best.parents.map((p) => [...p]);
        if (ps[to]!.includes(from)) {
          ps[to] = ps[to]!.filter((p) => p !== from);
          assert.ok(cache.total(ps) <= best.score + 1e-9, `removing ${from}→${to} scores higher`);
          ps[from]!.push(to);
        } else ps[to]!.push(from);
        if (acyclic(ps)) assert.ok(cache.total(ps) <= best.score + 1e-9, `a move on ${from}, ${to} scores higher`);
      }
    }
  }
});

test('one more climb from a given DAG (alsoFrom) ends at the better of it and the climbs from empty', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const truth = net.cpts.map((c) => [...c.parents]);
  for (const rows of [300, 3000]) {
    const data = forwardSample(net, rows, createRng(7));
    const plain = hillClimb(data, { score: 'bic' });
    const fromTruth = hillClimb(data, { score: 'bic', start: truth, climbs: 1 });
    const both = hillClimb(data, { score: 'bic', alsoFrom: truth });
    const winner = fromTruth.score > plain.score + 1e-9 ? fromTruth : plain;
    assert.deepEqual(both.parents, winner.parents);
    assert.ok(Math.abs(both.score - Math.max(plain.score, fromTruth.score)) < 1e-9);
    t.diagnostic(
      `${rows} rows: climbs from empty ${plain.score.toFixed(2)}, from the truth ${fromTruth.score.toFixed(2)}`,
    );
  }
  assert.throws(() => hillClimb(forwardSample(net, 50, createRng(1)), { alsoFrom: [[1], [0]] }), /must be a DAG/);
});

test('the family score cache keeps at most its budget of families, and scores the same past it', () => {
  // 60 columns (parent sets keyed by strings) of random values; every child with 1 and 2 parents.
  const rng = createRng(9);
  const n = 60;
  const data: CategoricalDataset = {
    attributes: Array.from({ length: n }, (_, i) => ({ name: `V${i}`, values: ['a', 'b'] })),
    columns: Array.from({ length: n }, () => Int32Array.from({ length: 40 }, () => rng.int(2))),
    rowCount: 40,
  };
  const small = new ScoreCache(data, { score: 'bic' }, 500);
  const whole = new ScoreCache(data, { score: 'bic' });
  let asked = 0;
  for (let child = 0; child < n; child++)
    for (let p = 0; p < n; p++) {
      if (p === child) continue;
      const q = (p + 7) % n === child ? (p + 8) % n : (p + 7) % n;
      assert.equal(small.family(child, [p]), whole.family(child, [p]));
      assert.equal(small.familyWith(child, [p], q), whole.familyWith(child, [p], q));
      asked += 2;
      assert.ok(small.size <= 500, `${small.size} families cached`);
    }
  assert.ok(whole.size > 500 && asked > 500);
});

test('a climb whose steps would list more than 2,000,000 moves is refused before the first', () => {
  const n = 1500; // 1500 · 1499 = 2,248,500 moves a step
  const data: CategoricalDataset = {
    attributes: Array.from({ length: n }, (_, i) => ({ name: `V${i}`, values: ['a', 'b'] })),
    columns: Array.from({ length: n }, (_, i) => Int32Array.of(i % 2, 1 - (i % 2))),
    rowCount: 2,
  };
  assert.throws(() => hillClimb(data), {
    message: 'a climb over 1500 variables needs 2,248,500 candidate moves a step, over the budget of 2,000,000',
  });
});
