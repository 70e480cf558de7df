/**
 * Two hypothesis spaces in one file, each with its own top-level observe (issue 27 item 5): an
 * observation is evidence for the spaces whose tables mention its variable, so each space is
 * scored on its own data; a space declared inside a network is a clear error on its name.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run } from './networkHelpers.js';

const TWO = `variable Defect { yes, no }
variable Defect2 { yes, no }
hypotheses Machine { m1: 0.5, m2: 0.5 }
P(Defect | Machine) { m1: [0.1, 0.9], m2: [0.4, 0.6] }
hypotheses Supplier { s1: 0.7 bits 1, s2: 0.3 bits 2 }
P(Defect2 | Supplier) { s1: [0.2, 0.8], s2: [0.5, 0.5] }
observe Defect = [yes, no, yes]
observe Defect2 = [no, no]
`;

test('each space reads the observations its tables mention', async () => {
  // Machine, D = yes, no, yes: m1 0.5·0.1·0.9·0.1 = 0.0045, m2 0.5·0.4·0.6·0.4 = 0.048.
  // Supplier by MDL, D = no, no: s1 1 + −log2(0.8²) = 1.644 bits, s2 2 + −log2(0.5²) = 4 bits.
  const result = await run(`${TWO}expect posterior Machine ≈ ${0.048 / 0.0525} ± 1e-9
expect map Machine = m2
expect mdl Supplier = s1
`);
  assert.deepEqual(
    result.diagnostics.filter((d) => d.severity === 'error').map((d) => d.message),
    [],
  );
  const expects = result.results.filter((r) => r.kind === 'expect');
  assert.equal(expects.length, 3);
  assert.deepEqual(
    expects.map((e) => e.kind === 'expect' && e.passed),
    [true, true, true],
  );
});

test('a hypothesis space inside a network: an error on its name saying where to declare it', async () => {
  const result = await run(`network Plant {
  variable Defect { yes, no }
  hypotheses Machine { m1: 0.5, m2: 0.5 }
  P(Defect | Machine) { m1: [0.1, 0.9], m2: [0.4, 0.6] }
}
query map Machine
`);
  const errors = result.diagnostics.filter((d) => d.severity === 'error');
  assert.equal(errors.length, 1, JSON.stringify(errors));
  assert.match(
    errors[0]!.message,
    /'Machine' is declared inside network 'Plant'.*declare the space and its tables at the top level/,
  );
  assert.equal(errors[0]!.range.start.line, 2);
});
