import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkText } from '../../../server/src/run/pipeline.js';
import { nodeEnvironment } from '../../../server/src/workspace/files.js';
import { compileNetwork, CompileError } from '../../../server/src/model/compileNetwork.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { repoRoot } from '../../support/shared.js';
import { close } from '../../support/close.js';

function compile(text: string, scope?: string): BayesianNetwork {
  const env = nodeEnvironment({ documentPath: join(repoRoot, 'examples', 'inline.bayes'), workspaceRoot: repoRoot });
  const checked = checkText(text, env);
  assert.deepEqual(
    checked.diagnostics.filter((d) => d.severity === 'error'),
    [],
  );
  return compileNetwork(checked.parse.ast, checked.symbols, env, scope);
}

function table(net: BayesianNetwork, name: string): number[] {
  return Array.from(net.cpts[net.variables.findIndex((v) => v.name === name)]!.table);
}

test('the cancer model: a hypothesis space is a root variable, its likelihood a CPT', () => {
  const net = compile(readFileSync(join(repoRoot, 'examples', 'cancer.bayes'), 'utf8'));
  assert.deepEqual(net.variables.map((v) => v.name).sort(), ['Diagnosis', 'Test']);
  assert.deepEqual(table(net, 'Diagnosis'), [0.008, 0.992]);
  assert.deepEqual(table(net, 'Test'), [0.98, 0.02, 0.03, 0.97]);
  const test = net.variables.findIndex((v) => v.name === 'Test');
  assert.deepEqual(
    net.cpts[test]!.parents.map((p) => net.variables[p]!.name),
    ['Diagnosis'],
  );
  net.cpts.forEach((c, i) => assert.equal(c.child, i));
});

test('Forest: bool shorthand, single-value rows are P(true), parents come first', () => {
  const net = compile(readFileSync(join(repoRoot, 'examples', 'forest.bayes'), 'utf8'), 'Forest');
  assert.deepEqual(table(net, 'Storm'), [0.3, 0.7]);
  // The complement of a single probability is computed: 1 − 0.7 is 0.30000000000000004 in binary.
  table(net, 'Lightning').forEach((p, i) => close(p, [0.7, 0.3, 0.05, 0.95][i]!, 1e-15));
  // Campfire | Storm, BusTourGroup: rows (t,t), (t,f), (f,t), (f,f).
  assert.deepEqual(
    table(net, 'Campfire').filter((_, i) => i % 2 === 0),
    [0.4, 0.1, 0.8, 0.2],
  );
  const position = new Map(net.variables.map((v, i) => [v.name, i]));
  for (const cpt of net.cpts) for (const p of cpt.parents) assert.ok(p < cpt.child, 'parents precede children');
  assert.equal(position.size, 6);
});

test('list rows, map rows and uniform priors', () => {
  const net = compile(`variable C { a, b, c }
hypotheses H { h1, h2 } prior uniform
P(C | H) {
  h1: [0.2, 0.3, 0.5]
  h2: { c: 0.1, a: 0.6, b: 0.3 }
}`);
  assert.deepEqual(table(net, 'H'), [0.5, 0.5]);
  assert.deepEqual(table(net, 'C'), [0.2, 0.3, 0.5, 0.6, 0.3, 0.1]);
});

test('a parent without a table is a compile error naming it', () => {
  const env = nodeEnvironment({ workspaceRoot: repoRoot });
  const checked = checkText('variable A, B : bool\nP(B | A) { true: 0.5, false: 0.1 }\n', env);
  assert.throws(
    () => compileNetwork(checked.parse.ast, checked.symbols, env),
    (e: unknown) => e instanceof CompileError && /'A' has no table/.test(e.message) && e.range?.start.line === 1,
  );
});

test('a network keeps the order its variables are declared in, whatever the order of its tables', () => {
  // Compiled parents first, B (declared first) came after its parent A: .bayes → .bayes reordered the
  // declarations and .bayes → UAI numbered the variables otherwise than the BIF the .bayes came from.
  const net = compile(
    'network N {\n  variable B { b1, b2 }\n  variable C { c1, c2 }\n  variable A { a1, a2, a3 }\n' +
      '  P(B | A, C) {\n    a1, c1: [0.1, 0.9]\n    a1, c2: [0.2, 0.8]\n    a2, c1: [0.3, 0.7]\n' +
      '    a2, c2: [0.4, 0.6]\n    a3, c1: [0.5, 0.5]\n    a3, c2: [0.6, 0.4]\n  }\n' +
      '  P(C) { c1: 0.25, c2: 0.75 }\n  P(A) { a1: 0.2, a2: 0.3, a3: 0.5 }\n}\n',
    'N',
  );
  assert.deepEqual(
    net.variables.map((v) => v.name),
    ['B', 'C', 'A'],
  );
  assert.deepEqual(
    net.cpts.map((c) => [c.child, c.parents]),
    [
      [0, [2, 1]],
      [1, []],
      [2, []],
    ],
  );
  assert.deepEqual(table(net, 'B'), [0.1, 0.9, 0.2, 0.8, 0.3, 0.7, 0.4, 0.6, 0.5, 0.5, 0.6, 0.4]);
  assert.deepEqual(table(net, 'A'), [0.2, 0.3, 0.5]);
});
