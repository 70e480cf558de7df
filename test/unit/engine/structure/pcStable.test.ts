import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chiSquareSurvival, independenceTest } from '../../../../server/src/engine/structure/independenceTests.js';
import { pcStable, subsets } from '../../../../server/src/engine/structure/pcStable.js';
import {
  Pdag,
  cpdagOf,
  dagExtension,
  hammingDistance,
  meekRules,
} from '../../../../server/src/engine/structure/pdag.js';
import { BackgroundKnowledge } from '../../../../server/src/engine/structure/backgroundKnowledge.js';
import { bootstrapCounts } from '../../../../server/src/engine/structure/bootstrap.js';
import { crossValidate } from '../../../../server/src/engine/structure/crossValidation.js';
import { forwardSample } from '../../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../../server/src/engine/random.js';
import type { BayesianNetwork } from '../../../../server/src/engine/network.js';
import type { CategoricalDataset } from '../../../../server/src/engine/categoricalData.js';
import { NO_SHARED } from '../../../support/shared.js';
import { loadBif, randomNetwork } from '../../../support/networks.js';
import { CancelledError } from '../../../../server/src/engine/cancellation.js';

const close = (a: number, b: number, rel = 1e-10) =>
  assert.ok(Math.abs(a - b) <= rel * Math.max(1, Math.abs(b)), `${a} vs ${b}`);

/** Rows with (X, Y, Z) repeated by the counts of counts[z][x][y]. */
function fromCounts(counts: number[][][]): CategoricalDataset {
  const cols: number[][] = [[], [], []];
  counts.forEach((t, z) =>
    t.forEach((row, x) =>
      row.forEach((c, y) => {
        for (let k = 0; k < c; k++) {
          cols[0]!.push(x);
          cols[1]!.push(y);
          cols[2]!.push(z);
        }
      }),
    ),
  );
  const values = (k: number) => Array.from({ length: k }, (_, i) => String(i));
  return {
    attributes: [
      { name: 'X', values: values(counts[0]!.length) },
      { name: 'Y', values: values(2) },
      { name: 'Z', values: values(counts.length) },
    ],
    columns: cols.map((c) => Int32Array.from(c)),
    rowCount: cols[0]!.length,
  };
}

test('χ² survival equals its closed forms (df 2: e^(−x/2); df 1: erfc(√(x/2)) via the series)', () => {
  for (const x of [0.1, 1, 5, 40, 700]) close(chiSquareSurvival(x, 2), Math.exp(-x / 2), 1e-12);
  // df 4: e^(−x/2) (1 + x/2)
  for (const x of [0.5, 3, 30]) close(chiSquareSurvival(x, 4), Math.exp(-x / 2) * (1 + x / 2), 1e-12);
  // df 1 at x = 3.2: 2(1 − Φ(√3.2)) computed from the alternating series of erf.
  const t = Math.sqrt(1.6);
  let erf = 0,
    term = t;
  for (let k = 0; k < 60; k++) {
    erf += term / (2 * k + 1);
    term *= (-t * t) / (k + 1);
  }
  close(chiSquareSurvival(3.2, 1), 1 - (2 / Math.sqrt(Math.PI)) * erf, 1e-12);
  // scipy.stats.chi2.sf (scipy 1.17): tails the continued fraction must keep.
  close(chiSquareSurvival(1234.5, 7), 2.443809118350139e-262, 1e-9);
  close(chiSquareSurvival(0.3, 11), 0.9999999099992819, 1e-12);
  close(chiSquareSurvival(50, 3), 7.989179244951495e-11, 1e-9);
});

test('G² and χ² on a 3×2×2 table equal scipy, with the df of an empty row not counted', () => {
  // Stratum Z=1 never sees X=2: its table is 2×2 (1 df), Z=0's is 3×2 (2 df); 3 df in all (not 4).
  const data = fromCounts([
    [
      [12, 5],
      [7, 9],
      [3, 11],
    ],
    [
      [20, 4],
      [6, 15],
      [0, 0],
    ],
  ]);
  // Values from scipy.stats.chi2_contingency(correction=False, lambda_=…) per stratum, summed.
  const g2 = independenceTest(data, 0, 1, [2], 'g2');
  assert.equal(g2.df, 3);
  close(g2.statistic, 22.42447241013369, 1e-12);
  close(g2.pValue, 5.322315007394587e-5, 1e-9);
  const x2 = independenceTest(data, 0, 1, [2], 'x2');
  assert.equal(x2.df, 3);
  close(x2.statistic, 21.311098286388532, 1e-12);
  close(x2.pValue, 9.072004602188155e-5, 1e-9);
});

test('G² by hand on a 2×2 table, unconditional; swapping X and Y changes nothing', () => {
  const data = fromCounts([
    [
      [30, 10],
      [20, 40],
    ],
  ]);
  const n = 100,
    cells = [
      [30, 10],
      [20, 40],
    ],
    rows = [40, 60],
    cols = [50, 50];
  let g2 = 0,
    x2 = 0;
  cells.forEach((r, i) =>
    r.forEach((c, j) => {
      const e = (rows[i]! * cols[j]!) / n;
      g2 += 2 * c * Math.log(c / e);
      x2 += (c - e) ** 2 / e;
    }),
  );
  const r = independenceTest(data, 0, 1, [], 'g2');
  close(r.statistic, g2, 1e-12);
  assert.equal(r.df, 1);
  close(independenceTest(data, 1, 0, [], 'g2').statistic, g2, 1e-12);
  close(independenceTest(data, 0, 1, [], 'x2').statistic, x2, 1e-12);
  // A table with a constant column has no degree of freedom: p-value 1, never "dependent".
  const flat = fromCounts([
    [
      [5, 0],
      [7, 0],
    ],
  ]);
  assert.deepEqual(independenceTest(flat, 0, 1, [], 'g2'), { statistic: 0, df: 0, pValue: 1 });
});

test('rows with a missing value in the tested variables are left out', () => {
  const data = fromCounts([
    [
      [30, 10],
      [20, 40],
    ],
  ]);
  const withMissing: CategoricalDataset = {
    ...data,
    rowCount: data.rowCount + 2,
    columns: data.columns.map((c, i) => Int32Array.from([...c, i === 0 ? -1 : 0, i === 1 ? -1 : 1])),
  };
  assert.deepEqual(independenceTest(withMissing, 0, 1, [], 'g2'), independenceTest(data, 0, 1, [], 'g2'));
  assert.deepEqual(independenceTest(withMissing, 0, 1, [2], 'x2'), independenceTest(data, 0, 1, [2], 'x2'));
});

test('subsets enumerates every k-subset once, in order', () => {
  assert.deepEqual(
    [...subsets([4, 5, 6, 7], 2)],
    [
      [4, 5],
      [4, 6],
      [4, 7],
      [5, 6],
      [5, 7],
      [6, 7],
    ],
  );
  assert.deepEqual([...subsets([1, 2], 0)], [[]]);
  assert.deepEqual([...subsets([1], 2)], []);
  assert.equal([...subsets([0, 1, 2, 3, 4, 5, 6], 3)].length, 35);
});

test('CPDAGs: a chain is all undirected, a collider all directed, and Meek R1 propagates below it', () => {
  // a → b → c: Markov equivalent to c → b → a and a ← b → c.
  const chain = cpdagOf([[], [0], [1]]);
  assert.deepEqual(chain.edges(), [
    [0, 1],
    [1, 2],
  ]);
  assert.deepEqual(chain.arcs(), []);
  // a → c ← b, c → d: the collider fixes c → d too (R1).
  const collider = cpdagOf([[], [], [0, 1], [2]]);
  assert.deepEqual(collider.arcs(), [
    [0, 2],
    [1, 2],
    [2, 3],
  ]);
  assert.deepEqual(collider.edges(), []);
  // Equivalent DAGs have equal CPDAGs: SHD 0; a reversed collider arc is one difference.
  assert.deepEqual(hammingDistance(cpdagOf([[1], [2], []]), chain), { skeleton: 0, shd: 0 });
  const other = cpdagOf([[], [], [0], [2, 1]]); // a → c → d ← b: collider at d
  assert.deepEqual(hammingDistance(other, collider), { skeleton: 2, shd: 3 });
});

test('Meek R2 and R3 orient what a cycle or a new collider would otherwise force', () => {
  // R2: a → c → b and a − b ⇒ a → b.
  const g = new Pdag(3);
  g.setArc(0, 2);
  g.setArc(2, 1);
  g.setEdge(0, 1);
  meekRules(g);
  assert.ok(g.isArc(0, 1));
  // R3: a − c → b, a − d → b, c and d not adjacent, a − b ⇒ a → b.
  const h = new Pdag(4);
  h.setEdge(0, 1);
  h.setEdge(0, 2);
  h.setEdge(0, 3);
  h.setArc(2, 1);
  h.setArc(3, 1);
  meekRules(h);
  assert.ok(h.isArc(0, 1));
  assert.ok(h.isUndirected(0, 2) && h.isUndirected(0, 3));
});

/** A → C ← B, C → D with strong dependencies: PC must find the collider and orient C → D. */
function colliderNetwork(): BayesianNetwork {
  const bin = (name: string) => ({ name, states: ['0', '1'] });
  return {
    name: 'collider',
    variables: ['A', 'B', 'C', 'D'].map(bin),
    cpts: [
      { child: 0, parents: [], table: Float64Array.from([0.5, 0.5]) },
      { child: 1, parents: [], table: Float64Array.from([0.4, 0.6]) },
      { child: 2, parents: [0, 1], table: Float64Array.from([0.9, 0.1, 0.3, 0.7, 0.2, 0.8, 0.05, 0.95]) },
      { child: 3, parents: [2], table: Float64Array.from([0.85, 0.15, 0.2, 0.8]) },
    ],
  };
}

test('PC-stable recovers a collider and its consequence from sampled data', () => {
  const net = colliderNetwork();
  const data = forwardSample(net, 4000, createRng(7));
  for (const testName of ['g2', 'x2'] as const) {
    const r = pcStable(data, { alpha: 0.01, test: testName });
    assert.deepEqual(r.graph.arcs(), [
      [0, 2],
      [1, 2],
      [2, 3],
    ]);
    assert.deepEqual(r.graph.edges(), []);
    assert.ok(r.tests >= 6, `tests ${r.tests}`);
    assert.deepEqual(r.sepsets.get('0|1')?.set, []);
    assert.deepEqual(r.sepsets.get('0|3')?.set, [2]);
  }
});

test('PC-stable does not depend on the order of the columns', (t) => {
  const net = loadBif('asia');
  if (!net) return t.skip(NO_SHARED);
  const data = forwardSample(net, 3000, createRng(3));
  const perm = [5, 2, 7, 0, 3, 6, 1, 4];
  const permuted: CategoricalDataset = {
    ...data,
    attributes: perm.map((i) => data.attributes[i]!),
    columns: perm.map((i) => data.columns[i]!),
  };
  const a = pcStable(data, { alpha: 0.05 }),
    b = pcStable(permuted, { alpha: 0.05 });
  const skeleton = (g: Pdag, d: CategoricalDataset) =>
    [...g.arcs(), ...g.edges()].map(([x, y]) => [d.attributes[x]!.name, d.attributes[y]!.name].sort().join('-')).sort();
  assert.deepEqual(skeleton(b.graph, permuted), skeleton(a.graph, data));
});

test('PC-stable on ASIA and ALARM samples: skeletons close to the truth (reported)', (t) => {
  for (const [name, rows, maxSkeleton, maxShd] of [
    ['asia', 10000, 2, 4],
    ['alarm', 10000, 5, 8],
  ] as const) {
    const net = loadBif(name);
    if (!net) return void t.skip(NO_SHARED);
    const data = forwardSample(net, rows, createRng(1));
    const truth = cpdagOf(net.cpts.map((c) => c.parents));
    const r = pcStable(data, { alpha: 0.01, test: 'g2' });
    const d = hammingDistance(r.graph, truth);
    t.diagnostic(`${name} ${rows} rows: skeleton SHD ${d.skeleton}, CPDAG SHD ${d.shd}, ${r.tests} tests`);
    assert.ok(d.skeleton <= maxSkeleton, `${name}: skeleton SHD ${d.skeleton}`);
    assert.ok(d.shd <= maxShd, `${name}: SHD ${d.shd}`);
  }
});

test('background knowledge: forbidden edges vanish, required arcs stay and orient their neighbours', () => {
  const net = colliderNetwork();
  const data = forwardSample(net, 4000, createRng(7));
  const n = 4;
  // Forbid C − D both ways: the edge is gone without a test.
  const noCD = pcStable(data, {
    alpha: 0.01,
    knowledge: new BackgroundKnowledge(n, {
      forbid: [
        [2, 3],
        [3, 2],
      ],
    }),
  });
  assert.ok(!noCD.graph.adjacent(2, 3));
  // Require A → D (false in the data): never tested away, and kept as an arc.
  const ad = pcStable(data, { alpha: 0.01, knowledge: new BackgroundKnowledge(n, { require: [[0, 3]] }) });
  assert.ok(ad.graph.isArc(0, 3));
  // Tiers [D] before [A, B, C]: no arc may point into D's tier's past: C → D is impossible, so
  // the collider at C cannot be oriented as the data says and D − C becomes D → C.
  const tiers = pcStable(data, { alpha: 0.01, knowledge: new BackgroundKnowledge(n, { tiers: [[3], [0, 1, 2]] }) });
  assert.ok(tiers.graph.isArc(3, 2));
  assert.ok(tiers.graph.isArc(0, 2) && tiers.graph.isArc(1, 2));
  // Contradictions are errors naming the variables.
  const names = ['A', 'B', 'C', 'D'];
  type Spec = ConstructorParameters<typeof BackgroundKnowledge>[1];
  const knowing = (spec: Spec) => () => new BackgroundKnowledge(n, spec, names);
  assert.throws(knowing({ require: [[0, 1]], forbid: [[0, 1]] }), /A -> B is both required and forbidden/);
  assert.throws(
    knowing({
      require: [
        [0, 1],
        [1, 2],
        [2, 0],
      ],
    }),
    /cycle: B -> C -> A -> B/,
  );
  assert.throws(knowing({ require: [[2, 0]], tiers: [[0], [2]] }), /by the tiers/);
});

test('a DAG extension of a CPDAG is in its class: the CPDAG of the extension is the CPDAG (20 random DAGs)', () => {
  for (let seed = 1; seed <= 20; seed++) {
    const parents = randomNetwork(seed, 9, 3).cpts.map((c) => c.parents);
    const cpdag = cpdagOf(parents);
    const { parents: ext, extended } = dagExtension(cpdag);
    assert.ok(extended);
    assert.deepEqual(hammingDistance(cpdagOf(ext), cpdag), { skeleton: 0, shd: 0 }, `seed ${seed}`);
    // Every arc of the CPDAG keeps its direction in the extension.
    for (const [a, b] of cpdag.arcs()) assert.ok(ext[b]!.includes(a));
  }
});

test('PC-stable, the bootstrap and cross-validation stop when cancelled', () => {
  const net = colliderNetwork();
  const data = forwardSample(net, 500, createRng(7));
  let polls = 0;
  const signal = {
    get aborted() {
      return ++polls > 3;
    },
  };
  assert.throws(() => pcStable(data, { signal }), CancelledError);
  assert.equal(polls, 4, 'PC stops at the first poll after the signal');
  const aborted = { aborted: true };
  assert.throws(
    () => bootstrapCounts(data, () => new Pdag(4), { replicates: 5, seed: 1, signal: aborted }),
    CancelledError,
  );
  const none = { kind: 'none' as const };
  assert.throws(
    () => crossValidate(data, () => [[], [], [], []], { folds: 5, seed: 1, prior: none, signal: aborted }),
    CancelledError,
  );
});
