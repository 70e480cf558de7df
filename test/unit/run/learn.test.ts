import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { networkEm } from '../../../server/src/engine/estimators/networkEm.js';
import { networkDataset } from '../../../server/src/engine/dataset.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { cptsToJson } from '../../../server/src/run/learningResults.js';
import { repoRoot } from '../../support/shared.js';
import { cell, entries, problems, run, runExample } from './learningHelpers.js';

const forest = readFileSync(join(repoRoot, 'examples', 'forest_learning.bayes'), 'utf8');

/**
 * With priors the climb maximises log-likelihood + log prior (the engine tests check that it
 * never falls); the log-likelihood itself ends higher than it starts.
 */
function assertClimbed(trace: number[]): void {
  assert.ok(trace.length > 2 && trace.at(-1)! > trace[0]!, `log-likelihood ${trace[0]} → ${trace.at(-1)}`);
}

test('forest_learning.bayes: counting and EM give the count ratios worked out by hand', async () => {
  const result = await runExample('forest_learning.bayes');
  const [counted, em] = entries(result, 'learnedNetwork');
  assert.equal(counted!.method, 'counting');
  assert.equal(counted!.records, 10);
  const near = (a: number, b: number, tol: number) => assert.ok(Math.abs(a - b) < tol, `${a} vs ${b}`);
  near(cell(counted!.cpts, 'Storm', 'true'), 0.4, 1e-12);
  near(cell(counted!.cpts, 'Lightning', 'true', { Storm: 'false' }), 1 / 6, 1e-12);
  near(cell(counted!.cpts, 'Thunder', 'true', { Lightning: 'false' }), 1 / 7, 1e-12);
  // m_estimate(m: 2): (2 + 1)/(3 + 2); Dirichlet(1): (1 + 1)/(2 + 2) and (0 + 1)/(1 + 2).
  near(cell(counted!.cpts, 'Campfire', 'true', { Storm: 'false', BusTourGroup: 'true' }), 0.6, 1e-12);
  near(cell(counted!.cpts, 'ForestFire', 'true', { Storm: 'false', Lightning: 'false', Campfire: 'true' }), 0.5, 1e-12);
  near(
    cell(counted!.cpts, 'ForestFire', 'true', { Storm: 'true', Lightning: 'false', Campfire: 'false' }),
    1 / 3,
    1e-12,
  );
  assert.equal(em!.method, 'em');
  assert.ok(em!.converged && em!.iterations > 1);
  assertClimbed(em!.trace);
  near(cell(em!.cpts, 'Lightning', 'true', { Storm: 'false' }), 0.2, 1e-6);
  near(cell(em!.cpts, 'Thunder', 'true', { Lightning: 'false' }), 0.2, 1e-6);
  near(cell(em!.cpts, 'ForestFire', 'true', { Storm: 'false', Lightning: 'false', Campfire: 'true' }), 1 / 3, 1e-6);
  assert.match(em!.headline, /^Forest · em, \d+ iterations · 10 records · log L = -\d+\.\d{4}$/);
  // The expectations read the learnt network through `P(…) in Forest`: all 11 hold.
  assert.deepEqual(problems(result), []);
  const expects = entries(result, 'expect');
  assert.equal(expects.length, 11);
  assert.ok(expects.every((e) => e.passed));
});

test('gradient ascent (eq. 6.25) climbs to the same maximum as EM', async () => {
  const text = forest.replace(
    'by em { seed: 7, iterations: 2000, tolerance: 1e-12 }',
    'by gradient { seed: 7, iterations: 3000, tolerance: 1e-13 }',
  );
  const [, fit] = entries(await run(text), 'learnedNetwork');
  assert.equal(fit!.method, 'gradient');
  assertClimbed(fit!.trace);
  assert.ok(Math.abs(cell(fit!.cpts, 'Lightning', 'true', { Storm: 'false' }) - 0.2) < 1e-3);
  assert.ok(Math.abs(cell(fit!.cpts, 'Thunder', 'true', { Lightning: 'false' }) - 0.2) < 1e-3);
  // The same maximum as EM's, reached in far fewer steps than the 3000 allowed.
  const [, em] = entries(await run(forest), 'learnedNetwork');
  assert.ok(
    Math.abs(fit!.logLikelihood - em!.logLikelihood) < 1e-6 * Math.abs(em!.logLikelihood),
    `${fit!.logLikelihood} vs ${em!.logLikelihood}`,
  );
  assert.ok(fit!.converged && fit!.iterations < 500, `${fit!.iterations} iterations`);
});

test('a hidden variable: EM is the default and equals the engine called directly with the same seed and prior', async () => {
  const rows = ['a1, b1', 'a1, b1', 'a1, b2', 'a2, b2', 'a2, b2', 'a2, b2', 'a1, b1', 'a2, b1'];
  const text = `network Latent {
  variable H { h1, h2 }
  variable A { a1, a2 }
  variable B { b1, b2 }
  P(H) ~ Dirichlet(1)
  P(A | H) ~ Dirichlet(1)
  P(B | H) ~ Dirichlet(1)
}
data Obs {
  A, B
  ${rows.join('\n  ')}
}
learn Latent from Obs { seed: 5, restarts: 3, iterations: 300 }
`;
  const result = await run(text);
  assert.deepEqual(problems(result), []);
  const [fit] = entries(result, 'learnedNetwork');
  assert.equal(fit!.method, 'em');
  assert.deepEqual(fit!.hidden, ['H']);
  assert.equal(fit!.runs.length, 3);
  const variables = [
    { name: 'H', states: ['h1', 'h2'] },
    { name: 'A', states: ['a1', 'a2'] },
    { name: 'B', states: ['b1', 'b2'] },
  ];
  const net: BayesianNetwork = {
    name: 'Latent',
    variables,
    cpts: [
      { child: 0, parents: [], table: new Float64Array(2).fill(NaN) },
      { child: 1, parents: [0], table: new Float64Array(4).fill(NaN) },
      { child: 2, parents: [0], table: new Float64Array(4).fill(NaN) },
    ],
  };
  const index = (s: string) => Number(s.trim().slice(1)) - 1;
  const data = networkDataset(
    variables,
    [
      new Int32Array(rows.length).fill(-1),
      Int32Array.from(rows, (r) => index(r.split(',')[0]!)),
      Int32Array.from(rows, (r) => index(r.split(',')[1]!)),
    ],
    rows.length,
  );
  const direct = networkEm(net, data, {
    prior: { kind: 'dirichlet', alpha: 1 },
    seed: 5,
    restarts: 3,
    maxIterations: 300,
    tolerance: 1e-6,
  });
  assert.deepEqual(fit!.cpts, cptsToJson(direct.network));
  assert.equal(fit!.logLikelihood, direct.logLikelihood);
});

test('declared priors: Beta, experts, Dirichlet lists and m-estimates with p add their pseudo-counts', async () => {
  const text = `variable Coin : bool
variable Die { one, two, three }
variable Spin { a, b, c }
network Beta { P(Coin) ~ Beta(2, 3) }
network Experts { P(Coin) ~ experts { ann: 2 of 3, bob: 1 of 2 } }
network Lists { P(Die) ~ Dirichlet([1, 2, 3]) }
network Args { P(Die) ~ Dirichlet(1, 2, 3) }
network Mest { P(Spin) ~ m_estimate(m: 4, p: [0.5, 0.25, 0.25]) }
data Flips {
  Coin, Die, Spin
  true, one, a
  true, one, a
  true, one, a
  true, one, a
  false, one, a
}
learn Beta from Flips
learn Experts from Flips
learn Lists from Flips
learn Mest from Flips
learn Args from Flips
`;
  const result = await run(text);
  assert.deepEqual(problems(result), []);
  const [beta, experts, lists, mest, args] = entries(result, 'learnedNetwork');
  const near = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-12, `${a} vs ${b}`);
  near(cell(beta!.cpts, 'Coin', 'true'), (4 + 2) / (5 + 5));
  near(cell(experts!.cpts, 'Coin', 'true'), (4 + 3) / (5 + 5));
  near(cell(lists!.cpts, 'Die', 'one'), (5 + 1) / (5 + 6));
  near(cell(lists!.cpts, 'Die', 'three'), 3 / 11);
  // Dirichlet(1, 2, 3) is the list written as arguments, not a symmetric Dirichlet(1).
  for (const state of ['one', 'two', 'three']) near(cell(args!.cpts, 'Die', state), cell(lists!.cpts, 'Die', state));
  near(cell(mest!.cpts, 'Spin', 'a'), (5 + 2) / (5 + 4));
  near(cell(mest!.cpts, 'Spin', 'b'), 1 / 9);
  // The data's other columns are no variables of these networks: a word, not an error.
  assert.ok(problems(result, 'information').some(([code]) => code === 'unused-column'));
});

test('learn by counting: records of probability 0 are a warning with their count and reason; the tables are still learnt', async () => {
  const result = await run(`variable A { a1, a2 }
variable B { b1, b2 }
variable C { c1, c2 }
network Chain {
  P(A) ~ Dirichlet(0)
  P(B | A) ~ Dirichlet(0)
  P(C | B) ~ Dirichlet(0)
}
data Rows {
  A, B, C
  a1, b1, c2
  a1, b1, c2
  a2, b2, c1
  a2, b2, c1
  a1, ?, c1
}
learn Chain from Rows by counting
query P(A = a1) in Chain
`);
  assert.deepEqual(problems(result), []);
  const [learnt] = entries(result, 'learnedNetwork');
  assert.equal(learnt!.logLikelihood, -Infinity);
  assert.equal(learnt!.impossible?.records, 1);
  assert.match(learnt!.headline, /log L = -∞/);
  assert.ok(Math.abs(learnt!.impossible!.otherLogLikelihood - (2 * Math.log(3 / 5) + 2 * Math.log(2 / 5))) < 1e-12);
  const warning = problems(result, 'warning').find(([code]) => code === 'zero-probability-records');
  assert.ok(warning, JSON.stringify(problems(result, 'warning')));
  assert.equal(warning[1], 17);
  assert.match(
    warning[2],
    /^1 of 5 records \(1 distinct\) has probability 0 under the counted tables, so the log-likelihood is -∞; e\.g\. \(A=a1, C=c1\)/,
  );
  assert.equal(cell(learnt!.cpts, 'A', 'a1'), 3 / 5);
});

test('bad learning input: clear diagnostics on the right line, never a crash', async () => {
  const text = `variable Die { one, two, three }
network Bad { P(Die) ~ Beta(1, 1) }
network Good {
  variable X, Y : bool
  P(X) ~ Dirichlet(1)
  P(Y | X) ~ Dirichlet(1)
}
data D {
  X, Y, Die
  true, ?, one
  false, true, two
}
classifier C = naive_bayes(D, target: Y)
learn Bad from D
learn Good from D by em { iterations: 0 }
learn Good from D by em { order: [X, Y], rate: 0.1 }
learn Good from D by counting
learn C from D
`;
  const result = await run(text);
  assert.deepEqual(
    problems(result).map(([code, line]) => [code, line]),
    [
      ['compile-error', 2],
      ['compile-error', 15],
      ['compile-error', 18],
    ],
  );
  const messages = problems(result).map(([, , m]) => m);
  assert.match(messages[0]!, /Beta\(a, b\) is a prior for a two-state variable; this one has 3 states/);
  assert.match(messages[1]!, /iterations: must be an integer ≥ 1, not 0/);
  assert.match(messages[2]!, /a classifier is trained from the data it is declared on/);
  assert.deepEqual(
    problems(result, 'warning').map(([code, line]) => [code, line]),
    [
      ['unknown-option', 16],
      ['unknown-option', 16],
    ],
  );
  assert.ok(problems(result, 'information').some(([code, line]) => code === 'missing-values' && line === 17));
  assert.equal(entries(result, 'learnedNetwork').length, 2);
});

test('EM stops when the run is cancelled and keeps the declared tables', async () => {
  const controller = new AbortController();
  const text = forest.replace('tolerance: 1e-12 }', 'tolerance: 0 }');
  const result = await run(text, {
    signal: controller.signal,
    onProgress: (_, message) => {
      if (/iteration 3,/.test(message)) controller.abort();
    },
  });
  assert.deepEqual(
    entries(result, 'learnedNetwork').map((r) => r.method),
    ['counting'],
  );
  assert.ok(problems(result, 'warning').some(([code, , m]) => code === 'cancelled' && /did not run/.test(m)));
});

test('an option a learning method ignores is named, with what the method does take', async () => {
  const text = `network N {
  variable A, B : bool
  P(A) = 0.5
  P(B | A) { true: 0.9, false: 0.2 }
}
data D {
  A, B
  true, true
  false, false
}
learn N from D by counting { iterations: 5 }
learn N from D by em { tabu: 3 }
`;
  const result = await run(text);
  assert.deepEqual(problems(result, 'warning'), [
    ['unknown-option', 11, "'iterations' does not apply to learning by counting and is ignored (it takes no options)"],
    [
      'unknown-option',
      12,
      "'tabu' does not apply to learning by em and is ignored (it takes iterations, tolerance, seed, restarts)",
    ],
  ]);
});
