/**
 * Forms docs/language.md promises, each of which failed when the documentation was tried as a
 * new user would (issue 15): the numbers are derived by hand beside each case.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDocument } from '../../../server/src/language/index.js';
import { formatRun, runFailed } from '../../../server/src/cli/run.js';
import type { ProbabilityResult, PosteriorResult } from '../../../server/src/protocol/runResult.js';
import { ENJOY_SPORT, close, errors, resultAt, run, verdicts } from './helpers.js';

const TREES = `variable Action { reads, skips }
variable Length { long, short }
variable Thread { new, followup }
data Days {
  Length, Thread, Action
  long,   new,      skips
  short,  new,      reads
  short,  followup, reads
  long,   followup, skips
  short,  new,      reads
}
hypotheses Trees {
  d0:  tree { P(Action = reads) = 1/2 }
  d1a: tree {
    if Length = long { P(Action = reads) = 0 }
    else if Thread = new { P(Action = reads) = 1 }
    else { P(Action = reads) = 9/11 }
  }
} prior code
`;

test('code lengths alone are the prior 2^-L(h), normalised, also with tables P(X | H)', async () => {
  const result = await run(`variable Test { pos, neg }
hypotheses H {
  h1: bits 1
  h2: bits 3
}
P(Test | H) {
  h1: { pos: 0.9, neg: 0.1 }
  h2: { pos: 0.2, neg: 0.8 }
}
query posterior H given Test = pos
expect map H given Test = pos = h1
`);
  assert.deepEqual(errors(result), []);
  // P(h1) = 2^-1 / (2^-1 + 2^-3) = 0.8; P(h1 | pos) = 0.8·0.9 / (0.8·0.9 + 0.2·0.2).
  const posterior = resultAt(result, 9, 'posterior');
  close(posterior.rows[0]!.prior, 0.8);
  close(posterior.rows[0]!.posterior!, 0.72 / 0.76);
  assert.deepEqual(verdicts(result), [[11, true, 'h1']]);
});

test("expect bic: the name of the tree of smallest BIC, or a named tree's BIC in bits", async () => {
  const result = await run(`${TREES}expect bic Trees given Days = d1a
expect bic d1a given Days ≈ 7.2553 ± 0.0001
expect bic d0 given Days > 7
`);
  assert.deepEqual(errors(result), []);
  // BIC(t) = −log2 P(E|t) + |t| log2 |E|: d1a has P(E|t) = 9/11 and 3 leaves, d0 (1/2)^5 and 1 leaf.
  const d1a = -Math.log2(9 / 11) + 3 * Math.log2(5);
  const d0 = 5 + Math.log2(5);
  assert.ok(d1a < d0);
  const v = verdicts(result);
  assert.deepEqual(
    v.map(([line, passed]) => [line, passed]),
    [
      [20, true],
      [21, true],
      [22, true],
    ],
  );
  close(v[1]![2] as number, d1a, 1e-9);
  close(v[2]![2] as number, d0, 1e-9);
});

test('expect bic names a tree of the space: another name is a comparison error', async () => {
  const result = await run(`${TREES}expect bic Trees given Days = t7\n`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.line]),
    [['comparison', 19]],
  );
});

test('P(H) given D and P(H = h) given D answer like posterior, for trees and generated spaces', async () => {
  const result = await run(`${TREES}query posterior Trees given Days
query P(Trees) given Days
expect P(Trees = d1a) given Days ≈ 0.01124 ± 0.00001
`);
  assert.deepEqual(errors(result), []);
  const posterior = resultAt(result, 19, 'posterior');
  const whole = resultAt(result, 20, 'posterior');
  assert.deepEqual(whole.rows, posterior.rows);
  const [d0, d1a] = posterior.rows;
  // Independently: P(h|E) ∝ 2^-L(h) P(E|h), with L(h) the tree code the result reports.
  const mdl = await run(`${TREES}query mdl Trees given Days\n`);
  const rows = resultAt(mdl, 19, 'mdl').rows;
  const weight = (name: string) => 2 ** -rows.find((r) => r.hypothesis === name)!.totalBits;
  close(d1a!.posterior!, weight('d1a') / (weight('d0') + weight('d1a')), 1e-12);
  close(verdicts(result)[0]![2] as number, d1a!.posterior!, 1e-15);
  assert.ok(d0!.posterior! > 0.98);

  const concept = await run(`data Days {
  Sky,   AirTemp, Enjoy
  Sunny, Warm,    Yes
  Rainy, Cold,    No
}
hypotheses Conj = conjunctions(Sky, AirTemp) -> Enjoy = Yes
  prior uniform
  noise 0
query P(Conj) given Days
`);
  assert.deepEqual(errors(concept), []);
  // H: (2+1)·(2+1) conjunctions + the empty one = 10 semantically; consistent with both
  // examples: <Sunny,Warm>, <Sunny,?>, <?,Warm> — a version space of 3.
  assert.equal(String(resultAt(concept, 8, 'versionSpace').versionSpaceSize), '3');
});

test('optimal over a space of trees predicts for the instance named in its options', async () => {
  const result = await run(`${TREES}observe Days
query posterior Trees
query optimal Action over Trees { Length: short, Thread: followup }
expect optimal Action over Trees { Length: long, Thread: new } = skips
`);
  assert.deepEqual(errors(result), []);
  const [d0, d1a] = resultAt(result, 20, 'posterior').rows;
  const optimal = resultAt(result, 21, 'optimal');
  // P(reads | x) = P(d0|D)·1/2 + P(d1a|D)·9/11 for the short follow-up.
  const reads = optimal.values.find((v) => v.value === 'reads')!.probability;
  close(reads, d0!.posterior! / 2 + (d1a!.posterior! * 9) / 11, 1e-12);
  assert.deepEqual(
    verdicts(result).map(([, passed]) => passed),
    [true],
  );
});

test('optimal over trees without the instance a tree tests says which attribute to give', async () => {
  const result = await run(`${TREES}observe Days\nquery optimal Action over Trees\n`);
  assert.deepEqual(
    errors(result).map((e) => e.message),
    ["tree 'd1a' tests Length: give it, e.g. { Length: long }"],
  );
});

const TENNIS = `data Tennis {
  Outlook,  Temperature, Humidity, Wind,   Play
  Sunny,    Hot,         High,     Weak,   No
  Sunny,    Hot,         High,     Strong, No
  Overcast, Hot,         High,     Weak,   Yes
  Rain,     Mild,        High,     Weak,   Yes
  Rain,     Cool,        Normal,   Weak,   Yes
  Rain,     Cool,        Normal,   Strong, No
  Overcast, Cool,        Normal,   Strong, Yes
  Sunny,    Mild,        High,     Weak,   No
  Sunny,    Cool,        Normal,   Weak,   Yes
  Rain,     Mild,        Normal,   Weak,   Yes
  Sunny,    Mild,        Normal,   Strong, Yes
  Overcast, Mild,        High,     Strong, Yes
  Overcast, Hot,         Normal,   Weak,   Yes
  Rain,     Mild,        High,     Strong, No
}
classifier PlayNB = naive_bayes(Tennis, target: Play, smoothing: none)
`;

test('P(Wind | Play) in a classifier is the whole table (Mitchell ex. 6.6), one distribution per class', async () => {
  const result = await run(`${TENNIS}query P(Wind | Play) in PlayNB\n`);
  assert.deepEqual(errors(result), []);
  const table = resultAt(result, 18, 'probability') as ProbabilityResult;
  assert.deepEqual(table.variables, ['Wind', 'Play']);
  const p = (wind: string, play: string) => table.table.find((r) => r.states[0] === wind && r.states[1] === play)!.p;
  close(p('Strong', 'Yes'), 3 / 9);
  close(p('Weak', 'Yes'), 6 / 9);
  close(p('Strong', 'No'), 3 / 5);
  close(p('Weak', 'No'), 2 / 5);
  assert.equal(table.value, undefined);
});

test('P(X | Y) in a network: one row per parent state; states named where given', async () => {
  const result = await run(`network Forest {
  variable Storm, Lightning : bool
  P(Storm) = 0.3
  P(Lightning | Storm) { true: 0.7, false: 0.05 }
}
query P(Storm | Lightning) in Forest
`);
  assert.deepEqual(errors(result), []);
  const table = resultAt(result, 5, 'probability') as ProbabilityResult;
  const p = (storm: string, lightning: string) =>
    table.table.find((r) => r.states[0] === storm && r.states[1] === lightning)!.p;
  close(p('true', 'true'), 0.21 / (0.21 + 0.035));
  close(p('true', 'false'), 0.09 / (0.09 + 0.665));
  close(p('false', 'false'), 0.665 / (0.09 + 0.665));
});

test('a misspelt statement keyword: one diagnostic with the keyword, and the statement still declares its name', async () => {
  const text = `variable Test { pos, neg }
hypothesis Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) {
  cancer:  { pos: 0.98, neg: 0.02 }
  healthy: { pos: 0.03, neg: 0.97 }
}
query posterior Diagnosis given Test = pos
`;
  const parsed = parseDocument(text);
  assert.deepEqual(
    parsed.diagnostics.map((d) => [d.code, d.message, d.range.start, d.range.end, d.data]),
    [
      [
        'syntax-error',
        "unknown statement 'hypothesis': did you mean 'hypotheses'?",
        { line: 1, character: 0 },
        { line: 1, character: 10 },
        { suggestion: 'hypotheses' },
      ],
    ],
  );
  assert.equal(parsed.ast.statements[1]!.kind, 'hypotheses');
  const result = await run(text);
  assert.equal(errors(result).length, 1);
  close((resultAt(result, 6, 'posterior') as PosteriorResult).rows[0]!.posterior!, 0.00784 / (0.00784 + 0.02976));
  for (const [typo, keyword] of [
    ['variabel', 'variable'],
    ['netwrok', 'network'],
    ['dta', 'data'],
    ['qurey', 'query'],
    ['expcet', 'expect'],
    ['lern', 'learn'],
    ['classifer', 'classifier'],
    ['mixtrue', 'mixture'],
    ['obsreve', 'observe'],
  ]) {
    const messages = parseDocument(`${typo} X { a, b }\n`).diagnostics.map((d) => d.message);
    assert.equal(messages[0], `unknown statement '${typo}': did you mean '${keyword}'?`);
  }
});

test('a name at the start of a line that is no near keyword is not taken for one', () => {
  const parsed = parseDocument('variable A { a, b }\nAlpha Beta\n');
  assert.match(parsed.diagnostics[0]!.message, /unexpected 'Alpha'/);
});

test('expectations without a verdict are counted, each with why, and fail the run', async () => {
  const result = await run(`hypotheses H { a: 0.6, b: 0.4 }
expect map Nope = a
expect map H = a
expect P(H = a) ≈ 0.6
`);
  assert.deepEqual(
    result.notEvaluated?.map((n) => [n.range.start.line, n.reason]),
    [[1, "hypothesis space 'Nope' is not defined"]],
  );
  const report = formatRun(result);
  assert.match(report, /2\/3 expectations hold, 1 not evaluated/);
  assert.match(report, /line 2 not evaluated \(hypothesis space 'Nope' is not defined\): expect map Nope = a/);
  assert.equal(runFailed(result), true);
});

test('an expectation the run never reached (cancelled) is counted and fails the run, though no error explains it', async () => {
  const controller = new AbortController();
  controller.abort();
  const { runText } = await import('../../../server/src/run/pipeline.js');
  const { nodeEnvironment } = await import('../../../server/src/workspace/files.js');
  const env = nodeEnvironment({ documentPath: '/tmp/m.bayes', workspaceRoot: '/tmp', dataRoots: [] });
  const result = await runText('hypotheses H { a: 0.5, b: 0.5 }\nexpect map H = a\n', '/tmp/m.bayes', env, {
    signal: controller.signal,
  });
  assert.deepEqual(
    result.notEvaluated?.map((n) => n.reason),
    ['the run stopped before this line'],
  );
  assert.equal(runFailed(result), true);
  assert.match(formatRun(result), /0\/1 expectations hold, 1 not evaluated/);
});

test('an empty file says so', async () => {
  for (const text of ['', '// only a comment\n']) {
    const result = await run(text);
    assert.deepEqual(
      result.diagnostics.map((d) => [d.severity, d.code, d.message]),
      [['information', 'empty-model', 'the file has no statements: nothing to run']],
    );
  }
});

test('query mdl over generated conjunctions (Mitchell ex. 6.5): h_MDL, with the description lengths', async () => {
  const result = await run(`${ENJOY_SPORT}
  prior uniform
  noise 0
query mdl Conj given Days
expect mdl Conj given Days = "<?, ?, ?, ?, ?, ?>"
`);
  assert.deepEqual(errors(result), []);
  const mdl = resultAt(result, 10, 'mdl');
  // 11 literals A = v seen, 4 examples: <?, …> misclassifies one (2 bits); one literal costs log2 11.
  assert.deepEqual(
    mdl.rows.slice(0, 3).map((r) => [r.hypothesis, r.totalBits]),
    [
      ['<?, ?, ?, ?, ?, ?>', 2],
      ['<?, Warm, ?, ?, ?, ?>', Math.log2(11)],
      ['<Sunny, ?, ?, ?, ?, ?>', Math.log2(11)],
    ],
  );
  assert.deepEqual(verdicts(result), [[12, true, '<?, ?, ?, ?, ?, ?>']]);
});

test('mean of a parameter whose variable is only a data column takes the values seen in the data', async () => {
  const result = await run(`data Tennis from "playtennis.csv"
P(Wind | Play) ~ m_estimate(m: 2)
P(Outlook | Play) ~ Dirichlet(1)
expect mean P(Wind = Strong | Play = Yes) given Tennis ≈ 4/11 ± 1e-12
expect mean P(Outlook = Sunny | Play = Yes) given Tennis ≈ 1/4 ± 1e-12
`);
  assert.deepEqual(errors(result), []);
  // (3 + 2 · 1/2) / (9 + 2) and (2 + 1) / (9 + 3): Mitchell eq. 6.22 and Laplace on Table 3.2.
  assert.deepEqual(
    verdicts(result).map(([, passed]) => passed),
    [true, true],
  );
});

test('h: p bits L: the prior is p for posterior and inference alike, and L(h) is L for MDL', async () => {
  const result = await run(`hypotheses H { h1: 0.3 bits 1, h2: 0.7 bits 4 }
expect P(H = h1) ≈ 0.3 ± 1e-12
expect posterior H ≈ 0.7 ± 1e-12
query mdl H
`);
  assert.deepEqual(errors(result), []);
  assert.deepEqual(
    verdicts(result).map(([, passed]) => passed),
    [true, true],
  );
  // MDL reads the code lengths as given, not −log2 p: h1 needs 1 bit, h2 4.
  const mdl = resultAt(result, 3, 'mdl');
  assert.deepEqual(
    mdl.rows.map((r) => [r.hypothesis, r.hypothesisBits]),
    [
      ['h1', 1],
      ['h2', 4],
    ],
  );
  assert.deepEqual(mdl.best, ['h1']);
});

test("expect bic over the space with a number says how to ask for one tree's BIC", async () => {
  const result = await run(`${TREES}expect bic Trees given Days ≈ 18.84\n`);
  assert.deepEqual(
    errors(result).map((e) => e.message),
    [
      "'bic Trees' names the tree of smallest BIC: compare it with =, or ask for one tree's BIC in bits: bic d0 given Days",
    ],
  );
});

test("optimal over trees: observe lines on the data's attributes name the instance, the data set is D", async () => {
  const viaObserve = await run(`${TREES}observe Days
observe Length = short, Thread = followup
query optimal Action over Trees
`);
  const viaOptions = await run(`${TREES}observe Days
query optimal Action over Trees { Length: short, Thread: followup }
`);
  assert.deepEqual(errors(viaObserve), []);
  const a = resultAt(viaObserve, 21, 'optimal');
  const b = resultAt(viaOptions, 20, 'optimal');
  assert.deepEqual(a.values, b.values);
  assert.equal(a.optimal, 'reads');
});

test('expect on a whole table says to name the states', async () => {
  const result = await run(`${TENNIS}expect P(Wind | Play) in PlayNB ≈ 0.3\n`);
  assert.deepEqual(
    errors(result).map((e) => [e.code, e.message]),
    [
      [
        'expect-no-value',
        'the query gave a table, not one value to compare: name a state of every variable, P(X = x | Y = y)',
      ],
    ],
  );
  assert.equal(result.notEvaluated?.length, 1);
});
