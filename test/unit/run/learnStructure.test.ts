import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardSample } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import { k2 } from '../../../server/src/engine/structure/k2.js';
import { hillClimb } from '../../../server/src/engine/structure/hillClimb.js';
import { networkFromStructure } from '../../../server/src/engine/estimators/cptLearning.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { readDiscreteFile } from '../../../server/src/model/dataTable.js';
import { cptsToJson } from '../../../server/src/run/learningResults.js';
import { entries, problems, run } from './learningHelpers.js';
import { commandLineFiles } from '../../../server/src/workspace/files.js';

const twins = `data D {
  A, B
  t, t
  t, t
  f, f
  f, f
}
`;

test('K2 on two copies of one variable: the arc A → B and the Cooper–Herskovits score worked out by hand', async () => {
  const result = await run(twins + 'learn structure S from D by k2 { order: [A, B] }\n');
  assert.deepEqual(problems(result), []);
  const [s] = entries(result, 'structure');
  assert.deepEqual(s!.arcs, [['A', 'B']]);
  // P(A-column) = 1!·2!·2!/5! = 1/30; P(B-column | A) = (1!·2!/3!)² = 1/9: ln(1/270).
  assert.ok(Math.abs(s!.score - Math.log(1 / 270)) < 1e-12, String(s!.score));
  assert.equal(s!.scoreName, 'k2');
  assert.deepEqual(
    s!.cpts!.B!.rows.map((r) => [r.given.A, r.distribution.t]),
    [
      ['t', 1],
      ['f', 0],
    ],
  );
  assert.equal(s!.headline, `S · 1 arc · k2 score ${Math.log(1 / 270).toFixed(4)}`);
});

test('the learnt structure is a network for later queries (its tables counted), not before', async () => {
  const text =
    twins +
    [
      'query P(B) in S',
      'learn structure S from D by k2 { order: [A, B] }',
      'expect P(B = t | A = t) in S ≈ 1 ± 1e-12',
      'expect P(A = t | B = f) in S ≈ 0 ± 1e-12',
    ].join('\n');
  const result = await run(text);
  assert.deepEqual(
    problems(result).map(([code, line]) => [code, line]),
    [['compile-error', 8]],
  );
  assert.deepEqual(
    entries(result, 'expect').map((e) => e.passed),
    [true, true],
  );
});

test('hill climbing with BIC: one arc, score −7 ln 2 by hand', async () => {
  const [s] = entries(await run(twins + 'learn structure S from D by hillclimb\n'), 'structure');
  assert.equal(s!.method, 'hillclimb');
  assert.equal(s!.arcs.length, 1);
  // log-likelihood 4 ln ½ (the parent) + 0 (the copy), penalty ½ ln 4 · (1 + 2) parameters.
  assert.ok(Math.abs(s!.score + 7 * Math.LN2) < 1e-12, String(s!.score));
});

test('sampled sprinkler data: the same arcs, score and counted CPTs as the engines called directly', async () => {
  const net: BayesianNetwork = {
    name: 'truth',
    variables: [
      { name: 'Rain', states: ['yes', 'no'] },
      { name: 'Sprinkler', states: ['on', 'off'] },
      { name: 'Wet', states: ['wet', 'dry'] },
    ],
    cpts: [
      { child: 0, parents: [], table: Float64Array.from([0.3, 0.7]) },
      { child: 1, parents: [], table: Float64Array.from([0.4, 0.6]) },
      { child: 2, parents: [0, 1], table: Float64Array.from([0.99, 0.01, 0.9, 0.1, 0.8, 0.2, 0.05, 0.95]) },
    ],
  };
  const sample = forwardSample(net, 3000, createRng(3));
  const dir = mkdtempSync(join(tmpdir(), 'bayes-structure-'));
  const rows = Array.from({ length: sample.rowCount }, (_, r) =>
    sample.columns.map((c, v) => net.variables[v]!.states[c[r]!]).join(','),
  );
  writeFileSync(join(dir, 'days.csv'), 'Rain,Sprinkler,Wet\n' + rows.join('\n') + '\n');
  const data = await readDiscreteFile(commandLineFiles(), join(dir, 'days.csv'));
  const model =
    'data Days from "days.csv"\nlearn structure K from Days by k2 { order: [Rain, Sprinkler, Wet], max_parents: 2 }\nlearn structure H from Days by hillclimb { score: bdeu }\n' +
    'learn structure T from Days by tabu { tabu: 5, patience: 4, restarts: 2, perturb: 1, seed: 9 }\n';
  const result = await run(model, { dir });
  assert.deepEqual(problems(result), []);
  const [byK2, byHill, byTabu] = entries(result, 'structure');
  const direct = k2(data, { order: [0, 1, 2], maxParents: 2 });
  assert.deepEqual(byK2!.arcs.sort(), [
    ['Rain', 'Wet'],
    ['Sprinkler', 'Wet'],
  ]);
  assert.equal(byK2!.score, direct.score);
  assert.deepEqual(byK2!.cpts, cptsToJson(networkFromStructure('K', data, direct.parents)));
  const climbed = hillClimb(data, { score: 'bdeu' });
  assert.equal(byHill!.scoreName, 'bdeu');
  assert.equal(byHill!.score, climbed.score);
  assert.equal(byHill!.arcs.length, climbed.parents.flat().length);
  const tabu = hillClimb(data, { score: 'bic', tabu: 5, patience: 4, restarts: 2, perturb: 1, seed: 9 });
  assert.equal(byTabu!.method, 'tabu');
  assert.equal(byTabu!.score, tabu.score);
  assert.ok(tabu.score >= hillClimb(data, { score: 'bic' }).score);
  assert.equal(byTabu!.arcs.length, tabu.parents.flat().length);
});

test('bad structure learning: clear diagnostics on the right line', async () => {
  const text =
    twins +
    `learn structure S1 from D by k2 { order: [A] }
learn structure S2 from D by k2 { score: aic }
learn structure S3 from D by hillclimb { order: [A, B] }
learn structure S4 from D by em
learn structure S5 from D by hillclimb { tabu: 3, restarts: 2 }
learn structure S6 from D by tabu { tabu: 0 }
`;
  const result = await run(text);
  assert.deepEqual(
    problems(result).map(([code, line]) => [code, line]),
    [
      ['compile-error', 8],
      ['compile-error', 9],
      ['unknown-option', 11],
      ['compile-error', 13],
    ],
  );
  const m = problems(result).map(([, , message]) => message);
  assert.match(m[0]!, /order must list every column of 'D' once; missing: B/);
  assert.match(m[1]!, /score: must be one of k2, bdeu, bic/);
  assert.match(m[2]!, /structures are learnt by pc, k2, hillclimb or tabu/);
  assert.match(m[3]!, /tabu: must be an integer ≥ 1, not 0/);
  const warnings = problems(result, 'warning');
  assert.deepEqual(
    warnings.map(([code, line]) => [code, line]),
    [
      ['unknown-option', 10],
      ['unknown-option', 12],
    ],
  );
  assert.match(warnings[1]![2]!, /'tabu' does not apply to structure learning by hillclimb/);
  assert.equal(entries(result, 'structure').length, 2);
});

test('a learnt structure learns its tables again from another data set, columns and states matched by name', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'bayes-relearn-'));
  writeFileSync(join(dir, 'train.csv'), 'A,B\nx,u\nx,u\ny,v\ny,u\n');
  // Columns in the other order, values first appearing in another order; then a value A never had.
  writeFileSync(join(dir, 'test.csv'), 'B,A\nv,y\nu,x\nv,x\nv,y\nv,y\n');
  writeFileSync(join(dir, 'bad.csv'), 'B,A\nv,z\n');
  const result = await run(
    `data Train from "train.csv"
data Test from "test.csv"
data Bad from "bad.csv"
learn structure S from Train by k2 { order: [A, B] }
learn S from Test
query P(A = y) in S
learn S from Bad
`,
    { dir },
  );
  const learnt = entries(result, 'learnedNetwork').at(-1)!;
  assert.equal(learnt.records, 5);
  // P(A = y) counted from Test by name: 3 of 5.
  assert.equal(entries(result, 'probability').at(-1)!.value, 3 / 5);
  assert.deepEqual(
    problems(result).map(([code, line]) => [code, line]),
    [['compile-error', 7]],
  );
  assert.match(problems(result)[0]![2], /'Bad': column A has values that are not its states \(x, y\): z/);
});
