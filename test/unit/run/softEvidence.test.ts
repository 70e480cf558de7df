/**
 * Soft and virtual evidence in a run: closed forms on a two-node network (worked by hand), the
 * scoping of `observe … in N`, the findings in results, and errors on the finding's range.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { close } from '../../support/close.js';
import { assertNoErrors, example, expectations, resultsOf, run } from './networkHelpers.js';
import { explainEntry } from '../../../server/src/features/resultExplain.js';

// P(A = a1) = 0.3, P(B = b1 | a1) = 0.9, P(B = b1 | a2) = 0.2; P(b1) = 0.41.
const ab = `network AB {
  variable A { a1, a2 }
  variable B { b1, b2 }
  P(A) { a1: 0.3, a2: 0.7 }
  P(B | A) { a1: { b1: 0.9, b2: 0.1 }, a2: { b1: 0.2, b2: 0.8 } }
}
`;

test('closed forms: virtual evidence 0.222 / 0.446, Jeffrey 0.7 · 0.27/0.41 + 0.3 · 0.03/0.59', async () => {
  const result = await run(`${ab}query P(A | B ~ likelihood { b1: 0.8, b2: 0.2 }) in AB
query P(A) in AB given B ~ { b1: 0.7, b2: 0.3 }
query P(B) in AB given B ~ { b1: 0.7, b2: 0.3 }
query P(A | B ~ likelihood { b1: 1 }) in AB
query P(A | B = b1) in AB`);
  assertNoErrors(result);
  const [virtual, soft, softB, onlyB1, hard] = resultsOf(result, 'probability');
  close(virtual!.table[0]!.p, 0.222 / 0.446, 1e-15);
  close(soft!.table[0]!.p, (0.7 * 0.27) / 0.41 + (0.3 * 0.03) / 0.59, 1e-12);
  close(softB!.table[0]!.p, 0.7, 1e-12);
  // A likelihood that leaves out b2 (0 there) is hard evidence B = b1.
  close(onlyB1!.table[0]!.p, hard!.table[0]!.p, 1e-15);
  assert.deepEqual(virtual!.evidence, {});
  assert.deepEqual(virtual!.findings, {
    B: { kind: 'likelihood', values: { b1: 0.8, b2: 0.2 }, likelihood: { b1: 1, b2: 0.25 } },
  });
  const lambda = soft!.findings!.B!.likelihood;
  close(lambda.b2! / lambda.b1!, 0.3 / 0.59 / (0.7 / 0.41), 1e-12);
});

test('observe … in N reaches N only; a top-level observe is the default model’s; given replaces findings', async () => {
  const result = await run(`${ab}variable C { c1, c2 }
P(C) { c1: 0.5, c2: 0.5 }
observe C = c1
observe B ~ likelihood { b1: 0.8, b2: 0.2 } in AB
query P(A) in AB
query P(A) in AB given B = b2
query P(C)
`);
  assertNoErrors(result);
  const [a, replaced, c] = resultsOf(result, 'probability');
  close(a!.table[0]!.p, 0.222 / 0.446, 1e-15);
  close(replaced!.table[0]!.p, 0.03 / 0.59, 1e-15);
  assert.equal(replaced!.findings, undefined);
  close(c!.table[0]!.p, 1, 0);
  // The network view shows the finding on B, with A's marginal under it.
  const view = resultsOf(result, 'network').find((n) => n.network === 'AB')!;
  assert.equal(view.variables.length, 2, 'the virtual-evidence node is not drawn');
  assert.equal(view.variables[1]!.finding?.kind, 'likelihood');
  close(view.variables[0]!.marginal[0]!, 0.222 / 0.446, 1e-15);
  assert.equal(view.headline, 'AB: 2 variables, 1 observed');
});

test('soft evidence impossible given the hard evidence is an error on the finding', async () => {
  const det = `network D {
  variable A { a1, a2 }
  variable B { b1, b2 }
  P(A) { a1: 0.3, a2: 0.7 }
  P(B | A) { a1: { b1: 1, b2: 0 }, a2: { b1: 0, b2: 1 } }
}
query P(A) in D given A = a1, B ~ { b1: 0.5, b2: 0.5 }
query P(A) in D given A ~ { a1: 0.2, a2: 0.8 }, B ~ { b1: 0.6, b2: 0.4 }
`;
  const result = await run(det);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 2, JSON.stringify(errors));
  assert.match(errors[0]!.message, /soft evidence gives 'B = b2' probability 0.5, but the other evidence makes it/);
  assert.deepEqual(errors[0]!.range.start, { line: 6, character: det.split('\n')[6]!.indexOf('~') });
  assert.match(errors[1]!.message, /cannot all hold/);
});

test('the soft_evidence example: every expect line holds', async () => {
  const result = await run(example('soft_evidence'));
  assertNoErrors(result);
  const all = expectations(result);
  assert.equal(all.length, 6);
  assert.ok(
    all.every((e) => e.passed),
    JSON.stringify(all.filter((e) => !e.passed)),
  );
});

test('samplers answer with virtual evidence, within their standard error of the exact answer', async () => {
  const query = 'query P(A | B ~ likelihood { b1: 0.8, b2: 0.2 }) in AB using';
  const result = await run(`${ab}${query} likelihood_weighting { samples: 40000, seed: 3 }
${query} gibbs { samples: 40000, seed: 3 }`);
  assertNoErrors(result);
  for (const r of resultsOf(result, 'probability')) {
    const row = r.table[0]!;
    assert.ok(Math.abs(row.p - 0.222 / 0.446) < 4 * row.stderr!, `${r.method}: ${row.p} ± ${row.stderr}`);
  }
});

test('the hover explains the update with its numbers, without internal keys', async () => {
  const result = await run(`${ab}query P(A) in AB given B ~ { b1: 0.7, b2: 0.3 }
query P(A | B ~ likelihood { b1: 0.8, b2: 0.2 }) in AB`);
  const [soft, virtual] = resultsOf(result, 'probability').map((r) => explainEntry(r));
  // λ ∝ q(b) / P(b) = (0.7 / 0.41, 0.3 / 0.59) = (1, 0.2978).
  assert.match(soft!, /B ~ \{ b1: 0\.7, b2: 0\.3 \}: soft evidence \(Jeffrey's rule\)/);
  assert.match(soft!, /λ = q\(x\) \/ P\(x \| e\) ∝ \{ b1: 1, b2: 0\.2978 \}/);
  assert.match(virtual!, /B ~ likelihood \{ b1: 0\.8, b2: 0\.2 \}: virtual evidence \(Pearl\)/);
  assert.match(virtual!, /λ ∝ \{ b1: 1, b2: 0\.25 \}/);
  for (const text of [soft!, virtual!]) assert.doesNotMatch(text, /findings\./);
});

test('an observe line whose soft findings cannot hold is an error there, once, even without a query', async () => {
  const model = `network D {
  variable A { a1, a2 }
  variable B { b1, b2 }
  P(A) { a1: 0.3, a2: 0.7 }
  P(B | A) { a1: { b1: 1, b2: 0 }, a2: { b1: 0, b2: 1 } }
  observe A = a1, B ~ { b1: 0.5, b2: 0.5 }
}
`;
  for (const text of [model, `${model}query P(A) in D\n`]) {
    const errors = (await run(text)).diagnostics.filter((d) => d.severity === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0]!.message, /makes it impossible/);
    assert.equal(errors[0]!.range.start.line, 5);
  }
});

test('sensitivity takes virtual evidence (its node is no parameter) and refuses soft evidence on the finding', async () => {
  const text = `${ab}query sensitivity P(A = a1 | B ~ likelihood { b1: 0.8, b2: 0.2 }) in AB
query sensitivity P(A = a1 | B ~ { b1: 0.7, b2: 0.3 }) in AB
`;
  const result = await run(text);
  const [virtual] = resultsOf(result, 'sensitivity');
  close(virtual!.value, 0.222 / 0.446, 1e-12);
  assert.ok(virtual!.parameters.length > 0);
  assert.ok(
    virtual!.parameters.every((p) => p.variable === 'A' || p.variable === 'B'),
    JSON.stringify(virtual!.parameters),
  );
  // ∂P(a1 | λ)/∂θ for θ = P(a1) = 0.3: P(a1 | λ) = θ·0.74 / (θ·0.74 + (1 − θ)·0.32), derivative 0.74·0.32 / 0.446².
  const prior = virtual!.parameters.find((p) => p.variable === 'A' && p.state === 'a1')!;
  close(prior.derivative, (0.74 * 0.32) / 0.446 ** 2, 1e-9);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.message, /sensitivity takes virtual evidence/);
  const line = text.split('\n')[7]!;
  assert.deepEqual(errors[0]!.range.start, { line: 7, character: line.indexOf('~') });
});

test('the default model takes findings too; the headline names them', async () => {
  const cancer = `variable Test { pos, neg }
hypotheses Diagnosis { cancer: 0.008, healthy: 0.992 }
P(Test | Diagnosis) {
  cancer:  { pos: 98%,  neg: 2% }
  healthy: { pos: 0.03, neg: 0.97 }
}
`;
  const result = await run(`${cancer}query P(Diagnosis = cancer | Test ~ { pos: 0.5, neg: 0.5 })
query posterior Diagnosis given Test ~ { pos: 0.5, neg: 0.5 }`);
  const [p] = resultsOf(result, 'probability');
  // Jeffrey: 0.5 · 0.00784 / 0.0376 + 0.5 · 0.00016 / 0.9624.
  close(p!.value, (0.5 * 0.00784) / 0.0376 + (0.5 * 0.00016) / 0.9624, 1e-12);
  assert.equal(p!.headline, 'P(cancer | Test ~ …) = 0.1043');
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1);
  assert.match(errors[0]!.message, /for belief-network queries/);
});

test('observe lines of a network, inside it and `in` it, apply in source order', async () => {
  const inside = (line: string) => ab.replace('  P(A) {', `  ${line}\n  P(A) {`);
  // The inside line comes first: the later `in AB` finding replaces B = b2.
  const first = await run(
    `${inside('observe B = b2')}observe B ~ likelihood { b1: 0.8, b2: 0.2 } in AB\nquery P(A) in AB\n`,
  );
  close(resultsOf(first, 'probability')[0]!.table[0]!.p, 0.222 / 0.446, 1e-15);
  // A later inside line (the network declared after the top-level line) replaces the finding.
  const networkLast = `observe B ~ likelihood { b1: 0.8, b2: 0.2 } in AB\n${inside('observe B = b2')}query P(A) in AB\n`;
  close(resultsOf(await run(networkLast), 'probability')[0]!.table[0]!.p, 0.03 / 0.59, 1e-15);
});
