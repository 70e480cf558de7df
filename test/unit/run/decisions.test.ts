/** Influence diagrams, interventions and canonical tables through the whole pipeline. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RunResult } from '../../../server/src/protocol/runResult.js';
import { assertNoErrors, example, expectations, networkOf, resultsOf, run } from './networkHelpers.js';

function errors(result: RunResult, code?: string) {
  return result.diagnostics.filter((d) => d.severity === 'error' && (!code || d.code === code));
}

test('the wildcatter example: test, then drill unless no structure; MEU 22.5, 20 untested, EVPI 35', async () => {
  const result = await run(example('oil-wildcatter'));
  assertNoErrors(result);
  const expects = expectations(result);
  assert.ok(expects.length >= 7);
  for (const e of expects) assert.ok(e.passed, `${e.source}: ${e.actual}`);
  const [policy] = resultsOf(result, 'policy');
  assert.ok(Math.abs(policy!.meu - 22.5) < 1e-12);
  const [test1, drill] = policy!.rules;
  assert.equal(test1!.rows[0]!.choice, 'true');
  assert.deepEqual(drill!.context, ['Test', 'Seismic']);
  const tested = drill!.rows.filter((r) => r.given.Test === 'true' && r.given.Seismic !== 'none');
  assert.deepEqual(
    tested.map((r) => [r.given.Seismic, r.choice]),
    [
      ['closed', 'yes'],
      ['open', 'yes'],
      ['diffuse', 'no'],
    ],
  );
  // EU(drill | tested, closed) = (0.05·−70 + 0.09·50 + 0.1·200) / 0.24 − 10 = 21/0.24 − 10.
  assert.ok(Math.abs(tested[0]!.expectedUtility!.yes! - (21 / 0.24 - 10)) < 1e-9);
  assert.ok(Math.abs(tested[2]!.probability! - 0.41) < 1e-12);
  const [eu] = resultsOf(result, 'expectedUtility').filter((r) => r.source.startsWith('query'));
  assert.deepEqual(eu!.best, ['true']);
  assert.ok(Math.abs(eu!.expectedUtility.false! - 20) < 1e-12);
  const vois = resultsOf(result, 'valueOfInformation');
  assert.deepEqual(
    vois.map((v) => Number(v.voi.toFixed(9))),
    [35, 32.5],
  );
});

const diagram = `network W {
  variable Oil { dry, wet }
  variable Seismic { good, bad }
  decision Drill { yes, no } given Seismic, Survey
  P(Oil) { dry: 0.6, wet: 0.4 }
  P(Seismic | Oil, Drill) {
    dry, yes: [0.2, 0.8], dry, no: [0.2, 0.8]
    wet, yes: [0.7, 0.3], wet, no: [0.7, 0.3]
  }
  utility Payoff(Oil, Drill) { dry, yes: -50, wet, yes: 100 }
  decision Survey : bool
}
query policy W
query eu Oil in W
query voi Drill for Drill in W
`;

test('ill-formed diagrams get diagnostics on the exact name', async () => {
  const result = await run(diagram);
  const order = errors(result, 'information-order');
  assert.equal(order.length, 2);
  assert.match(order[1]!.message, /'Survey' is decided after 'Drill' \(decisions are taken in the order declared\)/);
  assert.match(order[0]!.message, /'Seismic' depends on this decision, so it cannot be known when deciding 'Drill'/);
  assert.deepEqual(order[0]!.range, { start: { line: 3, character: 35 }, end: { line: 3, character: 42 } });
  const missing = errors(result, 'missing-row');
  assert.match(missing[0]!.message, /no utility for Oil = dry, Drill = no; Oil = wet, Drill = no/);
  const wrong = errors(result, 'wrong-kind');
  assert.deepEqual(
    wrong.map((d) => d.message),
    ["'Oil' is not a decision", "'Drill' is a decision: the value of information is about a chance variable"],
  );
});

test('do() is refused where it is no query condition', async () => {
  const result = await run(`variable A, B : bool
P(A) = 0.3
P(B | A) { true: 0.9, false: 0.2 }
observe do(A = true)
query P(do(B = true) | A = true)
query mpe default given do(A = true)
`);
  const messages = errors(result, 'syntax-error').map((d) => d.message);
  assert.equal(messages.length, 3, messages.join('\n'));
  assert.match(messages[0]!, /cannot be an observation/);
  assert.match(messages[1]!, /cannot be what is asked/);
  assert.match(messages[2]!, /cannot be in a 'mpe' query/);
});

const smoking = `variable Gene, Smoke, Tar, Cancer : bool
P(Gene) = 0.3
P(Smoke | Gene) { true: 0.8, false: 0.3 }
P(Tar | Smoke) { true: 0.9, false: 0.1 }
P(Cancer | Tar, Gene) { true, true: 0.7, true, false: 0.3, false, true: 0.4, false, false: 0.05 }
query P(Cancer | do(Smoke = true))
query P(Cancer | do(Smoke = false))
query effect Smoke -> Cancer
query P(Cancer = true | Tar = true) given do(Smoke = false)
`;

/** P(Cancer = true | do(Smoke = s)) by the back-door adjustment over Gene, from the numbers above. */
function backDoor(s: boolean): number {
  const pTar = s ? 0.9 : 0.1;
  return [true, false].reduce((sum, g) => {
    const pg = g ? 0.3 : 0.7;
    const c = (tar: boolean) => (tar ? (g ? 0.7 : 0.3) : g ? 0.4 : 0.05);
    return sum + pg * (pTar * c(true) + (1 - pTar) * c(false));
  }, 0);
}

test('P(Y | do(X = x)) and effect X -> Y equal the back-door adjustment, and differ from observing', async () => {
  const result = await run(smoking);
  assertNoErrors(result);
  const [doTrue, doFalse, conditional] = resultsOf(result, 'probability');
  assert.ok(Math.abs(doTrue!.table[0]!.p - backDoor(true)) < 1e-12);
  assert.ok(Math.abs(doFalse!.table[0]!.p - backDoor(false)) < 1e-12);
  assert.deepEqual(doTrue!.interventions, { Smoke: 'true' });
  // Observing Smoke = true also says something about Gene: P(Cancer | Smoke = true) is larger.
  const net = networkOf(smoking);
  assert.equal(net.variables.length, 4);
  assert.ok(doTrue!.observational![0]!.p > doTrue!.table[0]!.p + 0.01);
  const [effect] = resultsOf(result, 'effect');
  assert.ok(Math.abs(effect!.averageCausalEffect! - (backDoor(true) - backDoor(false))) < 1e-12);
  assert.ok(Math.abs(effect!.interventional.true!.true! - backDoor(true)) < 1e-12);
  // Given Tar, Smoke's intervention no longer matters for Cancer except through Gene, which do() cuts.
  const pGivenTar = 0.3 * 0.7 + 0.7 * 0.3;
  assert.ok(Math.abs(conditional!.value! - pGivenTar) < 1e-12);
});

test('noisy_or expands to the leaky noisy-OR table; a cause below the leak is an error on the model', async () => {
  const result = await run(`variable Cold, Flu, Malaria, Fever : bool
P(Cold) = 0.2
P(Flu) = 0.1
P(Malaria) = 0.01
P(Fever | Cold, Flu, Malaria) = noisy_or { Cold: 0.4, Flu: 0.8, Malaria: 0.9, leak: 0.01 }
expect P(Fever = true | Cold = true, Flu = false, Malaria = false) ≈ 0.4 ± 1e-12
expect P(Fever = true | Cold = false, Flu = false, Malaria = false) ≈ 0.01 ± 1e-12
expect P(Fever = true | Cold = true, Flu = true, Malaria = false) ≈ 0.8787878787878788 ± 1e-12
`);
  // The last: 1 − 0.99 · (0.6/0.99)(0.2/0.99) = 1 − 0.12/0.99.
  assertNoErrors(result);
  const passed = expectations(result).filter((e) => e.passed);
  assert.equal(passed.length, 3);
  const bad = await run(`variable Cold, Fever : bool
P(Cold) = 0.2
P(Fever | Cold) = noisy_or { Cold: 0.005, leak: 0.01 }
query P(Fever)
P(X | Cold) = noisy_or { Flu: 0.3 }
variable X : bool
`);
  const compile = errors(bad, 'compile-error');
  assert.match(compile[0]!.message, /P\(Fever \| only Cold\) = 0.005 is below the leak 0.01/);
  assert.equal(compile[0]!.range.start.line, 2);
  assert.match(errors(bad, 'undefined-name')[0]!.message, /'Flu' is not a cause of this table \(Cold\) nor 'leak'/);
  assert.match(errors(bad, 'missing-row')[0]!.message, /no entry for the cause 'Cold'/);
});

test('noisy_max over graded states expands and runs', async () => {
  const result = await run(`variable Cause { high, low, none }
variable Pain { severe, mild, none }
P(Cause) { high: 0.2, low: 0.3, none: 0.5 }
P(Pain | Cause) = noisy_max { Cause: { high: [0.5, 0.3, 0.2], low: [0.1, 0.4, 0.5] }, leak: [0, 0.1, 0.9] }
expect P(Pain = severe | Cause = high) ≈ 0.5 ± 1e-12
expect P(Pain = mild | Cause = none) ≈ 0.1 ± 1e-12
`);
  assertNoErrors(result);
  for (const e of expectations(result)) assert.ok(e.passed, `${e.source}: ${e.actual}`);
});

test('BIF export writes the expanded noisy-OR table; numbers that do not fit leave it unknown', async () => {
  const { exportBif } = await import('../../../server/src/features/networkRequests.js');
  const { parseDocument } = await import('../../../server/src/language/index.js');
  const { readBif } = await import('../../../server/src/model/bif.js');
  const { noisyOrTable } = await import('../../../server/src/engine/factors/canonicalModels.js');
  const text = `network N {
  variable Cold, Flu, Fever : bool
  P(Cold) = 0.2
  P(Flu) = 0.1
  P(Fever | Cold, Flu) = noisy_or { Cold: 0.4, Flu: 0.8, leak: 0.01 }
}
network Bad {
  variable Cold, Fever : bool
  P(Cold) = 0.2
  P(Fever | Cold) = noisy_or { Cold: 0.001, leak: 0.01 }
}
`;
  const { ast } = parseDocument(text);
  const env = { allowedRoots: [], fileExists: () => false };
  const out = exportBif(ast, env, 'N');
  assert.ok('text' in out);
  const read = readBif(out.text);
  assert.ok('network' in read);
  const fever = read.network.variables.findIndex((v) => v.name === 'Fever');
  const expected = noisyOrTable([0.4, 0.8], 0.01);
  const table = read.network.cpts[fever]!.table;
  for (let i = 0; i < expected.length; i++)
    assert.ok(Math.abs(table[i]! - expected[i]!) < 1e-9, `entry ${i}: ${table[i]} vs ${expected[i]}`);
  assert.doesNotThrow(() => exportBif(ast, env, 'Bad'));
});
