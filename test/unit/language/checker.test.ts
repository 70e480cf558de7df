import { test } from 'node:test';
import assert from 'node:assert/strict';
import { check, parseDocument, walk, type Diagnostic, type Name } from '../../../server/src/language/index.js';
import { brief, diagnose, fakeEnv, r } from './helpers.js';

const cancer = `variable Test { pos, neg }
hypotheses Diagnosis {
  cancer:  0.008
  healthy: 0.992
}
`;

function one(text: string, code: string): Diagnostic {
  const found = diagnose(text).filter((d) => d.code === code);
  assert.equal(
    found.length,
    1,
    `expected one ${code}, got: ${JSON.stringify(diagnose(text).map((d) => [d.code, d.message]))}`,
  );
  return found[0];
}

test('a clean model has no diagnostics', () => {
  assert.deepEqual(
    brief(
      diagnose(
        cancer +
          'P(Test | Diagnosis) {\n  cancer: { pos: 0.98, neg: 0.02 }\n  healthy: [0.03, 0.97]\n}\nobserve Test = pos\nquery posterior Diagnosis',
      ),
    ),
    [],
  );
});

test('undefined-name suggests the nearest spelling in message and data', () => {
  const d = one(cancer + 'query posterior Diagnsis', 'undefined-name');
  assert.equal(d.message, "hypothesis space 'Diagnsis' is not defined; did you mean 'Diagnosis'?");
  assert.deepEqual(d.range, r(5, 16, 5, 24));
  assert.deepEqual(d.data, { suggestion: 'Diagnosis' });
  const far = one(cancer + 'query map Zebra', 'undefined-name');
  assert.equal(far.data, undefined);
});

test('observe of an unknown variable is undefined-name', () => {
  const d = one(cancer + 'observe Tset = pos', 'undefined-name');
  assert.equal(d.message, "variable 'Tset' is not defined; did you mean 'Test'?");
  assert.deepEqual(d.range, r(5, 8, 5, 12));
});

test('wrong-kind: a data set where a hypothesis space is needed', () => {
  const d = one(cancer + 'data D {\n  Test\n  pos\n}\nquery map D', 'wrong-kind');
  assert.equal(d.message, "'D' is a data set, not a hypothesis space");
});

test('duplicate-name for declarations, variables in a network, hypotheses, columns; duplicate-state', () => {
  assert.equal(
    one('variable A : bool\nvariable A { x, y }', 'duplicate-name').message,
    "variable 'A' is already declared (line 1)",
  );
  assert.match(
    one('network N {\n  variable A : bool\n  variable A : bool\n}', 'duplicate-name').message,
    /already declared in network 'N'/,
  );
  assert.deepEqual(one('hypotheses H { a: 0.5, a: 0.5 }', 'duplicate-name').range, r(0, 23, 0, 24));
  assert.equal(one('data D {\n  A, A\n  x, y\n}', 'duplicate-name').message, "column 'A' appears twice in the header");
  assert.equal(one('variable A { x, y, x }', 'duplicate-state').message, "state 'x' is listed twice");
  // The same variable name in two networks is fine.
  assert.deepEqual(
    brief(
      diagnose('network N {\n  variable A : bool\n  P(A) = 0.5\n}\nnetwork M {\n  variable A : bool\n  P(A) = 0.5\n}'),
    ),
    [],
  );
});

test('unknown-state: a value outside the domain, with a suggestion', () => {
  const d = one(cancer + 'observe Test = nge', 'unknown-state');
  assert.equal(d.message, "'nge' is not a state of 'Test' (pos, neg); did you mean 'neg'?");
  assert.deepEqual(d.range, r(5, 15, 5, 18));
  assert.equal(one(cancer + 'observe Test = positive', 'unknown-state').data, undefined);
  assert.equal(one(cancer + 'observe Test = [pos, maybe]', 'unknown-state').range.start.character, 21);
  assert.equal(
    one(
      cancer + 'P(Test | Diagnosis) {\n  cancer: { pos: 0.98, neg: 0.02 }\n  healty: [0.03, 0.97]\n}',
      'unknown-state',
    ).message,
    "'healty' is not a state of 'Diagnosis' (cancer, healthy); did you mean 'healthy'?",
  );
});

test('probability-range and bad-number', () => {
  const d = one('variable A : bool\nP(A) = 1.2', 'probability-range');
  assert.equal(d.message, '1.2 is not a probability: it must lie between 0 and 1');
  assert.deepEqual(d.range, r(1, 7, 1, 10));
  assert.equal(one('variable A : bool\nP(A) = -0.1', 'probability-range').range.start.character, 7);
  assert.equal(one('variable A : bool\nP(A) = 1/0', 'bad-number').message, '1/0 is not a finite number');
});

test('row-sum: the message shows the sum, the data carries it', () => {
  const d = one(
    cancer + 'P(Test | Diagnosis) {\n  cancer: { pos: 0.98, neg: 0.03 }\n  healthy: [0.03, 0.97]\n}',
    'row-sum',
  );
  assert.equal(d.message, 'the probabilities in this row sum to 1.01, not 1');
  assert.deepEqual(d.range, r(6, 2, 6, 34));
  assert.deepEqual(d.data, { sum: 1.01 });
  // Within 1e-6 is fine; priors must sum to 1 too.
  assert.deepEqual(brief(diagnose('variable A { x, y }\nP(A) { x: 0.3333333, y: 0.6666667 }')), []);
  assert.equal(one('hypotheses H { a: 0.5, b: 0.6 }', 'row-sum').message, "the priors of 'H' sum to 1.1, not 1");
  assert.equal(
    one('variable A { x, y }\nP(A) { x: 0.3, y: 0.6 }', 'row-sum').message,
    "the probabilities of 'A' sum to 0.9, not 1",
  );
});

test('missing-row names the missing parent assignment; duplicate-row the repeated one', () => {
  const forest = 'variable S, B, C : bool\nP(C | S, B) {\n  true, true: 0.4\n  true, false: 0.1\n  false, true: 0.8\n';
  const missing = one(forest + '}', 'missing-row');
  assert.equal(missing.message, 'no row for S = false, B = false');
  assert.deepEqual(missing.range, r(1, 0, 1, 11));
  assert.deepEqual(missing.data, { missing: [['false', 'false']] });
  const duplicate = one(forest + '  true, true: 0.3\n  false, false: 0.2\n}', 'duplicate-row');
  assert.equal(duplicate.message, 'there is already a row for S = true, B = true');
  assert.deepEqual(duplicate.range, r(5, 2, 5, 17));
  assert.equal(one('variable A { x, y }\nP(A) { x: 1 }', 'missing-row').message, 'no probability for A = y');
});

test('row-width: wrong number of parent values, of probabilities, single value for many states', () => {
  const keys = one('variable S, B, C : bool\nP(C | S, B) {\n  true: 0.4\n}', 'row-width');
  assert.equal(keys.message, 'this row gives 1 parent value but the table has 2 parents (S, B)');
  assert.deepEqual(keys.range, r(2, 2, 2, 6));
  assert.equal(
    one(cancer + 'P(Test | Diagnosis) {\n  cancer: [0.98, 0.01, 0.01]\n  healthy: [0.03, 0.97]\n}', 'row-width')
      .message,
    "this row has 3 probabilities but 'Test' has 2 states (pos, neg)",
  );
  assert.match(
    one('variable A { x, y, z }\nvariable B : bool\nP(A | B) { true: 0.2, false: [0.2, 0.3, 0.5] }', 'row-width')
      .message,
    /needs two states/,
  );
  assert.equal(
    one(cancer + 'P(Test | Diagnosis) {\n  cancer: { pos: 1 }\n  healthy: [0.03, 0.97]\n}', 'row-width').message,
    "this row gives no probability for 'neg'",
  );
  assert.match(one('variable A { x, y, z }\nP(A) = 0.3', 'row-width').message, /needs two states/);
});

test('table-head, duplicate-table, not-discrete', () => {
  assert.match(one('variable A, B : bool\nP(A, B) = 0.3', 'table-head').message, /one variable/);
  assert.match(one('variable A, B : bool\nP(A = true) = 0.3', 'table-head').message, /without a value/);
  assert.equal(
    one('variable A : bool\nP(A) = 0.3\nP(A) = 0.4', 'duplicate-table').message,
    "'A' already has a table (line 2)",
  );
  assert.match(one('variable x : real\nP(x) = 0.5', 'not-discrete').message, /real-valued/);
});

test('cycle names the loop', () => {
  const d = one(
    'variable A, B, C : bool\nP(A | C) { true: 0.5, false: 0.5 }\nP(B | A) { true: 0.5, false: 0.5 }\nP(C | B) { true: 0.5, false: 0.5 }',
    'cycle',
  );
  assert.match(
    d.message,
    /^cycle (A → B → C → A|B → C → A → B|C → A → B → C): a belief network must not loop back on itself$/,
  );
  const two = one(
    'network N {\n  variable A, B : bool\n  P(A | B) { true: 0.5, false: 0.5 }\n  P(B | A) { true: 0.5, false: 0.5 }\n}',
    'cycle',
  );
  assert.match(two.message, /cycle (A → B → A|B → A → B)/);
});

test('data: row width, cells outside declared domains, undeclared columns as information', () => {
  const text = 'variable Sky { Sunny, Rainy }\ndata D {\n  Sky, Wind\n  Sunny, Strong\n  Cloudy, Weak\n  Rainy\n}';
  const all = diagnose(text);
  assert.deepEqual(brief(all).sort(), ['data-width@5:2-5:7', 'unknown-state@4:2-4:8']);
  assert.equal(
    all.find((d) => d.code === 'data-width')!.message,
    'this row has 1 value but the header names 2 columns',
  );
  const info = all.find((d) => d.code === 'undeclared-column')!;
  assert.equal(info.severity, 'information');
  assert.equal(
    info.message,
    "column 'Wind' is not a declared variable; it takes the states seen in the data: Strong, Weak",
  );
  assert.equal(
    one('variable x : real\ndata P {\n  x\n  1.5\n  big\n}', 'unknown-state').message,
    "'x' takes numbers, not 'big'",
  );
});

test('CSV data through the host: missing file, unreadable file, column names', () => {
  const missing = one('data T from "nope.csv"', 'file-not-found');
  assert.equal(missing.message, 'cannot find "nope.csv" (looked for /ws/nope.csv)');
  assert.deepEqual(missing.range, r(0, 12, 0, 22));
  const env = fakeEnv({
    '/ws/bad.csv': { error: 'line 3 has 2 fields, the header 3' },
    '/ws/t.csv': ['Outlook', 'Play'],
  });
  const bad = diagnose('data T from "bad.csv"', env);
  assert.deepEqual(
    bad.map((d) => [d.code, d.message]),
    [['data-file', 'cannot read "bad.csv": line 3 has 2 fields, the header 3']],
  );
  const ok = diagnose(
    'variable Play { Yes, No }\ndata T from "t.csv"\nclassifier C = naive_bayes(T, target: Play)\nquery P(Play | Outlok = Sunny) in C',
    env,
  );
  assert.deepEqual(brief(ok), ['undefined-name@3:15-3:21']);
  assert.match(ok.find((d) => d.code === 'undefined-name')!.message, /did you mean 'Outlook'/);
  assert.equal(
    ok.find((d) => d.code === 'undeclared-column')?.message,
    'column Outlook of "t.csv" is not declared; its states come from the data',
  );
});

test('files outside the allowed roots', () => {
  const d = one('data T from "../../etc/passwd"', 'file-outside-roots');
  assert.deepEqual(d.range, r(0, 12, 0, 30));
  assert.match(d.message, /outside the workspace and the data roots/);
  const env = fakeEnv({ '/data/x.csv': ['A'] });
  assert.deepEqual(brief(diagnose('data T from "/data/x.csv"', env)), []);
  assert.equal(one('corpus C from "/elsewhere/**/*.txt" label folder', 'file-outside-roots').range.start.character, 14);
});

test('imported networks resolve `in` names through the host', () => {
  const env = fakeEnv({
    '/ws/alarm.bif': {
      variables: [
        { name: 'HISTORY', states: ['TRUE', 'FALSE'] },
        { name: 'CVP', states: ['LOW', 'NORMAL', 'HIGH'] },
      ],
    },
  });
  const ds = diagnose(
    'import network Alarm from "alarm.bif"\nquery P(HISTORY | CVP = NORML) in Alarm\nquery P(HISTROY) in Alarm',
    env,
  );
  assert.deepEqual(
    ds.map((d) => [d.code, d.range.start.line, d.data]),
    [
      ['unknown-state', 1, { suggestion: 'NORMAL' }],
      ['undefined-name', 2, { suggestion: 'HISTORY' }],
    ],
  );
  const broken = diagnose('import network A from "a.bif"', fakeEnv({ '/ws/a.bif': { error: 'line 4: expected {' } }));
  assert.deepEqual(
    broken.map((d) => [d.code, d.message]),
    [['import-file', 'cannot read network "a.bif": line 4: expected {']],
  );
});

test('unknown-option (with suggestions) and arguments', () => {
  const method = one(
    'variable A : bool\nnetwork N {\n  variable B : bool\n}\ndata D {\n  B\n  true\n}\nlearn N from D by emm',
    'unknown-option',
  );
  assert.equal(
    method.message,
    "'emm' is not a learning method; use 'counting', 'em', 'gradient', 'k2', 'hillclimb', 'tabu', 'pc' (did you mean 'em'?)",
  );
  assert.deepEqual(method.data, { suggestion: 'em' });
  const prior = one('hypotheses H { a, b } prior uniformm', 'unknown-option');
  assert.deepEqual(prior.data, { suggestion: 'uniform' });
  const d = diagnose('data T {\n  A, B\n  x, y\n}\nclassifier C = naive_bayes(T, targt: B)');
  assert.deepEqual(
    d.filter((x) => x.severity !== 'information').map((x) => [x.code, x.severity]),
    [
      ['unknown-option', 'warning'],
      ['arguments', 'error'],
    ],
  );
  assert.equal(
    one('variable T { h, t }\nP(T) ~ Beta(1)', 'arguments').message,
    'Beta takes 2 positional arguments, not 1',
  );
  assert.equal(
    one('variable T { h, t }\nP(T) ~ Gamma(1, 2)', 'unknown-option').message.startsWith(
      "'Gamma' is not a parameter prior",
    ),
    true,
  );
});

test('missing-prior, prior-conflict, nested-network, unclosed sums in hypotheses', () => {
  assert.equal(
    one('hypotheses H { a, b }', 'missing-prior').message,
    "give each hypothesis a prior (h: 0.5) or add 'prior uniform' after the space",
  );
  assert.equal(one('hypotheses H { a: 1, b }', 'missing-prior').message, "'b' has no prior while others do");
  assert.equal(one('hypotheses H { a: 1, b } prior uniform', 'prior-conflict').severity, 'warning');
  assert.deepEqual(brief(diagnose('hypotheses H { a: bits 1, b: bits 2 }')), []);
  assert.equal(one('network N {\n  network M {\n  }\n}', 'nested-network').range.start.line, 1);
});

test('comparison: expectations that compare the wrong kind of answer', () => {
  assert.match(one(cancer + 'expect map Diagnosis ≈ 0.5 ± 0.1', 'comparison').message, /gives a value, not a number/);
  assert.match(one(cancer + 'expect P(Test = pos) = pos', 'comparison').message, /gives a number/);
  assert.equal(
    one(cancer + 'expect map Diagnosis = sick', 'unknown-state').message,
    "'sick' is not a state of 'Diagnosis' (cancer, healthy)",
  );
  assert.equal(one(cancer + 'expect P(Test = pos) ≈ 0.5 ± -1', 'bad-number').message, 'a tolerance cannot be negative');
});

test('every diagnostic has a code, a message and a range inside the document', () => {
  const text = cancer + 'P(Test | Diagnosis) {\n  cancer: [0.9]\n}\nquery map Nope\nobserve Test = x';
  const lines = text.split('\n');
  for (const d of diagnose(text)) {
    assert.ok(d.code && d.message && ['error', 'warning', 'information', 'hint'].includes(d.severity));
    assert.ok(
      d.range.end.line < lines.length && d.range.end.character <= lines[d.range.end.line].length,
      JSON.stringify(d),
    );
  }
});

test('a statement with a syntax error does not cascade into checker errors', () => {
  const text =
    'variable Test, Other { pos, neg\nhypotheses D { a: 0.5, b: 0.5 }\nP(Test | D) { a: [0.5, 0.5], b: [0.5, 0.5] }\nobserve Test = pos, Other = neg\n' +
    'variable X { x, y }\nP(X) {\n  x: 0.5\n  y 0.5 :\n}\nP(Y | X) {\n  x: [1]]\n  y: 0.5\n}\nvariable Y { u, v }';
  assert.deepEqual(
    diagnose(text).map((d) => [d.code, d.range.start.line]),
    [
      ['syntax-error', 0],
      ['syntax-error', 7],
      ['syntax-error', 10],
    ],
  );
});

test('the symbol table maps every resolved name to its declaration (for definition and rename)', () => {
  const text =
    'variable Test { pos, neg }\nhypotheses D { a: 0.5, b: 0.5 }\nP(Test | D) { a: [0.9, 0.1], b: [0.2, 0.8] }\n' +
    'network N {\n  variable Test : bool\n  P(Test) = 0.3\n}\nquery P(Test = true) in N\nquery map D given Test = pos\nquery likelihood a given Rows\n' +
    'data Rows {\n  Test\n  pos\n}';
  const { ast } = parseDocument(text);
  const { symbols, diagnostics } = check(ast, fakeEnv());
  assert.deepEqual(brief(diagnostics), []);
  const names: Name[] = [];
  walk(ast, (node) => {
    if (node.kind === 'name') names.push(node);
  });
  const at = (line: number, character: number) =>
    names.find((n) => n.range.start.line === line && n.range.start.character === character)!;
  const resolved = symbols.references.toMap();
  const declarationOf = (line: number, character: number) => resolved.get(at(line, character))?.range.start;
  assert.deepEqual(declarationOf(2, 2), { line: 0, character: 9 }); // P(Test | D): the top-level Test
  assert.deepEqual(declarationOf(2, 9), { line: 1, character: 11 }); // D
  assert.deepEqual(declarationOf(5, 4), { line: 4, character: 11 }); // P(Test) inside N: N's own Test
  assert.deepEqual(declarationOf(7, 8), { line: 4, character: 11 }); // query … in N
  assert.deepEqual(declarationOf(7, 24), { line: 3, character: 8 }); // N
  assert.deepEqual(declarationOf(8, 10), { line: 1, character: 11 }); // map D
  assert.deepEqual(declarationOf(9, 17), { line: 1, character: 15 }); // the hypothesis a
  assert.deepEqual(declarationOf(9, 25), { line: 10, character: 5 }); // Rows
  assert.deepEqual(declarationOf(0, 9), { line: 0, character: 9 }); // a declaration maps to itself
});

test('learn: hidden-variable when counting cannot see a variable; unused-column for extra columns', () => {
  const model =
    'network N {\n  variable A, B : bool\n  P(A) = 0.5\n  P(B | A) { true: 0.9, false: 0.2 }\n}\ndata D {\n  A, C\n  true, x\n}\n';
  const hidden = one(model + 'learn N from D by counting', 'hidden-variable');
  assert.equal(hidden.message, "'B' has no column in 'D': counting needs every variable observed; learn … by em");
  assert.deepEqual(hidden.range, r(9, 13, 9, 14));
  assert.deepEqual(hidden.data, { hidden: ['B'] });
  const em = diagnose(model + 'learn N from D by em { seed: 1 }');
  assert.deepEqual(brief(em), []);
  // Without a method a hidden variable makes the run learn by EM.
  assert.deepEqual(brief(diagnose(model + 'learn N from D')), []);
  const unused = em.find((d) => d.code === 'unused-column')!;
  assert.equal(unused.severity, 'information');
  assert.equal(unused.message, "column C of 'D' is not in network 'N' and will be ignored");
});

test('Dirichlet pseudo-counts: one number, or one per state; another count is an error on the numbers', () => {
  const base = 'variable Y { y1, y2, y3 }\nvariable S : bool\n';
  assert.deepEqual(brief(diagnose(`${base}P(Y) ~ Dirichlet(2, 1, 1)\nP(S) ~ Dirichlet(3, 1)`)), []);
  assert.deepEqual(brief(diagnose(`${base}P(Y) ~ Dirichlet([2, 1, 1])\nP(S) ~ Dirichlet(1)`)), []);
  const wrong = one(`${base}P(Y) ~ Dirichlet(2, 1)`, 'arguments');
  assert.match(wrong.message, /2 pseudo-counts for 3 states \(y1, y2, y3\)/);
  assert.deepEqual(wrong.range, r(2, 17, 2, 21));
  const list = one(`${base}P(S) ~ Dirichlet([1, 1, 1])`, 'arguments');
  assert.match(list.message, /3 pseudo-counts for 2 states \(true, false\)/);
  assert.deepEqual(list.range, r(2, 17, 2, 26));
});

test('comparison: a tie of map/ml/mdl is states joined by ", ", each one checked', () => {
  assert.deepEqual(brief(diagnose(cancer + 'expect map Diagnosis = "cancer, healthy"')), []);
  assert.deepEqual(brief(diagnose(cancer + 'expect mdl Diagnosis = "healthy, cancer"')), []);
  const d = one(cancer + 'expect ml Diagnosis = "cancer, sick, ill"', 'unknown-state');
  assert.equal(d.message, "'sick', 'ill' are not states of 'Diagnosis' (cancer, healthy)");
  assert.equal(
    one(cancer + 'expect map Diagnosis = "cancer, sick"', 'unknown-state').message,
    "'sick' is not a state of 'Diagnosis' (cancer, healthy)",
  );
});

test('arguments: m_estimate p: must be a distribution over the states (one 1/k, or one per state)', () => {
  assert.deepEqual(brief(diagnose('variable W { a, b, c }\nP(W) ~ m_estimate(m: 3, p: [0.2, 0.3, 0.5])')), []);
  assert.deepEqual(brief(diagnose('variable W { a, b, c }\nP(W) ~ m_estimate(m: 3)')), []);
  const d = one('variable W { a, b, c }\nP(W) ~ m_estimate(m: 3, p: 0.5)', 'arguments');
  assert.equal(
    d.message,
    'p: 0.5 for each of the 3 states (a, b, c) sums to 1.5, not 1: give one prior estimate per state, ' +
      'in this order, summing to 1',
  );
  assert.deepEqual(d.range, r(1, 27, 1, 30));
  assert.equal(
    one('variable W { a, b }\nP(W) ~ m_estimate(m: 3, p: [1])', 'arguments').message,
    'p: has 1 number for 2 states (a, b)',
  );
});

test('hypotheses: prior code is for trees only, noise for generated spaces only', () => {
  const code = one('hypotheses A { a, b } prior code', 'missing-prior');
  assert.equal(
    code.message,
    "'prior code' is the code length of trees (Poole ex. 10.7), and 'a' is no tree: " +
      "use 'prior uniform', or give each hypothesis a prior (h: 0.5)",
  );
  assert.deepEqual(code.range, r(0, 28, 0, 32));
  assert.deepEqual(brief(diagnose('hypotheses T { d0: tree { P(A = x) = 1/2 } } prior code\nvariable A { x, y }')), []);
  const noise = one('hypotheses B { a: 0.5, b: 0.5 } noise 0.1', 'unknown-option');
  assert.equal(noise.severity, 'warning');
  assert.equal(
    noise.message,
    "'noise' applies to generated spaces (conjunctions(…), linear(…)) and is ignored here: " +
      "P(D | h) of 'B' comes from its tables P(X | B) or its trees",
  );
});

test('learning_curve takes sizes and seed only: folds (which it never used) is warned about', () => {
  const text = 'data T {\n  A, B\n  x, y\n}\nclassifier C = naive_bayes(T, target: B)\n';
  assert.deepEqual(
    brief(diagnose(text + 'query learning_curve C { sizes: [1], seed: 2 }')).filter((d) => d.includes('option')),
    [],
  );
  const d = one(text + 'query learning_curve C { sizes: [1], folds: 3 }', 'unknown-option');
  assert.equal(d.severity, 'warning');
  assert.equal(d.message, "learning_curve has no option 'folds' (options: sizes, seed)");
});

test('other-model: a query without `in N` on a variable only network N declares names N', () => {
  const net =
    'network N {\n  variable A, B : bool\n  P(A) = 0.3\n  P(B | A) { true: 0.9, false: 0.2 }\n}\nvariable C : bool\nP(C) = 0.5\n';
  const d = one(net + 'query P(A | C = true)', 'other-model');
  assert.equal(d.message, "'A' is a variable of network 'N', not of the default model: write `in N`");
  assert.deepEqual(d.range, r(7, 8, 7, 9));
  assert.deepEqual(d.data, { network: 'N' });
  assert.equal(one(net + 'query mpe given B = true', 'other-model').range.start.character, 16);
  // With `in N`, or on the default model's own variables, nothing is reported.
  assert.deepEqual(brief(diagnose(net + 'query P(A | B = true) in N\nquery P(C)\nquery mpe N given B = true')), []);
});

test('noisy_or on a cause or effect with more than two states is an error on its name (noisy_max takes them)', () => {
  const model =
    'variable Injury { high, low, none }\nvariable Cold, Pain : bool\n' +
    'P(Pain | Injury, Cold) = noisy_or { Injury: 0.5, Cold: 0.4, leak: 0.01 }\n';
  const d = one(model, 'row-width');
  assert.equal(
    d.message,
    "noisy_or needs two-state causes and effect; 'Injury' has 3 states (high, low, none): use noisy_max",
  );
  assert.deepEqual(d.range, r(2, 9, 2, 15));
  const fine = 'variable Cold, Flu, Fever : bool\nP(Fever | Cold, Flu) = noisy_or { Cold: 0.4, Flu: 0.8 }\n';
  assert.deepEqual(brief(diagnose(fine)), []);
});

test('a query that observes a variable twice, with different states or findings, is an error', () => {
  // The run keeps the last observation of a name, so `A = x, A = y` was answered as `A = y`.
  const net = 'network N {\n  variable A, B : bool\n  P(A) = 0.3\n  P(B | A) { true: 0.9, false: 0.2 }\n}\n';
  const d = one(net + 'query P(B | A = true, A = false) in N', 'duplicate-evidence');
  assert.equal(d.message, "'A' is already given in this query: a variable takes one observation or finding");
  assert.deepEqual(d.range, r(5, 22, 5, 23));
  one(net + 'query P(B = true | A = true) in N given A = false', 'duplicate-evidence');
  one(net + 'query P(B | A = true, A ~ { true: 0.5, false: 0.5 }) in N', 'duplicate-evidence');
  one(net + 'query mpe N given A = true, A = false', 'duplicate-evidence');
  one(net + 'query sensitivity P(B = true | A = true, A = false) in N', 'duplicate-evidence');
  one(net + 'expect P(B = true | A = true, A = false) in N ≈ 0.9', 'duplicate-evidence');
  // The same state twice is the same event.
  assert.deepEqual(
    diagnose(net + 'query P(B | A = true, A = true) in N').filter((x) => x.code === 'duplicate-evidence'),
    [],
  );
  // do(…) is no finding: beside an observation of the same variable it is not counted.
  assert.deepEqual(
    diagnose(net + 'query P(B | do(A = true), A = true) in N').filter((x) => x.code === 'duplicate-evidence'),
    [],
  );
});

test('smoothing: m_estimate(m: …, p: …) numbers are checked where they are written', () => {
  const data = 'data D {\n  A, B\n  x, y\n  x, z\n}\n';
  const at = (smoothing: string, code: string) =>
    one(`${data}classifier C = naive_bayes(D, target: B, smoothing: ${smoothing})`, code);
  const infinite = at('m_estimate(m: 1e309)', 'bad-number');
  assert.equal(infinite.message, '1e309 is not a finite number');
  assert.deepEqual(infinite.range, r(5, 66, 5, 71));
  assert.equal(at('m_estimate(m: -5)', 'bad-number').message, 'pseudo-counts cannot be negative (-5)');
  assert.equal(
    at('m_estimate(m: 2, p: 1.5)', 'probability-range').message,
    '1.5 is not a probability: it must lie between 0 and 1',
  );
});

test('a file name with a NUL or another control character is refused on the path, the character not echoed', () => {
  const nul = one('data D from "a\u0000b.csv"', 'file-not-found');
  assert.equal(nul.message, 'a file name cannot contain a control character (U+0000 here)');
  assert.deepEqual(nul.range, r(0, 12, 0, 21));
  assert.equal(
    one('import network N from "x\u001b[2J.bif"', 'file-not-found').message,
    'a file name cannot contain a control character (U+001B here)',
  );
});
