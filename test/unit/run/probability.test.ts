/**
 * `query P(…)`: exact answers against brute-force enumeration of the same network and Mitchell's
 * closed forms; repeated observations as replicated nodes; classifiers and imported networks;
 * samplers within their standard error, reproducible by seed; bad input as diagnostics.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { enumerate, jointTable } from '../../support/networks.js';
import { close } from '../../support/close.js';
import { NO_SHARED, sharedFile } from '../../support/shared.js';
import { assertNoErrors, example, expectations, networkOf, resultsOf, run } from './networkHelpers.js';

const forest = example('forest');

test('Forest: P(X | e) equals enumeration of the 64 joint assignments', async () => {
  const net = networkOf(forest, 'Forest');
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const truth = enumerate(
    net,
    new Map([
      [index.get('Thunder')!, 0],
      [index.get('BusTourGroup')!, 0],
    ]),
  );
  const result = await run(
    `${forest}\nquery P(ForestFire | Thunder = true, BusTourGroup = true) in Forest\nquery P(Storm | Thunder = true, BusTourGroup = true) in Forest`,
  );
  const [fire, storm] = resultsOf(result, 'probability').slice(-2);
  assert.equal(fire!.method, 'exact');
  assert.deepEqual(fire!.evidence, { Thunder: 'true', BusTourGroup: 'true' });
  fire!.table.forEach((row, s) => close(row.p, truth.marginals[index.get('ForestFire')!]![s]!, 1e-12));
  storm!.table.forEach((row, s) => close(row.p, truth.marginals[index.get('Storm')!]![s]!, 1e-12));
  assert.equal(fire!.headline, 'true · 0.7031');
  assert.equal(fire!.value, undefined);
  // Every expect line of the example holds.
  assert.ok(
    expectations(result).every((e) => e.passed),
    JSON.stringify(expectations(result).filter((e) => !e.passed)),
  );
  assertNoErrors(result);
});

test('a joint query is the joint posterior table, first variable slowest', async () => {
  const net = networkOf(forest, 'Forest');
  const index = new Map(net.variables.map((v, i) => [v.name, i]));
  const { cards, values } = jointTable(net);
  // P(Storm, Campfire | Thunder = true) by summing the joint.
  const [storm, campfire, thunder] = ['Storm', 'Campfire', 'Thunder'].map((n) => index.get(n)!);
  const table = [0, 0, 0, 0];
  let evidence = 0;
  for (let i = 0; i < values.length; i++) {
    const x: number[] = [];
    let rest = i;
    for (let v = cards.length - 1; v >= 0; v--) {
      x[v] = rest % cards[v]!;
      rest = Math.floor(rest / cards[v]!);
    }
    if (x[thunder] !== 0) continue;
    table[x[storm!]! * 2 + x[campfire!]!]! += values[i]!;
    evidence += values[i]!;
  }
  const result = await run(
    `${forest}\nquery P(Storm, Campfire | Thunder = true) in Forest\nexpect P(Storm = false, Campfire = true | Thunder = true) in Forest ≈ ${table[2]! / evidence} ± 1e-12`,
  );
  const joint = resultsOf(result, 'probability').at(-2)!;
  assert.deepEqual(joint.variables, ['Storm', 'Campfire']);
  assert.deepEqual(
    joint.table.map((r) => r.states),
    [
      ['true', 'true'],
      ['true', 'false'],
      ['false', 'true'],
      ['false', 'false'],
    ],
  );
  joint.table.forEach((row, i) => close(row.p, table[i]! / evidence, 1e-12));
  const named = resultsOf(result, 'probability').at(-1)!;
  assert.equal(named.headline, `P(false, true | true) = ${Number((table[2]! / evidence).toPrecision(4))}`);
  assert.ok(expectations(result).every((e) => e.passed));
});

test('cancer: the joint and the posterior of Mitchell §6.2.1 in the default model', async () => {
  const result = await run(example('cancer'));
  const values = resultsOf(result, 'probability').map((r) => r.value);
  close(values[0], 0.98 * 0.008, 1e-15);
  close(values[1], 0.03 * 0.992, 1e-15);
  close(values[2], (0.98 * 0.008) / (0.98 * 0.008 + 0.03 * 0.992), 1e-15);
  assert.equal(resultsOf(result, 'probability')[2]!.headline, 'P(cancer | pos) = 0.2085');
});

test('observe Test = [pos, pos]: two independent tests, P(cancer | +, +) = 0.8959 (Mitchell ex. 6.1)', async () => {
  const twoTests = example('two_tests');
  const result = await run(twoTests);
  const [posterior] = resultsOf(result, 'probability');
  const expected = (0.008 * 0.98 ** 2) / (0.008 * 0.98 ** 2 + 0.992 * 0.03 ** 2);
  close(posterior!.value, expected, 1e-15);
  assert.deepEqual(posterior!.evidence, { Test: 'pos', 'Test#2': 'pos' });
  // Three observations, one negative; `given` overrides the observations of its variable.
  const more = await run(`${twoTests.replace('observe Test = [pos, pos]', 'observe Test = [pos, pos, neg]')}
query P(Diagnosis = cancer)
query P(Diagnosis = cancer) given Test = neg`);
  const [three, overridden] = resultsOf(more, 'probability').slice(-2);
  close(three!.value, (0.008 * 0.98 ** 2 * 0.02) / (0.008 * 0.98 ** 2 * 0.02 + 0.992 * 0.03 ** 2 * 0.97), 1e-15);
  close(overridden!.value, (0.008 * 0.02) / (0.008 * 0.02 + 0.992 * 0.97), 1e-15);
  assert.deepEqual(overridden!.evidence, { Test: 'neg' });
});

test('1,500 repeated observations: the exact posterior, where a product of 1,500 likelihoods underflows', async () => {
  // 826 heads and 674 tails: fair 0.5^1500 and biased 0.6^826 · 0.4^674 are both below 1e-308, so
  // a node per observation (their product in doubles) made the evidence "impossible"; and 1,500
  // nodes on one parent took seconds to order (100,000 hung).
  const tosses = Array.from({ length: 1500 }, (_, i) => (i < 826 ? 'heads' : 'tails')).join(', ');
  const result = await run(`variable Toss { heads, tails }
variable Coin { fair, biased }
P(Coin) { fair: 0.5, biased: 0.5 }
P(Toss | Coin) { fair: [0.5, 0.5], biased: [0.6, 0.4] }
observe Toss = [${tosses}]
query P(Coin = biased)
query P(Coin = biased) using likelihood_weighting { samples: 1000, seed: 1 }`);
  assertNoErrors(result);
  const logOdds = 826 * Math.log(0.6 / 0.5) + 674 * Math.log(0.4 / 0.5);
  const [exact, sampled] = resultsOf(result, 'probability');
  close(exact!.value, 1 / (1 + Math.exp(-logOdds)), 1e-9);
  // Likelihood weighting draws Coin only, and weighs each draw by the (scaled) likelihood.
  close(sampled!.value, 1 / (1 + Math.exp(-logOdds)), 0.05);
  assert.equal(Object.keys(exact!.evidence ?? {}).length, 1500);
  assert.equal(exact!.evidence?.['Toss#1500'], 'tails');
});

test('in PlayNB: the classifier as a network gives Mitchell §6.9.1 numbers exactly', async () => {
  const result = await run(example('playtennis'));
  const [yes, no, posterior] = resultsOf(result, 'probability').map((r) => r.value);
  const pYes = (9 / 14) * (2 / 9) * (3 / 9) * (3 / 9) * (3 / 9);
  const pNo = (5 / 14) * (3 / 5) * (1 / 5) * (4 / 5) * (3 / 5);
  close(yes, pYes, 1e-15);
  close(no, pNo, 1e-15);
  close(posterior, pNo / (pYes + pNo), 1e-14);
});

test('an imported BIF network answers the pgmpy reference (alarm, case 1)', async (t) => {
  if (!sharedFile('bif', 'alarm.bif')) return t.skip(NO_SHARED);
  const result = await run(example('alarm'));
  assertNoErrors(result);
  assert.ok(expectations(result).length >= 10);
  assert.ok(
    expectations(result).every((e) => e.passed),
    JSON.stringify(expectations(result).filter((e) => !e.passed)),
  );
  const first = resultsOf(result, 'probability')[0]!;
  assert.equal(first.network, 'Alarm');
  close(first.table.find((r) => r.states[0] === 'TRUE')!.p, 0.11673850966500454, 2e-7);
});

test('samplers: within four standard errors of exact, the same answer for the same seed', async () => {
  const query = (method: string, seed: number) =>
    `query P(ForestFire | Thunder = true) in Forest using ${method} { samples: 20000, seed: ${seed} }`;
  const result = await run(
    `${forest}\nquery P(ForestFire | Thunder = true) in Forest\n${query('likelihood_weighting', 1)}\n${query('likelihood_weighting', 1)}\n${query('gibbs', 2)}\n${query('likelihood_weighting', 3)}`,
  );
  const [exact, lw, lwAgain, gibbs, lwOther] = resultsOf(result, 'probability').slice(-5);
  // Gibbs splits its sweeps among chains, so it may report a few less than asked.
  assert.equal(lw!.samples, 20000);
  assert.ok(gibbs!.samples! > 19900 && gibbs!.samples! <= 20000);
  for (const sampled of [lw!, gibbs!]) {
    sampled.table.forEach((row, s) => {
      assert.ok(row.stderr! > 0 && row.stderr! < 0.02, `${sampled.method} stderr ${row.stderr}`);
      assert.ok(
        Math.abs(row.p - exact!.table[s]!.p) < 4 * row.stderr!,
        `${sampled.method}: ${row.p} vs ${exact!.table[s]!.p}`,
      );
    });
  }
  assert.deepEqual([lw!.method, gibbs!.method, lw!.seed, gibbs!.seed], ['lw', 'gibbs', 1, 2]);
  assert.deepEqual(lw!.table, lwAgain!.table);
  assert.notDeepEqual(lw!.table, lwOther!.table);
});

test('using rejection (Poole §8.6): within four standard errors of exact, its acceptance rate estimates P(e), seeded', async () => {
  const query = (seed: number) =>
    `query P(ForestFire | Thunder = true) in Forest using rejection { samples: 20000, seed: ${seed} }`;
  const result = await run(
    `${forest}\nquery P(ForestFire | Thunder = true) in Forest\nquery P(Thunder = true) in Forest\n${query(1)}\n${query(1)}\n${query(2)}`,
  );
  const [exact, pThunder, rejection, again, other] = resultsOf(result, 'probability').slice(-5);
  assert.equal(rejection!.method, 'rejection');
  assert.equal(rejection!.samples, 20000);
  const rate = rejection!.acceptanceRate!,
    p = pThunder!.value!;
  assert.equal(rejection!.accepted, Math.round(rate * 20000));
  assert.ok(Math.abs(rate - p) < 4 * rejection!.acceptanceStderr!, `acceptance ${rate} vs P(Thunder) ${p}`);
  close(rejection!.acceptanceStderr!, Math.sqrt((rate * (1 - rate)) / 20000), 1e-15);
  rejection!.table.forEach((row, s) => {
    close(row.stderr!, Math.sqrt((row.p * (1 - row.p)) / rejection!.accepted!), 1e-15);
    assert.ok(Math.abs(row.p - exact!.table[s]!.p) < 4 * row.stderr!, `${row.p} vs ${exact!.table[s]!.p}`);
  });
  assert.match(rejection!.headline, new RegExp(`accepted ${rejection!.accepted} of 20000 samples`));
  assert.deepEqual(again!.table, rejection!.table);
  assert.notDeepEqual(other!.table, rejection!.table);
  // Nothing accepted: evidence-impossible, saying how many samples were drawn.
  const never = await run(
    `network Z {\n  variable A, B : bool\n  P(A) = 1\n  P(B | A) { true: 0.5, false: 0.5 }\n}\nquery P(B | A = false) in Z using rejection { samples: 300 }\n`,
  );
  const impossible = never.diagnostics.filter((d) => d.code === 'evidence-impossible');
  assert.equal(impossible.length, 1);
  assert.match(
    impossible[0]!.message,
    /rejection sampling: no sample was consistent with the evidence, none of the 300 drawn/,
  );
  // Virtual evidence is an observed child λ(X): rejection keeps a sample with probability ∝ λ(x).
  const lab = `network Lab {\n  variable D : bool\n  variable T { pos, neg }\n  P(D) = 0.1\n  P(T | D) { true: [0.9, 0.1], false: [0.2, 0.8] }\n}\n`;
  const virtual = await run(
    `${lab}query P(D = true | T ~ likelihood { pos: 4, neg: 1 }) in Lab using rejection { samples: 50000, seed: 4 }\n`,
  );
  const [soft] = resultsOf(virtual, 'probability');
  const byHand = (0.1 * (0.9 * 4 + 0.1)) / (0.1 * (0.9 * 4 + 0.1) + 0.9 * (0.2 * 4 + 0.8));
  assert.ok(Math.abs(soft!.value! - byHand) < 4 * soft!.table[0]!.stderr!, `${soft!.value} vs ${byHand}`);
});

test('over the budget a sampler answers, with a warning that names the cost', async () => {
  const result = await run(
    `${forest}\nquery P(ForestFire | Thunder = true) in Forest using exact { budget: 2, seed: 5 }`,
  );
  const answer = resultsOf(result, 'probability').at(-1)!;
  assert.equal(answer.method, 'lw');
  assert.equal(answer.budget, 2);
  const warning = result.diagnostics.find((d) => d.code === 'inference-budget')!;
  assert.equal(warning.severity, 'warning');
  assert.match(warning.message, new RegExp(`clique table of ${answer.cost} entries, over the budget of 2`));
  assert.equal(warning.range.start.line, forest.split('\n').length);
});

test('evidence of probability 0 is an error saying so, for exact and sampled answers', async () => {
  const model = `network Z {\n  variable A, B : bool\n  P(A) = 1\n  P(B | A) { true: 0.5, false: 0.5 }\n}\n`;
  const result = await run(
    `${model}query P(B | A = false) in Z\nquery P(B | A = false) in Z using likelihood_weighting { samples: 100, seed: 1 }\nexpect P(B = true | A = false) in Z ≈ 0.5`,
  );
  const impossible = result.diagnostics.filter((d) => d.code === 'evidence-impossible');
  assert.deepEqual(
    impossible.map((d) => d.range.start.line),
    [5, 6, 7],
  );
  assert.equal(impossible[0]!.message, 'evidence has probability 0');
  assert.match(impossible[1]!.message, /^evidence has probability 0/);
  assert.equal(result.diagnostics.filter((d) => d.code === 'expect-no-value').length, 0);
});

test('bad queries are errors on the name at fault, never a crash', async () => {
  const cases: Array<[string, RegExp, string]> = [
    ['query P(ForestFire) in Forest using rejection { samples: 0 }', /samples is a whole number ≥ 1/, '0'],
    ['query P(ForestFire) in Forest using likelihood_weighting { samples: 0.5 }', /samples is a whole number/, '0.5'],
    ['query P(ForestFire) in Forest using gibbs { budget: 3 }', /budget limits exact inference/, 'budget: 3'],
    ['query P(ForestFire, ForestFire) in Forest', /'ForestFire' is asked twice/, 'ForestFire'],
  ];
  for (const [line, message, at] of cases) {
    const result = await run(`${forest}\n${line}`);
    const errors = result.diagnostics.filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1, `${line}: ${JSON.stringify(errors)}`);
    assert.match(errors[0]!.message, message);
    assert.equal(errors[0]!.code, 'compile-error');
    const lastLine = forest.split('\n').length;
    assert.equal(errors[0]!.range.start.line, lastLine);
    assert.equal(
      line.slice(errors[0]!.range.start.character, errors[0]!.range.end.character).startsWith(at.split(':')[0]!),
      true,
      `${line}: ${JSON.stringify(errors[0]!.range)}`,
    );
  }
});

test('a network missing a table, and a name that is no network, are compile errors', async () => {
  const result = await run('variable A, B : bool\nP(B | A) { true: 0.5, false: 0.5 }\nquery P(B)\n');
  const error = result.diagnostics.find((d) => d.code === 'compile-error')!;
  assert.match(error.message, /'A' has no table/);
  assert.equal(error.range.start.line, 1);
});

test('P(h) given a data set is Bayesian learning: generated conjunctions by their glue, others like posterior, never the prior', async () => {
  const enjoy = example('enjoysport');
  const conjunctions = expectations(await run(enjoy)).filter((e) => e.source.startsWith('expect P(Conj'));
  assert.equal(conjunctions.length, 3);
  for (const e of conjunctions) {
    assert.ok(e.passed);
    close(e.actual as number, 1 / 6, 1e-12);
  }
  const cancer = example('cancer');
  const withData = await run(`${cancer}\ndata D {\n  Test\n  pos\n  pos\n}\nquery P(Diagnosis = cancer) given D\n`);
  assertNoErrors(withData);
  const line = cancer.split('\n').length + 5;
  const answer = resultsOf(withData, 'probability').find((r) => r.range.start.line === line)!;
  // P(cancer | +, +) = 0.008·0.98² / (0.008·0.98² + 0.992·0.03²), as two observations give it.
  close(answer.value!, (0.008 * 0.98 ** 2) / (0.008 * 0.98 ** 2 + 0.992 * 0.03 ** 2), 1e-12);
});

test("a network's own observe lines are its evidence; top-level ones are not", async () => {
  const model =
    'network N {\n  variable A, B : bool\n  P(A) = 0.3\n  P(B | A) { true: 0.9, false: 0.2 }\n  observe B = [true, true]\n}\n';
  const result = await run(`${model}query P(A = true) in N\nquery P(A = true) in N given B = false`);
  const [observed, given] = resultsOf(result, 'probability');
  close(observed!.value, (0.3 * 0.81) / (0.3 * 0.81 + 0.7 * 0.04), 1e-15);
  close(given!.value, (0.3 * 0.1) / (0.3 * 0.1 + 0.7 * 0.8), 1e-15);
  const withTop = await run(`variable C : bool\nP(C) = 0.5\nobserve C = true\n${model}query P(A = true) in N`);
  assertNoErrors(withTop);
  close(resultsOf(withTop, 'probability')[0]!.value, (0.3 * 0.81) / (0.3 * 0.81 + 0.7 * 0.04), 1e-15);
});

test('a bad observe line fails the queries that read it, reported once on that line', async () => {
  const model =
    'variable Test { pos, neg }\nhypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }\nP(Test | Diagnosis) { cancer: [0.98, 0.02], healthy: [0.03, 0.97] }\nobserve Test = maybe\n';
  const result = await run(`${model}query P(Diagnosis)\nquery P(Diagnosis = cancer)\n`);
  const fromRun = result.diagnostics.filter((d) => d.code === 'compile-error');
  assert.equal(fromRun.length, 1);
  assert.equal(fromRun[0]!.range.start.line, 3);
  assert.match(fromRun[0]!.message, /'maybe' is not a state of 'Test'/);
  assert.deepEqual(resultsOf(result, 'probability'), []);
});

test('Gibbs sampling on a network with a (near-)deterministic table warns that its standard errors can understate the error', async () => {
  // B copies A: the chains cannot move between (true, true) and (false, false) one variable at a time.
  const copy = `network Copy {\n  variable A, B : bool\n  P(A) = 0.5\n  P(B | A) { true: 1, false: 0 }\n}\n`;
  const result = await run(`${copy}query P(A) in Copy using gibbs { samples: 2000, seed: 3 }`);
  const warning = result.diagnostics.find((d) => d.code === 'sampler-mixing');
  assert.ok(warning, JSON.stringify(result.diagnostics));
  assert.equal(warning.severity, 'warning');
  assert.match(warning.message, /Gibbs chains may not mix here: a table has the entry 0, so the standard errors/);
  assert.equal(warning.range.start.line, copy.split('\n').length - 1);
  // Likelihood weighting, and Gibbs on tables without such entries, carry no such warning.
  const lw = await run(`${copy}query P(A) in Copy using likelihood_weighting { samples: 2000, seed: 3 }`);
  assert.deepEqual(
    lw.diagnostics.filter((d) => d.severity !== 'information'),
    [],
  );
  const soft = await run(`${forest}\nquery P(Storm) in Forest using gibbs { samples: 2000, seed: 3 }`);
  assert.equal(soft.diagnostics.filter((d) => d.code === 'sampler-mixing').length, 0);
});

test('a query on a variable whose table is only a prior says so, on the name', async () => {
  // It used to read "'B' is not a variable of the default model": B is, its table is to be learnt.
  const result = await run(`variable A, B : bool
P(A) = 0.5
P(B | A) ~ Dirichlet(1)
query P(B)
query P(A)`);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => [d.message, d.range.start.line, d.range.start.character, d.range.end.character]),
    [
      [
        "'B' has only a prior in the default model (P(B | …) ~ …): learn its table from data first, or give its probabilities",
        3,
        8,
        9,
      ],
    ],
  );
  assert.equal(resultsOf(result, 'probability').length, 1);
});

test('a table of an undeclared variable fails on its own name, not on the query that compiled the model', async () => {
  const result = await run('variable A : bool\nP(A) = 0.5\nquery P(A)\nP(B) = 0.2\n');
  // The run's "'B' has no states here" falls on the B the checker already reports: one error, there.
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.deepEqual(
    errors.map((d) => [d.message, d.range]),
    [["variable 'B' is not defined", { start: { line: 3, character: 2 }, end: { line: 3, character: 3 } }]],
  );
});
