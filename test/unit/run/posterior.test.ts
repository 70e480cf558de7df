import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { close, errors, first, resultAt, run, runExample, verdicts } from './helpers.js';
import { repoRoot } from '../../support/shared.js';

const enjoy = readFileSync(`${repoRoot}/examples/enjoysport.bayes`, 'utf8');

const cancer = `variable Test { pos, neg }
hypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) { cancer: [0.98, 0.02], healthy: [0.03, 0.97] }
`;

test('cancer (Mitchell §6.2.1): the posterior table, h_MAP and h_ML', async () => {
  const result = await runExample('cancer.bayes');
  const table = resultAt(result, 18, 'posterior');
  const [c, h] = table.rows;
  close(c!.product, 0.008 * 0.98);
  close(h!.product, 0.992 * 0.03);
  close(table.evidence, 0.008 * 0.98 + 0.992 * 0.03);
  close(c!.posterior!, 0.00784 / 0.0376, 1e-12);
  assert.equal(table.headline, 'healthy · 0.7915');
  assert.deepEqual([table.map, table.ml], [['healthy'], ['cancer']]);
  // Every expectation of the example holds: the P(…) lines (network glue), then map/ml/mdl.
  assert.deepEqual(verdicts(result).slice(3), [
    [27, true, 'healthy'],
    [29, true, 'cancer'],
    [31, true, 'healthy'],
  ]);
  assert.deepEqual(
    verdicts(result)
      .slice(0, 3)
      .map(([line, passed]) => [line, passed]),
    [
      [24, true],
      [25, true],
      [26, true],
    ],
  );
});

test('the value of posterior is the largest posterior: P(h_MAP|D), for explicit and generated spaces', async () => {
  const result = await run(`${enjoy}expect posterior Conj given Days ≈ 1/6 ± 1e-12\n`);
  assert.deepEqual(verdicts(result).at(-1)?.[1], true);
  const explicit = await run(`${cancer}expect posterior Diagnosis given Test = pos ≈ 0.7915 ± 0.0001\n`);
  assert.deepEqual(
    verdicts(explicit).map(([, passed]) => passed),
    [true],
  );
});

test('two independent positive tests (exercise 6.1): observe Test = [pos, pos]', async () => {
  const result = await runExample('two_tests.bayes');
  const cancerRow = resultAt(result, 18, 'posterior').rows[0]!;
  const joint = 0.008 * 0.98 ** 2;
  close(cancerRow.posterior!, joint / (joint + 0.992 * 0.03 ** 2));
  assert.equal(cancerRow.posterior!.toFixed(4), '0.8959');
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [20, true],
      [21, true],
    ],
  );
  assert.equal(verdicts(result)[1]![2], 'cancer');
});

test('`given` replaces the observations of the same variable; a data set is one observation per row', async () => {
  const result = await run(`${cancer}observe Test = [pos, pos]
data Results {
  Test
  pos
  neg
  pos
}
query posterior Diagnosis given Test = neg
query posterior Diagnosis given Results
`);
  const one = resultAt(result, 10, 'posterior').rows[0]!;
  close(one.posterior!, (0.008 * 0.02) / (0.008 * 0.02 + 0.992 * 0.97));
  const rows = resultAt(result, 11, 'posterior').rows[0]!;
  const c = 0.008 * 0.98 * 0.02 * 0.98,
    h = 0.992 * 0.03 * 0.97 * 0.03;
  close(rows.likelihood, 0.98 * 0.02 * 0.98);
  close(rows.posterior!, c / (c + h));
});

test('size counts the hypotheses the data leaves possible; impossible evidence is an error, not a number', async () => {
  const result = await run(`variable X { a, b }
hypotheses H { h1: 0.5, h2: 0.25, h3: 0.25 }
P(X | H) { h1: [1, 0], h2: [0.5, 0.5], h3: [0, 1] }
expect size H = 3
expect size H given X = b = 2
variable Y { a, b }
hypotheses G { g1: 0.5, g2: 0.5 }
P(Y | G) { g1: [1, 0], g2: [1, 0] }
query posterior G given Y = b
expect map G given Y = b = g1
`);
  assert.deepEqual(verdicts(result).slice(0, 2), [
    [4, true, 3],
    [5, true, 2],
  ]);
  const impossible = resultAt(result, 8, 'posterior');
  assert.equal(impossible.evidencePossible, false);
  assert.ok(impossible.rows.every((r) => r.posterior === undefined));
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [
      ['evidence-impossible', 8],
      ['evidence-impossible', 9],
    ],
  );
});

test('an observation without a table P(X | H) is a compile error on the observation', async () => {
  const result = await run(`${cancer}variable Other { yes, no }
query posterior Diagnosis given Other = yes
`);
  const [error] = errors(result);
  assert.equal(error?.code, 'compile-error');
  assert.match(error!.message, /needs a table P\(Other \| Diagnosis\)/);
  assert.equal(error!.line, 4);
});

test('code lengths in bits are the prior 2^-L(h), normalised', async () => {
  const result = await run(`hypotheses Codes { h1: bits 1, h2: bits 2 }
query posterior Codes
query mdl Codes
`);
  const rows = resultAt(result, 1, 'posterior').rows;
  close(rows[0]!.posterior!, 2 / 3);
  const mdl = resultAt(result, 2, 'mdl');
  assert.deepEqual(
    mdl.rows.map((r) => r.totalBits),
    [1, 2],
  );
  assert.deepEqual(mdl.best, ['h1']);
});

/** Every conjunction over the domains (null = ∅), by brute force. */
function allConjunctions(sizes: number[]): (number[] | null)[] {
  let hs: number[][] = [[]];
  for (const k of sizes) hs = hs.flatMap((h) => [-1, ...Array.from({ length: k }, (_, v) => v)].map((c) => [...h, c]));
  return [null, ...hs];
}

const days = [
  [0, 0, 0, 0, 0, 0, 1],
  [0, 0, 1, 0, 0, 0, 1],
  [2, 1, 1, 0, 0, 1, 0],
  [0, 0, 1, 0, 1, 1, 1],
];
const errorsOf = (h: number[] | null) =>
  days.filter((d) => (h !== null && h.every((c, i) => c === -1 || c === d[i])) !== (d[6] === 1)).length;

test('EnjoySport (§6.3): |H| = 973, |VS| = 6 by brute force, S and G of fig. 2.3', async () => {
  const result = await runExample('enjoysport.bayes');
  const hs = allConjunctions([3, 2, 2, 2, 2, 2]);
  const consistent = hs.filter((h) => errorsOf(h) === 0);
  assert.equal(hs.length, 973);
  const vs = resultAt(result, 27, 'versionSpace');
  assert.deepEqual([vs.hypothesisCount, vs.versionSpaceSize], [String(hs.length), String(consistent.length)]);
  assert.equal(vs.headline, '|VS| = 6 of |H| = 973');
  assert.deepEqual(vs.boundaries, {
    S: [['Sunny', 'Warm', '?', 'Strong', '?', '?']],
    G: [
      ['Sunny', '?', '?', '?', '?', '?'],
      ['?', 'Warm', '?', '?', '?', '?'],
    ],
  });
  close(vs.errorClasses[0]!.posteriorEach, 1 / 6);
  assert.deepEqual(verdicts(result).slice(0, 2), [
    [30, true, 973],
    [31, true, 6],
  ]);
  // P(h|D) of three members of the version space, 1/6 each (answered through the probability handler).
  assert.deepEqual(
    verdicts(result)
      .slice(2)
      .map(([line, passed]) => [line, passed]),
    [
      [33, true],
      [34, true],
      [35, true],
    ],
  );
});

test('conjunctions with noise ε: P(h|D) ∝ ε^e (1−ε)^(m−e), every hypothesis stays possible', async () => {
  const text = enjoy.replace('noise 0', 'noise 0.1');
  const result = await run(`${text}\nquery map Conj given Days\n`);
  const vs = first(result, 'versionSpace');
  const weights = allConjunctions([3, 2, 2, 2, 2, 2]).map((h) => 0.1 ** errorsOf(h) * 0.9 ** (4 - errorsOf(h)));
  const total = weights.reduce((s, w) => s + w, 0);
  for (const c of vs.errorClasses) close(c.posteriorEach, (0.1 ** c.errors * 0.9 ** (4 - c.errors)) / total, 1e-12);
  // The file's `expect size Conj given Days = 6` no longer holds: with noise nothing is ruled out.
  assert.deepEqual(verdicts(result).slice(0, 2), [
    [30, true, 973],
    [31, false, 973],
  ]);
  // Six hypotheses tie for h_MAP: said, and no value is made up.
  assert.ok(result.diagnostics.some((d) => d.code === 'map-tie' && d.message.startsWith('6 hypotheses')));
});

test('fig. 6.1: the posterior after each datum, for observations and data set rows, equals Bayes theorem on the prefix', async () => {
  const result = await run(`${cancer}data Results {
  Test
  pos
  neg
  pos
}
query posterior Diagnosis given Results
query posterior Diagnosis given Test = [pos, neg, neg]
query posterior Diagnosis given Test = pos
`);
  // P(cancer | d1…di) by hand: the prior times the product of the likelihoods so far, normalised.
  const p = { pos: [0.98, 0.03], neg: [0.02, 0.97] } as const;
  const expected = (data: Array<keyof typeof p>) =>
    data.map((_, i) => {
      const [c, h] = data.slice(0, i + 1).reduce(([c, h], d) => [c * p[d][0], h * p[d][1]], [0.008, 0.992]);
      return [c / (c + h), h / (c + h)];
    });
  const rows = resultAt(result, 9, 'posterior');
  assert.equal(rows.data, 'Results (3 rows)');
  assert.deepEqual(
    rows.sequence!.map((s) => s.datum),
    ['Results row 1', 'Results row 2', 'Results row 3'],
  );
  rows.sequence!.forEach((s, i) =>
    s.posterior.forEach((x, j) => close(x, expected(['pos', 'neg', 'pos'])[i]![j]!, 1e-12)),
  );
  // The last step is the posterior itself.
  assert.deepEqual(
    rows.sequence!.at(-1)!.posterior,
    rows.rows.map((r) => r.posterior),
  );
  const list = resultAt(result, 10, 'posterior');
  assert.equal(list.data, 'Test = pos, Test = neg, Test = neg');
  list.sequence!.forEach((s, i) =>
    s.posterior.forEach((x, j) => close(x, expected(['pos', 'neg', 'neg'])[i]![j]!, 1e-12)),
  );
  // One datum: its posterior is the table; there is no sequence to draw.
  const one = resultAt(result, 11, 'posterior');
  assert.equal(one.data, 'Test = pos');
  assert.equal(one.sequence, undefined);
});

test('fig. 6.1: the sequence ends where the data become impossible', async () => {
  const result = await run(`variable Coin { heads, tails }
hypotheses Kind { fair: 0.5, twoHeaded: 0.25, twoTailed: 0.25 }
P(Coin | Kind) { fair: [0.5, 0.5], twoHeaded: [1, 0], twoTailed: [0, 1] }
query posterior Kind given Coin = [heads, heads]
query posterior Kind given Coin = [heads, tails, tails]
`);
  const steps = (line: number) =>
    resultAt(result, line, 'posterior').sequence!.map((s) => [s.datum, s.posterior.map((x) => Number(x.toFixed(12)))]);
  // P(fair | heads) = .5·.5 / (.5·.5 + .25·1) = 1/2; after a second head .125 / (.125 + .25) = 1/3.
  assert.deepEqual(steps(3), [
    ['Coin = heads', [0.5, 0.5, 0]],
    ['Coin = heads', [1 / 3, 2 / 3, 0].map((x) => Number(x.toFixed(12)))],
  ]);
  // Heads then tails leaves only the fair coin; a third toss of tails keeps it. A two-headed-only
  // space would make tails impossible: see below.
  assert.deepEqual(steps(4), [
    ['Coin = heads', [0.5, 0.5, 0]],
    ['Coin = tails', [1, 0, 0]],
    ['Coin = tails', [1, 0, 0]],
  ]);
  const impossible = await run(`variable Coin { heads, tails }
hypotheses Kind { twoHeaded: 0.5, twoTailed: 0.5 }
P(Coin | Kind) { twoHeaded: [1, 0], twoTailed: [0, 1] }
query posterior Kind given Coin = [heads, heads, tails, heads]
`);
  const table = resultAt(impossible, 3, 'posterior');
  assert.equal(table.evidencePossible, false);
  assert.deepEqual(
    table.sequence!.map((s) => [s.datum, s.posterior]),
    [
      ['Coin = heads', [1, 0]],
      ['Coin = heads', [1, 0]],
    ],
  );
  assert.deepEqual(
    errors(impossible).map((d) => d.code),
    ['evidence-impossible'],
  );
});
