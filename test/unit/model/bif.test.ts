import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readBif, writeBif } from '../../../server/src/model/bif.js';
import { topologicalOrder, type BayesianNetwork } from '../../../server/src/engine/network.js';
import { sharedFile, NO_SHARED } from '../../support/shared.js';
import { budgetsFor } from '../../../server/src/engine/budget.js';

function read(text: string): BayesianNetwork {
  const r = readBif(text);
  if ('error' in r) assert.fail(`line ${r.error.line}: ${r.error.message}`);
  return r.network;
}

function assertRowsSumToOne(net: BayesianNetwork, file: string): void {
  for (const cpt of net.cpts) {
    const k = net.variables[cpt.child]!.states.length;
    for (let r = 0; r < cpt.table.length; r += k) {
      let s = 0;
      for (let x = 0; x < k; x++) s += cpt.table[r + x]!;
      assert.ok(Math.abs(s - 1) < 1e-3, `${file}: ${net.variables[cpt.child]!.name} row ${r / k} sums to ${s}`);
    }
  }
}

test('every bnlearn network in ../shared/data/bif reads, is a DAG, and round-trips through BIF', (t) => {
  const dir = sharedFile('bif');
  if (!dir) return t.skip(NO_SHARED);
  const expectedNodes: Record<string, number> = {
    asia: 8,
    alarm: 37,
    child: 20,
    hailfinder: 56,
    munin: 1041,
    andes: 223,
    pathfinder: 109,
  };
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.bif'))) {
    const net = read(readFileSync(join(dir, file), 'utf8'));
    const name = file.replace(/\.bif$/, '');
    if (expectedNodes[name]) assert.equal(net.variables.length, expectedNodes[name], file);
    assert.ok('order' in topologicalOrder(net), `${file} is acyclic`);
    assertRowsSumToOne(net, file);
    const again = read(writeBif(net));
    assert.deepEqual(again.variables, net.variables, file);
    net.cpts.forEach((c, i) => {
      assert.deepEqual(again.cpts[i]!.parents, c.parents);
      assert.deepEqual(Array.from(again.cpts[i]!.table), Array.from(c.table), `${file}: ${net.variables[i]!.name}`);
    });
  }
});

test('state names that are not identifiers survive (child: 0-3_days, 12+)', (t) => {
  const f = sharedFile('bif', 'child.bif');
  if (!f) return t.skip(NO_SHARED);
  const net = read(readFileSync(f, 'utf8'));
  const states = net.variables.flatMap((v) => v.states);
  assert.ok(states.includes('0-3_days'));
  assert.ok(states.includes('12+'));
  assert.ok(
    read(writeBif(net))
      .variables.flatMap((v) => v.states)
      .includes('12+'),
  );
});

test('JavaBayes form: quoted names, header without |, flat table with the child slowest, -1 unknown', () => {
  const net = read(`// comment
network "Alarm" { //2 variables
}
variable  "LVFailure" { //2 values
	type discrete[2] {  "True"  "False" };
	property "position = (145, 36)" ;
}
variable  "Hypovolemia" {
	type discrete[2] {  "True"  "False" };
}
variable  "StrokeVolume" {
	type discrete[3] {  "Low"  "Normal"  "High" };
}
probability (  "Hypovolemia" ) { table 0.2 0.8 ; }
probability (  "LVFailure" ) { table -1 -1 ; }
probability (  "StrokeVolume"  "LVFailure"  "Hypovolemia" ) { //3 variable(s) and 12 values
	table 0.98 0.5 0.95 0.05 0.01 0.49 0.04 0.9 0.01 0.01 0.01 0.05 ;
}`);
  assert.equal(net.name, 'Alarm');
  const sv = net.cpts[2]!;
  assert.deepEqual(sv.parents, [0, 1]);
  // Row (LVFailure=True, Hypovolemia=True) = (0.98, 0.01, 0.01); row (False, False) = (0.05, 0.9, 0.05).
  assert.deepEqual(Array.from(sv.table.subarray(0, 3)), [0.98, 0.01, 0.01]);
  assert.deepEqual(Array.from(sv.table.subarray(9, 12)), [0.05, 0.9, 0.05]);
  assert.ok(Number.isNaN(net.cpts[0]!.table[0]!));
});

test('default rows fill the rows not listed', () => {
  const net = read(`network n {}
variable A { type discrete [2] { a0, a1 }; }
variable B { type discrete [2] { b0, b1 }; }
probability ( A ) { table 0.5, 0.5; }
probability ( B | A ) { (a1) 0.9, 0.1; default 0.3, 0.7; }`);
  assert.deepEqual(Array.from(net.cpts[1]!.table), [0.3, 0.7, 0.9, 0.1]);
});

test('errors name the problem and the line', () => {
  const cases: [string, RegExp, number][] = [
    ['network n {}\nvariable A { type discrete [3] { a, b }; }', /declares 3 states but lists 2/, 2],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A | Z ) { table 1, 0; }',
      /unknown variable 'Z'/,
      3,
    ],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A ) { table 1; }',
      /expected 2 probabilities, found 1/,
      3,
    ],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nvariable B { type discrete [2] { a, b }; }\nprobability ( A ) { table 1, 0; }\nprobability ( B | A ) {\n (a) 1, 0;\n}',
      /no row for \(b\)/,
      5,
    ],
    ['network n {}\nvariable A { type discrete [2] { a, b }; }', /'A' has no probability block/, 1],
    ['nonsense', /expected 'network', 'variable' or 'probability'/, 1],
    [
      'network n {}\nvariable A { type discrete [2] { a, b }; }\nprobability ( A ) { table 1, x; }',
      /expected a probability, found 'x'/,
      3,
    ],
  ];
  for (const [text, message, line] of cases) {
    const r = readBif(text);
    assert.ok('error' in r, text);
    assert.match(r.error.message, message);
    assert.equal(r.error.line, line, r.error.message);
  }
});

test('a BIF table larger than the budget is refused at its line, before it is allocated', () => {
  // 30 parents of 10 states: 2 × 10^30 entries declared in 5 KB.
  const parents = Array.from({ length: 30 }, (_, i) => `P${i}`);
  const text = [
    'network huge {}',
    ...parents.map(
      (p) => `variable ${p} { type discrete [ 10 ] { ${Array.from({ length: 10 }, (_, j) => `s${j}`).join(', ')} }; }`,
    ),
    'variable C { type discrete [ 2 ] { a, b }; }',
    ...parents.map((p) => `probability ( ${p} ) { table ${Array(10).fill('0.1').join(', ')}; }`),
    `probability ( C | ${parents.join(', ')} ) { default 0.5, 0.5; }`,
  ].join('\n');
  const before = process.memoryUsage.rss();
  const r = readBif(text);
  assert.ok('error' in r);
  assert.equal(r.error.line, 63);
  assert.match(
    r.error.message,
    /the table of 'C' needs more than 10\^308 entries|the table of 'C' needs 2\.00 × 10\^30 entries, over the budget of 16,777,216/,
  );
  assert.ok(process.memoryUsage.rss() - before < 64 * 2 ** 20);
  // Within a smaller budget, a table of 2 × 10^3 entries is refused too.
  const small = readBif(
    text.replace(/probability \( C \|[^\n]*/, 'probability ( C | P0, P1, P2 ) { default 0.5, 0.5; }'),
    {
      ...budgetsFor(1),
      maxTableEntries: 1000,
    },
  );
  assert.ok('error' in small && /needs 2,000 entries, over the budget of 1,000/.test(small.error.message));
});
