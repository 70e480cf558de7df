import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  ArcCounts,
  arcStrengths,
  averagedNetwork,
  bootstrapCounts,
  resampleRows,
  replicateSearch,
  resampleWeights,
  strengthThreshold,
} from '../../../../server/src/engine/structure/bootstrap.js';
import { distinctRows, expandRows } from '../../../../server/src/engine/categoricalData.js';
import { countConfigurations } from '../../../../server/src/engine/estimators/cptLearning.js';
import { ScoreCache, familyScore } from '../../../../server/src/engine/structure/structureScore.js';
import { Pdag, cpdagOf, hammingDistance } from '../../../../server/src/engine/structure/pdag.js';
import { searchStructure } from '../../../../server/src/engine/structure/search.js';
import { forwardSample } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { NO_SHARED } from '../../../support/shared.js';
import { loadBif } from '../../../support/networks.js';

test("the inclusion threshold is the L1-nearest step CDF's quantile (worked by hand)", () => {
  // F(0) = 0.6: the step at p = 0.6 fits exactly; its quantile is 0, so only the strength-1 pairs pass.
  assert.equal(strengthThreshold([0, 0, 0, 1, 1]), 0);
  // Knots .2 .4 .9 1, F = .25 .5 .75 at the first three; widths .2 .2 .5 .1 from 0: the weighted
  // median of (0, .25, .5, .75) with weights (.2, .2, .5, .1) is .5, whose quantile is 0.4.
  assert.equal(strengthThreshold([0.9, 0.2, 1, 0.4]), 0.4);
  // A flat minimum on [0, .5] (weights .5, .5): an interior p, quantile 0.5, as R's optimize() gives.
  assert.equal(strengthThreshold([0.5, 1]), 0.5);
  assert.equal(strengthThreshold([]), 0);
});

test('strength and direction count undirected edges half each way; the averaged network drops cycles', () => {
  const counts = new ArcCounts(3);
  const arc = () => {
    const g = new Pdag(3);
    g.setArc(0, 1);
    return g;
  };
  const edge = new Pdag(3);
  edge.setEdge(0, 1);
  for (const g of [arc(), arc(), edge, new Pdag(3)]) counts.add(g);
  const s = arcStrengths(counts);
  const ab = s.find((x) => x.from === 0 && x.to === 1)!,
    ba = s.find((x) => x.from === 1 && x.to === 0)!;
  assert.equal(ab.strength, 0.75);
  assert.equal(ba.strength, 0.75);
  assert.ok(Math.abs(ab.direction - 2.5 / 3) < 1e-15 && Math.abs(ba.direction - 0.5 / 3) < 1e-15);
  assert.equal(s.length, 6);
  // A cycle a → b → c → a among significant arcs: the weakest goes.
  const strengths = [
    { from: 0, to: 1, strength: 0.9, direction: 1 },
    { from: 1, to: 2, strength: 0.8, direction: 1 },
    { from: 2, to: 0, strength: 0.7, direction: 0.9 },
    { from: 0, to: 2, strength: 0.7, direction: 0.1 },
  ];
  const avg = averagedNetwork(3, strengths, 0.5);
  assert.deepEqual(avg.arcs, [
    [0, 1],
    [1, 2],
  ]);
  assert.deepEqual(avg.dropped, [[2, 0]]);
});

test('resamples are seeded per replicate: the same rows for the same (seed, r), whatever the order', () => {
  const net = {
    name: 'x',
    variables: [{ name: 'A', states: ['0', '1', '2'] }],
    cpts: [{ child: 0, parents: [], table: Float64Array.from([0.2, 0.3, 0.5]) }],
  };
  const data = forwardSample(net, 500, createRng(1));
  assert.deepEqual(resampleRows(data, 4, 7).columns, resampleRows(data, 4, 7).columns);
  assert.notDeepEqual(resampleRows(data, 4, 7).columns, resampleRows(data, 4, 8).columns);
  assert.notDeepEqual(resampleRows(data, 5, 7).columns, resampleRows(data, 4, 7).columns);
  // Every row drawn is one of the data's rows, and the multiset differs from the data's.
  const counts = (col: Int32Array) => [0, 1, 2].map((v) => col.filter((x) => x === v).length);
  const re = resampleRows(data, 4, 7);
  assert.equal(re.rowCount, 500);
  assert.notDeepEqual(counts(re.columns[0]!), counts(data.columns[0]!));
});

test('a replicate as weights over distinct rows counts and scores exactly what the copied rows do', (t) => {
  const net = loadBif('asia');
  if (!net) return void t.skip(NO_SHARED);
  const data = forwardSample(net, 2000, createRng(3));
  data.columns[2]![5] = -1; // a missing value: its row is its own pattern and is left out of its families
  const patterns = distinctRows(data);
  assert.ok(patterns.rowCount < data.rowCount / 10, `${patterns.rowCount} distinct rows`);
  assert.equal(
    patterns.weights.reduce((a, b) => a + b, 0),
    data.rowCount,
  );
  for (const r of [0, 1, 17]) {
    const copied = resampleRows(data, 9, r),
      weighted = resampleWeights(patterns, 9, r);
    assert.ok(weighted.rowCount < patterns.rowCount || r > 0);
    for (const family of [[0], [2, 3], [1, 2, 5, 7], [7, 6, 4, 3]]) {
      assert.deepEqual(countConfigurations(weighted, family), countConfigurations(copied, family));
    }
    assert.deepEqual(countConfigurations(expandRows(weighted), [2, 4, 6]), countConfigurations(copied, [2, 4, 6]));
    const a = new ScoreCache(copied, { score: 'bic' }),
      b = new ScoreCache(weighted, { score: 'bic' });
    assert.equal(b.family(6, [2, 4]), a.family(6, [2, 4]));
    assert.equal(a.family(6, [2, 4]), new ScoreCache({ ...copied }, { score: 'bic' }).family(6, [4, 2]));
    // Counting a child's families with each extra parent over one shared index: the same scores.
    const c = new ScoreCache(weighted, { score: 'bic' });
    c.prefetch(6, [2, 4], [0, 1, 3, 5, 7]);
    for (const x of [0, 1, 3, 5, 7]) assert.equal(c.family(6, [2, 4, x]), a.family(6, [2, 4, x]));
  }
  // Both counting loops: with a missing value among the rows counted, and with none.
  const complete = forwardSample(net, 2000, createRng(4));
  for (const d of [data, complete]) {
    const one = new ScoreCache(d, { score: 'bdeu' }),
      all = new ScoreCache(d, { score: 'bdeu' });
    all.prefetch(3, [2], [0, 1, 4, 5, 6, 7]);
    for (const x of [0, 1, 4, 5, 6, 7])
      assert.equal(all.family(3, [2, x]), familyScore(d, 3, [2, x], { score: 'bdeu' }));
    assert.equal(one.family(3, [2, 6]), all.family(3, [2, 6]));
  }
});

test('bootstrap of hill climbing on ASIA: true arcs it finds are strong; the averaged network is no worse', (t) => {
  const net = loadBif('asia');
  if (!net) return void t.skip(NO_SHARED);
  const data = forwardSample(net, 5000, createRng(2));
  const truthParents = net.cpts.map((c) => c.parents);
  const truth = cpdagOf(truthParents);
  const spec = { method: 'hillclimb' as const, score: 'bic' as const };
  const single = searchStructure(data, spec);
  const perReplicate = replicateSearch(data, spec);
  assert.deepEqual(perReplicate.alsoFrom, single.parents);
  const learn = (d: typeof data) => searchStructure(d, perReplicate).cpdag;
  const { counts } = bootstrapCounts(data, learn, { replicates: 40, seed: 1 });
  // Split in two shares, as two workers would: the same counts.
  const a = bootstrapCounts(data, learn, { replicates: 40, seed: 1, first: 0, count: 13 }).counts;
  a.merge(bootstrapCounts(data, learn, { replicates: 40, seed: 1, first: 13, count: 27 }).counts);
  assert.deepEqual(a.halves, counts.halves);
  const strengths = arcStrengths(counts);
  for (const [from, to] of single.parents.flatMap((ps, v) => ps.map((p) => [p, v] as const))) {
    if (!truth.adjacent(from, to)) continue;
    const s = strengths.find((x) => x.from === from && x.to === to)!;
    assert.ok(s.strength >= 0.5, `${net.variables[from]!.name} -> ${net.variables[to]!.name}: ${s.strength}`);
  }
  const threshold = strengthThreshold(strengths.map((s) => s.strength));
  const avg = averagedNetwork(net.variables.length, strengths, threshold);
  const g = new Pdag(net.variables.length);
  avg.arcs.forEach(([x, y]) => g.setArc(x, y));
  avg.edges.forEach(([x, y]) => g.setEdge(x, y));
  const dAvg = hammingDistance(g, truth),
    dSingle = hammingDistance(single.cpdag, truth);
  t.diagnostic(
    `threshold ${threshold}; SHD averaged ${dAvg.shd} (skeleton ${dAvg.skeleton}),` +
      ` single ${dSingle.shd} (skeleton ${dSingle.skeleton})`,
  );
  assert.ok(dAvg.shd <= dSingle.shd + 2);
});

test('replicates of hill climbing and tabu also climb from the whole-data network; K2 and PC search as given', (t) => {
  const net = loadBif('asia');
  if (!net) return void t.skip(NO_SHARED);
  const data = forwardSample(net, 1000, createRng(3));
  for (const method of ['hillclimb', 'tabu'] as const) {
    const spec = { method, score: 'bic' as const, maxParents: 2 };
    const r = replicateSearch(data, spec);
    assert.deepEqual(r.alsoFrom, searchStructure(data, spec).parents);
    assert.deepEqual({ ...r, alsoFrom: undefined }, { ...spec, alsoFrom: undefined });
  }
  const pc = { method: 'pc' as const, score: 'bic' as const, alpha: 0.01 };
  assert.equal(replicateSearch(data, pc), pc);
  const k2 = { method: 'k2' as const, score: 'k2' as const, order: [0, 1, 2, 3, 4, 5, 6, 7] };
  assert.equal(replicateSearch(data, k2), k2);
});
