import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { forwardSample } from '../../../server/src/engine/sampling/forwardSampling.js';
import { createRng } from '../../../server/src/engine/random.js';
import { pcStable } from '../../../server/src/engine/structure/pcStable.js';
import type { BayesianNetwork } from '../../../server/src/engine/network.js';
import { readDiscreteFile } from '../../../server/src/model/dataTable.js';
import { arcStrengths, bootstrapCounts, strengthThreshold } from '../../../server/src/engine/structure/bootstrap.js';
import { searchStructure } from '../../../server/src/engine/structure/search.js';
import { crossValidate } from '../../../server/src/engine/structure/crossValidation.js';
import { entries, problems, run } from './learningHelpers.js';
import { commandLineFiles } from '../../../server/src/workspace/files.js';

/** A → C ← B, C → D, written as days.csv in a fresh directory. */
function colliderDir(rows = 4000, seed = 7): string {
  const bin = (name: string) => ({ name, states: ['lo', 'hi'] });
  const net: BayesianNetwork = {
    name: 'collider',
    variables: ['A', 'B', 'C', 'D'].map(bin),
    cpts: [
      { child: 0, parents: [], table: Float64Array.from([0.5, 0.5]) },
      { child: 1, parents: [], table: Float64Array.from([0.4, 0.6]) },
      { child: 2, parents: [0, 1], table: Float64Array.from([0.9, 0.1, 0.3, 0.7, 0.2, 0.8, 0.05, 0.95]) },
      { child: 3, parents: [2], table: Float64Array.from([0.85, 0.15, 0.2, 0.8]) },
    ],
  };
  const sample = forwardSample(net, rows, createRng(seed));
  const dir = mkdtempSync(join(tmpdir(), 'bayes-pc-'));
  const lines = Array.from({ length: sample.rowCount }, (_, r) =>
    sample.columns.map((c, v) => net.variables[v]!.states[c[r]!]).join(','),
  );
  writeFileSync(join(dir, 'days.csv'), 'A,B,C,D\n' + lines.join('\n') + '\n');
  return dir;
}

test('learn structure by pc: the CPDAG, its tests as the engine counts them, a network for queries', async () => {
  const dir = colliderDir();
  const model =
    'data Days from "days.csv"\nlearn structure S from Days by pc { alpha: 0.01, test: x2 }\n' +
    'expect P(D = hi | C = hi) in S > 0.5\n';
  const result = await run(model, { dir });
  assert.deepEqual(problems(result), []);
  const [s] = entries(result, 'structure');
  assert.equal(s!.method, 'pc');
  assert.deepEqual(s!.arcs, [
    ['A', 'C'],
    ['B', 'C'],
    ['C', 'D'],
  ]);
  assert.deepEqual(s!.edges, []);
  const direct = pcStable(await readDiscreteFile(commandLineFiles(), join(dir, 'days.csv')), {
    alpha: 0.01,
    test: 'x2',
  });
  assert.equal(s!.tests, direct.tests);
  assert.match(s!.headline!, /S · 3 arcs, 0 undirected edges · \d+ tests/);
  assert.deepEqual(
    entries(result, 'expect').map((e) => e.passed),
    [true],
  );
});

test('background knowledge in the language: require, forbid and tiers for pc and hill climbing', async () => {
  const dir = colliderDir();
  const model = `data Days from "days.csv"
learn structure P from Days by pc { alpha: 0.01, forbid: [C -> D, D -> C], require: [A -> D] }
learn structure H from Days by hillclimb { tiers: [[D], [A, B, C]] }
learn structure K from Days by k2 { order: [A, B, C, D], require: [A -> D], forbid: [B -> C] }
`;
  const result = await run(model, { dir });
  assert.deepEqual(problems(result), []);
  const [p, h, k] = entries(result, 'structure');
  const has = (arcs: Array<[string, string]>, f: string, t: string) => arcs.some(([a, b]) => a === f && b === t);
  assert.ok(!has(p!.arcs, 'C', 'D') && !has(p!.arcs, 'D', 'C'));
  assert.ok(!p!.edges!.some((e) => e.includes('C') && e.includes('D')));
  assert.ok(has(p!.arcs, 'A', 'D'));
  assert.ok(
    h!.arcs.every(([, t]) => t !== 'D'),
    JSON.stringify(h!.arcs),
  );
  assert.ok(has(k!.arcs, 'A', 'D') && !has(k!.arcs, 'B', 'C'));
});

test('bad background knowledge and PC options: diagnostics on the exact range', async () => {
  const dir = colliderDir(200);
  const model = `data Days from "days.csv"
learn structure S1 from Days by pc { alpha: 1.5 }
learn structure S2 from Days by pc { require: [A -> Nope] }
learn structure S3 from Days by pc { require: [A -> B], forbid: [A -> B] }
learn structure S4 from Days by hillclimb { require: [A, B] }
learn structure S5 from Days by k2 { order: [A, B, C, D], require: [D -> A] }
learn structure S6 from Days by pc { test: fisher }
learn structure S7 from Days by pc { alpha: 0.01, tabu: 3 }
`;
  const result = await run(model, { dir });
  const errors = problems(result);
  const byLine = new Map(errors.map(([code, line, message]) => [line, `${code}: ${message}`]));
  assert.match(byLine.get(2)!, /alpha: must be below 1, not 1.5/);
  assert.match(byLine.get(3)!, /Nope/);
  assert.match(byLine.get(4)!, /A -> B is both required and forbidden/);
  assert.match(byLine.get(5)!, /require: must be a list of arcs, e.g. \[A -> B, C -> D\]/);
  assert.match(byLine.get(6)!, /K2's order puts D after A, but D -> A is required/);
  assert.match(byLine.get(7)!, /test: must be one of g2, x2/);
  assert.ok(!byLine.has(8));
  const warnings = problems(result, 'warning');
  const tabu = /'tabu' does not apply to structure learning by pc/;
  assert.ok(warnings.some(([code, line, message]) => code === 'unknown-option' && line === 8 && tabu.test(message)));
  // The `require: [A -> Nope]` error is on `Nope` itself.
  const nope = result.diagnostics.find((d) => d.range.start.line === 2 && d.severity === 'error')!;
  assert.equal(model.split('\n')[2]!.slice(nope.range.start.character, nope.range.end.character), 'Nope');
});

test("query strength: the engine's bootstrap strengths, the averaged network as N for later queries", async () => {
  const dir = colliderDir(1500, 3);
  const model = `data Days from "days.csv"
query strength Avg from Days { replicates: 15, seed: 4, method: pc, alpha: 0.01 }
expect P(D = hi | C = hi) in Avg > 0.5
expect strength Again from Days { replicates: 15, seed: 4, method: pc, alpha: 0.01 } = 3
query strength Climbed from Days { replicates: 6, method: hillclimb, tiers: [[A, B], [C], [D]], tabu: 4 }
`;
  const result = await run(model, { dir });
  assert.deepEqual(problems(result), []);
  const [avg, climbed] = entries(result, 'structure'); // an expect line gives only its comparison
  const data = await readDiscreteFile(commandLineFiles(), join(dir, 'days.csv'));
  const spec = { method: 'pc' as const, score: 'bic' as const, alpha: 0.01 };
  const { counts } = bootstrapCounts(data, (d) => searchStructure(d, spec).cpdag, { replicates: 15, seed: 4 });
  const direct = arcStrengths(counts).filter((s) => s.strength > 0);
  assert.deepEqual(
    avg!.strength!.map((s) => [s.from, s.to, s.strength, s.direction]),
    direct.map((s) => [data.attributes[s.from]!.name, data.attributes[s.to]!.name, s.strength, s.direction]),
  );
  assert.equal(avg!.threshold, strengthThreshold(arcStrengths(counts).map((s) => s.strength)));
  assert.deepEqual(avg!.arcs, [
    ['A', 'C'],
    ['B', 'C'],
    ['C', 'D'],
  ]);
  assert.deepEqual(
    entries(result, 'expect').map((e) => e.passed),
    [true, true],
  );
  assert.equal(climbed!.replicates, 6);
  assert.ok(
    climbed!.arcs.every(([f, t]) => !(t === 'A' || t === 'B') && !(f === 'D')),
    JSON.stringify(climbed!.arcs),
  );
  const warnings = problems(result, 'warning');
  assert.deepEqual(
    warnings.map(([code, line]) => [code, line]),
    [['unknown-option', 5]],
  );
  assert.match(warnings[0]![2], /'tabu' does not apply to bootstrap arc strength by hillclimb/);
});

test("query evaluate N on D folds k: the engine's cross-validation, fixed and searched structures", async () => {
  const dir = colliderDir(800, 5);
  const model = `data Days from "days.csv"
network Guess {
  variable A { lo, hi }
  variable B { lo, hi }
  variable C { lo, hi }
  variable D { lo, hi }
  P(A) { lo: 0.5, hi: 0.5 }
  P(B | A) { lo: { lo: 0.5, hi: 0.5 }, hi: { lo: 0.5, hi: 0.5 } }
  P(C) { lo: 0.5, hi: 0.5 }
  P(D | C) { lo: { lo: 0.5, hi: 0.5 }, hi: { lo: 0.5, hi: 0.5 } }
}
query evaluate Guess on Days folds 5 { seed: 3 }
learn structure S from Days by pc { alpha: 0.01 }
expect evaluate S on Days folds 4 { target: C } < 0.5
query evaluate S on Days folds 4
query evaluate S on Days folds 4 { target: Nope }
query evaluate S on Days folds 1
`;
  const result = await run(model, { dir });
  const errors = problems(result);
  const where = errors.map(([code, line]) => [code, line]);
  assert.deepEqual(
    where,
    [
      ['compile-error', 16],
      ['bad-number', 17],
    ],
    JSON.stringify(errors),
  );
  assert.match(errors[0]![2], /target: 'Nope' is not a variable of S/);
  const [guess, s] = entries(result, 'networkEvaluation');
  const data = await readDiscreteFile(commandLineFiles(), join(dir, 'days.csv'));
  const prior = { kind: 'bdeu' as const, ess: 1 };
  const fixed = crossValidate(data, () => [[], [0], [], [2]], { folds: 5, seed: 3, prior });
  assert.equal(guess!.logLoss, fixed.logLoss);
  assert.deepEqual(guess!.foldLogLoss, fixed.foldLogLoss);
  const pc = (d: typeof data) => searchStructure(d, { method: 'pc', score: 'bic', alpha: 0.01 }).parents;
  const searched = crossValidate(data, pc, { folds: 4, seed: 1, prior });
  assert.equal(s!.logLoss, searched.logLoss);
  assert.ok(s!.logLoss < guess!.logLoss);
  assert.deepEqual(
    entries(result, 'expect').map((e) => e.passed),
    [true],
  );
});
