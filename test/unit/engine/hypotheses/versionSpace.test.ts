import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  conceptExamples,
  hypothesisSpaceSize,
  covers,
  ANY,
  describeConjunction,
  moreGeneralOrEqual,
  type Conjunction,
  type ConceptExamples,
} from '../../../../server/src/engine/hypotheses/conjunctiveHypotheses.js';
import { conceptPosterior, candidateElimination } from '../../../../server/src/engine/hypotheses/versionSpace.js';
import { posterior } from '../../../../server/src/engine/hypotheses/bayesTheorem.js';
import { createRng } from '../../../../server/src/engine/random.js';
import { enjoySport } from '../fixtures.js';

const inputs = ['Sky', 'AirTemp', 'Humidity', 'Wind', 'Water', 'Forecast'];

test('EnjoySport, Table 2.1: |H| = 973, |VS| = 6, P(h|D) = 1/6, boundaries S and G', () => {
  const problem = conceptExamples(enjoySport(), inputs, 'EnjoySport', 'Yes');
  assert.equal(hypothesisSpaceSize(problem.attributes), 973n);
  const p = conceptPosterior(problem, { noise: 0 });
  assert.equal(p.hypothesisCount, '973');
  assert.equal(p.versionSpaceSize, '6');
  assert.equal(p.errorClasses[0]!.errors, 0);
  assert.ok(Math.abs(p.errorClasses[0]!.posteriorEach - 1 / 6) < 1e-15);
  assert.ok(Math.abs(p.evidence - 6 / 973) < 1e-15);
  assert.ok(p.errorClasses.slice(1).every((c) => c.posteriorEach === 0));
  assert.deepEqual(p.boundaries, {
    S: [['Sunny', 'Warm', '?', 'Strong', '?', '?']],
    G: [
      ['Sunny', '?', '?', '?', '?', '?'],
      ['?', 'Warm', '?', '?', '?', '?'],
    ],
  });
  // The six hypotheses of Mitchell's Figure 2.3.
  assert.deepEqual(p.members!.map((h) => h.join(',')).sort(), [
    '?,Warm,?,?,?,?',
    '?,Warm,?,Strong,?,?',
    'Sunny,?,?,?,?,?',
    'Sunny,?,?,Strong,?,?',
    'Sunny,Warm,?,?,?,?',
    'Sunny,Warm,?,Strong,?,?',
  ]);
});

/** Every hypothesis of H, explicitly (∅ first). */
function enumerate(problem: ConceptExamples): Conjunction[] {
  let partial: number[][] = [[]];
  for (const a of problem.attributes)
    partial = partial.flatMap((p) => [ANY, ...a.values.map((_, v) => v)].map((c) => [...p, c]));
  return [null, ...partial.map((p) => Int32Array.from(p))];
}
const errorsOf = (h: Conjunction, problem: ConceptExamples) =>
  problem.rows.reduce((n, x, e) => n + Number(covers(h, x) !== problem.positive[e]), 0);

function randomProblem(seed: number): ConceptExamples {
  const rng = createRng(seed);
  const attributes = Array.from({ length: 1 + rng.int(4) }, (_, i) => ({
    name: `A${i}`,
    values: Array.from({ length: 2 + rng.int(2) }, (_, v) => `v${v}`),
  }));
  const m = rng.int(7);
  return {
    attributes,
    rows: Array.from({ length: m }, () => Int32Array.from(attributes, (a) => rng.int(a.values.length))),
    positive: Array.from({ length: m }, () => rng.next() < 0.5),
  };
}

test('counts, posteriors and boundaries equal brute-force enumeration (seeded random problems)', () => {
  for (let seed = 1; seed <= 150; seed++) {
    const problem = randomProblem(seed);
    const H = enumerate(problem);
    assert.equal(BigInt(H.length), hypothesisSpaceSize(problem.attributes));
    const noise = [0, 0.1, 0.3][seed % 3]!;
    const p = conceptPosterior(problem, { noise });
    // Brute force through the explicit Bayes theorem table.
    const m = problem.rows.length;
    const errors = H.map((h) => errorsOf(h, problem));
    const ll = errors.map((e) => Math.log(noise === 0 ? Number(e === 0) : noise ** e * (1 - noise) ** (m - e)));
    const table = posterior(
      H.map((_, i) => ({ name: `h${i}`, prior: 1 / H.length })),
      ll,
    );
    assert.equal(p.evidencePossible, table.evidencePossible, `seed ${seed}`);
    if (table.evidencePossible)
      assert.ok(Math.abs(p.evidence - table.evidence) <= 1e-12 * table.evidence, `seed ${seed}`);
    for (const c of p.errorClasses) {
      assert.equal(
        BigInt(errors.filter((e) => e === c.errors).length),
        BigInt(c.hypotheses),
        `seed ${seed} class ${c.errors}`,
      );
      const i = errors.indexOf(c.errors);
      assert.ok(Math.abs(c.posteriorEach - (table.rows[i]!.posterior ?? 0)) < 1e-12, `seed ${seed}`);
    }
    if (noise !== 0) continue;
    const vs = H.filter((_, i) => errors[i] === 0);
    assert.equal(p.versionSpaceSize, String(vs.length));
    const b = candidateElimination(problem, 1000)!;
    const specific = vs.filter((h) => !vs.some((k) => moreGeneralOrEqual(h, k) && !moreGeneralOrEqual(k, h)));
    const general = vs.filter((h) => !vs.some((k) => moreGeneralOrEqual(k, h) && !moreGeneralOrEqual(h, k)));
    const key = (hs: Conjunction[]) => hs.map((h) => describeConjunction(h, problem.attributes).join(',')).sort();
    assert.deepEqual(key(b.S), key(specific), `S, seed ${seed}`);
    assert.deepEqual(key(b.G), key(general), `G, seed ${seed}`);
    if (vs.length <= 100) assert.deepEqual(p.members!.map((h) => h.join(',')).sort(), key(vs), `members, seed ${seed}`);
  }
});

test('counts without materialising H: 40 attributes, |H| = 4^40 + 1', () => {
  const rng = createRng(9);
  const attributes = Array.from({ length: 40 }, (_, i) => ({ name: `A${i}`, values: ['a', 'b', 'c'] }));
  const rows = Array.from({ length: 12 }, () => Int32Array.from(attributes, () => rng.int(3)));
  const positive = rows.map((_, e) => e % 3 === 0);
  const p = conceptPosterior({ attributes, rows, positive }, { noise: 0.1 });
  assert.equal(p.hypothesisCount, (4n ** 40n + 1n).toString());
  const sum = p.errorClasses.reduce((s, c) => s + BigInt(c.hypotheses), 0n);
  assert.equal(sum, 4n ** 40n + 1n);
  const mass = p.errorClasses.reduce((s, c) => s + c.posteriorTotal, 0);
  assert.ok(Math.abs(mass - 1) < 1e-9, `posterior mass ${mass}`);
});

test('inconsistent data with noise 0: evidence has probability 0', () => {
  const attributes = [{ name: 'A', values: ['x', 'y'] }];
  const p = conceptPosterior(
    { attributes, rows: [Int32Array.of(0), Int32Array.of(0)], positive: [true, false] },
    { noise: 0 },
  );
  assert.equal(p.evidencePossible, false);
  assert.equal(p.versionSpaceSize, '0');
  assert.deepEqual(p.boundaries, { S: [], G: [] });
  assert.throws(() => conceptPosterior({ attributes, rows: [], positive: [] }, { noise: 1 }), /noise/);
});
