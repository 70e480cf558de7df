/**
 * Claims of docs/language.md tried in forms its own blocks do not show (each test names the
 * sentence it holds the product to); the numbers are derived by hand beside each case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../../support/shared.js';
import { ENJOY_SPORT, errors, run, verdicts } from './helpers.js';

test('map, ml, mdl: "tied ones joined by `, `" can be expected as written', async () => {
  // Equal priors and no data: every hypothesis is h_MAP, h_ML and h_MDL.
  const result = await run(`hypotheses H { h1: 0.5, h2: 0.5 }
expect map H = "h1, h2"
expect ml H = "h1, h2"
expect mdl H = "h1, h2"
expect map H = "h2, h1"
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [['expect-failed', 4]],
  );
  assert.deepEqual(verdicts(result), [
    [2, true, 'h1, h2'],
    [3, true, 'h1, h2'],
    [4, true, 'h1, h2'],
    [5, false, 'h1, h2'],
  ]);
});

test('m_estimate(m, p): eq. 6.22 (n_c + m·p) / (n + m) per state; p must be a distribution', async () => {
  const data = `data D {
  W
  a
  a
  b
}
`;
  const listed = await run(`variable W { a, b }
P(W) ~ m_estimate(m: 2, p: [0.3, 0.7])
${data}expect mean P(W = a) given D ≈ 2.6/5 ± 1e-12
expect mean P(W = b) given D ≈ 2.4/5 ± 1e-12
`);
  // (2 + 2·0.3) / (3 + 2) and (1 + 2·0.7) / (3 + 2).
  assert.deepEqual(errors(listed), []);
  assert.deepEqual(
    verdicts(listed).map(([line, passed]) => [line, passed]),
    [
      [9, true],
      [10, true],
    ],
  );
  const uniform = await run(
    `variable W { a, b }\nP(W) ~ m_estimate(m: 2, p: 1/2)\n${data}expect mean P(W = a) ≈ 1/2\n`,
  );
  assert.deepEqual(errors(uniform), []);
  // p: 0.3 for both states would add 0.6 to each: (2 + 0.6) / (3 + 1.2), which is not eq. 6.22.
  const scalar = await run(`variable W { a, b }\nP(W) ~ m_estimate(m: 2, p: 0.3)\n${data}`);
  assert.deepEqual(errors(scalar), [
    {
      code: 'arguments',
      line: 1,
      message:
        'p: 0.3 for each of the 2 states (a, b) sums to 0.6, not 1: give one prior estimate per state, ' +
        'in this order, summing to 1 (p: [0.3, 0.7])',
    },
  ]);
  const three = await run(`variable Z { z1, z2, z3 }\nP(Z) ~ m_estimate(m: 3, p: [0.5, 0.25, 0.5])\n`);
  assert.deepEqual(
    errors(three).map((e) => e.message),
    ['the prior estimates p: sum to 1.25, not 1'],
  );
});

test('mpe and policy of the default model: the network name is optional', async () => {
  const result = await run(`variable Storm, Lightning, Thunder : bool
P(Storm) = 0.3
P(Lightning | Storm) { true: 0.7, false: 0.05 }
P(Thunder | Lightning) { true: 0.95, false: 0.02 }
expect mpe given Thunder = true = "Storm = true, Lightning = true"
expect mpe = "Storm = false, Lightning = false, Thunder = false"
// A network's variables and decisions are not the default model's.
network N {
  variable A : bool
  decision Go : bool
  P(A) = 0.3
  utility U(Go, A) { true, true: -10, true, false: 5, false, true: 0, false, false: 0 }
}
`);
  // P(S, L | T): S, L = true, true is 0.3·0.7·0.95 against 0.7·0.05·0.95 and 0.3·0.3·0.02, 0.7·0.95·0.02.
  assert.deepEqual(errors(result), []);
  assert.deepEqual(verdicts(result), [
    [5, true, 'Storm = true, Lightning = true'],
    [6, true, 'Storm = false, Lightning = false, Thunder = false'],
  ]);
  const decisions = await run(`variable Storm : bool
P(Storm) = 0.3
decision Go : bool
utility U(Go, Storm) { true, true: -10, true, false: 5, false, true: 0, false, false: 0 }
expect policy ≈ 0.5 ± 1e-12
expect policy given Storm = true ≈ 0 ± 1e-12
expect policy given Storm = false ≈ 5 ± 1e-12
`);
  // EU(go) = 0.3·(−10) + 0.7·5 = 0.5 > EU(stay) = 0.
  assert.deepEqual(errors(decisions), []);
  assert.deepEqual(verdicts(decisions), [
    [5, true, 0.5],
    [6, true, 0],
    [7, true, 5],
  ]);
});

test('"Options that do not apply to the method are warned about": once, with what the method takes', async () => {
  const result = await run(`network F {
  variable S, L : bool
  P(S) ~ Beta(1, 1)
  P(L | S) ~ Dirichlet(1)
}
data D {
  S, L
  true, false
  false, true
  true, true
}
learn F from D by counting { iterations: 5 }
learn F from D by em { itertions: 5, rate: 2 }
`);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.code === 'unknown-option').map((d) => [d.range.start.line, d.message]),
    [
      [11, "'iterations' does not apply to learning by counting and is ignored (it takes no options)"],
      [12, "learn has no option 'itertions'; did you mean 'iterations'?"],
      [12, "'rate' does not apply to learning by em and is ignored (it takes iterations, tolerance, seed, restarts)"],
    ],
  );
});

test('soft findings that cannot all hold are the error soft-evidence on the finding', async () => {
  const result = await run(`network N {
  variable D : bool
  variable T { pos, neg }
  P(D) = 0.1
  P(T | D) { true: [1, 0], false: [0.2, 0.8] }
}
query P(D = true | T ~ { pos: 0.5, neg: 0.5 }, D = true) in N
`);
  // D = true makes T = neg impossible (P(neg | D) = 0), yet the finding gives it 0.5.
  assert.deepEqual(
    result.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.message]),
    [
      [
        'soft-evidence',
        6,
        21,
        "soft evidence gives 'T = neg' probability 0.5, but the other evidence makes it impossible",
      ],
    ],
  );
});

test('not-converged: a sigmoid unit on separable classes says so, by Newton as by gradient ascent', async () => {
  const result = await run(`data Sep {
  x, d
  0, 0
  1, 0
  2, 1
  3, 1
}
hypotheses Sig = logistic(d ~ x)
query ml Sig given Sep
`);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity !== 'information').map((d) => [d.code, d.range.start.line, d.message]),
    [['not-converged', 8, 'the classes are separable: G has no maximum and the weights grow without bound']],
  );
});

test("mpe's answer is in the network's order: variables and decisions as declared", async () => {
  const result = await run(`network W {
  variable Oil { dry, wet }
  variable Seismic { closed, open }
  decision Test : bool
  P(Seismic | Oil, Test) { dry, true: [0.7, 0.3], wet, true: [0.4, 0.6], dry, false: [1, 0], wet, false: [1, 0] }
  P(Oil) { dry: 0.6, wet: 0.4 }
  utility U(Test) { true: -1, false: 0 }
}
expect mpe W given Seismic = open = "Oil = wet, Test = true"
`);
  // Oil is declared before the decision Test, whatever order the tables come in; P(open | wet, true)
  // 0.4·0.6 beats 0.6·0.3 (and Test = false makes open impossible).
  assert.deepEqual(errors(result), []);
  assert.deepEqual(verdicts(result), [[9, true, 'Oil = wet, Test = true']]);
});

test("a fitted unit's headline writes a negative weight as − w", async () => {
  const result = await run(`data Points {
  x, x2, d
  0, 1,  0
  1, 0,  0
  2, 1,  1
  3, 0,  1
  4, 1,  0
  5, 1,  1
}
hypotheses Sig = logistic(d ~ x + x2)
query ml Sig given Points
`);
  const fit = result.results.find((r) => r.kind === 'logistic');
  assert.ok(fit && fit.kind === 'logistic');
  // Newton's method in numpy to a zero gradient: -1.44294534, 0.72147267, -0.59295377 (scikit-learn's
  // LogisticRegression(penalty=None) agrees to 1e-6).
  for (const [w, expected] of fit.weights.map((w, i) => [w, [-1.44294534, 0.72147267, -0.59295377][i]!])) {
    assert.ok(Math.abs(w! - expected!) < 1e-8, `${w} vs ${expected}`);
  }
  assert.equal(fit.headline, 'P(d) = σ(-1.443 + 0.7215·x − 0.593·x2) · newton, 5 iterations');
});

test('an observe line holds for the queries above it too', async () => {
  const result = await run(`variable A, B : bool
P(A) = 0.3
P(B | A) { true: 0.9, false: 0.1 }
expect P(A = true) ≈ 0.27 / 0.34 ± 1e-12
observe B = true
`);
  // P(A | B) = 0.3·0.9 / (0.3·0.9 + 0.7·0.1).
  assert.deepEqual(errors(result), []);
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [[4, true]],
  );
});

test('decision queries take states as evidence: a soft finding is the error soft-evidence, said so', async () => {
  const result = await run(`variable Storm : bool
P(Storm) = 0.3
decision Go : bool
utility U(Go, Storm) { true, true: -10, true, false: 5, false, true: 0, false, false: 0 }
expect policy given Storm ~ { true: 0.5, false: 0.5 } ≈ 0 ± 1
expect policy given Storm = false ≈ 5 ± 1e-12
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line, e.message]),
    [
      [
        'soft-evidence',
        4,
        'a decision query takes states as evidence (X = x): soft and virtual findings (X ~ …) are for ' +
          'P(…), mpe and sensitivity',
      ],
    ],
  );
  assert.deepEqual(verdicts(result), [[6, true, 5]]);
});

test('a network file that cannot be read is one import-file error on its path, not one more per use', async () => {
  const dir = mkdtempSync(join(repoRoot, 'examples', '.tmp-import-'));
  try {
    writeFileSync(join(dir, 'bad.uai'), 'MARKOV\n2\n2 2\n1\n2 0 1\n\n4\n 0.1 0.2 0.3 0.4\n');
    const result = await run(
      `import network U from "${dir.split('/').pop()}/bad.uai"\nquery P(X0) in U\nexpect P(X0 = s0) in U ≈ 0.5\n`,
    );
    assert.deepEqual(
      result.diagnostics.map((d) => [d.code, d.range.start.line, d.message]),
      [
        [
          'import-file',
          0,
          `cannot read network "${dir.split('/').pop()}/bad.uai": line 1: this is a Markov network (MARKOV): ` +
            'only Bayesian networks (BAYES) are read',
        ],
      ],
    );
    assert.equal(result.notEvaluated?.length, 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a generated space without prior and noise lines is prior uniform, noise 0', async () => {
  const result = await run(`${ENJOY_SPORT}
expect size Conj given Days = 6
expect P(Conj = "<Sunny, ?, ?, ?, ?, ?>") given Days ≈ 1/6 ± 1e-12
`);
  // Mitchell's version space of six, each 1/6 under a uniform prior and noise-free data.
  assert.deepEqual(errors(result), []);
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [9, true],
      [10, true],
    ],
  );
});

test('noise ε: P(D|h) = (1 − ε)^(m − e) ε^e for e errors among m examples', async () => {
  const result = await run(`data Days {
  Sky,   Enjoy
  Sunny, Yes
  Sunny, No
  Rainy, No
}
hypotheses C = conjunctions(Sky) -> Enjoy = Yes
  prior uniform
  noise 0.1
expect P(C = "<Sunny>") given Days ≈ 0.45 ± 1e-12
expect P(C = "<?>") given Days ≈ 0.05 ± 1e-12
`);
  // |H| = 4: <Sunny> and ∅ make 1 error (0.9²·0.1 = 0.081), <?> and <Rainy> 2 (0.9·0.1² = 0.009);
  // P(<Sunny> | D) = 0.081 / (2·0.081 + 2·0.009) = 0.45.
  assert.deepEqual(errors(result), []);
  assert.deepEqual(
    verdicts(result).map(([line, passed]) => [line, passed]),
    [
      [10, true],
      [11, true],
    ],
  );
});

test("knowledge against K2's order is an error on the option, as contradictory knowledge is", async () => {
  const result = await run(`data Tennis from "playtennis.csv"
learn structure K from Tennis by k2 { order: [Play, Outlook, Temperature, Humidity, Wind], require: [Outlook -> Play] }
`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line, e.message]),
    [['compile-error', 1, "K2's order puts Outlook after Play, but Outlook -> Play is required"]],
  );
  const error = result.diagnostics.find((d) => d.severity === 'error')!;
  // On `order: […]`, not on the whole statement.
  assert.deepEqual([error.range.start.character, error.range.end.character], [38, 89]);
});

test('ties: optimal answers the first tied value in state order, eu every tied alternative', async () => {
  const result = await run(`variable Label { pos, neg }
hypotheses H { h1: 0.5, h2: 0.5 }
P(Label | H) { h1: [0, 1], h2: [1, 0] }
expect optimal Label over H = pos
decision D { go, stay }
utility U(D) { go: 1, stay: 1 }
expect eu D = "go, stay"
`);
  // P(pos | D) = P(neg | D) = 1/2; both alternatives have utility 1.
  assert.deepEqual(errors(result), []);
  assert.deepEqual(verdicts(result), [
    [4, true, 'pos'],
    [7, true, 'go, stay'],
  ]);
});
