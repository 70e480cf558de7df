import { test } from 'node:test';
import assert from 'node:assert/strict';
import { logGamma } from '../../../server/src/engine/betaDistribution.js';
import { familyScore, compareStructures, ScoreCache, type ScoreName } from '../../../server/src/engine/structureScore.js';
import { k2 } from '../../../server/src/engine/k2.js';
import { networkFromStructure } from '../../../server/src/engine/cptLearning.js';
import { hillClimb } from '../../../server/src/engine/hillClimb.js';
import { forwardSample } from '../../../server/src/engine/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import { topologicalOrder } from '../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../server/src/engine/categoricalData.js';
import { NO_SHARED } from '../../support/shared.js';
import { loadBif } from '../../support/networks.js';

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
  attributes: [{ name: 'A', values: ['0', '1'] }, { name: 'B', values: ['0', '1'] }],
  columns: [Int32Array.from([0, 0, 0, 1, 1, 1, 1, 0]), Int32Array.from([0, 0, 1, 1, 1, 1, 0, -1])],
  rowCount: 8,
};

test('K2, BDeu and BIC family scores equal their formulas on hand counts', () => {
  // B | A over the 7 complete rows: A=0 → B (2, 1); A=1 → B (1, 3).
  const lf = (n: number) => logGamma(n + 1);
  const k2Expected = Math.log(lf(2) === 0 ? 1 : 1) + (logGamma(2) - logGamma(3 + 2) + lf(2) + lf(1)) + (logGamma(2) - logGamma(4 + 2) + lf(1) + lf(3));
  assert.ok(Math.abs(familyScore(ab, 1, [0], { score: 'k2' }) - k2Expected) < 1e-12);
  // Cooper–Herskovits in factorials: (r−1)!/(N_j+r−1)! Π N_jk!  → 1!/4!·2!·1! × 1!/5!·1!·3!
  assert.ok(Math.abs(Math.exp(k2Expected) - (2 / 24) * (6 / 120)) < 1e-15);
  const a = 2 / 4; // ess 2 over q·r = 4 cells
  const bdeu = [[2, 1], [1, 3]].reduce((s, [x, y]) => s + logGamma(1) - logGamma(1 + x! + y!) + logGamma(a + x!) - logGamma(a) + logGamma(a + y!) - logGamma(a), 0);
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
    if (k === pairs.length) { if (acyclic(ps)) out.push(ps.map((p) => [...p])); return; }
    const [i, j] = pairs[k]!;
    walk(k + 1, ps);
    ps[j]!.push(i); walk(k + 1, ps); ps[j]!.pop();
    ps[i]!.push(j); walk(k + 1, ps); ps[i]!.pop();
  };
  walk(0, Array.from({ length: n }, () => []));
  return out;
}
function acyclic(ps: number[][]): boolean {
  const net = { name: '', variables: ps.map((_, i) => ({ name: `${i}`, states: ['a'] })), cpts: ps.map((p, i) => ({ child: i, parents: p, table: new Float64Array() })) };
  return 'order' in topologicalOrder(net);
}

test('hill climbing ends at a local maximum among all 543 DAGs on 4 variables (and the global one for BIC here)', (t) => {
  const net = loadBif('earthquake');
  if (!net) return t.skip(NO_SHARED);
  const full = forwardSample(net, 5000, createRng(4));
  const keep = [0, 1, 2, 3];
  const data: CategoricalDataset = { attributes: keep.map((v) => full.attributes[v]!), columns: keep.map((v) => full.columns[v]!), rowCount: full.rowCount };
  const dags = allDags(4);
  assert.equal(dags.length, 543);
  for (const score of ['bic', 'bdeu'] as ScoreName[]) {
    const cache = new ScoreCache(data, { score, ess: 1 });
    const found = hillClimb(data, { score });
    assert.ok(acyclic(found.parents));
    assert.ok(Math.abs(found.score - cache.total(found.parents)) < 1e-9);
    // No DAG one arc addition, removal or reversal away scores higher.
    const neighbours = dags.filter((d) => { const c = compareStructures(d, found.parents); return c.missing.length + c.extra.length + c.reversed.length === 1; });
    assert.ok(neighbours.length > 0);
    for (const d of neighbours) assert.ok(cache.total(d) <= found.score + 1e-9, `${score}: a neighbour scores higher`);
    if (score === 'bic') assert.ok(Math.abs(found.score - Math.max(...dags.map((d) => cache.total(d)))) < 1e-9, 'BIC: the best of all DAGs');
  }
});

/**
 * Mitchell (§6.11.6) reports K2 on 3,000 ALARM cases with a correct order missed one arc and
 * added one. On bnlearn's ALARM we measured (seeds 1–12, maxParents 4): plain K2 always misses
 * INSUFFANESTH→CATECHOL and SAO2→CATECHOL (CATECHOL's 54-row table is thin at 3,000 cases) and
 * adds 3–6 arcs, mostly between siblings (LVEDVOLUME→STROKEVOLUME: chosen first, kept after the
 * true parents arrive); with the pruning pass 2–5 differences; with 10,000 cases 1–3.
 */
test('K2 on sampled ALARM cases with the true order: ≤ 3 differences at 10,000 cases (pruned), none reversed', (t) => {
  const net = loadBif('alarm');
  if (!net) return t.skip(NO_SHARED);
  const sorted = topologicalOrder(net);
  assert.ok('order' in sorted);
  const truth = net.cpts.map((c) => c.parents);
  const name = ([a, b]: [number, number]) => `${net.variables[a]!.name}→${net.variables[b]!.name}`;
  const run = (cases: number, seed: number, prune: boolean) => {
    const diff = compareStructures(k2(forwardSample(net, cases, createRng(seed)), { order: sorted.order, maxParents: 4, prune }).parents, truth);
    t.diagnostic(`K2 ${cases} cases seed ${seed}${prune ? ' pruned' : ''}: missing ${diff.missing.map(name).join(' ') || '-'}; extra ${diff.extra.map(name).join(' ') || '-'}`);
    assert.equal(diff.reversed.length, 0, 'a correct order cannot reverse an arc');
    return diff;
  };
  for (const seed of [1, 2]) {
    const plain = run(3000, seed, false);
    assert.ok(plain.missing.length <= 2 && plain.extra.length <= 6);
    const pruned = run(3000, seed, true);
    assert.ok(pruned.missing.length + pruned.extra.length <= 5);
    assert.ok(pruned.extra.length < plain.extra.length, 'pruning removes the sibling arcs');
    const more = run(10000, seed, true);
    assert.ok(more.missing.length + more.extra.length <= 3, `${more.missing.length} missing + ${more.extra.length} extra`);
  }
});

test('K2 rejects an order that is not a permutation', () => {
  assert.throws(() => k2(ab, { order: [0, 0] }), /exactly once/);
});

test('hill climbing checks its starting DAG and stops when cancelled; an empty start with a strong arc finds it', () => {
  assert.throws(() => hillClimb(ab, { start: [[1], [0]] }), /must be a DAG/);
  assert.throws(() => hillClimb(ab, { start: [[]] }), /must be a DAG/);
  const cancelled = hillClimb(ab, { signal: { aborted: true } });
  assert.ok(cancelled.cancelled && cancelled.steps === 0);
  const strong: CategoricalDataset = { ...ab, rowCount: 400, columns: [Int32Array.from({ length: 400 }, (_, i) => i % 2), Int32Array.from({ length: 400 }, (_, i) => i % 2)] };
  const found = hillClimb(strong, { score: 'bic' });
  assert.equal(found.steps, 1);
  assert.equal(found.parents[0]!.length + found.parents[1]!.length, 1);
});

test('networkFromStructure turns K2 parent lists into a network with counted CPTs (earthquake, 20,000 cases)', (t) => {
  const net = loadBif('earthquake');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 20000, createRng(5));
  const found = k2(data, { order: [0, 1, 2, 3, 4] });
  const learned = networkFromStructure('learned', data, found.parents);
  assert.deepEqual(learned.cpts.map((c) => c.parents), net.cpts.map((c) => c.parents));
  // Burglary's prior P = 0.01: 20,000 draws estimate it within 0.003 (4 standard errors).
  assert.ok(Math.abs(learned.cpts[0]!.table[0]! - net.cpts[0]!.table[0]!) < 0.003);
  assert.deepEqual(learned.variables, net.variables);
});
