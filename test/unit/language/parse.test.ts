import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument, walk, type AstNode, type Expr, type Query } from '../../../server/src/language/index.js';
import { only, parseOk, r } from './helpers.js';
import { fullParse, reparse } from '../../../server/src/language/incremental.js';
import { MAX_STATEMENTS, MAX_SYNTAX_DIAGNOSTICS, parse } from '../../../server/src/language/parse.js';

const queryOf = (text: string): Query => only(text, 'queryStatement').query;

test('variable with a state list, quoted states and numbers', () => {
  const v = only('variable Age { "0-3_days", "12+", young, 7 }', 'variable');
  assert.deepEqual(
    v.names.map((n) => n.text),
    ['Age'],
  );
  assert.equal(v.domain.type, 'states');
  assert.deepEqual(
    v.domain.states.map((s) => s.text),
    ['0-3_days', '12+', 'young', '7'],
  );
  assert.equal(v.domain.states[0].quoted, true);
  assert.deepEqual(v.domain.states[0].range, r(0, 15, 0, 25));
  assert.deepEqual(v.names[0].range, r(0, 9, 0, 12));
  assert.deepEqual(v.range, r(0, 0, 0, 44));
});

test('variables sharing a bool or real domain', () => {
  const v = only('variable A, B : bool', 'variable');
  assert.deepEqual(
    v.names.map((n) => [n.text, n.range]),
    [
      ['A', r(0, 9, 0, 10)],
      ['B', r(0, 12, 0, 13)],
    ],
  );
  assert.equal(v.domain.type, 'bool');
  assert.deepEqual(
    v.domain.states.map((s) => s.text),
    ['true', 'false'],
  );
  assert.equal(only('variable x : real', 'variable').domain.type, 'real');
});

test('probability literals keep value and source text', () => {
  const cases: [string, number][] = [
    ['0.008', 0.008],
    ['.008', 0.008],
    ['8e-3', 0.008],
    ['9/14', 9 / 14],
    ['98%', 0.98],
    ['1E+0', 1],
  ];
  for (const [text, value] of cases) {
    const t = only(`P(A) = ${text}`, 'table');
    assert.equal(t.value?.value, value, text);
    assert.equal(t.value?.text, text);
    assert.deepEqual(t.value?.range, r(0, 7, 0, 7 + text.length));
  }
});

test('hypotheses with priors, with prior uniform, with bits', () => {
  const h = only('hypotheses Diagnosis {\n  cancer:  0.008\n  healthy: 0.992\n}', 'hypotheses');
  assert.equal(h.name.text, 'Diagnosis');
  assert.deepEqual(
    h.entries.map((e) => [e.name.text, e.prior?.value]),
    [
      ['cancer', 0.008],
      ['healthy', 0.992],
    ],
  );
  assert.deepEqual(h.entries[1].range, r(2, 2, 2, 16));
  assert.deepEqual(h.range, r(0, 0, 3, 1));
  const coin = only('hypotheses Coin { fair, biased } prior uniform', 'hypotheses');
  assert.deepEqual(
    coin.entries.map((e) => e.name.text),
    ['fair', 'biased'],
  );
  assert.equal(coin.prior?.text, 'uniform');
  const bits = only('hypotheses M { h1: 0.5 bits 3, h2: bits 5 }', 'hypotheses');
  assert.deepEqual(
    bits.entries.map((e) => [e.prior?.value, e.bits?.value]),
    [
      [0.5, 3],
      [undefined, 5],
    ],
  );
});

test('tree hypotheses with if / else if / else and prior code', () => {
  const h = only(
    `hypotheses Trees {
  d0: tree { P(Action = reads) = 1/2 }
  d1a: tree {
    if Length = long { P(Action = reads) = 0 }
    else if Thread = new { P(Action = reads) = 1 }
    else { P(Action = reads) = 9/11 }
  }
} prior code`,
    'hypotheses',
  );
  assert.equal(h.prior?.text, 'code');
  const leaf = h.entries[0].tree!.items[0];
  assert.equal(leaf.kind, 'treeLeaf');
  if (leaf.kind === 'treeLeaf') assert.equal(leaf.value.value, 0.5);
  const split = h.entries[1].tree!.items[0];
  assert.equal(split.kind, 'treeSplit');
  if (split.kind !== 'treeSplit') return;
  assert.equal(split.test.variable.text, 'Length');
  assert.deepEqual(split.test.range, r(3, 7, 3, 20));
  const nested = split.else!.items[0];
  assert.equal(nested.kind, 'treeSplit');
  if (nested.kind === 'treeSplit') assert.equal(nested.else!.items.length, 1);
});

test('table rows: maps, lists, single bool rows, multi-parent keys, several rows on a line', () => {
  const t = only(
    `P(Test | Diagnosis) {
  cancer:  { pos: 0.98, neg: 0.02 }
  healthy: [0.03, 0.97]
}`,
    'table',
  );
  assert.deepEqual(
    t.head.targets.map((a) => a.variable.text),
    ['Test'],
  );
  assert.deepEqual(
    t.head.conditions.map((a) => a.variable.text),
    ['Diagnosis'],
  );
  assert.deepEqual(
    t.rows.map((row) => row.form),
    ['map', 'list'],
  );
  assert.deepEqual(
    t.rows[0].entries.map((e) => [e.state?.text, e.value.value]),
    [
      ['pos', 0.98],
      ['neg', 0.02],
    ],
  );
  assert.deepEqual(t.rows[0].range, r(1, 2, 1, 35));
  assert.deepEqual(t.head.range, r(0, 0, 0, 19));
  const m = only(
    'P(Campfire | Storm, Bus) {\n  true, true: 0.4, true, false: 0.1\n  false, true: 0.8\n  false, false: 0.2\n}',
    'table',
  );
  assert.deepEqual(
    m.rows.map((row) => [row.keys.map((k) => k.text), row.form, row.entries[0].value.value]),
    [
      [['true', 'true'], 'single', 0.4],
      [['true', 'false'], 'single', 0.1],
      [['false', 'true'], 'single', 0.8],
      [['false', 'false'], 'single', 0.2],
    ],
  );
  assert.deepEqual(m.rows[1].range, r(1, 19, 1, 35));
});

test('bool shorthand P(Storm) = 0.3', () => {
  const t = only('P(Storm) = 0.3', 'table');
  assert.equal(t.value?.value, 0.3);
  assert.equal(t.rows.length, 0);
});

test('parameter priors: Beta, Dirichlet, m_estimate, experts', () => {
  const beta = only('P(Toss) ~ Beta(1, 1)', 'table').parameterPrior;
  assert.equal(beta?.kind, 'call');
  if (beta?.kind === 'call')
    assert.deepEqual(
      beta.args.map((a) => (a.value as { value: number }).value),
      [1, 1],
    );
  const m = only('P(Wind | Play) ~ m_estimate(m: 2)', 'table').parameterPrior;
  if (m?.kind === 'call') assert.deepEqual([m.callee.text, m.args[0].name?.text], ['m_estimate', 'm']);
  assert.equal(only('P(Outlook | Play) ~ Dirichlet(1)', 'table').parameterPrior?.kind, 'call');
  const experts = only('P(Success) ~ experts { alice: 2 of 3, bob: 20 of 30 }', 'table').parameterPrior;
  assert.equal(experts?.kind, 'experts');
  if (experts?.kind === 'experts') {
    assert.deepEqual(
      experts.entries.map((e) => [e.name.text, e.successes.value, e.trials.value]),
      [
        ['alice', 2, 3],
        ['bob', 20, 30],
      ],
    );
    assert.deepEqual(experts.entries[1].range, r(0, 38, 0, 51));
  }
});

test('network with its own statements, and import', () => {
  const [network, imported] = parseOk(
    'network Forest {\n  variable Storm : bool\n  P(Storm) = 0.3\n}\nimport network Alarm from "alarm.bif"',
  );
  assert.equal(network.kind, 'network');
  if (network.kind === 'network') {
    assert.equal(network.name.text, 'Forest');
    assert.deepEqual(
      network.statements.map((s) => s.kind),
      ['variable', 'table'],
    );
    assert.deepEqual(network.range, r(0, 0, 3, 1));
  }
  assert.equal(imported.kind, 'import');
  if (imported.kind === 'import') {
    assert.equal(imported.path.value, 'alarm.bif');
    assert.deepEqual(imported.path.range, r(4, 26, 4, 37));
  }
});

test('inline data: header, rows by line, ? for missing, negative and quoted cells', () => {
  const d = only('data Days {\n  Sky, x, Note\n  Sunny, -1.5, "a b"\n  Rainy ?  c   // no commas needed\n}', 'data');
  assert.deepEqual(
    d.header.map((h) => h.text),
    ['Sky', 'x', 'Note'],
  );
  assert.equal(d.rows.length, 2);
  const [sky, x, note] = d.rows[0].cells;
  assert.deepEqual([sky.kind, x.kind, note.kind], ['ref', 'number', 'string']);
  assert.equal((x as Extract<Expr, { kind: 'number' }>).value, -1.5);
  assert.equal(d.rows[1].cells[1].kind, 'missing');
  assert.deepEqual(d.rows[1].range, r(3, 2, 3, 12));
});

test('data and corpus from files', () => {
  const d = only('data Tennis from "playtennis.csv"', 'data');
  assert.equal(d.source?.value, 'playtennis.csv');
  const c = only('corpus News from "news/**/*.txt" label folder', 'corpus');
  assert.deepEqual([c.source.value, c.label?.text], ['news/**/*.txt', 'folder']);
});

test('observe a value, repeated values, a data set, several variables', () => {
  const one = only('observe Test = pos', 'observe');
  assert.deepEqual(one.items[0].range, r(0, 8, 0, 18));
  const list = only('observe Test = [pos, pos]', 'observe').items[0].value;
  assert.equal(list?.kind, 'list');
  assert.equal(only('observe Days', 'observe').items[0].value, undefined);
  assert.equal(only('observe A = a, B = b', 'observe').items.length, 2);
});

test('learn: counting, em with options, gradient, structure by k2, mixtures', () => {
  const l = only('learn Forest from Partial by em { iterations: 100, tolerance: 1e-6, seed: 7 }', 'learn');
  assert.deepEqual([l.model.text, l.from?.text, l.method?.text, l.structure], ['Forest', 'Partial', 'em', false]);
  assert.deepEqual(
    l.options?.entries.map((e) => e.name?.text),
    ['iterations', 'tolerance', 'seed'],
  );
  const s = only('learn structure Found from Days by k2 { order: [A, B, C], max_parents: 2 }', 'learn');
  assert.equal(s.structure, true);
  assert.equal(s.options?.entries[0].value.kind, 'list');
  assert.equal(only('learn Two by em { seed: 3 }', 'learn').from, undefined);
  assert.equal(only('learn Forest from Days', 'learn').method, undefined);
});

test('classifiers and mixtures are calls with named arguments', () => {
  const c = only('classifier PlayNB = naive_bayes(Tennis, target: Play, smoothing: m_estimate(m: 2))', 'classifier');
  assert.equal(c.definition.callee.text, 'naive_bayes');
  assert.deepEqual(
    c.definition.args.map((a) => a.name?.text),
    [undefined, 'target', 'smoothing'],
  );
  assert.equal(c.definition.args[2].value.kind, 'call');
  const t = only('classifier NewsNB = text_naive_bayes(News, drop_most_frequent: 100, min_count: 3)', 'classifier');
  assert.equal(t.definition.args.length, 3);
  const m = only('mixture Two = gaussians(Points.x, k: 2, sigma: 1, weights: uniform)', 'mixture');
  const points = m.definition.args[0].value;
  assert.equal(points.kind === 'ref' && points.member?.text, 'x');
  const g = only('mixture Geyser = gaussians(Faithful[eruptions, waiting], k: 2)', 'mixture').definition.args[0].value;
  assert.deepEqual(g.kind === 'ref' && g.columns?.map((c) => c.text), ['eruptions', 'waiting']);
});

test('generated hypothesis spaces: conjunctions with target, linear, logistic, noise', () => {
  const c = only(
    'hypotheses Conj = conjunctions(Sky, AirTemp) -> Enjoy = Yes\n  prior uniform\n  noise 0',
    'hypotheses',
  );
  assert.equal(c.generator?.call.callee.text, 'conjunctions');
  assert.equal(c.generator?.target?.variable.text, 'Enjoy');
  assert.equal(c.noise?.kind, 'number');
  const lin = only('hypotheses Lines = linear(d ~ x) noise normal', 'hypotheses');
  const formula = lin.generator?.call.args[0].value;
  assert.equal(formula?.kind, 'formula');
  assert.equal(lin.noise?.kind === 'name' && lin.noise.text, 'normal');
  const sig = only('hypotheses Sig = logistic(d ~ x1 + x2) noise 0.1', 'hypotheses').generator?.call.args[0].value;
  assert.equal(sig?.kind === 'formula' && sig.terms.length, 2);
});

test('hypothesis queries: posterior, map, ml, mdl, size, with given', () => {
  for (const form of ['posterior', 'map', 'ml', 'mdl', 'size'] as const) {
    const q = queryOf(`query ${form} Diagnosis given Test = pos`);
    assert.equal(q.form, form);
    if (q.form === form) assert.equal(q.given[0].variable.text, 'Test');
  }
});

test('optimal and gibbs over a hypothesis space', () => {
  const q = queryOf('query gibbs Label over H { seed: 1 }');
  assert.equal(q.form, 'gibbs');
  if (q.form === 'gibbs') assert.deepEqual([q.target.text, q.over.text, q.options?.entries.length], ['Label', 'H', 1]);
  assert.equal(queryOf('query optimal Label over H').form, 'optimal');
});

test('probability queries with in, using and given', () => {
  const q = queryOf(
    'query P(ForestFire | Thunder = true, Bus = true) in Forest using likelihood_weighting { samples: 100000, seed: 1 } given Storm = false',
  );
  assert.equal(q.form, 'probability');
  if (q.form !== 'probability') return;
  assert.deepEqual(
    q.prob.conditions.map((c) => c.variable.text),
    ['Thunder', 'Bus'],
  );
  assert.deepEqual(
    [q.in?.text, q.using?.text, q.options?.entries.length, q.given.length],
    ['Forest', 'likelihood_weighting', 2, 1],
  );
  assert.deepEqual(q.prob.range, r(0, 6, 0, 48));
});

test('mpe, sensitivity, independence', () => {
  const mpe = queryOf('query mpe Forest given Thunder = true');
  assert.equal(mpe.form === 'mpe' && mpe.network?.text, 'Forest');
  // Without a name, the default model: `given` is the keyword, not a network called given.
  const plain = queryOf('query mpe given Thunder = true');
  assert.equal(plain.form === 'mpe' && plain.network, undefined);
  assert.equal(plain.form === 'mpe' && plain.given[0]?.variable.text, 'Thunder');
  const bare = queryOf('query mpe');
  assert.deepEqual(bare.form === 'mpe' && [bare.network, bare.given], [undefined, []]);
  const policy = queryOf('query policy given Test = true');
  assert.equal(policy.form === 'policy' && policy.network, undefined);
  assert.equal(policy.form === 'policy' && policy.given.length, 1);
  const named = queryOf('query policy Wildcatter');
  assert.equal(named.form === 'policy' && named.network?.text, 'Wildcatter');
  const s = queryOf('query sensitivity P(ForestFire = true | Thunder = true) in Forest');
  assert.equal(s.form === 'sensitivity' && s.in?.text, 'Forest');
  const i = queryOf('query independent Thunder, Storm given Lightning in Forest');
  assert.deepEqual(
    i.form === 'independent' && [i.variables.map((v) => v.text), i.given.map((v) => v.text), i.in?.text],
    [['Thunder', 'Storm'], ['Lightning'], 'Forest'],
  );
});

test('classify, evaluate (split, folds, on), learning_curve, accuracy', () => {
  const c = queryOf('query classify PlayNB { Outlook: Sunny, Temperature: Cool }');
  assert.deepEqual(c.form === 'classify' && c.instance.entries.map((e) => e.name?.text), ['Outlook', 'Temperature']);
  const split = queryOf('query evaluate NewsNB split 2/3 { seed: 1 }');
  assert.equal(split.form === 'evaluate' && split.split?.value, 2 / 3);
  const folds = queryOf('query evaluate NewsNB folds 10');
  assert.equal(folds.form === 'evaluate' && folds.folds?.value, 10);
  const on = queryOf('query evaluate NewsNB on TestDays');
  assert.equal(on.form === 'evaluate' && on.on?.text, 'TestDays');
  const lc = queryOf('query learning_curve NewsNB { sizes: [100, 1000, 5000], seed: 1 }');
  assert.equal(lc.form, 'learning_curve');
  assert.equal(queryOf('query accuracy NewsNB').form, 'accuracy');
});

test('parameter queries: mean, mode, interval, bound, with given', () => {
  assert.equal(queryOf('query mean P(Toss = heads)').form, 'mean');
  const mode = queryOf('query mode P(Toss = heads) given Data');
  assert.equal(mode.form === 'mode' && mode.given[0].variable.text, 'Data');
  const i = queryOf('query interval 0.95 P(Toss = heads)');
  assert.equal(i.form === 'interval' && i.level.value, 0.95);
  const b = queryOf('query P(0.6 <= P(Toss = heads) < 0.8)');
  assert.deepEqual(b.form === 'bound' && [b.lower.value, b.lowerOp, b.upperOp, b.upper.value], [0.6, '<=', '<', 0.8]);
});

test('bic, likelihood and estimate', () => {
  const bic = queryOf('query bic Trees given Days');
  assert.deepEqual(bic.form === 'bic' && [bic.model.text, bic.given.text], ['Trees', 'Days']);
  assert.equal(queryOf('query likelihood d1a given Days').form, 'likelihood');
  const e = queryOf('query estimate Two.mean1');
  assert.deepEqual(e.form === 'estimate' && [e.model.text, e.parameter.text], ['Two', 'mean1']);
});

test('expect with every comparison, including ≈ spelt ~= and ± spelt +-', () => {
  const cases: [string, string, number | string, number | undefined][] = [
    ['expect P(D = c | T = pos) ≈ 0.2085 ± 0.001', '≈', 0.2085, 0.001],
    ['expect mean P(Toss = heads) ~= 9/14 +- 1e-9', '≈', 9 / 14, 1e-9],
    ['expect map Diagnosis = healthy', '=', 'healthy', undefined],
    ['expect accuracy NewsNB >= 85%', '>=', 0.85, undefined],
    ['expect accuracy NewsNB > 0.8', '>', 0.8, undefined],
    ['expect accuracy NewsNB < 1', '<', 1, undefined],
    ['expect accuracy NewsNB <= 1', '<=', 1, undefined],
  ];
  for (const [text, op, value, tolerance] of cases) {
    const e = only(text, 'expectStatement');
    assert.equal(e.comparison.op, op, text);
    const v = e.comparison.value;
    assert.equal(v.kind === 'number' ? v.value : v.kind === 'ref' ? v.name.text : undefined, value, text);
    assert.equal(e.comparison.tolerance?.value, tolerance, text);
  }
  const classify = only('expect classify PlayNB { Outlook: Sunny } = No', 'expectStatement');
  assert.equal(classify.query.form, 'classify');
});

test('expect … given D = v: the last = v is the comparison', () => {
  const e = only('expect size Conj given Days = 6', 'expectStatement');
  assert.equal(e.query.form === 'size' && e.query.given[0].value, undefined);
  assert.equal(e.comparison.value.kind === 'number' && e.comparison.value.value, 6);
  assert.deepEqual(e.comparison.range, r(0, 28, 0, 31));
  const both = only('expect map H given T = pos = h1', 'expectStatement');
  assert.equal(both.query.form === 'map' && both.query.given[0].value?.kind, 'ref');
});

test('comments are skipped; /// doc comments attach to the next statement', () => {
  const [a, b] = parseOk(
    '/// The test result.\n/// Two states.\nvariable Test { pos, neg } // trailing\n/* block\n comment */ variable X : bool',
  );
  assert.equal(a.doc, 'The test result.\nTwo states.');
  assert.equal(b.doc, undefined);
  const [c] = parseOk('/// not attached\n\nvariable Y : bool');
  assert.equal(c.doc, undefined);
});

test('soft keywords work as names of states, columns and hypotheses', () => {
  const v = only('variable Kind { data, normal, code, in, map, P }', 'variable');
  assert.deepEqual(
    v.domain.states.map((s) => s.text),
    ['data', 'normal', 'code', 'in', 'map', 'P'],
  );
  const q = queryOf('query P(Kind = data | in = map) in network');
  assert.equal(q.form === 'probability' && q.in?.text, 'network');
});

test('every node of the example-like file has a range inside its parent', () => {
  const text =
    'network N {\n  variable A, B : bool\n  P(A) = 0.2\n  P(B | A) { true: 0.9, false: 0.1 }\n}\nquery P(B | A = true) in N\nexpect P(B = true) in N ≈ 0.26 ± 1e-9';
  const { ast, diagnostics } = parseDocument(text);
  assert.deepEqual(diagnostics, []);
  let nodes = 0;
  const inside = (inner: AstNode, outer: AstNode) => {
    const a = inner.range,
      b = outer.range;
    const le = (x: typeof a.start, y: typeof a.start) =>
      x.line < y.line || (x.line === y.line && x.character <= y.character);
    return le(b.start, a.start) && le(a.end, b.end);
  };
  walk(ast, (node, parent) => {
    nodes++;
    if (parent)
      assert.ok(
        inside(node, parent),
        `${node.kind} ${JSON.stringify(node.range)} outside ${parent.kind} ${JSON.stringify(parent.range)}`,
      );
  });
  assert.ok(nodes > 40);
});

test('a stray character on each of 30,000 lines: 10,000 syntax diagnostics listed, then one for the rest', () => {
  const text = `variable A : bool\n${';\n'.repeat(30_000)}P(A) = 0.5\n`;
  const state = fullParse(text);
  const { diagnostics, capped } = state.output;
  assert.equal(capped, true);
  assert.equal(diagnostics.length, MAX_SYNTAX_DIAGNOSTICS + 1);
  assert.deepEqual(diagnostics[0]!.range, r(1, 0, 1, 1));
  assert.equal(diagnostics[0]!.message, "unexpected character ';'");
  assert.deepEqual(diagnostics[10_000]!.range, r(10_001, 0, 10_001, 1));
  assert.equal(
    diagnostics[10_000]!.message,
    "unexpected character ';'; the syntax errors from this line on are not listed (over 10,000)",
  );
  // The statements are all read, and an edit parses the whole text again (the list depends on all of it).
  assert.equal(state.output.ast.statements.length, 2);
  const edited = reparse(state, text.replace('P(A) = 0.5', 'P(A) = 0.25'));
  assert.deepEqual(edited.output, parse(edited.text));
  const fixed = `variable A : bool\n${';\n'.repeat(10)}P(A) = 0.5\n`;
  assert.equal(reparse(state, fixed).output.diagnostics.length, 10);
  assert.equal(reparse(state, fixed).output.capped, undefined);
});

test('past 200,000 statements the rest are not read: one diagnostic on the first, networks still closed', () => {
  const text = `network N {\nvariable A : bool\n${'P(A) = 0.5\n'.repeat(MAX_STATEMENTS)}}\nP(B) = 0.5\n`;
  const state = fullParse(text);
  const { ast, diagnostics, capped } = state.output;
  assert.equal(capped, true);
  assert.deepEqual(
    diagnostics.map((d) => [d.code, d.message, d.range]),
    [
      [
        'model-too-large',
        'this model has more than 200,000 statements: this one and the rest are not read (keep data in data blocks or CSV files)',
        r(MAX_STATEMENTS, 0, MAX_STATEMENTS, 10),
      ],
    ],
  );
  // The network (statement 1) holds its variable and 199,998 tables (statements 2 to 200,000); its `}` closes it.
  assert.equal(ast.statements.length, 1);
  const network = ast.statements[0]!;
  assert.equal(network.kind === 'network' && network.statements.length, MAX_STATEMENTS - 1);
  assert.equal(network.range.end.line, MAX_STATEMENTS + 2);
  // An edit parses the whole text again.
  const edited = reparse(state, text.replace('variable A : bool', 'variable A : real'));
  assert.deepEqual(edited.output, parse(edited.text));
});

test('an error past the first token of the lookahead is reported on the token that fits no alternative', () => {
  // Both P-queries start `P (`: the error is at `)`, not at `P` ("unexpected 'P'; expected 'P'").
  const [empty] = parseDocument('variable A : bool\nquery P()\n').diagnostics;
  assert.equal(empty!.message, "unexpected ')' after '('; expected '-', a number, 'do' or a name");
  assert.deepEqual(empty!.range, r(1, 8, 1, 9));
  const [surrogate] = parseDocument('variable A : bool\nquery P(\ud800)\n').diagnostics;
  assert.deepEqual(surrogate!.range, r(1, 8, 1, 9));
});
